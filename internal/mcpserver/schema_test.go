package mcpserver

import (
	"encoding/json"
	"testing"
)

// fill's fields are objects the contract decodes itself (json.RawMessage):
// as a []byte their schema read as lists of integers, and a client that
// checks its input against the schema would refuse every fill.
func TestRawJSONParameterIsAnObject(t *testing.T) {
	b, err := json.Marshal(inputSchema("fill"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]struct {
			Type  string `json:"type"`
			Items struct {
				Type string `json:"type"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if f := s.Properties["fields"]; f.Type != "array" || f.Items.Type != "object" {
		t.Errorf("fill's fields: %+v, want an array of objects (%s)", f, b)
	}
}

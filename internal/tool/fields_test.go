package tool

import (
	"encoding/json"
	"testing"
)

// BenchmarkParse is the parameter check every call goes through (and the
// replay's record of each step): a fill of two fields in a workspace.
func BenchmarkParse(b *testing.B) {
	in := json.RawMessage(`{"action":"fill","tabId":12,"browserWorkspaceId":"w","fields":[{"selector":"#name","value":"Ada"},{"selector":"#size","value":"Large"}]}`)
	b.ReportAllocs()
	for range b.N {
		if _, _, err := Parse(in); err != nil {
			b.Fatal(err)
		}
	}
}

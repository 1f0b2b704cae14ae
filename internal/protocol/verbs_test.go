package protocol

import (
	"reflect"
	"strings"
	"testing"
)

// The extension's side of Verbs is generated from it (internal/verbgen,
// whose test fails when the generated files are stale), so the two cannot
// disagree on a verb or a parameter.

// TestVerbParamsAreTagged keeps every params field on the wire: a field
// without a json tag would be sent under its Go name, which no handler
// reads.
func TestVerbParamsAreTagged(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Verbs {
		if seen[v.Name] {
			t.Errorf("verb %q is listed twice", v.Name)
		}
		seen[v.Name] = true
		typ := reflect.TypeOf(v.Params)
		if typ.Kind() != reflect.Struct {
			t.Errorf("%s: params %s is not a struct", v.Name, typ)
			continue
		}
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				t.Errorf("%s: field %s.%s has no json name", v.Name, typ.Name(), f.Name)
			}
			// A command is {id, type, ...params}: a parameter of either
			// name would overwrite the command's own.
			if name == "id" || name == "type" {
				t.Errorf("%s: parameter %q is the name of a command's own field", v.Name, name)
			}
		}
	}
}

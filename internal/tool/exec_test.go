package tool

import (
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// fill's fields are checked where every parameter is (Parse): each an
// object of a locator and one thing to set; what is wrong names the field.
func TestFillFields(t *testing.T) {
	in, _, err := Parse([]byte(`{"action":"fill","fields":[{"label":"Email","value":""},{"selector":"#c","option":"FR"},{"role":"checkbox","name":"Terms","checked":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	fields, kinds, err := in.FillFields()
	if err != nil || len(fields) != 3 || strings.Join(kinds, " ") != "type select check" || *fields[0].Value != "" {
		t.Fatalf("fields %+v kinds %v: %v", fields, kinds, err)
	}
	for _, c := range []struct{ fields, want string }{
		{`[]`, "fill needs fields"},
		{`[{"label":"Email"}]`, `field 0 (label "Email") sets nothing`},
		{`[{"label":"A","value":"x"},{"label":"B","value":"x","checked":true}]`, `field 1 (label "B") gives more than one thing`},
		{`[{"value":"x"}]`, "fields[0] needs a locator"},
		{`[{"x":1,"y":2,"value":"x"}]`, "fields[0] is a point"},
		{`[{"text":"a","label":"b","value":"x"}]`, "give exactly one locator"},
		{`["Email"]`, "fields[0] is not a field"},
		{`[{"label":"A","value":"x","bogus":1}]`, "fields[0] is not a field"},
	} {
		_, _, err := Parse([]byte(`{"action":"fill","fields":` + c.fields + `}`))
		if protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), c.want) {
			t.Errorf("fields %s: %v, want invalid_argument with %q", c.fields, err, c.want)
		}
	}
	if _, _, err := Parse([]byte(`{"action":"evaluate","expression":"   "}`)); protocol.CodeOf(err) != protocol.CodeInvalidArgument {
		t.Errorf("a blank expression: %v", err)
	}
}

package actions

import (
	"strings"
	"testing"
)

// The table of which parameters go with which action names only real
// parameters and actions.
func TestParamTableIsConsistent(t *testing.T) {
	fields := map[string]bool{}
	for _, n := range paramNames {
		fields[n] = true
	}
	for p, as := range paramActions {
		if !fields[p] {
			t.Errorf("paramActions names %q, which is not a parameter", p)
		}
		for _, a := range as {
			if _, ok := handlers[a]; !ok {
				t.Errorf("parameter %q applies to unknown action %q", p, a)
			}
		}
	}
	for a, groups := range actionNeeds {
		if _, ok := handlers[a]; !ok {
			t.Errorf("actionNeeds names unknown action %q", a)
		}
		for _, g := range groups {
			for _, p := range g {
				if !fields[p] {
					t.Errorf("action %q needs %q, which is not a parameter", a, p)
				}
			}
		}
	}
}

func TestParseChecksParamsPerAction(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"action":"open","url":"http://a/","keys":"Enter"}`, `parameter "keys" does not apply to open; it is for press`},
		{`{"action":"open"}`, "open needs url"},
		{`{"action":"type","text":"Name"}`, "type needs value or clear"},
		{`{"action":"select","selector":"#s"}`, "select needs option or options"},
		{`{"action":"click"}`, "click needs a locator: selector, text, role+name, label, placeholder, ref or x+y"},
		{`{"action":"close"}`, "close needs tabId or closeWorkspace"},
		{`{"action":"status","URL":"http://a/"}`, `parameter "url" does not apply to status`},
	} {
		_, err := Parse([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s): %v, want %q", tt.in, err, tt.want)
		}
	}
	for _, ok := range []string{
		`{"action":"type","label":"Name","value":"","clear":true}`,
		`{"action":"scroll","to":"top"}`,
		`{"action":"click","text":"Go","keys":null}`,
	} {
		if _, err := Parse([]byte(ok)); err != nil {
			t.Errorf("Parse(%s): %v", ok, err)
		}
	}
}

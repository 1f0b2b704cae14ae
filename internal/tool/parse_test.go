package tool

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Every spec names only parameters Input has, and needs only parameters
// it takes.
func TestSpecsAreConsistent(t *testing.T) {
	for _, s := range Specs() {
		for _, p := range s.Params {
			if _, ok := FieldNamed(p); !ok {
				t.Errorf("%s takes %q, which is not a parameter", s.Name, p)
			}
		}
		for _, g := range s.Needs {
			for _, p := range g {
				if !s.Takes(p) {
					t.Errorf("%s needs %q but does not take it", s.Name, p)
				}
			}
		}
		if s.Summary == "" {
			t.Errorf("%s has no summary", s.Name)
		}
	}
	// Every parameter is taken by some action, and described.
	for _, f := range Fields() {
		if len(TakenBy(f.Name)) == 0 {
			t.Errorf("parameter %q is taken by no action", f.Name)
		}
		if f.Doc == "" {
			t.Errorf("parameter %q has no jsonschema description", f.Name)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want string // part of the error
	}{
		{`{"action":"status"}`, true, ""},
		{`{"action":"open","url":"https://example.com","tabId":3}`, true, ""},
		{`{"action":"click","text":"Save","nth":1}`, true, ""},
		{``, false, "JSON object"},
		{`[]`, false, "JSON object"},
		{`{}`, false, "action is required"},
		{`{"action":"fly"}`, false, `unknown action "fly"`},
		{`{"action":"open","url":7}`, false, `"url" must be a string`},
		{`{"action":"open","tabId":"3"}`, false, `"tabId" must be a whole number, not a JSON string`},
		{`{"action":"open","url":"http://a/","tabId":12.5}`, false, `"tabId" must be a whole number, not 12.5`},
		// A whole number too large to hold is out of range, not "not a
		// whole number" (QA on main); a long one is echoed cut.
		{`{"action":"status","tabId":99999999999999999999}`, false, `parameter "tabId" is out of range: 99999999999999999999 `},
		{`{"action":"status","tabId":-99999999999999999999}`, false, `parameter "tabId" is out of range`},
		{`{"action":"` + strings.Repeat("x", 3000) + `"}`, false, `unknown action "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"`},
		{`{"action":"status","tabId":1` + strings.Repeat("0", 3000) + `}`, false, `out of range: 100000000000000000000000000000000000000…`},
		{`{"action":"status","bogus":1}`, false, `unknown parameter "bogus"`},
		{`{"action":"status"} {}`, false, "after its JSON object"},
		{`{"action":"status","timeoutMs":-1}`, false, "timeoutMs"},
		// 0 was silently the default (handoff waited its 10 minutes), while
		// -1 was refused: both are refused alike; null is leaving it out.
		{`{"action":"handoff","message":"m","timeoutMs":0}`, false, "timeoutMs must be between 1 and 600000"},
		{`{"action":"wait","timeoutMs":0}`, false, "timeoutMs must be between 1 and 60000"},
		{`{"action":"status","timeoutMs":null}`, true, ""},
		{`{"action":"status","tabId":-4}`, false, "tabId"},
	}
	for _, tt := range tests {
		_, _, err := Parse([]byte(tt.in))
		if tt.ok != (err == nil) {
			t.Errorf("Parse(%s): err %v", tt.in, err)
			continue
		}
		if err != nil && (protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Parse(%s): %v, want invalid_argument with %q", tt.in, err, tt.want)
		}
	}
}

func TestDeadline(t *testing.T) {
	for _, tt := range []struct {
		in   Input
		want time.Duration
	}{
		{Input{Action: "open"}, 60 * time.Second},
		{Input{Action: "status"}, 5 * time.Second},
		{Input{Action: "open", TimeoutMs: 1500}, 1500 * time.Millisecond},
		{Input{Action: "open", TimeoutMs: 999999}, 60 * time.Second},
		{Input{Action: "status", TimeoutMs: 30000}, 5 * time.Second},
	} {
		if got := tt.in.Deadline(); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.in, got, tt.want)
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
		{`{"action":"status","url":"http://a/"}`, `parameter "url" does not apply to status`},
		{`{"action":"status","URL":"http://a/"}`, `unknown parameter "URL"; did you mean "url"?`},
	} {
		_, _, err := Parse([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s): %v, want %q", tt.in, err, tt.want)
		}
	}
	for _, ok := range []string{
		`{"action":"type","label":"Name","value":"","clear":true}`,
		`{"action":"scroll","to":"top"}`,
		`{"action":"click","text":"Go","keys":null}`,
	} {
		if _, _, err := Parse([]byte(ok)); err != nil {
			t.Errorf("Parse(%s): %v", ok, err)
		}
	}
}
func TestLocatorChecks(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	n := func(v int) *int { return &v }
	tests := []struct {
		in      Locator
		present bool
		err     string
	}{
		{Locator{}, false, ""},
		{Locator{Text: "Save"}, true, ""},
		{Locator{Role: "button", Name: "Save"}, true, ""},
		{Locator{X: f(1), Y: f(2), Coordinates: "document"}, true, ""},
		{Locator{Ref: "f3e12"}, true, ""},
		{Locator{Text: "a", Selector: "b"}, true, "exactly one"},
		{Locator{Name: "Save"}, true, "role"},
		{Locator{X: f(1)}, true, "both x and y"},
		{Locator{X: f(1), Y: f(1), Coordinates: "page"}, true, "viewport"},
		{Locator{Text: "a", Coordinates: "viewport"}, true, "goes with x and y"},
		{Locator{Text: "a", Nth: n(-1)}, true, "negative"},
		{Locator{Ref: "12"}, true, "not a ref"},
	}
	for _, tt := range tests {
		present, err := tt.in.Present(), tt.in.Check()
		if present != tt.present {
			t.Errorf("%+v: present %v", tt.in, present)
		}
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%+v: %v, want %q", tt.in, err, tt.err)
		}
	}
}

func TestRefs(t *testing.T) {
	for _, tt := range []struct {
		frame int
		ref   string
		s     string
	}{{0, "e5", "e5"}, {3, "e12", "f3e12"}} {
		if got := FrameRef(tt.frame, tt.ref); got != tt.s {
			t.Errorf("FrameRef(%d,%s) = %s", tt.frame, tt.ref, got)
		}
		f, r, err := ParseRef(tt.s)
		if err != nil || f != tt.frame || r != tt.ref {
			t.Errorf("ParseRef(%s) = %d %s %v", tt.s, f, r, err)
		}
	}
	for _, bad := range []string{"", "e", "x1", "f", "fe1", "f-1e2", "f1", "e1x"} {
		if _, _, err := ParseRef(bad); err == nil {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
}

func TestWaitForChecks(t *testing.T) {
	x := 1.0
	for _, w := range []*WaitFor{{}, {Locator: Locator{Selector: "#a"}, URLContains: "x"}, {Locator: Locator{Selector: "#a", Text: "b"}}, {Locator: Locator{Name: "x"}}, {Locator: Locator{X: &x, Y: &x}}} {
		if err := w.Check(); protocol.CodeOf(err) != protocol.CodeInvalidArgument {
			t.Errorf("waitFor %+v: %v, want invalid_argument", w, err)
		}
	}
	for _, w := range []*WaitFor{nil, {Locator: Locator{Role: "button", Name: "Go"}}, {URLContains: "/done"}} {
		if err := w.Check(); err != nil {
			t.Errorf("waitFor %+v: %v", w, err)
		}
	}
	if _, _, err := Parse([]byte(`{"action":"extract","waitFor":{"selector":"#a","urlContains":"x"}}`)); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("Parse checks waitFor: %v", err)
	}
}

func TestBudget(t *testing.T) {
	for _, tt := range []struct {
		in   Input
		want string
	}{
		{Input{MaxChars: 10}, "maxChars"},
		{Input{MaxChars: 2_000_000}, "maxChars"},
		{Input{Offset: -1}, "offset"},
		{Input{Offset: 5, URL: "https://example.com/"}, "tabId and offset"},
	} {
		if _, _, err := tt.in.Budget(); err == nil || protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Budget(%+v) = %v, want invalid_argument about %s", tt.in, err, tt.want)
		}
	}
	if m, o, err := (&Input{}).Budget(); m != DefaultMaxChars || o != 0 || err != nil {
		t.Errorf("defaults: %d %d %v", m, o, err)
	}
}

func TestValueChecks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"action":"click","x":1e39,"y":5}`, "x must be a number of CSS pixels"},
		{`{"action":"scroll","deltaY":-1e308}`, "deltaY must be"},
		{`{"action":"status","tabId":9007199254740992}`, "tabId must be"},
		{`{"action":"click","selector":"#a","frameId":-5}`, "frameId must be"},
		{`{"action":"screenshot","clip":{"x":0,"y":0,"width":100000,"height":10}}`, "between 1 and 30000"},
		{`{"action":"screenshot","clip":{"x":0,"y":0,"width":20000,"height":20000}}`, "at most 50000000"},
		{`{"action":"click","text":"   "}`, "text is blank"},
		{`{"action":"extract","waitFor":{"label":" "}}`, "waitFor.label is blank"},
		{`{"action":"status","timeoutMs":600000}`, "timeoutMs must be between 1 and 60000"},
		{`{"action":"open","url":"https://a.example/","dialog":"maybe"}`, "dialog must be"},
		{`{"action":"close","tabId":3,"closeWorkspace":true}`, "not both"},
		{`{"action":"extract","frameId":3}`, "frameId"},
	} {
		_, _, err := Parse([]byte(c.in))
		if protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
	if _, _, err := Parse([]byte(`{"action":"click","x":-200,"y":30000,"coordinates":"document"}`)); err != nil {
		t.Errorf("ordinary coordinates refused: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"action":"click","text":"Save","nth":1,"frameId":2}`))
	f.Add([]byte(`{"action":"upload","paths":["/tmp/a"],"selector":"input"}`))
	f.Add([]byte(`{"action":"extract","waitFor":{"selector":"#x"},"include":["markdown"]}`))
	f.Add([]byte(`{"action":"fill","fields":[{"label":"Email","value":"a"},{"selector":"#c","options":["x"]},{"ref":"f2e7","checked":false}]}`))
	f.Add([]byte(`{"action":"evaluate","expression":"document.title","frameId":0,"maxChars":500}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, spec, err := Parse(b)
		if err != nil {
			if protocol.CodeOf(err) != protocol.CodeInvalidArgument {
				t.Fatalf("%q: error without invalid_argument: %v", b, err)
			}
			return
		}
		if s, ok := Lookup(in.Action); !ok || s != spec {
			t.Fatalf("%q: accepted unknown action %q", b, in.Action)
		}
		if d := in.Deadline(); d <= 0 || d > DefaultDeadline {
			t.Fatalf("%q: deadline %s", b, d)
		}
		in.Locator.Describe() // must not panic
	})
}

// to is scroll's edge (a string) or drag's drop target (an object); from
// is drag's locator object. Both objects are checked as locators.
func TestDragAndTo(t *testing.T) {
	in, _, err := Parse([]byte(`{"action":"drag","from":{"text":"Item A"},"to":{"x":10,"y":20}}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.From == nil || in.From.Text != "Item A" || in.To.Drop() == nil || *in.To.Drop().X != 10 || in.To.Edge() != "" {
		t.Fatalf("parsed %+v, to %+v", in, in.To.Drop())
	}
	in, _, err = Parse([]byte(`{"action":"scroll","to":"bottom"}`))
	if err != nil || in.To.Edge() != "bottom" || in.To.Drop() != nil {
		t.Fatalf("scroll to bottom: %+v %v", in, err)
	}
	// What was given comes back out (the daemon's audit marshals inputs).
	b, _ := json.Marshal(in)
	if !strings.Contains(string(b), `"to":"bottom"`) {
		t.Errorf("marshalled %s", b)
	}
	b, _ = json.Marshal(&Input{Action: "status"})
	if strings.Contains(string(b), `"to"`) || strings.Contains(string(b), `"from"`) {
		t.Errorf("an absent to or from is written: %s", b)
	}
	for _, c := range []struct{ in, msg string }{
		{`{"action":"drag","to":{"text":"B"}}`, "drag needs from"},
		{`{"action":"drag","from":{"text":"A"}}`, "drag needs to"},
		{`{"action":"drag","from":{},"to":{"text":"B"}}`, "from needs one locator"},
		{`{"action":"drag","from":{"text":"A","selector":"b"},"to":{"text":"B"}}`, "exactly one locator"},
		{`{"action":"drag","from":{"text":"A"},"to":{"x":1}}`, "both x and y"},
		{`{"action":"drag","from":{"text":"A"},"to":{"text":" "}}`, "to.text is blank"},
		{`{"action":"drag","from":{"text":"A"},"to":{"txt":"B"}}`, `unknown parameter "txt"`},
		{`{"action":"drag","from":{"text":"A"},"to":7}`, `"to" must be a JSON object, not a JSON number`},
		{`{"action":"drag","from":{"text":"A"},"to":{"x":1e40,"y":1}}`, "to.x must be"},
		{`{"action":"drag","text":"A","to":{"text":"B"}}`, `parameter "text" does not apply to drag`},
	} {
		_, _, err := Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.in, err, c.msg)
		}
	}
}

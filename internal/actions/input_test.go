package actions

import (
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

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
		{`{"action":"status","bogus":1}`, false, `unknown parameter "bogus"`},
		{`{"action":"status"} {}`, false, "after its JSON object"},
		{`{"action":"status","timeoutMs":-1}`, false, "timeoutMs"},
		{`{"action":"status","tabId":-4}`, false, "tabId"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
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

func TestCheckURL(t *testing.T) {
	for _, u := range []string{"http://a.b/", "https://x/y?z", "file:///tmp/a.html", "about:blank"} {
		if err := CheckURL(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"", "javascript:alert(1)", "chrome://settings", "data:text/html,x", "about:config", "http:///nohost", "ftp://x/",
		"file:///home/u/.ssh/id_rsa", "file:///home/u/.SSH/", "file:///srv/app/.env", "file://evil.example/share/a.html", "file:///etc/ssl/server.key"} {
		if err := CheckURL(u); protocol.CodeOf(err) != protocol.CodeInvalidArgument {
			t.Errorf("%s accepted", u)
		}
	}
}

func TestLocatorChecks(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	n := func(v int) *int { return &v }
	tests := []struct {
		in      Input
		present bool
		err     string
	}{
		{Input{}, false, ""},
		{Input{Text: "Save"}, true, ""},
		{Input{Role: "button", Name: "Save"}, true, ""},
		{Input{X: f(1), Y: f(2), Coordinates: "document"}, true, ""},
		{Input{Ref: "f3e12"}, true, ""},
		{Input{Text: "a", Selector: "b"}, true, "exactly one"},
		{Input{Name: "Save"}, true, "role"},
		{Input{X: f(1)}, true, "both x and y"},
		{Input{X: f(1), Y: f(1), Coordinates: "page"}, true, "viewport"},
		{Input{Text: "a", Coordinates: "viewport"}, true, "goes with x and y"},
		{Input{Text: "a", Nth: n(-1)}, true, "negative"},
		{Input{Ref: "12"}, true, "not a ref"},
	}
	for _, tt := range tests {
		_, present, err := tt.in.locator()
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

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"action":"click","text":"Save","nth":1,"frameId":2}`))
	f.Add([]byte(`{"action":"upload","paths":["/tmp/a"],"selector":"input"}`))
	f.Add([]byte(`{"action":"extract","waitFor":{"selector":"#x"},"include":["markdown"]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := Parse(b)
		if err != nil {
			if protocol.CodeOf(err) != protocol.CodeInvalidArgument {
				t.Fatalf("%q: error without invalid_argument: %v", b, err)
			}
			return
		}
		if _, ok := handlers[in.Action]; !ok {
			t.Fatalf("%q: accepted unknown action %q", b, in.Action)
		}
		if d := in.Deadline(); d <= 0 || d > DefaultDeadline {
			t.Fatalf("%q: deadline %s", b, d)
		}
		in.locator() // must not panic
	})
}

package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	contract "github.com/browser-bridge/browser-bridge/internal/tool"
)

func TestDecodeArgs(t *testing.T) {
	cases := []struct {
		name, raw, action string
		meta              map[string]any
		want              map[string]any // decoded input sent on; nil: an error
		err               string
	}{
		{name: "plain", raw: `{"action":"status"}`, want: map[string]any{"action": "status"}},
		{name: "null is no arguments", raw: `null`, err: "action is required"},
		{name: "split adds the action", raw: `{"url":"https://a/"}`, action: "open", want: map[string]any{"action": "open", "url": "https://a/"}},
		{name: "split accepts its own action", raw: `{"action":"open","url":"https://a/"}`, action: "open", want: map[string]any{"action": "open", "url": "https://a/"}},
		{name: "split refuses another action", raw: `{"action":"close"}`, action: "open", err: "call browser_close"},
		{name: "split needs its parameters", raw: `{}`, action: "open", err: "open needs url"},
		{name: "meta runId", raw: `{"action":"status"}`, meta: map[string]any{"runId": "r7"}, want: map[string]any{"action": "status", "runId": "r7"}},
		{name: "numeric meta runId", raw: `{"action":"status"}`, meta: map[string]any{"runId": float64(42)}, want: map[string]any{"action": "status", "runId": "42"}},
		{name: "argument runId wins", raw: `{"action":"status","runId":"mine"}`, meta: map[string]any{"runId": "r7"}, want: map[string]any{"action": "status", "runId": "mine"}},
		{name: "null runId takes meta", raw: `{"action":"status","runId":null}`, meta: map[string]any{"runId": "r7"}, want: map[string]any{"action": "status", "runId": "r7"}},
		{name: "null parameter is absent", raw: `{"action":"open","url":"https://a/","keys":null}`, want: map[string]any{"action": "open", "url": "https://a/", "keys": nil}},
		{name: "one of a group", raw: `{"action":"close","closeWorkspace":true}`, want: map[string]any{"action": "close", "closeWorkspace": true}},
		{name: "none of a group", raw: `{"action":"close"}`, err: "close needs tabId or closeWorkspace"},
		{name: "locator group", raw: `{"action":"click"}`, err: "click needs a locator: selector, text, role+name, label, placeholder, ref or x+y"},
		{name: "foreign parameter", raw: `{"action":"status","url":"https://a/"}`, err: `"url" does not apply to status; it is for extract, open`},
		{name: "parameter in other case", raw: `{"action":"status","URL":"https://a/"}`, err: `unknown parameter "URL"; did you mean "url"?`},
		{name: "trailing data", raw: `{"action":"status"} {}`, err: "data after"},
		{name: "string", raw: `"status"`, err: "must be a JSON object"},
		{name: "broken JSON", raw: `{"action":`, err: "not valid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.action != "" && !knownAction(c.action) {
				t.Fatalf("action %s is not registered", c.action)
			}
			in, raw, err := decodeArgs(json.RawMessage(c.raw), c.action, c.meta)
			if c.err != "" {
				if err == nil || protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want invalid_argument saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			json.Unmarshal(raw, &got)
			if !jsonEqual(got, c.want) {
				t.Errorf("sent %s, want %v", raw, c.want)
			}
			if in.Action != c.want["action"] {
				t.Errorf("input action %q", in.Action)
			}
		})
	}
}

func knownAction(a string) bool {
	for _, n := range contract.Names() {
		if n == a {
			return true
		}
	}
	return false
}

// FuzzDecodeArgs: whatever a model sends, the decoder never panics, every
// failure is invalid_argument, and what it passes on parses again.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{
		`{"action":"status"}`, `{"action":"open","url":"https://a/"}`, `{"url":"x"}`, `null`, ``, `[]`, `"a"`,
		`{"action":"close","tabId":-1}`, `{"action":"click","selector":"#a","nth":1.5}`, `{"Action":"STATUS"}`,
		`{"action":"open","url":"https://a/","waitFor":{"text":"x","bogus":1}}`, `{"action":"status","runId":7}`,
		`{"action":"open","url":"https://a/","url":"javascript:x"}`, `{"action":"status"}garbage`,
	} {
		f.Add([]byte(s), "", "")
		f.Add([]byte(s), "open", "run-1")
	}
	f.Fuzz(func(t *testing.T, raw []byte, action, runID string) {
		if action != "" && !knownAction(action) {
			action = "open"
		}
		var meta map[string]any
		if runID != "" {
			meta = map[string]any{"runId": runID}
		}
		in, out, err := decodeArgs(raw, action, meta)
		if err != nil {
			if protocol.CodeOf(err) != protocol.CodeInvalidArgument {
				t.Fatalf("error without invalid_argument: %v", err)
			}
			return
		}
		if action != "" && in.Action != action {
			t.Fatalf("split tool %s ran %s", action, in.Action)
		}
		again, _, err := contract.Parse(out)
		if err != nil {
			t.Fatalf("passed on input that does not parse: %s: %v", out, err)
		}
		if again.Action != in.Action {
			t.Fatalf("action changed: %q then %q", in.Action, again.Action)
		}
	})
}

func TestReserveBudget(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{`{"action":"extract","tabId":1}`, `{"action":"extract","maxChars":19700,"tabId":1}`},
		{`{"action":"inspect","tabId":1,"maxChars":5000}`, `{"action":"inspect","maxChars":4700,"tabId":1}`},
		{`{"action":"extract","tabId":1,"maxChars":600}`, `{"action":"extract","maxChars":500,"tabId":1}`},
		{`{"action":"open","url":"https://a/"}`, `{"action":"open","url":"https://a/"}`},
	} {
		in, raw, err := decodeArgs(json.RawMessage(c.args), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(reserveBudget(in, raw)); got != c.want {
			t.Errorf("%s: sent %s, want %s", c.args, got, c.want)
		}
	}
}

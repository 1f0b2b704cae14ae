package verbgen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The generated files are protocol.Verbs as it stands: a verb added or
// changed in internal/protocol/verbs.go without go generate fails here.
func TestGeneratedIsCurrent(t *testing.T) {
	files, err := Generate(protocol.Verbs)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./internal/protocol", name)
		}
	}
}

// Each shape of method the generator knows comes out as the hand-written
// methods were: the whole result, one field of it, only the error, the
// caller's out, one params field as the argument, no params at all.
func TestMethodShapes(t *testing.T) {
	type twoFields struct {
		TabID int `json:"tabId"`
		Other int `json:"other"`
	}
	tests := []struct {
		verb protocol.Verb
		want string
	}{
		{protocol.Verb{Name: "tab.get", Params: protocol.TabGetParams{}, Result: protocol.TabInfo{}},
			"func (v Verbs) TabGet(ctx context.Context, p protocol.TabGetParams) (protocol.TabInfo, error) {\n\treturn call[protocol.TabInfo](ctx, v, \"tab.get\", p)\n}"},
		{protocol.Verb{Name: "tab.list", Params: protocol.TabListParams{}, Result: protocol.TabsResult{}, Go: protocol.Method{Return: "Tabs"}},
			"(ctx context.Context, p protocol.TabListParams) ([]protocol.TabInfo, error) {\n\tr, err := call[protocol.TabsResult](ctx, v, \"tab.list\", p)\n\treturn r.Tabs, err\n}"},
		{protocol.Verb{Name: "tab.close", Params: protocol.TabCloseParams{}, Result: protocol.OKResult{}, Go: protocol.Method{Return: "-"}},
			") error {\n\t_, err := call[protocol.OKResult](ctx, v, \"tab.close\", p)\n\treturn err\n}"},
		{protocol.Verb{Name: "cdp", Params: protocol.CDPParams{}, Go: protocol.Method{Return: "out"}, Result: protocol.OKResult{}},
			"func (v Verbs) CDP(ctx context.Context, p protocol.CDPParams, out any) error {\n\treturn v.Call(ctx, \"cdp\", p, out)\n}"},
		{protocol.Verb{Name: "readiness.net", Params: protocol.ReadinessNetParams{}, Result: protocol.ReadinessNet{}, Go: protocol.Method{Arg: "TabID"}},
			"ReadinessNet(ctx context.Context, tabID int) (protocol.ReadinessNet, error) {\n\treturn call[protocol.ReadinessNet](ctx, v, \"readiness.net\", protocol.ReadinessNetParams{TabID: tabID})"},
		{protocol.Verb{Name: "bridge.ping", Params: protocol.NoParams{}, Result: protocol.BridgePingResult{}, Go: protocol.Method{Return: "-"}},
			"BridgePing(ctx context.Context) error {\n\t_, err := call[protocol.BridgePingResult](ctx, v, \"bridge.ping\", protocol.NoParams{})"},
		{protocol.Verb{Name: "browser.state", Params: protocol.NoParams{}, Result: protocol.BrowserState{}, Go: protocol.Method{As: "State"}},
			"BrowserState(ctx context.Context) (State, error) {\n\treturn call[State](ctx, v, \"browser.state\", protocol.NoParams{})"},
		{protocol.Verb{Name: "x.two", Params: twoFields{}, Result: protocol.OKResult{}, Go: protocol.Method{Name: "Two", Return: "-"}},
			"func (v Verbs) Two(ctx context.Context, p verbgen.twoFields) error"},
	}
	for _, tt := range tests {
		got, err := method(tt.verb)
		if err != nil {
			t.Errorf("%s: %v", tt.verb.Name, err)
			continue
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: got\n%s\nwant it to hold\n%s", tt.verb.Name, got, tt.want)
		}
	}
}

// A shape the generator cannot write is an error naming the verb, not a
// file that fails to compile.
func TestMethodErrors(t *testing.T) {
	for _, v := range []protocol.Verb{
		{Name: "a.b", Params: protocol.TabGetParams{}, Result: protocol.TabInfo{}, Go: protocol.Method{Arg: "Nope"}},
		{Name: "a.b", Params: protocol.TabGetParams{}, Result: protocol.TabInfo{}, Go: protocol.Method{Return: "Nope"}},
		{Name: "a.b", Params: 3, Result: protocol.TabInfo{}},
	} {
		if _, err := method(v); err == nil || !strings.Contains(err.Error(), `"a.b"`) {
			t.Errorf("%+v: error %v, want one naming the verb", v.Go, err)
		}
	}
	if _, err := Generate([]protocol.Verb{{Name: "a.b", Params: protocol.NoParams{}, Result: protocol.OKResult{}, Actions: "nodot"}}); err == nil {
		t.Error("a handler without module.function was accepted")
	}
}

func TestMethodName(t *testing.T) {
	for verb, want := range map[string]string{"tab.waitLoad": "TabWaitLoad", "cdp": "CDP", "cdp.batch": "CDPBatch", "dom.setFiles": "DOMSetFiles", "websocket.configure": "WebSocketConfigure", "tabGroup.list": "TabGroupList"} {
		if got := MethodName(verb); got != want {
			t.Errorf("MethodName(%q) = %q, want %q", verb, got, want)
		}
	}
}

package daemon

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestCheckWebSocketURL(t *testing.T) {
	for _, ok := range []string{"ws://127.0.0.1:14829/bridge", "ws://127.0.0.1:9229/beeline", "ws://localhost:9229/bridge", "ws://[::1]:1/x", "wss://127.0.0.5:443/"} {
		if err := CheckWebSocketURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "http://127.0.0.1:1/", "ws://example.com/bridge", "ws://10.0.0.1:9229/", "ws://127.0.0.1.evil.com/", "ws://user:pw@127.0.0.1:1/", "ws:///nohost", "ws://0.0.0.0:1/"} {
		if err := CheckWebSocketURL(bad); protocol.CodeOf(err) != protocol.CodeInvalidArgument {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}

func TestVerbParams(t *testing.T) {
	for _, tt := range []struct {
		verb, params, want string
	}{
		{"page.run", `{}`, "unknown verb"},
		{"cdp.batch", `{}`, "unknown verb"},
		{"tab.list", `[1]`, "JSON object"},
		{"tab.list", `{"type":"tab.close"}`, "may not set type"},
		{"websocket.configure", `{"enabled":true,"url":"ws://example.com/"}`, "not on this machine"},
		{"websocket.configure", `{"enabled":"yes"}`, "takes {enabled, url, token}"},
	} {
		_, err := verbParams(protocol.VerbCall{Verb: tt.verb, Params: json.RawMessage(tt.params)})
		if protocol.CodeOf(err) != protocol.CodeInvalidArgument || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %v, want %q", tt.verb, tt.params, err, tt.want)
		}
	}
	for _, tt := range []struct{ verb, params string }{
		{"tab.list", ``},
		{"tab.list", `null`},
		{"cdp", `{"tabId":3,"method":"Page.navigate","params":{"url":"about:blank"}}`},
		{"websocket.configure", `{"enabled":false}`},
		{"websocket.configure", `{"enabled":true,"url":"ws://127.0.0.1:14829/bridge","token":"t0k"}`},
	} {
		if _, err := verbParams(protocol.VerbCall{Verb: tt.verb, Params: json.RawMessage(tt.params)}); err != nil {
			t.Errorf("%s %s: %v", tt.verb, tt.params, err)
		}
	}
}

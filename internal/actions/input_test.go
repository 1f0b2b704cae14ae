package actions

import (
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

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

// Every action the contract declares has a handler here (register already
// refuses a handler without a spec).
func TestEverySpecHasAHandler(t *testing.T) {
	if m := Missing(); len(m) > 0 {
		t.Errorf("actions declared in internal/tool without a handler: %v", m)
	}
}

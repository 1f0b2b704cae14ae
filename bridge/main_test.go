package bridge_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// site serves the fixture pages of the examples.
var site string

// unitOnly is set by the unit stage (scripts/test unit runs this package
// with BROWSER_BRIDGE_UNIT=1, and chooses the tests against fake daemons
// by name, leaving out the examples and the tests that need the real
// bridge): no real bridge starts. Any other run starts it, and fails when
// it cannot.
var unitOnly = os.Getenv("BROWSER_BRIDGE_UNIT") == "1"

// TestMain starts the real bridge (Chromium with the extension, the host
// and a daemon) for the examples, and gives this process the environment
// the harness gives its own commands — BROWSER_BRIDGE_HOME and the rest,
// and the built binary on PATH — so that bridge.Dial without options finds
// that daemon, as a program run in that environment would. The unit tests
// use fake daemons of their own (WithHome, WithSocket).
func TestMain(m *testing.M) {
	if unitOnly {
		os.Exit(m.Run())
	}
	srv := httptest.NewServer(browsertest.Pages(pages))
	site = srv.URL
	code := run(m)
	srv.Close()
	os.Exit(code)
}

func run(m *testing.M) int {
	b, err := browsertest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: the real-browser harness could not start:", err)
		return 1
	}
	defer os.RemoveAll(filepath.Dir(b.Bin)) // the binary browsertest built
	defer b.Close()
	path := filepath.Dir(b.Bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	os.Clearenv()
	for _, kv := range b.Vars {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	os.Setenv("PATH", path)
	return m.Run()
}

// pages are the fixtures, by path.
var pages = map[string]string{
	"/form": `<!doctype html><title>Sign up</title>
<h1>Sign up</h1>
<p>Leave your address and we will write.</p>
<label>Email <input id="email" type="email"></label>
<button id="send" onclick="document.getElementById('out').textContent = 'Thanks, ' + document.getElementById('email').value">Send</button>
<p id="out"></p>
<h2>Elsewhere</h2>
<a href="/done">Read the terms</a> <a href="/done#faq">FAQ</a>`,
	"/done": `<!doctype html><title>Terms</title><h1>Terms</h1><p>Be kind.</p>`,
	"/dom":  `<!doctype html><title>DOM</title><h1 id="h">Hello from the DOM</h1>`,
}

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// A daemon whose stderr is daemon.log (client.EnsureDaemon starts it so)
// writes its log through a rotating writer; one on a terminal or another
// file does not. Not parallel: it sets Stderr.
func TestRotatingLogOnlyForTheDaemonLog(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	old := Stderr
	t.Cleanup(func() { Stderr = old })

	logf, err := os.OpenFile(l.DaemonLog(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	Stderr = logf
	w, err := rotatingLog(l)
	if err != nil || w == nil {
		t.Fatalf("stderr is daemon.log: %v %v", w, err)
	}
	w.Write([]byte("hello\n"))
	w.Close()
	if b, _ := os.ReadFile(l.DaemonLog()); string(b) != "hello\n" {
		t.Errorf("daemon.log holds %q", b)
	}

	other, _ := os.Create(filepath.Join(t.TempDir(), "other.log"))
	defer other.Close()
	Stderr = other
	if w, err := rotatingLog(l); w != nil || err != nil {
		t.Errorf("stderr is another file: %v %v", w, err)
	}
}

// Status with no browser says in one line what the user must do: the
// step not yet taken.
func TestConnectHint(t *testing.T) {
	for _, c := range []struct {
		enabled    bool
		registered []string
		want       string
	}{
		{false, []string{"Chromium"}, "browser-bridge enable"},
		{true, nil, "run `browser-bridge install`, load the extension"},
		{true, []string{"Google Chrome", "Chromium"}, "open Google Chrome or Chromium with the Browser Bridge extension loaded"},
	} {
		if got := connectHint(c.enabled, c.registered); !strings.Contains(got, c.want) || strings.Contains(got, "\n") {
			t.Errorf("connectHint(%v, %v) = %q, want one line with %q", c.enabled, c.registered, got, c.want)
		}
	}
	var errOut bytes.Buffer
	old := Stderr
	Stderr = &errOut
	defer func() { Stderr = old }()
	sayNotConnected(json.RawMessage(`{"connected":false,"reason":"r","diagnostics":{"hint":"run ` + "`browser-bridge launch`" + `"}}`))
	sayNotConnected(json.RawMessage(`{"connected":true}`))
	if got := errOut.String(); got != "browser-bridge: no browser is connected: run `browser-bridge launch`\n" {
		t.Errorf("stderr %q", got)
	}
}

package cli

import (
	"os"
	"path/filepath"
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

package settings

import (
	"os"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestSaveLoadAndOff(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	t.Setenv(protocol.EnvDisable, "")
	if s, err := Load(l); err != nil || s.Disabled || Off(l) != nil {
		t.Fatalf("defaults: %+v %v", s, err)
	}
	if err := Save(l, Settings{Disabled: true, SearchURL: "https://s.example/?q={query}"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(File(l)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings file: %v %v", fi, err)
	}
	s, err := Load(l)
	if err != nil || !s.Disabled || s.SearchURL != "https://s.example/?q={query}" {
		t.Fatalf("round trip: %+v %v", s, err)
	}
	if off := Off(l); off == nil || off.Code != protocol.CodeBridgeDisabled || !strings.Contains(off.Message, "browser-bridge enable") {
		t.Fatalf("off: %v", off)
	}
	Save(l, Settings{})
	if Off(l) != nil {
		t.Fatal("still off after enabling")
	}
	// Keys this version does not know survive a rewrite.
	os.WriteFile(File(l), []byte(`{"searchUrl":"https://s.example/?q={query}","future":{"x":1}}`), 0o600)
	s, _ = Load(l)
	s.Disabled = true
	Save(l, s)
	if b, _ := os.ReadFile(File(l)); !strings.Contains(string(b), `"future"`) || !strings.Contains(string(b), `"disabled": true`) || !strings.Contains(string(b), "s.example") {
		t.Fatalf("rewritten settings: %s", b)
	}
	Save(l, Settings{})
	t.Setenv(protocol.EnvDisable, "1")
	if off := Off(l); off == nil || !strings.Contains(off.Message, protocol.EnvDisable) {
		t.Fatalf("the environment does not turn it off: %v", off)
	}
	t.Setenv(protocol.EnvDisable, "")
	// A broken file is not silently taken as "on".
	os.WriteFile(File(l), []byte("{not json"), 0o600)
	if _, err := Load(l); err == nil {
		t.Fatal("a broken file loaded")
	}
	if off := Off(l); off == nil || !strings.Contains(off.Message, "cannot be read") {
		t.Fatalf("a broken file: %v", off)
	}
}

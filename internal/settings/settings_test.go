package settings

import (
	"os"
	"reflect"
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

func TestPauseAndPolicyRoundTrip(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	if Paused(l) != nil {
		t.Fatal("paused by default")
	}
	s := Settings{Paused: true}
	s.Policy.Add("deny", "bank.example")
	if err := Save(l, s); err != nil {
		t.Fatal(err)
	}
	if p := Paused(l); p == nil || p.Code != protocol.CodePausedByUser {
		t.Fatalf("paused: %v", p)
	}
	got, err := Load(l)
	if err != nil || !got.Paused || len(got.Policy.Deny) != 1 || got.Policy.Deny[0] != "bank.example" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	got.Paused = false
	got.Policy.Remove("bank.example")
	Save(l, got)
	if b, _ := os.ReadFile(File(l)); strings.Contains(string(b), "paused") || strings.Contains(string(b), "policy") {
		t.Errorf("cleared keys still written: %s", b)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"disabled":true,"policy":{"deny":["a.example"]},"x":1}`))
	f.Add([]byte(`{"policy":{"allow":"nope"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l := paths.ForHome(t.TempDir())
		os.MkdirAll(l.State, 0o700)
		os.WriteFile(File(l), b, 0o600)
		s, err := Load(l)
		if err != nil {
			if Off(l) == nil {
				t.Fatalf("an unreadable settings file left the bridge on: %v", err)
			}
			return
		}
		// What loads saves and loads again the same.
		if err := Save(l, s); err != nil {
			t.Fatal(err)
		}
		again, err := Load(l)
		if err != nil || again.Paused != s.Paused || again.Disabled != s.Disabled || len(again.Policy.Deny) != len(s.Policy.Deny) {
			t.Fatalf("round trip changed %+v into %+v (%v)", s, again, err)
		}
	})
}

func TestAskBeforeIrreversible(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	if AskBeforeIrreversible(l) {
		t.Fatal("on by default")
	}
	os.MkdirAll(l.State, 0o700)
	os.WriteFile(File(l), []byte(`{"askBeforeIrreversible":true,"future":1}`), 0o600)
	if !AskBeforeIrreversible(l) {
		t.Fatal("the key does not turn it on")
	}
	s, _ := Load(l)
	s.Paused = true
	Save(l, s)
	if b, _ := os.ReadFile(File(l)); !strings.Contains(string(b), `"askBeforeIrreversible": true`) || !strings.Contains(string(b), `"future"`) {
		t.Fatalf("rewritten settings: %s", b)
	}
	s.AskBeforeIrreversible = false
	Save(l, s)
	if AskBeforeIrreversible(l) {
		t.Fatal("still on")
	}
	if b, _ := os.ReadFile(File(l)); strings.Contains(string(b), "askBeforeIrreversible") {
		t.Errorf("a cleared key is still written: %s", b)
	}
}

// Every field comes back from Save and Load: Save writes each key by
// hand, and a field it left out was dropped the next time anything was
// saved (refuseProgramEvaluate was, for a while).
func TestEveryFieldRoundTrips(t *testing.T) {
	l := paths.Layout{State: t.TempDir()}
	var in Settings
	v := reflect.ValueOf(&in).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString("https://search.example/?q={query}")
		case reflect.Int, reflect.Int64:
			f.SetInt(7)
		case reflect.Struct: // the site rules
			in.Policy.Deny = []string{"bank.example"}
		default:
			t.Fatalf("field %s: a %s this test cannot fill; teach it", v.Type().Field(i).Name, f.Kind())
		}
	}
	if err := Save(l, in); err != nil {
		t.Fatal(err)
	}
	out, err := Load(l)
	if err != nil {
		t.Fatal(err)
	}
	out.other, in.other = nil, nil
	if !reflect.DeepEqual(in, out) {
		t.Errorf("after Save and Load:\n got %+v\nwant %+v", out, in)
	}
}

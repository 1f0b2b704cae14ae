package audit

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

func TestWriteReadAndRedact(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	lg := Open(l, func(err error) { t.Error(err) })
	defer lg.Close()
	in := map[string]any{"action": "type", "label": "Password", "value": "hunter2", "paths": []any{"/home/me/a.pdf"}, "keys": "a b", "text": "Sign in"}
	lg.Write(Entry{Session: "session:a", Action: "type", TabID: 3, URL: "https://x.example/", Params: Redact(in), Code: "ok", Ms: 12})
	lg.Write(Entry{Session: "session:b", Action: "click", Params: Redact(map[string]any{"text": "Save", "keys": "Control+A Enter"}), Code: "element_not_found", Ms: 3})
	b, _ := os.ReadFile(File(l))
	for _, secret := range []string{"hunter2", "/home/me", `"a b"`} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the trail holds %q: %s", secret, b)
		}
	}
	for _, kept := range []string{`"Sign in"`, "[redacted, 7 chars]", "[1 paths redacted]", `"Control+A Enter"`} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("the trail lacks %s: %s", kept, b)
		}
	}
	if fi, _ := os.Stat(File(l)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	all, err := Read(l, Filter{})
	if err != nil || len(all) != 2 || all[0].Action != "type" || all[1].Code != "element_not_found" {
		t.Fatalf("read: %+v %v", all, err)
	}
	if one, _ := Read(l, Filter{Session: "session:b"}); len(one) != 1 || one[0].Action != "click" {
		t.Errorf("filter: %+v", one)
	}
	cdp := Redact(map[string]any{"method": "Input.insertText", "params": map[string]any{"text": "my secret"}})
	if j, _ := json.Marshal(cdp); strings.Contains(string(j), "my secret") {
		t.Errorf("CDP text kept: %s", j)
	}
}

// A tab's URL, and an open's url parameter, keep their secret query
// fields out of the trail as they are kept out of results.
func TestTrailRedactsURLs(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	lg := Open(l, func(err error) { t.Error(err) })
	lg.Write(Entry{Session: "session:a", Action: "console", TabID: 3, URL: "https://x.example/cb?access_token=AT-url-1&page=2#id_token=IT-frag-2"})
	lg.Write(Entry{Session: "session:a", Action: "open", Params: Redact(map[string]any{"url": "https://x.example/?password=PW-param-3"})})
	lg.Close()
	b, _ := os.ReadFile(File(l))
	for _, secret := range []string{"AT-url-1", "IT-frag-2", "PW-param-3"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the trail holds %q: %s", secret, b)
		}
	}
	if !strings.Contains(string(b), "page=2") {
		t.Errorf("the trail lost the URL's other fields: %s", b)
	}
}

func TestRotation(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	lg := Open(l, func(err error) { t.Error(err) })
	lg.max = 20 << 10
	defer lg.Close()
	big := strings.Repeat("x", 150)
	n := 0
	for range lg.max / 200 * (Keep + 2) {
		lg.Write(Entry{Session: "s", Action: "open", URL: big, Code: "ok"})
		n++
	}
	for i := 1; i <= Keep; i++ {
		if _, err := os.Stat(File(l) + "." + string(rune('0'+i))); err != nil {
			t.Errorf("no rotated file %d: %v", i, err)
		}
	}
	if _, err := os.Stat(File(l) + "." + string(rune('0'+Keep+1))); err == nil {
		t.Errorf("more than %d old files kept", Keep)
	}
	fi, _ := os.Stat(File(l))
	if fi.Size() > lg.max {
		t.Errorf("current file %d bytes, over %d", fi.Size(), lg.max)
	}
	got, _ := Read(l, Filter{})
	if len(got) == 0 || len(got) >= n {
		t.Errorf("read %d of %d written: the oldest should be gone", len(got), n)
	}
}

func TestFollowSeesNewLinesAndRotation(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	lg := Open(l, nil)
	defer lg.Close()
	lg.Write(Entry{Session: "s", Action: "old", Code: "ok"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := make(chan Entry, 10)
	go Follow(ctx, l, Filter{}, func(e Entry) { got <- e })
	time.Sleep(300 * time.Millisecond)
	lg.Write(Entry{Session: "s", Action: "new", Code: "ok"})
	if e := <-got; e.Action != "new" {
		t.Fatalf("followed %+v, want the new entry only", e)
	}
	// After a rotation the new file is read from its start.
	lg.mu.Lock()
	lg.reopen(true)
	lg.mu.Unlock()
	lg.Write(Entry{Session: "s", Action: "after", Code: "ok"})
	select {
	case e := <-got:
		if e.Action != "after" {
			t.Fatalf("after rotation: %+v", e)
		}
	case <-ctx.Done():
		t.Fatal("follow missed the entry after a rotation")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"time":"2026-12-01T06:00:00Z","session":"s","action":"click","code":"ok","ms":3}`))
	f.Add([]byte(`{"action":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, ok := Decode(b)
		if ok && e.Action == "" {
			t.Fatalf("decoded an entry without an action from %q", b)
		}
	})
}

// TestRedactSpelledChords is a review's finding: chords that type characters
// (Shift+H Shift+U …) are typing, kept out of the trail like type's value;
// shortcuts and named keys say what the agent did and stay.
func TestRedactSpelledChords(t *testing.T) {
	for keys, redacted := range map[string]bool{
		"Shift+H Shift+U Shift+N Shift+T Shift+E Shift+R": true,
		"Shift+1":                   true,
		"ShiftLeft+a ShiftRight+b":  true,
		"h":                         true,
		"Tab Shift+x":               true,
		"Control+A Enter":           false,
		"Shift+Tab":                 false,
		"Meta+Shift+Z":              false,
		"Enter Escape ArrowDown F5": false,
		"Space":                     false,
	} {
		got := Redact(map[string]any{"keys": keys})["keys"]
		if (got != keys) != redacted {
			t.Errorf("keys %q: the trail keeps %q, want redacted %v", keys, got, redacted)
		}
	}
}

// FuzzPrintable checks the two escaped forms of outside text: the
// readable one has no unsafe character and no second line, and the JSON
// one has none raw and decodes to the same text.
func FuzzPrintable(f *testing.F) {
	f.Add("Save\n2026-12-01  user  resume  ok\u001b[31m")
	f.Add("\u009b31m\u202e\x7f\xff")
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		for _, r := range p {
			if unsafeRune(r) {
				t.Fatalf("Printable(%q) = %q holds %U", s, p, r)
			}
		}
		b, err := MarshalLine(Entry{Action: "click", Session: s})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range string(b) {
			if unsafeRune(r) {
				t.Fatalf("MarshalLine holds %U raw: %q", r, b)
			}
		}
		e, ok := Decode(b)
		// (encoding/json makes each byte that is not UTF-8 a U+FFFD.)
		if !ok || utf8.ValidString(s) && e.Session != s {
			t.Fatalf("MarshalLine(%q) decodes to %q", s, e.Session)
		}
	})
}

// The trail records what the agent ran with evaluate, and never what fill
// typed; a program's Runtime.evaluate expression stays redacted.
func TestRedactInputKeepsTheExpressionNotTheFilledValues(t *testing.T) {
	got := RedactInput(map[string]any{
		"expression": "document.title",
		"fields":     []any{map[string]any{"label": "Password", "value": "hunter2"}, map[string]any{"selector": "#c", "option": "FR"}},
	})
	if got["expression"] != "document.title" {
		t.Errorf("expression = %v, want it kept", got["expression"])
	}
	fields := got["fields"].([]any)
	if f := fields[0].(map[string]any); f["value"] == "hunter2" || f["label"] != "Password" {
		t.Errorf("a filled value reached the trail: %v", f)
	}
	if f := fields[1].(map[string]any); f["option"] != "FR" {
		t.Errorf("a chosen option was dropped: %v", f)
	}
	prog := Redact(map[string]any{"method": "Runtime.evaluate", "params": map[string]any{"expression": "secret()"}})
	if p := prog["params"].(map[string]any); p["expression"] == "secret()" {
		t.Errorf("a program's expression reached the trail: %v", p)
	}
}

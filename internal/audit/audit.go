// Package audit is the audit trail: one JSON line per command the bridge
// ran for an agent or a program (time, session, workspace, action, tab,
// parameters with typed text, paths and secrets redacted, result code,
// duration), in the state folder, rotated by size. `browser-bridge log`
// reads it, and the extension's page shows the latest entries.
package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/keys"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/redact"
)

// Limits of the trail on disk: the current file and Keep older ones, each
// at most MaxBytes.
const (
	MaxBytes = 5 << 20
	Keep     = 3
)

// Entry is one command.
type Entry struct {
	Time      time.Time `json:"time"`
	Session   string    `json:"session"`
	Workspace string    `json:"workspace,omitempty"`
	// Door is how the command came: "tool" (an action, from MCP or the
	// CLI), "program" (a verb from a local program) or "websocket".
	Door   string `json:"door,omitempty"`
	Action string `json:"action"`
	// Browser is the browser the command ran in, by its slot and label
	// as status lists it ("1 (Edge)"); empty when it reached none.
	Browser string         `json:"browser,omitempty"`
	TabID   int            `json:"tabId,omitempty"`
	URL     string         `json:"url,omitempty"`
	Params  map[string]any `json:"params,omitempty"`
	// Code is "ok" or the error code.
	Code string `json:"code"`
	Ms   int64  `json:"ms"`
}

// File is the trail of layout.
func File(l paths.Layout) string { return filepath.Join(l.State, "audit.log") }

// Log appends entries to the trail; it is safe for concurrent use. A
// failure to write is reported once to onError and never fails a command:
// the trail records, it does not gate.
type Log struct {
	path    string
	mu      sync.Mutex
	f       *os.File
	size    int64
	onError func(error)
	failed  bool
	max     int64 // MaxBytes; tests make it small
}

// Open opens the trail of layout for appending (0600 in the 0700 state
// folder).
func Open(l paths.Layout, onError func(error)) *Log {
	if onError == nil {
		onError = func(error) {}
	}
	return &Log{path: File(l), onError: onError, max: MaxBytes}
}

// Write appends one entry.
func (lg *Log) Write(e Entry) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	// The tab's URL is the page's: the user may have reached it through a
	// link that carries a token (?access_token=…, #id_token=…).
	e.URL = redact.URL(e.URL)
	b, err := MarshalLine(e)
	if err != nil {
		lg.fail(err)
		return
	}
	b = append(b, '\n')
	lg.mu.Lock()
	defer lg.mu.Unlock()
	if lg.f == nil || lg.size+int64(len(b)) > lg.max {
		if err := lg.reopen(lg.f != nil || lg.size+int64(len(b)) > lg.max); err != nil {
			lg.fail(err)
			return
		}
	}
	n, err := lg.f.Write(b)
	lg.size += int64(n)
	if err != nil {
		lg.fail(err)
	}
}

// reopen opens the file, first rotating it when rotate is set and it is
// not empty: audit.log → audit.log.1 → … → audit.log.Keep.
func (lg *Log) reopen(rotate bool) error {
	if lg.f != nil {
		lg.f.Close()
		lg.f = nil
	}
	if err := paths.EnsurePrivateDir(filepath.Dir(lg.path)); err != nil {
		return err
	}
	if fi, err := os.Stat(lg.path); rotate && err == nil && fi.Size() > 0 {
		for i := Keep - 1; i >= 1; i-- {
			os.Rename(fmt.Sprintf("%s.%d", lg.path, i), fmt.Sprintf("%s.%d", lg.path, i+1))
		}
		if err := os.Rename(lg.path, lg.path+".1"); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(lg.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	lg.f, lg.size = f, fi.Size()
	if lg.size >= lg.max {
		return lg.reopen(true)
	}
	return nil
}

func (lg *Log) fail(err error) {
	if !lg.failed {
		lg.failed = true
		lg.onError(fmt.Errorf("writing the audit trail %s: %w", lg.path, err))
	}
}

// Close closes the file.
func (lg *Log) Close() error {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	if lg.f == nil {
		return nil
	}
	err := lg.f.Close()
	lg.f = nil
	return err
}

// maxExpression is how much of an evaluate's expression the trail keeps.
const maxExpression = 2000

// RedactInput is Redact for the input of an action, where a top-level
// expression is the evaluate action's: the trail records it (docs/design.md#actions:
// the user sees what the agent ran in their pages), cut at 2,000
// characters. An expression anywhere else (a program's Runtime.evaluate)
// is redacted as Redact does.
func RedactInput(params map[string]any) map[string]any {
	out := Redact(params)
	if x, ok := params["expression"].(string); ok {
		if r := []rune(x); len(r) > maxExpression {
			x = string(r[:maxExpression]) + "…"
		}
		out["expression"] = x
	}
	return out
}

// Redact returns the parameters of a command as the trail keeps them:
// typed text, file paths and secrets become a note of their size, long
// strings are cut, and everything else is kept.
func Redact(params map[string]any) map[string]any {
	if len(params) == 0 {
		return nil
	}
	out := make(map[string]any, len(params))
	for k, v := range params {
		switch strings.ToLower(k) {
		case "value", "token", "secret", "password", "expression", "data":
			out[k] = redactedNote(v)
		case "keys":
			// Chords and named keys say what the agent did; characters,
			// alone or with Shift, are typing.
			if s, ok := v.(string); ok && typesCharacters(s) {
				out[k] = redactedNote(v)
			} else {
				out[k] = v
			}
		case "fields":
			// fill's fields: each a locator and what was set, whose
			// typed value is redacted as type's is.
			l, _ := v.([]any)
			kept := make([]any, len(l))
			for i, f := range l {
				if m, ok := f.(map[string]any); ok {
					kept[i] = Redact(m)
				} else {
					kept[i] = redactedNote(f)
				}
			}
			out[k] = kept
		case "paths", "files":
			if l, ok := v.([]any); ok {
				out[k] = fmt.Sprintf("[%d paths redacted]", len(l))
			} else if l, ok := v.([]string); ok {
				out[k] = fmt.Sprintf("[%d paths redacted]", len(l))
			} else {
				out[k] = "[paths redacted]"
			}
		default:
			switch x := v.(type) {
			case string:
				if strings.EqualFold(k, "url") {
					x = redact.URL(x)
				}
				if len(x) > 200 {
					x = x[:200] + "…"
				}
				out[k] = x
			case map[string]any:
				// A program's CDP command: its text is typed text too.
				if k == "params" && strings.HasPrefix(fmt.Sprint(params["method"]), "Input.") {
					x = withoutText(x)
				}
				out[k] = Redact(x)
			default:
				out[k] = v
			}
		}
	}
	return out
}

// typesCharacters reports whether the keys of a press type text: a
// character of its own ("h") or with Shift ("Shift+H Shift+I" spells HI),
// the way keys.Chord.Events types it. Shortcuts (Control+A), named keys
// (Enter, Tab, Space) and chords of them say what the agent did and are
// kept. Keys that do not parse are kept out too: the agent may have tried
// to type words with press.
func typesCharacters(s string) bool {
	chords, err := keys.Parse(s)
	if err != nil {
		return true
	}
	for _, c := range chords {
		for _, ev := range c.Events() {
			if ev.Text != "" && ev.Text != "\r" && ev.Text != " " {
				return true
			}
		}
	}
	return false
}

// withoutText redacts the text fields of an Input.* CDP command.
func withoutText(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		if k == "text" || k == "unmodifiedText" || k == "key" || k == "code" {
			v = redactedNote(v)
		}
		c[k] = v
	}
	return c
}

func redactedNote(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("[redacted, %d chars]", len([]rune(s)))
	}
	return "[redacted]"
}

// Filter picks entries for Read and Follow.
type Filter struct {
	Session string
	Since   time.Time
}

func (f Filter) keep(e Entry) bool {
	return (f.Session == "" || e.Session == f.Session) && !e.Time.Before(f.Since)
}

// Read returns the entries of the trail on disk, oldest first, the rotated
// files included. A line that does not decode (a torn write, a hand edit)
// is skipped.
func Read(l paths.Layout, f Filter) ([]Entry, error) {
	var out []Entry
	base := File(l)
	files := []string{}
	for i := Keep; i >= 1; i-- {
		files = append(files, fmt.Sprintf("%s.%d", base, i))
	}
	files = append(files, base)
	for _, name := range files {
		fh, err := os.Open(name)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, decodeAll(fh, f)...)
		fh.Close()
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}

// decodeAll reads the entries of one file.
func decodeAll(fh *os.File, f Filter) []Entry {
	var out []Entry
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		if e, ok := Decode(sc.Bytes()); ok && f.keep(e) {
			out = append(out, e)
		}
	}
	return out
}

// Decode reads one line of the trail; ok is false for a line that is not
// an entry.
func Decode(line []byte) (Entry, bool) {
	var e Entry
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
		return Entry{}, false
	}
	return e, true
}

// Package slots numbers the browsers one daemon serves. Each extension
// instance (one extension in one browser profile) gets a small slot
// number the first time it connects, kept in the state folder so that it
// survives daemon and browser restarts. The slot qualifies the tab IDs a
// caller sees: Chrome's tab IDs are unique only within one browser, so
// two connected browsers may both have a tab 123.
//
// Slot 0, the first browser ever seen, keeps Chrome's own tab IDs (a
// single-browser user sees no change). Slot n > 0 shows tab t as
// n*Stride + t: 20000000123 is browser 2's tab 123, and 10555482403
// browser 1's tab 555482403.
package slots

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
)

// Stride separates the slots' tab IDs: 10 decimal digits, above any
// Chrome tab ID (a positive int32; recent Chromium hands out IDs in the
// hundreds of millions and beyond, not counting from 1), so the slot reads
// as the digits in front of Chrome's ID.
const Stride = 10_000_000_000

// MaxSlot is the highest slot handed out; a qualified ID stays well
// within the integers JSON (and JavaScript) carries exactly.
const MaxSlot = 999

// Qualify is tab raw of the browser in slot as callers see it.
func Qualify(slot, raw int) int {
	if slot <= 0 || raw <= 0 {
		return raw
	}
	return slot*Stride + raw
}

// Split undoes Qualify: the slot a tab ID names and Chrome's own ID.
func Split(id int) (slot, raw int) {
	if id < Stride {
		return 0, id
	}
	return id / Stride, id % Stride
}

// Browser is one extension instance the daemon has seen.
type Browser struct {
	Slot int `json:"slot"`
	// Instance is the extension's instanceId (without the browser run).
	Instance string `json:"instance"`
	// Label is what people call it: the browser's name, and the slot
	// when another browser of the same name came first ("Chromium #1").
	Label     string    `json:"label"`
	FirstSeen time.Time `json:"firstSeen,omitzero"`
}

// file is the JSON of the state file.
type file struct {
	Browsers []Browser `json:"browsers"`
}

// Table is the slots of every browser seen, kept in one file.
type Table struct {
	path string
	mu   sync.Mutex
	list []Browser // by slot
}

// Open loads the table at path; a missing file is an empty table and a
// corrupt one is set aside (renamed *.corrupt) rather than fatal.
func Open(path string) (*Table, error) {
	t := &Table{path: path}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the browsers' slots: %w", err)
	}
	list, err := Decode(b)
	if err != nil {
		os.Rename(path, path+".corrupt")
		return t, nil
	}
	t.list = list
	return t, nil
}

// Decode parses the state file: every slot and instance once, slots in
// range, labels and instances not blank. The file is the bridge's own,
// but a decoder of bytes on disk must not trust them.
func Decode(b []byte) ([]Browser, error) {
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("decoding the browsers' slots: %w", err)
	}
	slots, insts := map[int]bool{}, map[string]bool{}
	for _, x := range f.Browsers {
		switch {
		case x.Slot < 0 || x.Slot > MaxSlot:
			return nil, fmt.Errorf("slot %d is out of range", x.Slot)
		case strings.TrimSpace(x.Instance) == "" || strings.TrimSpace(x.Label) == "":
			return nil, fmt.Errorf("slot %d has no instance or label", x.Slot)
		case slots[x.Slot] || insts[x.Instance]:
			return nil, fmt.Errorf("slot %d or instance %q appears twice", x.Slot, x.Instance)
		}
		slots[x.Slot], insts[x.Instance] = true, true
	}
	sort.Slice(f.Browsers, func(i, j int) bool { return f.Browsers[i].Slot < f.Browsers[j].Slot })
	return f.Browsers, nil
}

// Assign returns the browser of instance, giving it the lowest free slot
// the first time; name is the browser's name ("Chromium", "Edge") for its
// label. A failed save is not fatal: the slot holds for this daemon's
// life and the next new browser tries again.
func (t *Table) Assign(instance, name string) (Browser, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.list {
		if b.Instance == instance {
			return b, nil
		}
	}
	slot := 0
	for _, b := range t.list { // sorted by slot
		if b.Slot != slot {
			break
		}
		slot++
	}
	if slot > MaxSlot {
		return Browser{}, fmt.Errorf("%d browsers have connected to this daemon, the most it numbers; remove %s to start over", MaxSlot+1, t.path)
	}
	if strings.TrimSpace(name) == "" {
		name = "Browser"
	}
	label := name
	if t.labelledLocked(label) {
		label = name + " #" + strconv.Itoa(slot)
	}
	b := Browser{Slot: slot, Instance: instance, Label: label, FirstSeen: time.Now().UTC().Truncate(time.Second)}
	t.list = append(t.list, b)
	sort.Slice(t.list, func(i, j int) bool { return t.list[i].Slot < t.list[j].Slot })
	return b, t.saveLocked()
}

func (t *Table) labelledLocked(label string) bool {
	for _, b := range t.list {
		if strings.EqualFold(b.Label, label) {
			return true
		}
	}
	return false
}

// Slot returns the browser in slot n.
func (t *Table) Slot(n int) (Browser, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.list {
		if b.Slot == n {
			return b, true
		}
	}
	return Browser{}, false
}

// Of returns the browser of instance.
func (t *Table) Of(instance string) (Browser, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.list {
		if b.Instance == instance {
			return b, true
		}
	}
	return Browser{}, false
}

// Find resolves what a caller passed as browser: a slot number, a label
// (case-insensitive) or an instance ID.
func (t *Table) Find(sel string) (Browser, bool) {
	sel = strings.TrimSpace(sel)
	if n, err := strconv.Atoi(sel); err == nil {
		return t.Slot(n)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.list {
		if strings.EqualFold(b.Label, sel) || b.Instance == sel {
			return b, true
		}
	}
	return Browser{}, false
}

// saveLocked writes the table atomically (temp file + rename, 0600).
func (t *Table) saveLocked() error {
	if t.path == "" {
		return nil
	}
	b, err := json.MarshalIndent(file{Browsers: t.list}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(t.path, b, 0o600); err != nil {
		return fmt.Errorf("saving the browsers' slots: %w", err)
	}
	return nil
}

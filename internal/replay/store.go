// Package replay keeps each workspace's timeline: its actions in order,
// each with a small JPEG of the tab after the action settled when the
// action changes or loads a page, and writes it out as a self-contained
// HTML page or an animated GIF (docs/cli.md, "replay").
//
// The timelines live in the state folder like the audit trail: folders
// 0700, files 0600, bounded per workspace and in all, oldest dropped
// first.
package replay

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// The bounds of what is kept (docs/cli.md, "replay").
const (
	// MaxCaptures is the most captures kept per workspace.
	MaxCaptures = 200
	// MaxBytes is the most bytes of captures kept in all.
	MaxBytes = 100 << 20
	// MaxEntries is the most timeline entries kept per workspace (the
	// entries of steps without a capture are small, but not free).
	MaxEntries = 1000
	// MaxIndexBytes is the largest a timeline's index file grows: the
	// oldest entries go first (an entry's URL and title come from pages).
	MaxIndexBytes = 1 << 20
	// MaxTimelines is the most timelines kept: a new workspace's pushes
	// out the one used longest ago.
	MaxTimelines = 100
	// MaxAge is how long a timeline no step was added to is kept. A
	// workspace the daemon's sweep closes (its session ended without
	// closeWorkspace) keeps its timeline, so that it can still be
	// replayed, until this age or MaxTimelines drops it.
	MaxAge = 14 * 24 * time.Hour
	// MaxField is the most bytes kept of an entry's URL, title, target
	// or outcome: pages decide them (a URL set with history.replaceState
	// can be megabytes), and a longer one is cut, with "…" at the cut.
	// Every line of the index then stays well under the 64 KiB that
	// ParseIndex reads back.
	MaxField = 2 << 10
)

// Cut is v cut to at most n bytes (at a character's boundary), "…" at
// the cut; v itself when it fits.
func Cut(v string, n int) string {
	if len(v) <= n {
		return v
	}
	const mark = "…"
	end := max(n-len(mark), 0)
	for end > 0 && !utf8.RuneStart(v[end]) {
		end--
	}
	return v[:end] + mark
}

// indexName is a timeline's index file: one JSON line per entry.
const indexName = "index.jsonl"

// offName is the file whose presence turns recording off.
const offName = "off"

// Entry is one step of a timeline.
type Entry struct {
	Seq       int       `json:"seq"`
	Time      time.Time `json:"time"`
	Session   string    `json:"session,omitempty"`
	Workspace string    `json:"workspace"`
	Action    string    `json:"action"`
	Target    string    `json:"target,omitempty"`
	// Code is the error code of a failed step; empty: it succeeded.
	Code  string `json:"code,omitempty"`
	TabID int    `json:"tabId,omitempty"`
	URL   string `json:"url,omitempty"`
	Title string `json:"title,omitempty"`
	// Image is the capture's file name in the timeline's folder (empty:
	// none was taken, or it was dropped by the bounds).
	Image string `json:"image,omitempty"`
}

// Outcome is the entry's outcome in a word or two: "ok" or its code.
func (e Entry) Outcome() string {
	if e.Code == "" {
		return "ok"
	}
	return e.Code
}

// Store is the folder of every timeline.
type Store struct {
	Dir string
	// The bounds; New sets the package's, tests set smaller ones.
	MaxCaptures   int
	MaxBytes      int64
	MaxEntries    int
	MaxIndexBytes int64
	MaxTimelines  int
	MaxAge        time.Duration

	mu sync.Mutex
	// tallies is what the store knows of each timeline it has added a
	// step to, so that a step is one line appended to the index, not a
	// reading of it: read once, kept up to date since. Another process
	// may remove timelines (replay --clear): a tally left too high then
	// makes the next step read the folder, which sets it right.
	tallies map[string]*tally
	// total is the bytes of captures in all timelines, once counted; -1:
	// not counted (yet, or since a timeline was removed).
	total int64
}

// tally is a timeline's next Seq and its size, as the store last knew
// them.
type tally struct {
	next, entries, captures int
	bytes                   int64 // of the index file
}

// lowWater is where a bound that was passed cuts back to: a tenth below
// it, so that the oldest go in a batch every tenth of the bound instead
// of one at every step (each cut rewrites the index or lists folders).
// Bounds under 10 are cut back to exactly.
func lowWater[N int | int64](bound N) N { return bound - bound/10 }

// New is the store of layout's state folder.
func New(l paths.Layout) *Store { return NewIn(filepath.Join(l.State, "replays")) }

// NewIn is a store in dir.
func NewIn(dir string) *Store {
	return &Store{Dir: dir, MaxCaptures: MaxCaptures, MaxBytes: MaxBytes, MaxEntries: MaxEntries,
		MaxIndexBytes: MaxIndexBytes, MaxTimelines: MaxTimelines, MaxAge: MaxAge, tallies: map[string]*tally{}, total: -1}
}

// folder is workspace's folder: its ID in hex, so that any ID is a safe
// file name.
func (s *Store) folder(workspace string) string {
	return filepath.Join(s.Dir, hex.EncodeToString([]byte(workspace)))
}

// Off says whether recording is turned off (replay --off).
func (s *Store) Off() bool {
	_, err := os.Stat(filepath.Join(s.Dir, offName))
	return err == nil
}

// SetOff turns recording off or back on.
func (s *Store) SetOff(off bool) error {
	p := filepath.Join(s.Dir, offName)
	if !off {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := paths.EnsurePrivateDir(s.Dir); err != nil {
		return err
	}
	return atomicfile.Write(p, nil, 0o600)
}

// Append adds e to its workspace's timeline, with capture (a JPEG; nil:
// none), then applies the bounds. It sets e's Seq and Image.
func (s *Store) Append(e Entry, capture []byte) (Entry, error) {
	if e.Workspace == "" {
		return e, errors.New("a timeline entry needs a workspace")
	}
	e.Target, e.Code = Cut(e.Target, MaxField), Cut(e.Code, MaxField)
	e.URL, e.Title = Cut(e.URL, MaxField), Cut(e.Title, MaxField)
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := s.folder(e.Workspace)
	if err := paths.EnsurePrivateDir(s.Dir); err != nil {
		return e, err
	}
	if err := paths.EnsurePrivateDir(dir); err != nil {
		return e, err
	}
	t := s.tally(e.Workspace)
	e.Seq = t.next
	t.next++
	e.Image = ""
	if capture != nil {
		name := fmt.Sprintf("%08d.jpg", e.Seq)
		if err := writePrivate(filepath.Join(dir, name), capture); err != nil {
			return e, err
		}
		e.Image = name
		t.captures++
		if s.total >= 0 {
			s.total += int64(len(capture))
		}
	}
	line, err := json.Marshal(e)
	if err != nil {
		return e, err
	}
	f, err := os.OpenFile(filepath.Join(dir, indexName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return e, err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return e, err
	}
	t.entries++
	t.bytes += int64(len(line)) + 1
	return e, s.bound(e.Workspace, t, capture != nil)
}

// tally is workspace's tally, read from its folder the first time.
func (s *Store) tally(workspace string) *tally {
	if t, ok := s.tallies[workspace]; ok {
		return t
	}
	t := &tally{}
	s.count(workspace, t)
	s.tallies[workspace] = t
	return t
}

// count sets t's entries, index bytes and captures from workspace's
// folder, and raises its next Seq past the index's entries.
func (s *Store) count(workspace string, t *tally) {
	dir := s.folder(workspace)
	entries, _ := readIndex(dir)
	for _, old := range entries {
		t.next = max(t.next, old.Seq+1)
	}
	t.entries = len(entries)
	t.bytes = 0
	if info, err := os.Stat(filepath.Join(dir, indexName)); err == nil {
		t.bytes = info.Size()
	}
	t.captures = len(s.captures(dir))
}

// writePrivate creates a new 0600 file holding data (never through a
// link left at its name).
func writePrivate(path string, data []byte) error {
	os.Remove(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// capture is one image file of a timeline.
type capture struct {
	dir, name string
	seq       int
	time      time.Time
	size      int64
}

// bound applies the bounds after a step was added to workspace's
// timeline (t its tally; captured: with a capture): its captures beyond
// MaxCaptures and its entries beyond MaxEntries or MaxIndexBytes go,
// oldest first, then the timelines beyond MaxTimelines or MaxAge, then
// the oldest captures of any timeline beyond MaxBytes in all. Each cut
// goes down to the bound's low water, and what is within its bounds is
// known from the tallies without reading a file: a step costs the same
// with 10 entries or 1,000.
func (s *Store) bound(workspace string, t *tally, captured bool) error {
	dir := s.folder(workspace)
	if t.captures > s.MaxCaptures {
		own := s.captures(dir)
		for len(own) > lowWater(s.MaxCaptures) {
			s.remove(own[0])
			own = own[1:]
		}
		t.captures = len(own)
	}
	if t.entries > s.MaxEntries || t.bytes > s.MaxIndexBytes {
		if err := s.boundIndex(dir); err != nil {
			return err
		}
		s.count(workspace, t)
	}
	s.dropTimelines(workspace)
	if captured && (s.total < 0 || s.total > s.MaxBytes) {
		s.boundBytes()
	}
	return nil
}

// remove deletes capture c and takes it off the total.
func (s *Store) remove(c capture) {
	if os.Remove(filepath.Join(c.dir, c.name)) == nil && s.total >= 0 {
		s.total -= c.size
	}
}

// boundBytes counts the captures of every timeline and, beyond
// MaxBytes, drops the oldest down to its low water.
func (s *Store) boundBytes() {
	var all []capture
	var total int64
	folders, _ := os.ReadDir(s.Dir)
	for _, f := range folders {
		if f.IsDir() {
			for _, c := range s.captures(filepath.Join(s.Dir, f.Name())) {
				all = append(all, c)
				total += c.size
			}
		}
	}
	if total > s.MaxBytes {
		sort.Slice(all, func(i, j int) bool { return all[i].time.Before(all[j].time) })
		for _, c := range all {
			if total <= lowWater(s.MaxBytes) {
				break
			}
			if os.Remove(filepath.Join(c.dir, c.name)) == nil {
				total -= c.size
				if id, err := hex.DecodeString(filepath.Base(c.dir)); err == nil {
					if t := s.tallies[string(id)]; t != nil {
						t.captures--
					}
				}
			}
		}
	}
	s.total = total
}

// boundIndex keeps a timeline's index within MaxEntries entries and
// MaxIndexBytes bytes: past either, it drops the oldest entries (and
// their captures) down to the low water of both.
func (s *Store) boundIndex(dir string) error {
	info, err := os.Stat(filepath.Join(dir, indexName))
	if err != nil {
		return nil
	}
	entries, err := readIndex(dir)
	if err != nil || len(entries) <= s.MaxEntries && info.Size() <= s.MaxIndexBytes {
		return nil
	}
	if len(entries) == 0 {
		// Nothing in it reads back (every line too long or not JSON):
		// empty it, and leave the captures to MaxCaptures.
		return writeIndex(dir, nil)
	}
	if len(entries) > lowWater(s.MaxEntries) {
		entries = entries[len(entries)-lowWater(s.MaxEntries):]
	}
	// Each entry is one line: drop from the front until the rest fits.
	size := int64(0)
	keep := len(entries)
	for i := len(entries) - 1; i >= 0; i-- {
		line, _ := json.Marshal(entries[i])
		if size+int64(len(line))+1 > lowWater(s.MaxIndexBytes) {
			break
		}
		size += int64(len(line)) + 1
		keep = i
	}
	if size == 0 {
		keep = len(entries) - 1 // the newest stays, however long
	}
	entries = entries[keep:]
	// The captures of dropped entries go with them.
	first := entries[0].Seq
	for _, c := range s.captures(dir) {
		if c.seq < first {
			s.remove(c)
		}
	}
	return writeIndex(dir, entries)
}

// Prune applies the bounds on timelines in all, MaxAge and MaxTimelines,
// with no step being added: the daemon does it when it starts, so that a
// timeline left for 14 days goes even if no workspace takes a step again.
func (s *Store) Prune() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := os.Stat(s.Dir); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	s.dropTimelines("")
	return nil
}

// dropTimelines deletes the timelines no step was added to for MaxAge,
// then the ones used longest ago beyond MaxTimelines; never current's,
// whose step is being added ("": none is). A timeline's last use is its
// index file's modification time.
func (s *Store) dropTimelines(current string) {
	folders, _ := os.ReadDir(s.Dir)
	type timeline struct {
		name string
		used time.Time
	}
	var kept []timeline
	own := ""
	if current != "" {
		own = filepath.Base(s.folder(current))
	}
	forget := func(name string) {
		if id, err := hex.DecodeString(name); err == nil {
			delete(s.tallies, string(id))
		}
		s.total = -1 // counted again at the next capture
	}
	for _, f := range folders {
		if !f.IsDir() || f.Name() == own {
			continue
		}
		if _, err := hex.DecodeString(f.Name()); err != nil {
			continue // not a timeline's folder
		}
		dir := filepath.Join(s.Dir, f.Name())
		var used time.Time
		if info, err := os.Stat(filepath.Join(dir, indexName)); err == nil {
			used = info.ModTime()
		} else if info, err := f.Info(); err == nil {
			used = info.ModTime()
		}
		if time.Since(used) > s.MaxAge {
			os.RemoveAll(dir)
			forget(f.Name())
			continue
		}
		kept = append(kept, timeline{f.Name(), used})
	}
	limit := max(s.MaxTimelines, 1)
	if own != "" {
		limit-- // current's is one of the MaxTimelines
	}
	if len(kept) <= limit {
		return
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].used.Before(kept[j].used) })
	for _, t := range kept[:len(kept)-limit] {
		os.RemoveAll(filepath.Join(s.Dir, t.name))
		forget(t.name)
	}
}

// captures lists the image files of a timeline's folder, oldest first.
func (s *Store) captures(dir string) []capture {
	ents, _ := os.ReadDir(dir)
	var out []capture
	for _, e := range ents {
		seq, ok := imageSeq(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, capture{dir: dir, name: e.Name(), seq: seq, time: info.ModTime(), size: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// writeIndex replaces a timeline's index with entries.
func writeIndex(dir string, entries []Entry) error {
	var b strings.Builder
	for _, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return atomicfile.Write(filepath.Join(dir, indexName), []byte(b.String()), 0o600)
}

// readIndex reads a timeline's index file.
func readIndex(dir string) ([]Entry, error) {
	data, err := os.ReadFile(filepath.Join(dir, indexName))
	if err != nil {
		return nil, err
	}
	return ParseIndex(data), nil
}

// Timeline is a workspace's entries, in order, with what is left of
// their captures.
type Timeline struct {
	Workspace string
	Entries   []Entry
}

// Image is the capture of e (nil: none is kept).
func (s *Store) Image(e Entry) []byte {
	if _, ok := imageSeq(e.Image); !ok {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(s.folder(e.Workspace), e.Image))
	if err != nil {
		return nil
	}
	return b
}

// Read is workspace's timeline; ErrNoTimeline when none is kept.
func (s *Store) Read(workspace string) (Timeline, error) {
	dir := s.folder(workspace)
	entries, err := readIndex(dir)
	if errors.Is(err, os.ErrNotExist) {
		return Timeline{}, ErrNoTimeline
	}
	if err != nil {
		return Timeline{}, err
	}
	var kept []Entry
	for _, e := range entries {
		if e.Workspace == workspace {
			kept = append(kept, e)
		}
	}
	return Timeline{Workspace: workspace, Entries: kept}, nil
}

// ReadFrom is Read's entries whose Seq is from or later. The index is
// read from its end, a window that doubles from 4 KiB, until the window
// starts with an older entry or holds the whole file: the workspace page
// asks after every step for the steps since the last it shows, which is
// one or two lines at the end of an index of up to 1 MiB.
func (s *Store) ReadFrom(workspace string, from int) (Timeline, error) {
	f, err := os.Open(filepath.Join(s.folder(workspace), indexName))
	if errors.Is(err, os.ErrNotExist) {
		return Timeline{}, ErrNoTimeline
	}
	if err != nil {
		return Timeline{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Timeline{}, err
	}
	size := info.Size()
	for n := int64(4 << 10); ; n *= 2 {
		start := max(size-n, 0)
		buf := make([]byte, size-start)
		if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
			return Timeline{}, err
		}
		if start > 0 {
			// The window's first line may be cut: it starts after it.
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				continue // one line longer than the window
			}
			buf = buf[i+1:]
		}
		entries := ParseIndex(buf)
		if start > 0 && (len(entries) == 0 || entries[0].Seq >= from) {
			continue // older entries of the range may lie before the window
		}
		var kept []Entry
		for _, e := range entries {
			if e.Seq >= from && e.Workspace == workspace {
				kept = append(kept, e)
			}
		}
		return Timeline{Workspace: workspace, Entries: kept}, nil
	}
}

// ErrNoTimeline means no timeline is kept for what was asked.
var ErrNoTimeline = errors.New("no timeline is kept for it")

// Summary describes one kept timeline for replay --list.
type Summary struct {
	Workspace string    `json:"workspace"`
	Sessions  []string  `json:"sessions,omitempty"`
	Steps     int       `json:"steps"`
	Captures  int       `json:"captures"`
	Bytes     int64     `json:"bytes"`
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
}

// List describes every kept timeline, the most recently used first.
func (s *Store) List() ([]Summary, error) {
	folders, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Summary{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []Summary{}
	for _, f := range folders {
		id, err := hex.DecodeString(f.Name())
		if !f.IsDir() || err != nil {
			continue
		}
		t, err := s.Read(string(id))
		if err != nil || len(t.Entries) == 0 {
			continue
		}
		sum := Summary{Workspace: t.Workspace, Steps: len(t.Entries), First: t.Entries[0].Time, Last: t.Entries[len(t.Entries)-1].Time}
		seen := map[string]bool{}
		for _, e := range t.Entries {
			if e.Session != "" && !seen[e.Session] {
				seen[e.Session] = true
				sum.Sessions = append(sum.Sessions, e.Session)
			}
		}
		for _, c := range s.captures(s.folder(t.Workspace)) {
			sum.Captures++
			sum.Bytes += c.size
		}
		out = append(out, sum)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Last.After(out[j].Last) })
	return out, nil
}

// Session is every step a session took, across its workspaces, in time
// order, as one timeline.
func (s *Store) Session(session string) (Timeline, error) {
	sums, err := s.List()
	if err != nil {
		return Timeline{}, err
	}
	merged := Timeline{Workspace: session}
	for _, sum := range sums {
		t, err := s.Read(sum.Workspace)
		if err != nil {
			continue
		}
		var mine []Entry
		for _, e := range t.Entries {
			if e.Session == session {
				mine = append(mine, e)
			}
		}
		merged.Entries = append(merged.Entries, mine...)
	}
	if len(merged.Entries) == 0 {
		return Timeline{}, ErrNoTimeline
	}
	sort.SliceStable(merged.Entries, func(i, j int) bool { return merged.Entries[i].Time.Before(merged.Entries[j].Time) })
	return merged, nil
}

// Delete removes workspace's timeline.
func (s *Store) Delete(workspace string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tallies, workspace)
	s.total = -1
	return os.RemoveAll(s.folder(workspace))
}

// Clear removes every timeline (recording stays on or off as it was);
// it returns how many it removed.
func (s *Store) Clear() (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tallies = map[string]*tally{}
	s.total = -1
	folders, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range folders {
		if !f.IsDir() {
			continue
		}
		if err := os.RemoveAll(filepath.Join(s.Dir, f.Name())); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

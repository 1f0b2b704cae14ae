// Package registry owns the bridge's memory of what it created in the
// browser: the owned tabs (the only ones close may close) and the
// workspaces' windows and tab groups. It is kept in a file in the state
// folder so that it survives a daemon restart, and reconciled with the
// browser's own view whenever the extension says hello.
//
// Tab and window IDs are only unique within one browser profile, and one
// daemon may serve several (the user's Chrome and a launched Chromium), so
// the memory is kept per extension instance: a Set holds one Registry per
// instance, and ownership in one never counts in another.
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/atomicfile"
)

// TTL is how long an owned-tab entry lives without use (docs/design.md#wire-protocol).
const TTL = 30 * time.Minute

// Tab is one tab the bridge opened.
type Tab struct {
	TabID     int    `json:"tabId"`
	WindowID  int    `json:"windowId"`
	Workspace string `json:"workspace"`
	// Session is the session that opened the tab ("session:<id>"; empty
	// in entries written before sessions were recorded).
	Session  string    `json:"session,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed"`
}

// Opener is the session that opened the tab: the one recorded, else the
// session a session workspace is named after; "" when unknown.
func (t Tab) Opener() string {
	if t.Session != "" {
		return t.Session
	}
	if strings.HasPrefix(t.Workspace, "session:") {
		return t.Workspace
	}
	return ""
}

// Workspace is where one agent's tabs go: its own window and tab group.
type Workspace struct {
	ID        string    `json:"id"`
	Created   time.Time `json:"created"`
	WindowID  int       `json:"windowId"`
	GroupID   int       `json:"groupId"`
	Incognito bool      `json:"incognito"`
	Title     string    `json:"title"`
	Color     string    `json:"color"`
	// LastUsed is the last open in the workspace or use of one of its
	// tabs (zero in entries written before it was recorded).
	LastUsed time.Time `json:"lastUsed,omitzero"`
	// Named: the calls named it (browserWorkspaceId or runId), rather than
	// it being their session's own.
	Named bool `json:"named,omitempty"`
}

// Expires says whether the workspace closes when unused for TTL: named
// and run workspaces do. A session's own workspace does not: an agent's
// closes when its session ends, and a program's or the CLI's stays while
// they may come back to it (its tab entries are swept as before).
func (w Workspace) Expires() bool { return w.Named }

// Set is the registries of every extension instance, in one file. It is
// safe for concurrent use.
type Set struct {
	mu    sync.Mutex
	path  string
	now   func() time.Time
	ttl   time.Duration // TTL, unless a test shortens it
	saved time.Time     // last write of the file
	data  map[string]*state
}

type state struct {
	tabs       map[int]*Tab
	workspaces map[string]*Workspace
}

// Registry is one extension instance's view of the Set.
type Registry struct {
	set  *Set
	inst string
}

type instanceFile struct {
	Tabs       []*Tab       `json:"tabs"`
	Workspaces []*Workspace `json:"workspaces"`
}

type file struct {
	Instances map[string]*instanceFile `json:"instances"`
}

// Open loads the registries at path; a missing file is an empty set and a
// corrupt one is set aside (renamed *.corrupt) rather than fatal.
func Open(path string) (*Set, error) {
	s := &Set{path: path, now: time.Now, ttl: TTL, data: map[string]*state{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading registry: %w", err)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		os.Rename(path, path+".corrupt")
		return s, nil
	}
	for inst, fi := range f.Instances {
		if fi == nil {
			continue // "instances": {"x": null}: nothing to load
		}
		st := s.stateLocked(inst)
		for _, t := range fi.Tabs {
			if t != nil {
				st.tabs[t.TabID] = t
			}
		}
		for _, w := range fi.Workspaces {
			if w != nil {
				st.workspaces[w.ID] = w
			}
		}
	}
	return s, nil
}

// For returns the registry of one extension instance.
func (s *Set) For(instance string) *Registry { return &Registry{set: s, inst: instance} }

func (s *Set) stateLocked(inst string) *state {
	st, ok := s.data[inst]
	if !ok {
		st = &state{tabs: map[int]*Tab{}, workspaces: map[string]*Workspace{}}
		s.data[inst] = st
	}
	return st
}

// DropEarlierRuns forgets the entries of earlier runs of the browser of
// instance ("<installation>@<browser session>", see browser.Info): the
// installation's other runs, and entries kept before runs were told
// apart. It returns how many tabs it forgot.
func (s *Set) DropEarlierRuns(instance string) int {
	base, _, ok := strings.Cut(instance, "@")
	if !ok {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for inst, st := range s.data {
		if inst != instance && (inst == base || strings.HasPrefix(inst, base+"@")) {
			n += len(st.tabs)
			delete(s.data, inst)
		}
	}
	if n > 0 {
		s.saveLocked()
	}
	return n
}

// SetClock replaces the clock (tests).
func (s *Set) SetClock(now func() time.Time) {
	s.mu.Lock()
	s.now = now
	s.mu.Unlock()
}

// SetTTL replaces TTL (tests).
func (s *Set) SetTTL(ttl time.Duration) {
	s.mu.Lock()
	s.ttl = ttl
	s.mu.Unlock()
}

// Sweep forgets entries of every instance unused for longer than TTL and
// returns their tab IDs. The tabs of a workspace that expires are left
// to its closing (Expired).
func (s *Set) Sweep() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []int
	cut := s.now().Add(-s.ttl)
	for _, st := range s.data {
		for id, t := range st.tabs {
			if w, ok := st.workspaces[t.Workspace]; ok && w.Expires() {
				continue
			}
			if t.LastUsed.Before(cut) {
				delete(st.tabs, id)
				gone = append(gone, id)
			}
		}
	}
	if len(gone) > 0 {
		s.saveLocked()
	}
	sort.Ints(gone)
	return gone
}

// lock takes the set's lock and returns this instance's state.
func (r *Registry) lock() *state {
	r.set.mu.Lock()
	return r.set.stateLocked(r.inst)
}

func (r *Registry) unlock() { r.set.mu.Unlock() }

// AddTab records a tab the bridge opened.
func (r *Registry) AddTab(tabID, windowID int, workspace string) {
	r.AddTabBy(tabID, windowID, workspace, "")
}

// AddTabBy records a tab that session opened in workspace.
func (r *Registry) AddTabBy(tabID, windowID int, workspace, session string) {
	st := r.lock()
	defer r.unlock()
	now := r.set.now()
	st.tabs[tabID] = &Tab{TabID: tabID, WindowID: windowID, Workspace: workspace, Session: session, Created: now, LastUsed: now}
	r.set.saveLocked()
}

// Get returns the entry of tabID without renewing it.
func (r *Registry) Get(tabID int) (Tab, bool) {
	st := r.lock()
	defer r.unlock()
	t, ok := st.tabs[tabID]
	if !ok {
		return Tab{}, false
	}
	return *t, true
}

// Owned reports whether the bridge opened tabID, and renews its entry
// and its workspace's.
func (r *Registry) Owned(tabID int) (Tab, bool) {
	st := r.lock()
	defer r.unlock()
	t, ok := st.tabs[tabID]
	if !ok {
		return Tab{}, false
	}
	t.LastUsed = r.set.now()
	if w, ok := st.workspaces[t.Workspace]; ok {
		w.LastUsed = t.LastUsed
	}
	// Renewals reach the file at most once a minute: enough for a
	// restarted daemon not to sweep tabs in use, without a write per call.
	if t.LastUsed.Sub(r.set.saved) > time.Minute {
		r.set.saveLocked()
	}
	return *t, true
}

// IsOwned reports whether the bridge opened tabID without renewing it.
func (r *Registry) IsOwned(tabID int) bool {
	st := r.lock()
	defer r.unlock()
	_, ok := st.tabs[tabID]
	return ok
}

// RemoveTab forgets a tab.
func (r *Registry) RemoveTab(tabID int) {
	st := r.lock()
	defer r.unlock()
	if _, ok := st.tabs[tabID]; ok {
		delete(st.tabs, tabID)
		r.set.saveLocked()
	}
}

// Tabs returns the owned tabs of a workspace ("" for all), by tab ID.
func (r *Registry) Tabs(workspace string) []Tab {
	st := r.lock()
	defer r.unlock()
	var out []Tab
	for _, t := range st.tabs {
		if workspace == "" || t.Workspace == workspace {
			out = append(out, *t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].TabID < out[j].TabID })
	return out
}

// Reconcile keeps only the tabs and workspace windows that still exist.
// live maps every open tab ID to its window ID, as the browser saw it at
// time seen; entries made after that are younger than the snapshot and
// kept (a concurrent open must not lose its tab to an older status). Tabs
// that moved to another window keep their entry with the new window.
func (r *Registry) Reconcile(live map[int]int, seen time.Time) {
	st := r.lock()
	defer r.unlock()
	windows := map[int]bool{}
	for _, w := range live {
		windows[w] = true
	}
	changed := false
	for id, t := range st.tabs {
		if t.Created.After(seen) {
			continue
		}
		w, ok := live[id]
		switch {
		case !ok:
			delete(st.tabs, id)
			changed = true
		case t.WindowID != w:
			t.WindowID = w
			changed = true
		}
	}
	for id, ws := range st.workspaces {
		if !ws.Created.After(seen) && !windows[ws.WindowID] {
			delete(st.workspaces, id)
			changed = true
		}
	}
	if changed {
		r.set.saveLocked()
	}
}

// FollowGroups brings the workspaces' tab groups up to date with the
// browser's, as it was at time seen. A workspace's group can go without
// the bridge closing it: when the user closes its workspace page, the
// page takes the tabs out of their group on its way out and the
// extension puts them into a new one (extension/handlers/windows.js).
// A workspace whose group no tab is in any more takes the group of its
// window's workspace page, else the one group its own tabs are in, else
// none (-1); one with none takes its workspace page's group when there
// is one (a status between the two moves saw none). tabs maps every
// open tab to its group, pages a window to its grouped workspace page's
// group (browser.State.Groups). A workspace changed after seen is left
// as it is: an open may just have grouped it.
func (r *Registry) FollowGroups(tabs, pages map[int]int, seen time.Time) {
	st := r.lock()
	defer r.unlock()
	live := map[int]bool{}
	for _, g := range tabs {
		live[g] = true
	}
	changed := false
	for _, w := range st.workspaces {
		group, paged := pages[w.WindowID]
		if w.Created.After(seen) || w.LastUsed.After(seen) || w.GroupID >= 0 && live[w.GroupID] || w.GroupID < 0 && !paged {
			continue
		}
		if !paged {
			group = -1
			for _, t := range st.tabs {
				if g, open := tabs[t.TabID]; open && t.Workspace == w.ID && g >= 0 {
					if group >= 0 && g != group {
						group = -1 // its tabs are in several groups: none is the workspace's
						break
					}
					group = g
				}
			}
		}
		if group != w.GroupID {
			w.GroupID = group
			changed = true
		}
	}
	if changed {
		r.set.saveLocked()
	}
}

// Workspace returns the workspace with id.
func (r *Registry) Workspace(id string) (Workspace, bool) {
	st := r.lock()
	defer r.unlock()
	w, ok := st.workspaces[id]
	if !ok {
		return Workspace{}, false
	}
	return *w, true
}

// SetWorkspace records (or replaces) a workspace.
func (r *Registry) SetWorkspace(w Workspace) {
	st := r.lock()
	defer r.unlock()
	if old, ok := st.workspaces[w.ID]; ok && w.Created.IsZero() {
		w.Created = old.Created
	}
	if w.Created.IsZero() {
		w.Created = r.set.now()
	}
	w.LastUsed = r.set.now()
	st.workspaces[w.ID] = &w
	r.set.saveLocked()
}

// RemoveWorkspace forgets a workspace.
func (r *Registry) RemoveWorkspace(id string) {
	st := r.lock()
	defer r.unlock()
	delete(st.workspaces, id)
	r.set.saveLocked()
}

// Expired returns the workspaces that expire (Workspace.Expires) and that
// nothing used for longer than TTL: neither an open in them nor one of
// their tabs. Their windows and groups are for the daemon to close; the
// entries stay until then.
func (r *Registry) Expired() []Workspace {
	st := r.lock()
	defer r.unlock()
	cut := r.set.now().Add(-r.set.ttl)
	used := map[string]time.Time{}
	for _, t := range st.tabs {
		if t.LastUsed.After(used[t.Workspace]) {
			used[t.Workspace] = t.LastUsed
		}
	}
	var out []Workspace
	for _, w := range st.workspaces {
		if w.Expires() && w.Created.Before(cut) && w.LastUsed.Before(cut) && used[w.ID].Before(cut) {
			out = append(out, *w)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Workspaces returns every workspace, by ID.
func (r *Registry) Workspaces() []Workspace {
	st := r.lock()
	defer r.unlock()
	out := make([]Workspace, 0, len(st.workspaces))
	for _, w := range st.workspaces {
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// saveLocked writes the registries atomically (temp file + rename, 0600).
// A failed save is not fatal: the registries in memory stay right, and the
// next change tries again.
func (s *Set) saveLocked() {
	if s.path == "" {
		return
	}
	s.saved = s.now()
	f := file{Instances: map[string]*instanceFile{}}
	for inst, st := range s.data {
		if len(st.tabs) == 0 && len(st.workspaces) == 0 {
			continue
		}
		fi := &instanceFile{Tabs: make([]*Tab, 0, len(st.tabs)), Workspaces: make([]*Workspace, 0, len(st.workspaces))}
		for _, t := range st.tabs {
			fi.Tabs = append(fi.Tabs, t)
		}
		for _, w := range st.workspaces {
			fi.Workspaces = append(fi.Workspaces, w)
		}
		sort.Slice(fi.Tabs, func(i, j int) bool { return fi.Tabs[i].TabID < fi.Tabs[j].TabID })
		sort.Slice(fi.Workspaces, func(i, j int) bool { return fi.Workspaces[i].ID < fi.Workspaces[j].ID })
		f.Instances[inst] = fi
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return
	}
	atomicfile.Write(s.path, b, 0o600)
}

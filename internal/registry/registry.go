// Package registry owns the bridge's memory of what it created in the
// browser: the owned tabs (the only ones close may close) and the
// workspaces' windows and tab groups. It is kept in a file in the state
// folder so that it survives a daemon restart, and reconciled with the
// browser's own view whenever the extension says hello.
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// TTL is how long an owned-tab entry lives without use (SPEC §1).
const TTL = 30 * time.Minute

// Tab is one tab the bridge opened.
type Tab struct {
	TabID     int       `json:"tabId"`
	WindowID  int       `json:"windowId"`
	Workspace string    `json:"workspace"`
	Created   time.Time `json:"created"`
	LastUsed  time.Time `json:"lastUsed"`
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
}

// Registry is safe for concurrent use.
type Registry struct {
	mu         sync.Mutex
	path       string
	saved      time.Time // last write of the file
	now        func() time.Time
	tabs       map[int]*Tab
	workspaces map[string]*Workspace
}

type file struct {
	Tabs       []*Tab       `json:"tabs"`
	Workspaces []*Workspace `json:"workspaces"`
}

// Open loads the registry at path; a missing file is an empty registry and
// a corrupt one is set aside (renamed *.corrupt) rather than fatal.
func Open(path string) (*Registry, error) {
	r := &Registry{path: path, now: time.Now, tabs: map[int]*Tab{}, workspaces: map[string]*Workspace{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading registry: %w", err)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		os.Rename(path, path+".corrupt")
		return r, nil
	}
	for _, t := range f.Tabs {
		r.tabs[t.TabID] = t
	}
	for _, w := range f.Workspaces {
		r.workspaces[w.ID] = w
	}
	return r, nil
}

// SetClock replaces the clock (tests).
func (r *Registry) SetClock(now func() time.Time) { r.now = now }

// AddTab records a tab the bridge opened.
func (r *Registry) AddTab(tabID, windowID int, workspace string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	r.tabs[tabID] = &Tab{TabID: tabID, WindowID: windowID, Workspace: workspace, Created: now, LastUsed: now}
	r.saveLocked()
}

// Owned reports whether the bridge opened tabID, and renews its entry.
func (r *Registry) Owned(tabID int) (Tab, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.tabs[tabID]
	if !ok {
		return Tab{}, false
	}
	t.LastUsed = r.now()
	// Renewals reach the file at most once a minute: enough for a
	// restarted daemon not to sweep tabs in use, without a write per call.
	if t.LastUsed.Sub(r.saved) > time.Minute {
		r.saveLocked()
	}
	return *t, true
}

// IsOwned reports whether the bridge opened tabID without renewing it.
func (r *Registry) IsOwned(tabID int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.tabs[tabID]
	return ok
}

// RemoveTab forgets a tab.
func (r *Registry) RemoveTab(tabID int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tabs[tabID]; ok {
		delete(r.tabs, tabID)
		r.saveLocked()
	}
}

// Tabs returns the owned tabs of a workspace ("" for all), by tab ID.
func (r *Registry) Tabs(workspace string) []Tab {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Tab
	for _, t := range r.tabs {
		if workspace == "" || t.Workspace == workspace {
			out = append(out, *t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].TabID < out[j].TabID })
	return out
}

// Sweep forgets entries unused for longer than TTL and returns their IDs.
func (r *Registry) Sweep() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var gone []int
	cut := r.now().Add(-TTL)
	for id, t := range r.tabs {
		if t.LastUsed.Before(cut) {
			delete(r.tabs, id)
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		r.saveLocked()
	}
	sort.Ints(gone)
	return gone
}

// Reconcile keeps only the tabs and workspace windows that still exist.
// live maps every open tab ID to its window ID, as the browser saw it at
// time seen; entries made after that are younger than the snapshot and
// kept (a concurrent open must not lose its tab to an older status). Tabs
// that moved to another window keep their entry with the new window.
func (r *Registry) Reconcile(live map[int]int, seen time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	windows := map[int]bool{}
	for _, w := range live {
		windows[w] = true
	}
	changed := false
	for id, t := range r.tabs {
		if t.Created.After(seen) {
			continue
		}
		w, ok := live[id]
		switch {
		case !ok:
			delete(r.tabs, id)
			changed = true
		case t.WindowID != w:
			t.WindowID = w
			changed = true
		}
	}
	for id, ws := range r.workspaces {
		if !ws.Created.After(seen) && !windows[ws.WindowID] {
			delete(r.workspaces, id)
			changed = true
		}
	}
	if changed {
		r.saveLocked()
	}
}

// Workspace returns the workspace with id.
func (r *Registry) Workspace(id string) (Workspace, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.workspaces[id]
	if !ok {
		return Workspace{}, false
	}
	return *w, true
}

// SetWorkspace records (or replaces) a workspace.
func (r *Registry) SetWorkspace(w Workspace) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.workspaces[w.ID]; ok && w.Created.IsZero() {
		w.Created = old.Created
	}
	if w.Created.IsZero() {
		w.Created = r.now()
	}
	r.workspaces[w.ID] = &w
	r.saveLocked()
}

// RemoveWorkspace forgets a workspace.
func (r *Registry) RemoveWorkspace(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.workspaces, id)
	r.saveLocked()
}

// Workspaces returns every workspace, by ID.
func (r *Registry) Workspaces() []Workspace {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Workspace, 0, len(r.workspaces))
	for _, w := range r.workspaces {
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// saveLocked writes the registry atomically (temp file + rename, 0600).
// A failed save is not fatal: the registry in memory stays right, and the
// next change tries again.
func (r *Registry) saveLocked() {
	if r.path == "" {
		return
	}
	r.saved = r.now()
	f := file{Tabs: make([]*Tab, 0, len(r.tabs)), Workspaces: make([]*Workspace, 0, len(r.workspaces))}
	for _, t := range r.tabs {
		f.Tabs = append(f.Tabs, t)
	}
	for _, w := range r.workspaces {
		f.Workspaces = append(f.Workspaces, w)
	}
	sort.Slice(f.Tabs, func(i, j int) bool { return f.Tabs[i].TabID < f.Tabs[j].TabID })
	sort.Slice(f.Workspaces, func(i, j int) bool { return f.Workspaces[i].ID < f.Workspaces[j].ID })
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(r.path), ".registry-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), r.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

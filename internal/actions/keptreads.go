package actions

// The last read of each tab by each session, kept for extract's
// changes: true (changes.go compares with it).

import (
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/changes"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// keptKey is whose read of which tab: the caller's session, the browser
// (its extension instance) and the tab.
type keptKey struct {
	session, instance string
	tabID             int
}

// kept is one session's last read of a tab, and the changes answer being
// read in windows (offset), if any.
type kept struct {
	url     string
	at      time.Time
	read    changes.Read
	pending []tool.Change
}

const (
	keptTTL     = 30 * time.Minute
	keptEntries = 64
)

// keptReads are each session's last read of each tab (Env.lastReads),
// bounded: at most keptEntries reads, none older than keptTTL (a closed
// tab's, an ended session's age out).
type keptReads struct {
	mu sync.Mutex
	m  map[keptKey]kept
}

// get is k's read, if it is of url and not expired.
func (s *keptReads) get(k keptKey, url string) (changes.Read, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[k]
	if !ok || e.url != url || time.Since(e.at) > keptTTL {
		return changes.Read{}, false
	}
	return e.read, true
}

// put keeps rd as k's read of url, and pending as the changes answer
// being read in windows (nil: none).
func (s *keptReads) put(k keptKey, url string, rd changes.Read, pending []tool.Change) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, e := range s.m {
		if time.Since(e.at) > keptTTL {
			delete(s.m, key)
		}
	}
	if s.m == nil {
		s.m = map[keptKey]kept{}
	}
	if _, there := s.m[k]; !there && len(s.m) >= keptEntries {
		var oldest keptKey
		var at time.Time
		for key, e := range s.m {
			if at.IsZero() || e.at.Before(at) {
				oldest, at = key, e.at
			}
		}
		delete(s.m, oldest)
	}
	s.m[k] = kept{url: url, at: time.Now(), read: rd, pending: pending}
}

// pending is k's changes answer being read in windows, if its read is of
// url.
func (s *keptReads) pending(k keptKey, url string) ([]tool.Change, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[k]
	if !ok || e.url != url || e.pending == nil || time.Since(e.at) > keptTTL {
		return nil, false
	}
	return e.pending, true
}

// forgetTab drops every session's read of a tab the bridge closed (a
// session's workspace is closed when the session ends).
func (s *keptReads) forgetTab(instance string, tabID int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.m {
		if k.instance == instance && k.tabID == tabID {
			delete(s.m, k)
		}
	}
}

func keptKeyOf(r *run, tabID int) keptKey {
	return keptKey{session: r.session, instance: r.instance, tabID: tabID}
}

package actions

import (
	"sync"

	"github.com/browser-bridge/browser-bridge/internal/browser"
)

// tabsSeen remembers each tab as the last action on it saw it, for an
// action that may judge the tab before it has looked at it (type in one
// round trip, typeInOneTrip): the extension then checks that the tab
// still shows the URL judged before anything runs, so a stale entry
// costs the quick way, never a wrong judgment.
type tabsSeen struct {
	mu   sync.Mutex
	tabs map[tabKey]browser.TabInfo
}

// maxSeen bounds what tabsSeen holds: past it, it starts again (closed
// tabs are not told to it).
const maxSeen = 1024

func (s *tabsSeen) put(k tabKey, t browser.TabInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tabs == nil || len(s.tabs) >= maxSeen {
		s.tabs = map[tabKey]browser.TabInfo{}
	}
	s.tabs[k] = t
}

func (s *tabsSeen) get(k tabKey) (browser.TabInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tabs[k]
	return t, ok
}

// saw notes tab t as the action sees it.
func (r observer) saw(t browser.TabInfo) {
	if t.TabID != 0 && t.URL != "" {
		r.seen.put(tabKey{r.instance(), t.TabID}, t)
	}
}

// lastSeen is tab tabID as the last action on it saw it.
func (r observer) lastSeen(tabID int) (browser.TabInfo, bool) {
	return r.seen.get(tabKey{r.instance(), tabID})
}

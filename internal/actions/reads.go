// The reads of tabs that several actions share: a tab as the browser
// describes it now, and the cache of full reads that a continued extract or
// inspect cuts from.

package actions

import (
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// readReserve is the time kept back from waits for reading and shaping
// the page once it is ready.
func (r reach) readReserve() time.Duration {
	d := 4 * time.Second
	if dl, ok := r.ctx.Deadline(); ok {
		d = min(d, time.Until(dl)/4)
	}
	return d
}

// tabInfo is the tab as the browser describes it now.
func (r reach) tabInfo(tabID int) (browser.TabInfo, error) {
	return r.b.TabGet(r.ctx, protocol.TabGetParams{TabID: tabID})
}

const (
	readTTL     = 10 * time.Minute
	readEntries = 32
)

// readKey names a read: the tab by its browser's extension instance and
// Chrome's ID (tab IDs are only unique within one browser, and several
// may be connected), what read it (extract, inspect) and which parts.
type readKey struct {
	browser string
	tabID   int
	kind    string
	parts   string
}

type readEntry struct {
	url string
	at  time.Time
	v   any
}

// readCache keeps the latest full reads of tabs for a while, so that a
// continuation (offset) cuts the same text the first call cut from:
// nothing lost or repeated even when the page moves on meanwhile. The
// zero value is ready; Env holds the daemon's.
type readCache struct {
	mu sync.Mutex
	m  map[readKey]readEntry
}

func (c *readCache) get(k readKey, url string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || time.Since(e.at) > readTTL || e.url != url {
		return nil, false
	}
	e.at = time.Now() // reading on keeps it
	c.m[k] = e
	return e.v, true
}

func (c *readCache) put(k readKey, url string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[readKey]readEntry{}
	}
	for key, e := range c.m {
		if time.Since(e.at) > readTTL {
			delete(c.m, key)
		}
	}
	if len(c.m) >= readEntries {
		var oldest readKey
		var at time.Time
		for key, e := range c.m {
			if at.IsZero() || e.at.Before(at) {
				oldest, at = key, e.at
			}
		}
		delete(c.m, oldest)
	}
	c.m[k] = readEntry{url: url, at: time.Now(), v: v}
}

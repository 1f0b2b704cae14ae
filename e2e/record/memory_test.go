package record

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The worker's records stay bounded, whatever a page makes: a URL of
// hundreds of kilobytes keeps a marked start, and network still answers.
func TestHugeURLsKeepAMarkedStart(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/huge?n=40&kb=300")
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/api/ok"}, func(r map[string]any) bool {
		return len(list(r, "requests")) == 40
	})
	for _, q := range list(res, "requests") {
		url := q["url"].(string)
		if len(url) > 4096 || !strings.Contains(url, "cut") {
			t.Fatalf("a URL of 300 KB is kept as %d characters (%.80s…%s), want at most 4,096 with a mark", len(url), url, url[max(0, len(url)-40):])
		}
	}
	d := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": list(res, "requests")[0]["requestId"]})
	if b, _ := json.Marshal(d); len(b) > 64*1024 {
		t.Errorf("one request's detail is %d bytes", len(b))
	}
}

// Across all tabs the records keep to a memory cap: a page whose
// responses carry 200 KB of headers each loses its oldest requests
// before the per-tab ring of 500 is full, counted, and network answers.
func TestTheRecordsKeepToAMemoryCap(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/fat-page?n=240")
	// 48 MB of headers take a while on a busy machine.
	res := waitWithin(t, 60*time.Second, map[string]any{"action": "network", "tabId": tab, "urlContains": "/fat?"}, func(r map[string]any) bool {
		q := list(r, "requests")
		return len(q) > 0 && strings.HasSuffix(q[len(q)-1]["url"].(string), "i=239") && q[len(q)-1]["status"] == 200.0
	})
	dropped, _ := res["dropped"].(float64)
	if n := len(list(res, "requests")); dropped == 0 || n >= 240 {
		t.Fatalf("240 responses of 200 KB of headers each are all kept (%d listed, %v dropped): the records have no memory cap", n, dropped)
	}
}

package actions

import (
	"encoding/json"
	"strconv"
	"sync/atomic"

	"github.com/browser-bridge/browser-bridge/internal/changes"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// How much an acting action changed its page (docs/reference.md, "What
// an action changed on the page"), at no extra round trip on the
// action's path: the action's last locate notes the page's blocks
// (page/locate.js pageMark, asked for by locateQuery.Mark), and the
// observe step compares the page with that note beside its look at the
// tab (page/locate.js pageChange, sent at the same time as tab.get).
// The run holds its mark (pageMark); its locator notes under it and its
// observer takes it.

var pageChangeScript = script("pageChange", "page/locate.js")

// pageMark is the token an acting run's locates note the page under,
// and whether one of them did: the run's own, so that nothing outlives
// the call.
type pageMark struct {
	token string
	noted atomic.Bool
}

// pageMarkSeq numbers the tokens: a page keeps the note of one run
// apart from another's.
var pageMarkSeq atomic.Uint64

// newPageMark is the mark of a run of spec's action: a token for an
// action that changes the page, none for one that only reads (its
// locates note nothing).
func newPageMark(changesPage bool) *pageMark {
	m := &pageMark{}
	if changesPage {
		m.token = "m" + strconv.FormatUint(pageMarkSeq.Add(1), 36)
	}
	return m
}

// note is the token a locate notes the page under ("" for none; a
// nil mark is none).
func (m *pageMark) note() string {
	if m == nil {
		return ""
	}
	if m.token != "" {
		m.noted.Store(true)
	}
	return m.token
}

// take is the token a locate noted the page under, once; "" when no
// locate noted it.
func (m *pageMark) take() string {
	if m == nil || !m.noted.Swap(false) {
		return ""
	}
	return m.token
}

// pageChangeAsync starts comparing tab tabID's page with the note of
// r's locate beside the observe step's other looks, and returns the
// function that waits for the answer (nil: none, see pageChange). Runs
// whose locate noted nothing send nothing.
func pageChangeAsync(r observer, tabID int) func() *tool.PageChange {
	tok := r.mark.take()
	if tok == "" {
		return func() *tool.PageChange { return nil }
	}
	done := make(chan *tool.PageChange, 1)
	go func() { done <- pageChange(r, tabID, tok) }()
	return func() *tool.PageChange { return <-done }
}

// pageChangeAnswer is page/locate.js pageChange's answer: the blocks
// that differ, before and after, as [hash, length] pairs.
type pageChangeAnswer struct {
	Before [][2]json.RawMessage `json:"before"`
	After  [][2]json.RawMessage `json:"after"`
	// StillChanging: the text was the same, but the document kept
	// changing.
	StillChanging bool `json:"stillChanging"`
}

// pageChange is how much the act changed tab tabID's page since the
// note under tok; nil when that cannot be told (no note: the locate ran
// in a child frame; the act led to another document, the page is too
// big to note, the look failed). It is a report, never the action's
// failure.
func pageChange(r observer, tabID int, tok string) *tool.PageChange {
	var a *pageChangeAnswer
	if err := r.runPageTop(tabID, nil, pageChangeScript, map[string]string{"token": tok}, &a); err != nil || a == nil {
		return nil
	}
	before, ok1 := decodeBlocks(a.Before)
	after, ok2 := decodeBlocks(a.After)
	if !ok1 || !ok2 {
		return nil
	}
	n, delta := changes.Count(before, after)
	return &tool.PageChange{ChangedBlocks: n, DeltaChars: delta, StillChanging: a.StillChanging && n == 0}
}

// decodeBlocks reads the page's [hash, length] pairs.
func decodeBlocks(list [][2]json.RawMessage) ([]changes.Block, bool) {
	out := make([]changes.Block, len(list))
	for i, p := range list {
		if json.Unmarshal(p[0], &out[i].Hash) != nil || json.Unmarshal(p[1], &out[i].Len) != nil {
			return nil, false
		}
	}
	return out, true
}

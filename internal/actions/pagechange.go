package actions

import (
	"encoding/json"
	"strconv"
	"sync"
	"weak"

	"github.com/browser-bridge/browser-bridge/internal/changes"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// How much an acting action changed its page (docs/reference.md, "What
// an action changed on the page"), at no extra round trip on the
// action's path: the action's last locate notes the page's blocks
// (page/locate.js pageMark, asked for by locateQuery.Mark), and the
// observe step compares the page with that note beside its look at the
// tab (page/locate.js pageChange, sent at the same time as tab.get).
// These are functions, not methods of the run's views, which have as
// many methods as they should.

var pageChangeScript = script("pageChange", "page/locate.js")

// pageMarks are the runs whose locate asked the page for a note, each
// with the token it noted the page under. The keys are weak: a run that
// failed before its observe step is not kept alive by its entry, which
// goes at the next prune.
var pageMarks struct {
	mu   sync.Mutex
	runs map[weak.Pointer[run]]string
	last uint64
}

// pruneMarksAt: past this many entries, those of finished runs go.
const pruneMarksAt = 256

// pageMarkFor is the token a locate of run r notes the page under, for
// an action that changes the page; "" for one that only reads (its
// locate notes nothing).
func pageMarkFor(r *run) string {
	if !r.spec().ChangesPage {
		return ""
	}
	m := &pageMarks
	m.mu.Lock()
	defer m.mu.Unlock()
	k := weak.Make(r)
	if tok, ok := m.runs[k]; ok {
		return tok
	}
	if m.runs == nil {
		m.runs = map[weak.Pointer[run]]string{}
	}
	if len(m.runs) >= pruneMarksAt {
		for w := range m.runs {
			if w.Value() == nil {
				delete(m.runs, w)
			}
		}
	}
	m.last++
	tok := "m" + strconv.FormatUint(m.last, 36)
	m.runs[k] = tok
	return tok
}

// takePageMark is the token run r noted the page under, forgotten now;
// "" when its locate noted nothing.
func takePageMark(r *run) string {
	m := &pageMarks
	m.mu.Lock()
	defer m.mu.Unlock()
	k := weak.Make(r)
	tok := m.runs[k]
	delete(m.runs, k)
	return tok
}

// pageChangeAsync starts comparing tab tabID's page with the note of
// r's locate beside the observe step's other looks, and returns the
// function that waits for the answer (nil: none, see pageChange). Runs
// whose locate noted nothing send nothing.
func pageChangeAsync(r observer, tabID int) func() *tool.PageChange {
	tok := takePageMark(r.run)
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

package actions

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/changes"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// How much an acting action changed its page (docs/reference.md, "What
// an action changed on the page"), at no extra round trip on the
// action's path: the action's last locate notes the page's blocks
// (page/locate.js pageMark, asked for by locateQuery.Mark), and the
// observe step compares the page with that note beside its look at the
// tab (page/locate.js pageChange, sent at the same time as tab.get).
// The run holds its mark (pageMark); its locator notes under it and its
// observer takes it. fill's fields share one mark (see span), so that
// fill says how its fields together changed the page.

var pageChangeScript = script("pageChange", "page/locate.js")

// pageMark is the token an acting run's locates note the page under,
// and whether one of them did: the run's own, so that nothing outlives
// the call.
type pageMark struct {
	token string
	noted atomic.Bool
	// kept: the page holds the note wanted, and later locates send no
	// other (a note replaces the page's last one under the same token).
	kept atomic.Bool
	// held: observes compare nothing; a later run's observe will.
	held atomic.Bool
}

// pageMarkSeq numbers the tokens: a page keeps the note of one run
// apart from another's; pageMarkPrefix is the process's own, since a
// page keeps its note across a restart of the daemon, whose numbers
// start again.
var (
	pageMarkSeq    atomic.Uint64
	pageMarkPrefix = "m" + strconv.FormatUint(rand.Uint64(), 36) + "-"
)

// newPageMark is the mark of a run of spec's action: a token for an
// action that changes the page, none for one that only reads (its
// locates note nothing).
func newPageMark(changesPage bool) *pageMark {
	m := &pageMark{}
	if changesPage {
		m.token = pageMarkPrefix + strconv.FormatUint(pageMarkSeq.Add(1), 36)
	}
	return m
}

// note is the token a locate notes the page under ("" for none; a
// nil mark is none).
func (m *pageMark) note() string {
	if m == nil || m.kept.Load() {
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
	if m == nil || m.held.Load() || !m.noted.Swap(false) {
		return ""
	}
	return m.token
}

// span is how runs one after another (fill's fields, each a run of its
// own) share one mark, to say how they changed the page together: the
// page as the first run's locate noted it, compared after the last run's
// act, beside that run's look at the tab as for any action. Before each
// run, next says whether it is the last (only the last one's observe
// compares); after each, ran keeps the page's note from then on (the
// later runs' locates note nothing), or drops it when the note no
// longer stands for the page (the run's element was in a child frame,
// or it led to another document): then nothing is said, rather than
// "unchanged" for a page that changed.
type span struct{ m *pageMark }

// spanOf starts a span over m (a nil or token-less mark spans nothing).
func spanOf(m *pageMark) span {
	if m != nil {
		m.held.Store(true)
	}
	return span{m}
}

// next readies the mark for the next run: last says whether that run
// is the last, whose observe compares.
func (s span) next(last bool) *pageMark {
	if s.m != nil {
		s.m.held.Store(!last)
	}
	return s.m
}

// ran is called after each run: keep says whether the page's note
// still stands for what the runs so far changed.
func (s span) ran(keep bool) {
	if s.m == nil {
		return
	}
	s.m.kept.Store(true)
	if !keep {
		s.m.noted.Store(false)
	}
}

// pageChangeAsync starts comparing tab tabID's page with the note of
// r's locate beside the observe step's other looks, and returns the
// function that waits for the answer (nil: none, see pageChange). Runs
// whose locate noted nothing send nothing, and neither does one whose
// element is in a child frame: the note is of the top document, which
// an act in a frame may leave as it was.
func pageChangeAsync(r observer, tabID int, el *Element) func() *tool.PageChange {
	tok := r.mark.take()
	if tok == "" || (el != nil && el.FrameID != 0) {
		return func() *tool.PageChange { return nil }
	}
	done := make(chan *tool.PageChange, 1)
	go func() { done <- pageChange(r, tabID, tok) }()
	return func() *tool.PageChange { return <-done }
}

// pageChangeWait bounds the comparison: it is a report, and a page that
// does not answer by then (a dialog the act opened holds its scripts)
// gets none rather than holding the action's answer.
const pageChangeWait = time.Second

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
	// Straight to the page, not through the dialog answerer (runPage):
	// a dialog the act opened is the action's next step to report, not
	// this look's to wait for.
	ctx, cancel := context.WithTimeout(r.ctx, pageChangeWait)
	defer cancel()
	top := 0
	res, err := r.b.PageRun(ctx, protocol.PageRunParams{TabID: tabID, FrameID: &top, Files: pageChangeScript.files,
		Fn: pageChangeScript.fn, Args: map[string]string{"token": tok}})
	if err != nil {
		return nil
	}
	if res, err = r.refuseFrames(tabID, res); err != nil || len(res) == 0 || res[0].Error != "" {
		return nil
	}
	var a *pageChangeAnswer
	if json.Unmarshal(res[0].Value, &a) != nil || a == nil {
		return nil
	}
	before, ok1 := decodeBlocks(a.Before)
	after, ok2 := decodeBlocks(a.After)
	if !ok1 || !ok2 {
		return nil
	}
	n, delta, ok := changes.Count(before, after)
	if !ok {
		return nil
	}
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

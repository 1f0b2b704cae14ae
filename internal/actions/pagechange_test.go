package actions

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Only an action that changes the page asks its locate for a note of the
// page, and its observe step takes the note once. (The fake browser
// stands in for the extension; nothing here reaches a page.)
func TestPageMarkIsAnActingRunsOnce(t *testing.T) {
	t.Parallel()
	env := engine(t, fakebrowser.New())
	read := start(t, env, `{"action":"inspect","tabId":2}`)
	if tok := read.mark.note(); tok != "" {
		t.Errorf("inspect asked for a note of the page: %q", tok)
	}
	click := start(t, env, `{"action":"click","tabId":2,"selector":"a"}`)
	tok := click.mark.note()
	if tok == "" || click.mark.note() != tok {
		t.Fatalf("click's token %q: want one, the same on every locate", tok)
	}
	other := start(t, env, `{"action":"type","tabId":2,"selector":"input","value":"x"}`)
	if o := other.mark.note(); o == tok {
		t.Errorf("two runs share token %q", tok)
	}
	if got := click.mark.take(); got != tok {
		t.Errorf("take = %q, want %q", got, tok)
	}
	if got := click.mark.take(); got != "" {
		t.Errorf("take again = %q, want none", got)
	}
}

// fill's fields share one mark (span): only the first field's locates
// note the page, only the last field's observe compares, and a field
// the note does not stand for (in a child frame, or one that navigated)
// leaves nothing to compare.
func TestASpanNotesOnceAndComparesAtTheEnd(t *testing.T) {
	t.Parallel()
	env := engine(t, fakebrowser.New())
	fill := start(t, env, `{"action":"fill","tabId":2,"fields":[{"selector":"a","value":"x"}]}`)
	marks := spanOf(fill.mark)
	first := marks.next(false)
	tok := first.note()
	if tok == "" || first.note() != tok {
		t.Fatalf("the first field's locates note under %q, want one token", tok)
	}
	if got := first.take(); got != "" {
		t.Errorf("the first of two fields compares under %q, want not yet", got)
	}
	marks.ran(true)
	last := marks.next(true)
	if got := last.note(); got != "" {
		t.Errorf("the last field's locate notes the page again under %q: the first field's note would be lost", got)
	}
	if got := last.take(); got != tok {
		t.Errorf("the last field compares under %q, want %q", got, tok)
	}

	// A field the note does not stand for (fill: one in a child frame,
	// or one that navigated) leaves the last field nothing to compare.
	marks = spanOf(start(t, env, `{"action":"fill","tabId":2,"fields":[{"selector":"a","value":"x"}]}`).mark)
	marks.next(false).note()
	marks.ran(false)
	if got := marks.next(true).take(); got != "" {
		t.Errorf("after a field the note does not stand for, the last field compares under %q, want nothing", got)
	}
}

// fillOfTwo runs a fill that types into two fields of tab 2, the fake
// answering each field's one-trip batch with the tab as after[i] (the
// batch in typetrip_test.go) and pageChange with answer. It returns the
// result, the locate query of each field's batch, and the page.run calls
// of pageChange.
func fillOfTwo(t *testing.T, after [2]browser.TabInfo, answer string) (*tool.FillResult, []locateQuery, []protocol.PageRunParams) {
	t.Helper()
	fake, env := ownedTabs(t)
	tab := browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/", Active: true}
	seeTab(env, tab)
	var n atomic.Int32
	fake.Handle("cdp.batch", fakebrowser.Typed(func(context.Context, protocol.CDPBatchParams) (any, error) {
		a := typedAnswer(after[min(int(n.Add(1))-1, 1)])
		a.Before = &tab
		return a, nil
	}))
	fake.Handle("tab.waitLoad", fakebrowser.Typed(func(_ context.Context, p protocol.TabWaitLoadParams) (any, error) {
		return after[0], nil
	}))
	fake.Handle("page.run", fakebrowser.Typed(func(_ context.Context, p protocol.PageRunParams) (any, error) {
		if p.Fn != "pageChange" {
			return nil, protocol.Errorf(protocol.CodeInternal, "unexpected %s", p.Fn)
		}
		return protocol.PageRunResult{Frames: []protocol.PageFrameResult{{FrameID: 0, Value: json.RawMessage(answer)}}}, nil
	}))
	res, err := Run(context.Background(), env, "session:a", input(t, `{"action":"fill","tabId":2,"fields":[
		{"label":"First","value":"Ada"},{"label":"Last","value":"Lovelace"}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var queries []locateQuery
	for _, c := range fake.Calls("cdp.batch") {
		var p struct {
			Check struct {
				Frames []struct {
					Args typeTripArgs `json:"args"`
				} `json:"frames"`
			} `json:"check"`
		}
		if err := c.Decode(&p); err != nil || len(p.Check.Frames) != 1 {
			t.Fatalf("batch %s: %v", c.Frame, err)
		}
		queries = append(queries, p.Check.Frames[0].Args.Locate)
	}
	var compares []protocol.PageRunParams
	for _, c := range fake.Calls("page.run") {
		var p protocol.PageRunParams
		if err := c.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Fn == "pageChange" {
			compares = append(compares, p)
		}
	}
	return res.(*tool.FillResult), queries, compares
}

// A fill says how its fields together changed the page: the first
// field's locate notes the page, the second's does not note it again,
// and the page is compared once, after the last field, under that note.
// (The fake stands in for the extension: the page's answer is scripted.)
func TestFillComparesThePageOnceAfterItsLastField(t *testing.T) {
	t.Parallel()
	tab := browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/", Active: true}
	res, queries, compares := fillOfTwo(t, [2]browser.TabInfo{tab, tab},
		`{"before":[["h1",5]],"after":[["h2",18]]}`)
	if len(queries) != 2 || queries[0].Mark == "" || queries[1].Mark != "" {
		t.Fatalf("the fields' locates noted the page under %+v; want the first field's only", queries)
	}
	if len(compares) != 1 {
		t.Fatalf("the page was compared %d times, want once, after the last field", len(compares))
	}
	if args, _ := compares[0].Args.(map[string]any); args["token"] != queries[0].Mark {
		t.Errorf("compared under %v, want the first field's note %q", compares[0].Args, queries[0].Mark)
	}
	if pc := res.PageChange; pc == nil || pc.ChangedBlocks != 1 || pc.DeltaChars != 13 {
		t.Errorf("fill's page change %+v, want 1 block changed, +13 chars", pc)
	}
}

// A fill whose first field led to another page compares nothing: the
// note was of the page before, and "unchanged" could be false.
func TestFillAfterANavigationSaysNothingOfThePage(t *testing.T) {
	t.Parallel()
	tab := browser.TabInfo{TabID: 2, WindowID: 9, URL: "https://example.com/", Active: true}
	next := tab
	next.URL = "https://example.com/next"
	res, _, compares := fillOfTwo(t, [2]browser.TabInfo{next, next}, `{"before":[],"after":[]}`)
	if len(compares) != 0 || res.PageChange != nil {
		t.Errorf("after a navigation, fill compared the page %d times and says %+v; want nothing", len(compares), res.PageChange)
	}
}

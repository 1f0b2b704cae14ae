package actions

import (
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/extract"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("extract", extractPage) }

// maxFramesListed bounds frames[] (a page of ads may have dozens).
const maxFramesListed = 40

// aRead is a read of a tab kept for its continuations: the content and
// the parts the read returns (a read without include decides them from
// the page's size once, so every window of it has the same ones).
type aRead struct {
	c       *extract.Content
	include map[string]bool
	omitted []string
}

// waitCondition is extract's optional waitFor (Parse checked its shape).
func waitCondition(w *tool.WaitFor) *condition {
	switch {
	case w == nil:
		return nil
	case w.Present():
		loc := w.Locator
		return &condition{loc: &loc}
	}
	return &condition{urlContains: w.URLContains}
}

func extractPage(r *run) (*tool.ExtractResult, error) {
	include, err := extract.CheckInclude(r.in.Include)
	if err != nil {
		return nil, invalid("%v", err)
	}
	maxChars, offset, err := r.in.Budget()
	if err != nil {
		return nil, err
	}
	cond := waitCondition(r.in.WaitFor)
	var tab browser.TabInfo
	var warnings []string
	if r.in.URL != "" {
		o, err := open(r) // new tab in the workspace, current tab, or tabId, as open
		if err != nil {
			return nil, err
		}
		if o.LoadError != "" {
			return nil, protocol.Errorf(protocol.CodeProtectedPage, "%s could not be loaded (%s): tab %d shows the browser's error page; check the URL, or try again when the site is reachable", o.URL, o.LoadError, protocol.Tab(o.TabID))
		}
		tab = browser.TabInfo{TabID: o.TabID, WindowID: o.WindowID, URL: o.URL, Title: o.Title}
		warnings = append(warnings, o.Warnings...)
	} else if tab, err = r.guards().pageTarget(); err != nil {
		return nil, err
	}

	asked := len(r.in.Include) > 0
	parts := "default"
	if asked {
		parts = partsKey(include)
	}
	if offset > 0 && r.in.Changes {
		if res, ok := moreChanges(r, tab, offset, maxChars); ok { // changes.go
			return res, nil
		}
	}
	key := readKey{browser: r.browserInstance(), tabID: tab.TabID, kind: "extract", parts: parts}
	if offset > 0 {
		if v, ok := r.env.reads.get(key, tab.URL); ok {
			rd := v.(aRead)
			res := shapeExtract(tab, rd.c, rd.include, offset, maxChars, nil)
			res.Omitted = rd.omitted
			return res, nil
		}
		warnings = append(warnings, "the earlier read of this tab has expired or the page has changed, so it was read again; if the page changed, this part may not line up with the earlier one")
	}

	r.settling().ensureQuietScript()
	reserve := r.readReserve()
	if cond != nil {
		if _, err := r.settling().waitFor(tab.TabID, *cond, r.until(reserve)); err != nil {
			return nil, err
		}
	}
	w, err := r.settling().settle(tab.TabID, reserve)
	if err != nil {
		return nil, err
	}
	warnings = append(warnings, w...)
	page, err := r.settling().readPage(tab.TabID)
	if err != nil {
		return nil, err
	}
	rd, err := buildRead(page, include, asked, maxChars)
	if err != nil {
		return nil, fmt.Errorf("reading the page: %w", err)
	}
	if t, err := r.tabInfo(tab.TabID); err == nil {
		tab = t
	}
	r.env.reads.put(key, tab.URL, rd)
	warnings = append(warnings, rd.c.Warnings...)
	if len(rd.omitted) > 0 {
		warnings = append(warnings, omittedNote(rd.c, rd.omitted, maxChars))
	}
	res := shapeExtract(tab, rd.c, rd.include, offset, maxChars, warnings)
	res.Omitted = rd.omitted
	return sinceLastRead(r, tab, rd.c, include, res, offset, maxChars), nil // changes.go
}

// buildRead builds the parts a read returns. Asked (include given), they
// are those. Else every part while the page fits the budget; a page
// larger than that is read as its markdown only — which holds its text,
// links and headings — so that reading it to its end gives the page once,
// not five times over (the reader view, the links, the headings and the
// plain text repeat it): the result names the parts left out.
func buildRead(page extract.Page, include map[string]bool, asked bool, maxChars int) (aRead, error) {
	if asked {
		c, err := extract.Build(page, include)
		return aRead{c: c, include: include}, err
	}
	// The cheap parts first: the reader view (readability) is built only
	// for a page they do not already make larger than the budget.
	cheap := map[string]bool{}
	for k, v := range include {
		cheap[k] = v
	}
	delete(cheap, extract.PartReader)
	c, err := extract.Build(page, cheap)
	if err != nil {
		return aRead{}, err
	}
	fits := func(c *extract.Content) bool {
		n := 0
		for _, p := range extract.Order {
			n += c.Size(p)
		}
		return n <= maxChars*85/100
	}
	if fits(c) {
		if c, err = extract.Build(page, include); err != nil {
			return aRead{}, err
		}
		if fits(c) {
			// A small page's reader view is mostly the markdown again: it
			// is left out when it adds nothing.
			if include[extract.PartReader] && extract.Repeats(c.Reader.Markdown, c.Markdown) {
				include = maps.Clone(include)
				delete(include, extract.PartReader)
			}
			return aRead{c: c, include: include}, nil
		}
	}
	md := map[string]bool{extract.PartMarkdown: true, extract.PartFrames: include[extract.PartFrames], extract.PartWarnings: true}
	var omitted []string
	for _, p := range extract.Order {
		if p != extract.PartMarkdown {
			omitted = append(omitted, p)
		}
	}
	return aRead{c: c, include: md, omitted: omitted}, nil
}

// omittedNote says what a read of a large page left out and how to get
// it.
func omittedNote(c *extract.Content, omitted []string, maxChars int) string {
	return fmt.Sprintf("the page is larger than the budget (%d characters): this read has only its markdown (%d characters), which holds its text, links and headings; "+
		"left out: %s — pass include for them, e.g. [\"links\"] or [\"reader\"] (the main article)",
		maxChars, c.Size(extract.PartMarkdown), strings.Join(omitted, ", "))
}

// shapeExtract cuts the window of c that starts at offset to the budget.
// The first window carries frames[] and the page's warnings; every window
// carries tabId, url, title, totalChars and, when more follows, nextOffset.
func shapeExtract(tab browser.TabInfo, c *extract.Content, include map[string]bool, offset, maxChars int, warnings []string) *tool.ExtractResult {
	// The URL stays whole (it must be exact); the title and the warnings,
	// which pages fill, are bounded.
	res := tool.ExtractResult{Page: tool.Page{TabID: tab.TabID, URL: firstNonEmpty(c.URL, tab.URL),
		Title: extract.Shorten(firstNonEmpty(c.Title, tab.Title), min(maxTitle, max(40, maxChars/10)))}, Offset: offset}
	res.Warnings = boundWarnings(warnings, maxChars/5)
	if offset == 0 && include[extract.PartFrames] {
		res.Frames, res.Warnings = listFrames(res, c.Frames, maxChars/4)
	}
	var order []string
	for _, p := range extract.Order {
		if include[p] {
			order = append(order, p)
		}
	}
	more := func(next, total int) string {
		return fmt.Sprintf("characters %d to %d of %d (parts in order: %s); for the rest, call extract with tabId %d and offset %d",
			offset, next, total, strings.Join(order, ", "), tab.TabID, next)
	}
	// What is not content still counts against the budget, the note on
	// how to go on included (at its longest). The content's own JSON
	// quoting (newlines, quotes) takes more again, a lot on line-dense
	// text: when the window comes out over, it is cut again, smaller by
	// as much, a few times at most.
	meta, _ := json.Marshal(res)
	const big = 1 << 30
	floor := maxChars / 4
	budget := max((maxChars-utf8.RuneCount(meta)-len(more(big, big))-100)*92/100, floor)
	head := res
	for try := 0; ; try++ {
		res = head
		ch := c.Slice(include, offset, budget)
		res.Markdown, res.Reader, res.Text = ch.Markdown, ch.Reader, ch.Text
		res.Links, res.Headings = ch.Links, ch.Headings
		res.TotalChars = ch.Total
		if ch.Next > 0 {
			next := ch.Next
			res.NextOffset = &next
			res.Warnings = append(res.Warnings[:len(res.Warnings):len(res.Warnings)], more(next, ch.Total))
		}
		if budget == floor || try == 3 {
			break
		}
		b, _ := json.Marshal(res)
		size := utf8.RuneCount(b)
		if size <= maxChars {
			break
		}
		budget = max(budget-(size-maxChars)-budget/50, floor)
	}
	total := res.TotalChars
	if offset > total {
		res.Warnings = append(res.Warnings, fmt.Sprintf("offset %d is past the end (totalChars %d): nothing more to read", offset, total))
	}
	return &res
}

// boundWarnings keeps warnings within room characters: each at most
// maxWarning (and a fair share of room), at most maxWarnings of them, and a
// note of how many were left out.
func boundWarnings(warnings []string, room int) []string {
	if len(warnings) == 0 {
		return nil
	}
	each := min(maxWarning, max(60, room/min(len(warnings), maxWarnings)))
	var out []string
	used := 0
	for i, w := range warnings {
		w = extract.Shorten(w, each)
		if i == maxWarnings || (i > 0 && used+len(w) > room) {
			return append(out, fmt.Sprintf("and %d more warnings", len(warnings)-i))
		}
		out = append(out, w)
		used += len(w)
	}
	return out
}

// Bounds on what pages fill besides the content: a frame's URL in frames[]
// (ad frames carry URLs of several kilobytes; the frame's content is what
// matters), the title, and the warnings.
const (
	maxFrameURL = 200
	maxTitle    = 300
	maxWarning  = 300
	maxWarnings = 10
)

// listFrames is frames[] for the first window of res: at most
// maxFramesListed frames with their URLs shortened, and fewer when the
// result's metadata would otherwise take more than room characters, so
// that the whole result keeps to its budget. It returns res's warnings
// with a note when frames were left out of the list.
func listFrames(res tool.ExtractResult, all []extract.FrameInfo, room int) ([]extract.FrameInfo, []string) {
	frames := make([]extract.FrameInfo, 0, min(len(all), maxFramesListed))
	for _, f := range all[:min(len(all), maxFramesListed)] {
		f.URL = extract.Shorten(f.URL, maxFrameURL)
		frames = append(frames, f)
	}
	warnings := res.Warnings
	for n := len(frames); ; n /= 2 {
		res.Frames = frames[:n]
		if n < len(all) {
			res.Warnings = append(warnings[:len(warnings):len(warnings)], fmt.Sprintf("the page has %d frames; frames lists the first %d", len(all), n))
		}
		if meta, _ := json.Marshal(res); len(meta) <= room || n == 0 {
			return res.Frames, res.Warnings
		}
	}
}

func partsKey(include map[string]bool) string {
	var p []string
	for k, v := range include {
		if v {
			p = append(p, k)
		}
	}
	sort.Strings(p)
	return strings.Join(p, ",")
}

package actions

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/changes"
	"github.com/browser-bridge/browser-bridge/internal/extract"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// extract with changes: true answers with what changed since the
// session's last read of the tab (docs/reference.md, "Extract: what
// changed since the last read"). The daemon keeps each session's last
// read of each tab of each browser here — apart from the reads kept for
// continuations, which are the tab's, whoever read it.

// readOf is what changes compares of a read: the parts it holds (include
// says which; the markdown of an earlier read stands in for a read
// without it).
func readOf(c *extract.Content, include map[string]bool, prev changes.Read) changes.Read {
	rd := changes.Read{Markdown: c.Markdown}
	if !include[extract.PartMarkdown] {
		rd.Markdown = prev.Markdown
	}
	if rd.HasLinks = include[extract.PartLinks]; rd.HasLinks {
		for _, l := range c.Links {
			rd.Links = append(rd.Links, fmt.Sprintf("[%s](%s)", l.Text, l.URL))
		}
	}
	if rd.HasHeadings = include[extract.PartHeadings]; rd.HasHeadings {
		for _, h := range c.Headings {
			rd.Headings = append(rd.Headings, strings.Repeat("#", min(max(h.Level, 1), 6))+" "+h.Text)
		}
	}
	if rd.HasFrames = include[extract.PartFrames]; rd.HasFrames {
		for _, f := range c.Frames {
			s := fmt.Sprintf("frame %d %s", f.FrameID, extract.Shorten(f.URL, maxFrameURL))
			if !f.Included {
				s += " (not included: " + f.Reason + ")"
			}
			rd.Frames = append(rd.Frames, s)
		}
	}
	return rd
}

// sinceLastRead keeps the read c of tab (the parts include names) as the
// session's last read of it, and answers extract: res, the full read, or
// with changes: true what changed since the read it replaces — res with
// changes "full" when there was none (the first read, or the tab is on
// another page), unchanged when nothing did.
func sinceLastRead(r *run, tab browser.TabInfo, c *extract.Content, include map[string]bool, res *tool.ExtractResult, offset, maxChars int) *tool.ExtractResult {
	key := keptKeyOf(r, tab.TabID)
	old, had := r.env.lastReads.get(key, res.URL)
	now := readOf(c, include, old)
	if !r.in.Changes || offset > 0 || !had {
		r.env.lastReads.put(key, res.URL, now, nil)
		if r.in.Changes && offset == 0 {
			res.Changes = &tool.Changes{Full: true}
		}
		return res
	}
	list := changes.Compare(old, now)
	r.env.lastReads.put(key, res.URL, now, nil)
	// The page's warnings stay; the full read's notes on its windows and
	// the parts it left out are not about this answer.
	var warnings []string
	for _, w := range res.Warnings {
		if !strings.Contains(w, "call extract with tabId") && !strings.HasPrefix(w, "the page is larger than the budget") {
			warnings = append(warnings, w)
		}
	}
	if len(list) == 0 {
		return &tool.ExtractResult{Page: res.Page, Unchanged: true, TotalChars: res.TotalChars, Outcome: tool.Outcome{Warnings: warnings}}
	}
	for i := range list {
		c := &list[i]
		c.Text, c.Before, c.After = extract.Shorten(c.Text, maxChars/2), extract.Shorten(c.Before, maxChars/4), extract.Shorten(c.After, maxChars/4)
		c.Context = extract.Shorten(c.Context, maxTitle)
	}
	if changesSize(list) >= res.TotalChars {
		// As large as the page: the page itself says more.
		res.Changes = &tool.Changes{Full: true}
		return res
	}
	r.env.lastReads.put(key, res.URL, now, list)
	return changesWindow(res.Page, list, 0, maxChars, warnings)
}

// moreChanges is the window at offset of the changes answer being read
// in windows, if the session's last read of the tab gave one.
func moreChanges(r *run, tab browser.TabInfo, offset, maxChars int) (*tool.ExtractResult, bool) {
	list, ok := r.env.lastReads.pending(keptKeyOf(r, tab.TabID), tab.URL)
	if !ok {
		return nil, false
	}
	return changesWindow(tool.Page{TabID: tab.TabID, URL: tab.URL, Title: tab.Title}, list, offset, maxChars, nil), true
}

// changeSize is what one change counts for in a changes answer's
// totalChars, offset and nextOffset.
func changeSize(c tool.Change) int {
	return utf8.RuneCountInString(c.Text) + utf8.RuneCountInString(c.Before) + utf8.RuneCountInString(c.After) + utf8.RuneCountInString(c.Context) + 30
}

func changesSize(list []tool.Change) int {
	n := 0
	for _, c := range list {
		n += changeSize(c)
	}
	return n
}

// changesWindow is the window of list that starts at offset (a change's
// start) and fits maxChars (one change at least).
func changesWindow(page tool.Page, list []tool.Change, offset, maxChars int, warnings []string) *tool.ExtractResult {
	res := &tool.ExtractResult{Page: page, Offset: offset, TotalChars: changesSize(list), Outcome: tool.Outcome{Warnings: warnings}}
	budget := maxChars * 80 / 100
	pos, used := 0, 0
	win := []tool.Change{}
	for _, c := range list {
		n := changeSize(c)
		switch {
		case pos < offset:
		case len(win) > 0 && used+n > budget:
			next := pos
			res.NextOffset = &next
			res.Warnings = append(res.Warnings, fmt.Sprintf("changes %d to %d of %d characters; for the rest, call extract with tabId %d, changes true and offset %d", offset, next, res.TotalChars, page.TabID, next))
			res.Changes = &tool.Changes{List: win}
			return res
		default:
			win = append(win, c)
			used += n
		}
		pos += n
	}
	res.Changes = &tool.Changes{List: win}
	return res
}

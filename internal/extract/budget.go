package extract

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Part names, as extract's include takes them.
const (
	PartText     = "text"
	PartMarkdown = "markdown"
	PartReader   = "reader"
	PartLinks    = "links"
	PartHeadings = "headings"
	// PartFrames and PartWarnings are the result's frames[] and
	// warnings[], which the budget does not window.
	PartFrames   = "frames"
	PartWarnings = "warnings"
)

// Order is the order in which parts fill a budget and continue across
// calls: the most useful first (markdown carries text, links and headings
// in one), plain text last.
var Order = []string{PartMarkdown, PartReader, PartLinks, PartHeadings, PartText}

// Parts are every name include takes: the content parts of Order, the
// frames and the warnings, and the tab's fields, which every result
// carries anyway.
var Parts = append(append([]string{}, Order...), PartFrames, PartWarnings, "tabId", "url", "title")

// Per-item overhead in characters: the JSON around a link or heading.
const (
	linkOverhead    = 20
	headingOverhead = 20
)

// Chunk is one window of a Content's parts. A part is nil when it is not
// included or lies wholly outside the window.
type Chunk struct {
	Markdown *string
	Reader   *Reader
	Links    []Link
	Headings []Heading
	Text     *string
	// Total is the size of all included parts in characters; Offset where
	// this window starts; Next where the next one starts (0 at the end).
	Total  int
	Offset int
	Next   int
	// Parts names the parts this window touches, in order.
	Parts []string
}

// CheckInclude validates include names; an empty list means all parts.
// Warnings come with every result whatever include says (they say what
// the result lacks, and how to get the rest); naming them is accepted.
func CheckInclude(include []string) (map[string]bool, error) {
	m := map[string]bool{}
	if len(include) == 0 {
		for _, p := range Order {
			m[p] = true
		}
		m[PartFrames], m[PartWarnings] = true, true
		return m, nil
	}
	for _, p := range include {
		ok := false
		for _, q := range Parts {
			ok = ok || p == q
		}
		if !ok {
			return nil, fmt.Errorf("include: unknown part %q; use some of %s", p, strings.Join(Parts[:len(Parts)-3], ", "))
		}
		m[p] = true
	}
	m[PartWarnings] = true
	return m, nil
}

// Size is the number of characters a part of c occupies.
func (c *Content) Size(part string) int {
	switch part {
	case PartText:
		return utf8.RuneCountInString(c.Text)
	case PartMarkdown:
		return utf8.RuneCountInString(c.Markdown)
	case PartReader:
		return utf8.RuneCountInString(c.Reader.Markdown)
	case PartLinks:
		n := 0
		for _, l := range c.Links {
			n += linkCost(l)
		}
		return n
	case PartHeadings:
		n := 0
		for _, h := range c.Headings {
			n += headingCost(h)
		}
		return n
	}
	return 0
}

func linkCost(l Link) int {
	return utf8.RuneCountInString(l.Text) + utf8.RuneCountInString(l.URL) + linkOverhead
}

func headingCost(h Heading) int { return utf8.RuneCountInString(h.Text) + headingOverhead }

// Slice returns the window of c's included parts that starts at offset and
// holds at most budget characters. Parts are laid end to end in Order;
// a string part may be cut anywhere (preferably at a line or word end), a
// link or heading never. Windows taken from offset 0, then from each Next,
// cover every included character exactly once. An item larger than the
// whole budget still comes whole, alone, so every window makes progress.
func (c *Content) Slice(include map[string]bool, offset, budget int) Chunk {
	ch := Chunk{Offset: offset}
	for _, p := range Order {
		if include[p] {
			ch.Total += c.Size(p)
		}
	}
	budget = max(budget, 1)
	pos, used := 0, 0
	full := false
	for _, part := range Order {
		if !include[part] {
			continue
		}
		size := c.Size(part)
		// Wholly before the window (an empty part at the window's start
		// belongs to it).
		if (size > 0 && pos+size <= offset) || (size == 0 && pos < offset) {
			pos += size
			continue
		}
		if full {
			break
		}
		from := max(offset-pos, 0)
		room := budget - used
		if room <= 0 && size > from {
			ch.Next = pos + from
			break
		}
		ch.Parts = append(ch.Parts, part)
		switch part {
		case PartMarkdown, PartText, PartReader:
			var s string
			switch part {
			case PartMarkdown:
				s = c.Markdown
			case PartText:
				s = c.Text
			default:
				s = c.Reader.Markdown
			}
			piece, n, more := window(s, from, room)
			used += n
			switch part {
			case PartMarkdown:
				ch.Markdown = &piece
			case PartText:
				ch.Text = &piece
			default:
				r := c.Reader
				r.Markdown = piece
				ch.Reader = &r
			}
			if more {
				ch.Next, full = pos+from+n, true
			}
		case PartLinks:
			ch.Links = []Link{}
			at := pos
			for _, l := range c.Links {
				cost := linkCost(l)
				if at+cost > offset {
					if used+cost > budget && used > 0 {
						ch.Next, full = max(at, offset), true
						break
					}
					ch.Links = append(ch.Links, l)
					used += cost
				}
				at += cost
			}
		case PartHeadings:
			ch.Headings = []Heading{}
			at := pos
			for _, h := range c.Headings {
				cost := headingCost(h)
				if at+cost > offset {
					if used+cost > budget && used > 0 {
						ch.Next, full = max(at, offset), true
						break
					}
					ch.Headings = append(ch.Headings, h)
					used += cost
				}
				at += cost
			}
		}
		pos += size
	}
	if ch.Next >= ch.Total {
		ch.Next = 0
	}
	return ch
}

// window takes up to room runes of s from rune index from. When s does
// not fit it prefers to end after a newline, else after a space, within
// the last fifth of the window. It returns the piece, its length in runes
// and whether s goes on.
func window(s string, from, room int) (string, int, bool) {
	r := []rune(s)
	if from >= len(r) {
		return "", 0, false
	}
	end := from + room
	if end >= len(r) {
		return string(r[from:]), len(r) - from, false
	}
	floor := end - room/5
	cut := end
	for _, sep := range []rune{'\n', ' '} {
		found := false
		for i := end; i > floor && i > from; i-- {
			if r[i-1] == sep {
				cut, found = i, true
				break
			}
		}
		if found {
			break
		}
	}
	return string(r[from:cut]), cut - from, true
}

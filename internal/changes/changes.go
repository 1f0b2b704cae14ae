// Package changes compares two reads of a page: which blocks were added,
// removed and changed, in page order, each with its nearest heading (see
// docs/reference.md, "Extract: what changed since the last read").
package changes

import "strings"

// Change is one block of a page that differs between two reads.
type Change struct {
	// Op is added, removed or changed.
	Op string `json:"op"`
	// Part is the part the block is in: "" for the markdown, else links,
	// headings or frames.
	Part string `json:"part,omitempty"`
	// Text is an added or removed block; Before and After a changed one.
	Text   string `json:"text,omitempty"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Context is the nearest heading above the block (in the new read;
	// in the old one for a removed block).
	Context string `json:"context,omitempty"`
}

// The ops of a Change.
const (
	Added   = "added"
	Removed = "removed"
	Changed = "changed"
)

// Read is what is compared of a read: its markdown, and its links,
// headings and frames each as one line of text.
type Read struct {
	Markdown string
	Links    []string
	Headings []string
	Frames   []string
	// HasLinks, HasHeadings and HasFrames say the read holds that part
	// (a read may have left it out): a part is compared only when both
	// reads hold it.
	HasLinks, HasHeadings, HasFrames bool
}

// Compare lists what differs from before to after: the markdown's blocks
// first, in page order, then the links, headings and frames.
func Compare(before, after Read) []Change {
	out := Lines(Blocks(before.Markdown), Blocks(after.Markdown), isHeading)
	part := func(name string, has bool, a, b []string) {
		if !has {
			return
		}
		for _, c := range Lines(a, b, nil) {
			c.Part = name
			out = append(out, c)
		}
	}
	part("links", before.HasLinks && after.HasLinks, before.Links, after.Links)
	part("headings", before.HasHeadings && after.HasHeadings, before.Headings, after.Headings)
	part("frames", before.HasFrames && after.HasFrames, before.Frames, after.Frames)
	return out
}

// Blocks splits markdown into its blocks: its lines that are not blank
// (a paragraph, a list item, a table row, a heading).
func Blocks(md string) []string {
	var out []string
	for line := range strings.SplitSeq(md, "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

func isHeading(line string) bool {
	t := strings.TrimLeft(line, "#")
	return len(t) < len(line) && len(line)-len(t) <= 6 && strings.HasPrefix(t, " ")
}

// Lines compares two lists of blocks: the blocks removed from a and added
// in b, and in place of a removed block followed by an added one, a
// changed one. heading, when not nil, says which blocks are headings, for
// each change's context.
func Lines(a, b []string, heading func(string) bool) []Change {
	var out []Change
	ctx := func(list []string, i int) string {
		if heading == nil {
			return ""
		}
		for i--; i >= 0; i-- {
			if heading(list[i]) {
				return list[i]
			}
		}
		return ""
	}
	s := script(a, b)
	for k := 0; k < len(s); {
		if s[k].op == keep {
			k++
			continue
		}
		// A run of edits: the removed blocks, then the added ones.
		var rm, add []edit
		for ; k < len(s) && s[k].op != keep; k++ {
			if s[k].op == del {
				rm = append(rm, s[k])
			} else {
				add = append(add, s[k])
			}
		}
		n := min(len(rm), len(add))
		for i := range n {
			out = append(out, Change{Op: Changed, Before: a[rm[i].a], After: b[add[i].b], Context: ctx(b, add[i].b)})
		}
		for _, e := range rm[n:] {
			out = append(out, Change{Op: Removed, Text: a[e.a], Context: ctx(a, e.a)})
		}
		for _, e := range add[n:] {
			out = append(out, Change{Op: Added, Text: b[e.b], Context: ctx(b, e.b)})
		}
	}
	return out
}

type op uint8

const (
	keep op = iota
	del     // a[a] is not in b
	ins     // b[b] is not in a
)

// edit is one step of an edit script from a to b.
type edit struct {
	op   op
	a, b int
}

// maxCells bounds the table of the longest common subsequence: beyond it
// (two long reads that differ all through) the differing middle is
// compared as removed and added whole.
const maxCells = 1 << 20

// script is an edit script from a to b: the blocks both have in common
// at the start and the end kept, and in between the longest common
// subsequence kept, the rest of a deleted and of b inserted, in order (a
// run of deletions before the insertions at the same place).
func script(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]edit, 0, max(len(a), len(b)))
	for i := range pre {
		out = append(out, edit{keep, i, i})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n*m > maxCells || n > 0xFFFF || m > 0xFFFF {
		for i := range n {
			out = append(out, edit{del, pre + i, -1})
		}
		for j := range m {
			out = append(out, edit{ins, -1, pre + j})
		}
	} else {
		// l[i][j] is the length of the longest common subsequence of
		// ma[i:] and mb[j:].
		w := m + 1
		l := make([]uint16, (n+1)*w)
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					l[i*w+j] = l[(i+1)*w+j+1] + 1
				} else {
					l[i*w+j] = max(l[(i+1)*w+j], l[i*w+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				out = append(out, edit{keep, pre + i, pre + j})
				i++
				j++
			case j == m || (i < n && l[(i+1)*w+j] >= l[i*w+j+1]):
				out = append(out, edit{del, pre + i, -1})
				i++
			default:
				out = append(out, edit{ins, -1, pre + j})
				j++
			}
		}
	}
	for k := suf; k > 0; k-- {
		out = append(out, edit{keep, len(a) - k, len(b) - k})
	}
	return out
}

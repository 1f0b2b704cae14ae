package changes

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func list(n int, f func(i int) string) string {
	var b strings.Builder
	b.WriteString("# Tasks\n\n## This week\n\n")
	for i := 1; i <= n; i++ {
		b.WriteString(f(i) + "\n")
	}
	b.WriteString("\n## Later\n\nNothing yet.\n")
	return b.String()
}

func TestOneChangedItemOfALongList(t *testing.T) {
	item := func(i int) string { return fmt.Sprintf("- ☐ Task %d: water the plants", i) }
	before := list(200, item)
	after := list(200, func(i int) string {
		if i == 93 {
			return "- ☑ Done 93: water the plants"
		}
		return item(i)
	})
	got := Compare(Read{Markdown: before}, Read{Markdown: after})
	want := []Change{{Op: Changed, Before: "- ☐ Task 93: water the plants", After: "- ☑ Done 93: water the plants", Context: "## This week"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := Compare(Read{Markdown: after}, Read{Markdown: after}); len(got) != 0 {
		t.Errorf("the same read differs: %+v", got)
	}
}

func TestAddedRemovedInPageOrderWithContext(t *testing.T) {
	before := "# A\n\none\n\ntwo\n\n## B\n\nthree\n"
	after := "# A\n\none\n\n## B\n\nthree\n\nfour\n"
	got := Compare(Read{Markdown: before, HasLinks: true, Links: []string{"[x](https://x/)"}},
		Read{Markdown: after, HasLinks: true, Links: []string{"[x](https://x/)", "[y](https://y/)"}})
	want := []Change{
		{Op: Removed, Text: "two", Context: "# A"},
		{Op: Added, Text: "four", Context: "## B"},
		{Op: Added, Part: "links", Text: "[y](https://y/)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// A part one read left out is not compared.
	if got := Compare(Read{Markdown: after}, Read{Markdown: after, HasLinks: true, Links: []string{"[y](https://y/)"}}); len(got) != 0 {
		t.Errorf("a part the first read left out was compared: %+v", got)
	}
}

func TestHeadings(t *testing.T) {
	for s, want := range map[string]bool{"# A": true, "###### F": true, "####### G": false, "#hashtag": false, "- # x": false, "": false} {
		if isHeading(s) != want {
			t.Errorf("isHeading(%q) = %v", s, !want)
		}
	}
}

// apply checks that s is an edit script from a to b: it keeps and deletes
// every block of a in order, keeps and inserts every block of b in order.
func apply(t *testing.T, a, b []string, s []edit) {
	t.Helper()
	var fromA, toB []string
	ai, bi := 0, 0
	for _, e := range s {
		switch e.op {
		case keep:
			if e.a != ai || e.b != bi || a[e.a] != b[e.b] {
				t.Fatalf("bad keep %+v at %d/%d", e, ai, bi)
			}
			fromA, toB = append(fromA, a[e.a]), append(toB, b[e.b])
			ai, bi = ai+1, bi+1
		case del:
			if e.a != ai {
				t.Fatalf("bad delete %+v at %d", e, ai)
			}
			fromA = append(fromA, a[e.a])
			ai++
		case ins:
			if e.b != bi {
				t.Fatalf("bad insert %+v at %d", e, bi)
			}
			toB = append(toB, b[e.b])
			bi++
		}
	}
	if !reflect.DeepEqual(fromA, a[:len(fromA):len(fromA)]) || len(fromA) != len(a) || len(toB) != len(b) {
		t.Fatalf("the script does not cover a and b: %v %v", fromA, toB)
	}
}

func TestScriptIsMinimalOnSmallCases(t *testing.T) {
	a := strings.Split("a b c d e f", " ")
	b := strings.Split("a x c d y f z", " ")
	s := script(a, b)
	apply(t, a, b, s)
	kept := 0
	for _, e := range s {
		if e.op == keep {
			kept++
		}
	}
	if kept != 4 {
		t.Errorf("kept %d blocks, want 4 (a c d f): %+v", kept, s)
	}
}

// Two long reads that differ all through are compared as removed and
// added whole, without a table of their size.
func TestLongReadsThatDifferAllThrough(t *testing.T) {
	a := make([]string, 3000)
	b := make([]string, 3000)
	for i := range a {
		a[i], b[i] = fmt.Sprint("a", i), fmt.Sprint("b", i)
	}
	s := script(a, b)
	apply(t, a, b, s)
	if got := Lines(a, b, nil); len(got) != 3000 || got[0].Op != Changed {
		t.Errorf("%d changes, first %+v", len(got), got[0])
	}
}

func FuzzScript(f *testing.F) {
	f.Add("a\nb\nc", "a\nc\nd")
	f.Add("", "x")
	f.Add("# H\n\n- 1\n- 2", "# H\n\n- 1\n- two\n- 3")
	f.Fuzz(func(t *testing.T, x, y string) {
		a, b := Blocks(x), Blocks(y)
		apply(t, a, b, script(a, b))
		// Every change names blocks of its reads; none when they are equal.
		for _, c := range Lines(a, b, isHeading) {
			switch c.Op {
			case Added, Removed:
				if c.Text == "" {
					t.Fatalf("empty %+v", c)
				}
			case Changed:
				if c.Before == c.After {
					t.Fatalf("a change that changes nothing: %+v", c)
				}
			}
		}
		if len(Lines(b, b, isHeading)) != 0 {
			t.Fatal("a read differs from itself")
		}
	})
}

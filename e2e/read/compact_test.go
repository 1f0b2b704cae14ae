package read

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// inspect says about 120 characters per element: short selectors (none
// that only counts places among many siblings), a rect as [x, y, w, h],
// nothing the tag or the name says already.
func TestInspectIsCompact(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		page string
		max  float64
	}{{"/compact", 125}, {"/big", 120}} {
		tab := openPage(t, c.page)
		res, _ := call(t, map[string]any{"action": "inspect", "tabId": tab, "maxChars": 1000000})
		els := list(res, "elements")
		total := 0
		for _, e := range els {
			b, _ := json.Marshal(e)
			total += len(b)
		}
		avg := float64(total) / float64(len(els))
		t.Logf("%s: %d elements, %.0f characters each on average", c.page, len(els), avg)
		if avg > c.max {
			t.Errorf("%s: inspect takes %.0f characters per element on average, over %.0f; e.g. %s", c.page, avg, c.max, compact(els[len(els)/2]))
		}
		long, example := 0, ""
		for _, e := range els {
			if sel := str(e, "selector"); strings.Contains(sel, ":nth-of-type(") && len(sel) > 30 {
				long, example = long+1, sel
			}
		}
		if long > 0 {
			t.Errorf("%s: %d long positional selectors, e.g. %s", c.page, long, example)
		}
	}
}

// A native <select> that a custom widget stands in for is not visible,
// and a combobox's name is its label, not its hidden options.
func TestInspectHiddenSelectsAndComboboxNames(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/compact")
	res, out := call(t, map[string]any{"action": "inspect", "tabId": tab})
	byID := map[string]map[string]any{}
	for _, e := range list(res, "elements") {
		byID[str(e, "selector")] = e
	}
	if e := byID["#size-native"]; e == nil || e["visible"] != false {
		t.Errorf("the visually hidden native select (a custom widget stands in for it): %v", e)
	}
	if e := byID["#country-native"]; e != nil && e["visible"] != false {
		t.Errorf("the native select under the widget's face is listed as visible: %v", e)
	}
	for sel, name := range map[string]string{"#fruit": "Fruit", "#colour": "Colour", "#size-widget": "Size Medium"} {
		if e := byID[sel]; e == nil || str(e, "name") != name {
			t.Errorf("combobox %s: %v, want the name %q", sel, e, name)
		}
	}
	for _, option := range []string{"Apple", "Banana", "Green"} {
		if strings.Contains(out, option) {
			t.Errorf("a hidden option (%s) is in inspect's names: %s", option, out)
		}
	}
}

// include takes every part name of extract's result.
func TestExtractIncludeTakesEveryPart(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/frames")
	res, _ := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"frames", "warnings"}})
	if _, ok := res["frames"]; !ok {
		t.Errorf("include frames: no frames: %v", res)
	}
	for _, part := range []string{"markdown", "text", "links", "headings", "reader"} {
		if _, ok := res[part]; ok {
			t.Errorf("include [frames warnings] returned %s", part)
		}
	}
	res, _ = call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text", "tabId", "url", "title"}})
	if _, ok := res["frames"]; ok || str(res, "text") == "" || str(res, "url") == "" {
		t.Errorf("include text: %v", res)
	}
	failCode(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"pictures"}}, "invalid_argument")
}

// Text hidden from people the ways pages hide text for machines is left
// out and counted; text a person sees stays, also
// when marked aria-hidden; links give their visible text, never a title
// or aria-label.
func TestExtractLeavesOutHiddenText(t *testing.T) {
	t.Parallel()
	res, out := extractURL(t, "/tricks", nil)
	all := str(res, "markdown") + "\n" + str(res, "text") + "\n" + fmt.Sprint(res["links"]) + "\n" + fmt.Sprint(res["reader"])
	if leaked := regexp.MustCompile(`HIDDEN-[A-Z-]+`).FindAllString(all, -1); len(leaked) > 0 {
		sort.Strings(leaked)
		t.Errorf("hidden text in the result: %v", leaked)
	}
	for _, want := range []string{"VISIBLE-PLAIN", "VISIBLE-FONTSIZE-RESET", "VISIBLE-WHITE-ON-DARK", "VISIBLE-HERO", "VISIBLE-GRADIENT",
		"VISIBLE-FIRST-LINE", "VISIBLE-UNDER-GLASS", "VISIBLE-ARIA-HIDDEN", "VISIBLE-LINKTEXT", "VISIBLE-END"} {
		if !strings.Contains(str(res, "markdown"), want) || !strings.Contains(str(res, "text"), want) {
			t.Errorf("%s is missing: %s", want, str(res, "markdown"))
		}
	}
	// Every HIDDEN-TRICK-* of the page is one run, those moved before the
	// page's start, clipped to nothing or of no size included, as inside a
	// scrolling box; the page's ordinary hiding
	// (display: none, the screen-reader-only idiom, a skip link kept
	// off-screen until it has focus) is not counted.
	if !strings.Contains(fmt.Sprint(res["warnings"]), "18 hidden text runs left out") {
		t.Errorf("warnings: %v", res["warnings"])
	}
	if strings.Contains(out, "HIDDEN-LINK") || strings.Contains(out, "HIDDEN-ICON") {
		t.Errorf("a link's title or aria-label was exported")
	}
}

// On a right-to-left page the start is the right edge: text moved past it
// is a trick, left out and counted; text far to the left can be scrolled
// to, and stays.
func TestExtractOfARightToLeftPage(t *testing.T) {
	t.Parallel()
	res, _ := extractURL(t, "/tricks-rtl", nil)
	md := str(res, "markdown")
	if strings.Contains(md, "HIDDEN-TRICK") {
		t.Errorf("text past the start is in the result: %s", md)
	}
	for _, want := range []string{"VISIBLE-RTL-START", "VISIBLE-RTL-SCROLLED-LEFT", "VISIBLE-RTL-END"} {
		if !strings.Contains(md, want) {
			t.Errorf("%s is missing: %s", want, md)
		}
	}
	if !strings.Contains(fmt.Sprint(res["warnings"]), "1 hidden text run") {
		t.Errorf("warnings: %v", res["warnings"])
	}
}

// Adjacent table cells, grid items, flex items, inline blocks and ARIA
// cells are kept apart: a calendar reads "28 29 30", not "282930".
func TestExtractSeparatesCellsAndGridItems(t *testing.T) {
	t.Parallel()
	res, _ := extractURL(t, "/grids", nil)
	md, text := str(res, "markdown"), str(res, "text")
	for _, want := range []string{"28 29 30 31 1 2 3", "Code Description Links", "200 OK", "red green blue", "alpha beta gamma"} {
		if !strings.Contains(md, want) || !strings.Contains(text, want) {
			t.Errorf("%q missing:\nmarkdown: %s\ntext: %s", want, md, text)
		}
	}
	for _, bad := range []string{"28293031", "CodeDescription", "redgreen", "alphabeta"} {
		if strings.Contains(md, bad) || strings.Contains(text, bad) {
			t.Errorf("run together: %q", bad)
		}
	}
}

// Text only scrolled out of view inside a scrolling box is text a person
// scrolls to: it is read, and the box is marked with how much of it shows.
// The tricks that hide text inside such a box stay out
// and are counted.
func TestExtractReadsTextScrolledOutOfItsBox(t *testing.T) {
	t.Parallel()
	res, out := extractURL(t, "/scrollbox", nil)
	md, text := str(res, "markdown"), str(res, "text")
	var missing []string
	for _, p := range []struct {
		prefix string
		n      int
	}{{"MSG-", 40}, {"OPT-", 30}, {"UP-", 12}, {"TALL-", 2}} {
		for i := 1; i <= p.n; i++ {
			w := fmt.Sprintf("%s%d\n", p.prefix, i)
			if !strings.Contains(md+"\n", w) || !strings.Contains(text+"\n", w) {
				missing = append(missing, strings.TrimSpace(w))
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("scrolled-out text missing: %v\nmarkdown: %s", missing, md)
	}
	// A row counts as shown when any of it is in view: the tall box's
	// first row, 2,000 px tall, fills its view.
	for _, want := range []string{"scrolls: 40 items, 6 shown", "scrolls: 30 items, 5 shown", "scrolls: 12 items, 3 shown", "scrolls: 2 items, 1 shown"} {
		if !strings.Contains(md, want) {
			t.Errorf("no mark %q in the markdown:\n%s", want, md)
		}
	}
	if strings.Contains(out, "HIDDEN-") {
		i := strings.Index(out, "HIDDEN-")
		t.Errorf("hidden text in the result: …%s…", out[max(0, i-80):min(len(out), i+40)])
	}
	if !strings.Contains(fmt.Sprint(res["warnings"]), "4 hidden text runs left out") {
		t.Errorf("warnings: %v", res["warnings"])
	}
}

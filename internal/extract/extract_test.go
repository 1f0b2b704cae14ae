package extract

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func frame(id int, url, title, tree string, refs ...FrameRef) Frame {
	return Frame{FrameID: id, URL: url, Title: title, Tree: []byte(tree), Frames: refs}
}

func build(t *testing.T, p Page) *Content {
	t.Helper()
	c, err := Build(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMarkdownTextLinksHeadings(t *testing.T) {
	tree := `["body",0,
		["h1",0,"Main  title"],
		["p",0,"Hello ",["strong",0,"world"],", see ",["a",{"href":"https://example.com/a"},"the docs"],"."],
		["ul",0,["li",0,"one"],["li",0,"two"]],
		["table",0,["thead",0,["tr",0,["th",0,"Name"],["th",0,"Qty"]]],["tbody",0,["tr",0,["td",0,"apple"],["td",0,"3"]]]],
		["h2",0,"Next"],
		["p",0,"Go ",["a",{"href":"https://example.com/page#top"},"up"]," or ",["a",{"href":"https://example.com/a"},"the docs"]],
		["a",{"href":"javascript:void(0)"},"nothing"]
	]`
	c := build(t, Page{Frames: []Frame{frame(0, "https://example.com/page", "T", tree)}})
	for _, want := range []string{"# Main title", "Hello **world**, see [the docs](https://example.com/a).", "- one\n- two", "| Name | Qty |", "| apple | 3 |", "## Next"} {
		if !strings.Contains(c.Markdown, want) {
			t.Errorf("markdown lacks %q:\n%s", want, c.Markdown)
		}
	}
	wantText := "Main title\n\nHello world, see the docs.\n\none\ntwo\n\nName\tQty\napple\t3\n\nNext\n\nGo up or the docs\n\nnothing"
	if diff := cmp.Diff(wantText, c.Text); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	wantLinks := []Link{{Text: "the docs", URL: "https://example.com/a"}}
	if diff := cmp.Diff(wantLinks, c.Links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	wantHeadings := []Heading{{Level: 1, Text: "Main title"}, {Level: 2, Text: "Next"}}
	if diff := cmp.Diff(wantHeadings, c.Headings); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	if c.Title != "T" || c.URL != "https://example.com/page" {
		t.Errorf("title/url: %q %q", c.Title, c.URL)
	}
}

func TestControlsNeverShowSensitiveValues(t *testing.T) {
	// A page could send a value for a sensitive field (our own script never
	// does); the decoder ignores it all the same.
	tree := `["body",0,
		["label",0,"User ",["input",{"type":"text","value":"alice"}]],
		["label",0,"Password ",["input",{"type":"sensitive","value":"hunter2"}]],
		["input",{"type":"checkbox","checked":"true"}],"Remember me",
		["select",0,"Blue"],
		["input",{"type":"button","value":"Sign in"}]
	]`
	c := build(t, Page{Frames: []Frame{frame(0, "https://example.com/", "", tree)}})
	all, _ := json.Marshal(c)
	if strings.Contains(string(all), "hunter2") {
		t.Fatalf("a sensitive value leaked: %s", all)
	}
	for _, want := range []string{"alice", "☑ Remember me", "Blue", "Sign in"} {
		if !strings.Contains(c.Text, want) {
			t.Errorf("text lacks %q: %q", want, c.Text)
		}
	}
}

func TestFramesInPlaceAndWhyNot(t *testing.T) {
	top := frame(0, "http://127.0.0.1:8000/", "Top",
		`["body",0,["p",0,"before"],["frame",{"id":"3","src":"http://127.0.0.1:8000/same"}],["frame",{"id":"-1","src":"http://localhost:9000/cross"}],["p",0,"after"]]`,
		FrameRef{FrameID: 3, Visible: true}, FrameRef{FrameID: -1, Visible: true}, FrameRef{FrameID: 8, Visible: false})
	same := frame(3, "http://127.0.0.1:8000/same", "", `["body",0,["p",0,"same-origin text"],["frame",{"id":"6","src":"about:blank"}]]`, FrameRef{FrameID: 6, Visible: true})
	nested := frame(6, "about:blank", "", `["body",0,["p",0,"nested blank"]]`)
	cross := frame(5, "http://localhost:9000/cross", "", `["body",0,["p",0,"cross-origin text"]]`)
	hidden := frame(8, "http://127.0.0.1:8000/hidden", "", `["body",0,["p",0,"secret hidden frame"]]`)
	known := []KnownFrame{
		{FrameID: 3, ParentFrameID: 0, URL: "http://127.0.0.1:8000/same"},
		{FrameID: 5, ParentFrameID: 0, URL: "http://localhost:9000/cross"},
		{FrameID: 6, ParentFrameID: 3, URL: "about:blank"},
		{FrameID: 8, ParentFrameID: 0, URL: "http://127.0.0.1:8000/hidden"},
		{FrameID: 9, ParentFrameID: 0, URL: "chrome-extension://abc/x.html"},
		{FrameID: 10, ParentFrameID: 0, URL: "https://ads.example/", ErrorOccurred: true},
	}
	c := build(t, Page{Frames: []Frame{top, same, nested, cross, hidden}, Known: known, Failed: map[int]string{11: "Frame was removed"}})
	want := "before\n\nsame-origin text\n\nnested blank\n\ncross-origin text\n\nafter"
	if c.Text != want {
		t.Errorf("text:\n%q\nwant\n%q", c.Text, want)
	}
	if strings.Contains(c.Markdown, "secret") {
		t.Errorf("hidden frame content in markdown: %s", c.Markdown)
	}
	got := map[int]FrameInfo{}
	for _, f := range c.Frames {
		got[f.FrameID] = f
	}
	check := func(id int, included, cross bool, reason string) {
		t.Helper()
		f, ok := got[id]
		if !ok {
			t.Fatalf("frame %d not reported: %+v", id, c.Frames)
		}
		if f.Included != included || f.CrossOrigin != cross || !strings.Contains(f.Reason, reason) {
			t.Errorf("frame %d: %+v; want included %v cross %v reason ~%q", id, f, included, cross, reason)
		}
	}
	check(3, true, false, "")
	check(5, true, true, "")
	check(6, true, false, "")
	check(8, false, false, "hidden")
	check(9, false, true, "does not let extensions")
	check(10, false, true, "failed to load")
	check(11, false, false, "Frame was removed")
}

func TestReaderKeepsArticleDropsChrome(t *testing.T) {
	var b strings.Builder
	b.WriteString(`["body",0,["header",{"class":"site-header"},["nav",{"class":"nav"},`)
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, `["a",{"href":"https://example.com/s%d"},"Section %d"],`, i, i)
	}
	b.WriteString(`["span",0,"Menu"]]],["article",{"class":"post"},["h1",0,"The Long Story"],`)
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, `["p",0,"Paragraph %d of the article tells, at some length and with many commas, the story of a lighthouse keeper who counted ships, storms and gulls for forty years."],`, i)
	}
	b.WriteString(`["p",0,"The end."]],["aside",{"class":"sidebar"},["p",0,"Subscribe to our newsletter"],["a",{"href":"https://example.com/ad"},"Buy now"]],["footer",{"class":"footer"},"Copyright footer text"]]`)
	c := build(t, Page{Frames: []Frame{frame(0, "https://example.com/story", "The Long Story - Example", b.String())}})
	r := c.Reader.Markdown
	if !strings.Contains(r, "Paragraph 0 of the article") || !strings.Contains(r, "Paragraph 9 of the article") {
		t.Errorf("reader lost the article:\n%s", r)
	}
	for _, chrome := range []string{"Section 3", "Subscribe to our newsletter", "Copyright footer"} {
		if strings.Contains(r, chrome) {
			t.Errorf("reader kept chrome %q:\n%s", chrome, r)
		}
		if !strings.Contains(c.Markdown, chrome) {
			t.Errorf("markdown lost %q", chrome)
		}
	}
}

func TestDecodeTreeRejectsNonElements(t *testing.T) {
	for _, in := range []string{``, `"text"`, `{}`, `[]`, `[1,2]`, `null`} {
		if _, err := DecodeTree([]byte(in)); err == nil {
			t.Errorf("DecodeTree(%s) accepted it", in)
		}
	}
	n, err := DecodeTree([]byte(`["weird-tag",{"onclick":"x","href":5},["p",0,"ok"],7,null,{"a":1}]`))
	if err != nil {
		t.Fatal(err)
	}
	if n.Data != "span" || len(n.Attr) != 0 && n.Attr[0].Key == "onclick" {
		t.Errorf("unknown tag or attribute kept: %+v", n)
	}
}

func TestDecodeTreeDepthIsBounded(t *testing.T) {
	deep := strings.Repeat(`["div",0,`, 5000) + `"bottom"` + strings.Repeat(`]`, 5000)
	n, err := DecodeTree([]byte(deep))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(Text(n), "bottom") {
		t.Error("content below the depth limit was kept")
	}
}

// sampleContent is a Content with parts of every kind.
func sampleContent(rng *rand.Rand) *Content {
	word := func() string {
		w := []string{"alpha", "beta", "gamma", "délta", "ε", "zeta\n", "eta ", "theta\n\n", "日本語"}
		return w[rng.Intn(len(w))]
	}
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(word())
			b.WriteByte(' ')
		}
		return b.String()
	}
	c := &Content{Markdown: text(rng.Intn(400)), Text: text(rng.Intn(400)), Reader: Reader{Title: "R", Markdown: text(rng.Intn(300))}}
	for i := rng.Intn(60); i > 0; i-- {
		c.Links = append(c.Links, Link{Text: text(rng.Intn(5)), URL: fmt.Sprintf("https://example.com/%d", i)})
	}
	for i := rng.Intn(30); i > 0; i-- {
		c.Headings = append(c.Headings, Heading{Level: 1 + i%6, Text: text(1 + rng.Intn(4))})
	}
	return c
}

// collect walks every window of c and reassembles the parts.
func collect(t testing.TB, c *Content, include map[string]bool, budget int) (Content, int) {
	var got Content
	offset, calls := 0, 0
	for {
		ch := c.Slice(include, offset, budget)
		calls++
		if calls > 100000 {
			t.Fatalf("no progress at offset %d", offset)
		}
		if ch.Markdown != nil {
			got.Markdown += *ch.Markdown
		}
		if ch.Text != nil {
			got.Text += *ch.Text
		}
		if ch.Reader != nil {
			got.Reader.Markdown += ch.Reader.Markdown
		}
		got.Links = append(got.Links, ch.Links...)
		got.Headings = append(got.Headings, ch.Headings...)
		if ch.Next == 0 {
			break
		}
		if ch.Next <= offset {
			t.Fatalf("window at %d gave next %d", offset, ch.Next)
		}
		offset = ch.Next
	}
	return got, calls
}

func TestSliceCoversEverythingOnce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		c := sampleContent(rng)
		include, _ := CheckInclude(nil)
		if i%3 == 1 {
			include, _ = CheckInclude([]string{"links", "text"})
		}
		budget := 1 + rng.Intn(3000)
		got, _ := collect(t, c, include, budget)
		want := Content{}
		if include[PartMarkdown] {
			want.Markdown = c.Markdown
		}
		if include[PartText] {
			want.Text = c.Text
		}
		if include[PartReader] {
			want.Reader.Markdown = c.Reader.Markdown
		}
		if include[PartLinks] {
			want.Links = c.Links
		}
		if include[PartHeadings] {
			want.Headings = c.Headings
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b []Link) bool { return cmp.Equal(append([]Link{}, a...), append([]Link{}, b...)) }),
			cmp.Comparer(func(a, b []Heading) bool { return cmp.Equal(append([]Heading{}, a...), append([]Heading{}, b...)) })); diff != "" {
			t.Fatalf("case %d budget %d: reassembled parts differ (-want +got):\n%s", i, budget, diff)
		}
	}
}

func TestSliceRespectsBudget(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	c := sampleContent(rng)
	include, _ := CheckInclude(nil)
	for offset := 0; ; {
		ch := c.Slice(include, offset, 500)
		size := 0
		if ch.Markdown != nil {
			size += len([]rune(*ch.Markdown))
		}
		if ch.Text != nil {
			size += len([]rune(*ch.Text))
		}
		if ch.Reader != nil {
			size += len([]rune(ch.Reader.Markdown))
		}
		for _, l := range ch.Links {
			size += linkCost(l)
		}
		for _, h := range ch.Headings {
			size += headingCost(h)
		}
		if size > 500 {
			t.Fatalf("window at %d holds %d characters, budget 500", offset, size)
		}
		if ch.Total != c.Size(PartMarkdown)+c.Size(PartReader)+c.Size(PartLinks)+c.Size(PartHeadings)+c.Size(PartText) {
			t.Fatalf("total %d is not the sum of the parts", ch.Total)
		}
		if ch.Next == 0 {
			break
		}
		offset = ch.Next
	}
}

func TestCheckInclude(t *testing.T) {
	if _, err := CheckInclude([]string{"markdown", "cookies"}); err == nil {
		t.Error("unknown part accepted")
	}
	m, err := CheckInclude([]string{"links"})
	if err != nil || !m["links"] || m["text"] {
		t.Errorf("CheckInclude(links) = %v, %v", m, err)
	}
}

func TestScriptAndDataURLsAreDropped(t *testing.T) {
	tree := `["body",0,["p",0,["a",{"href":"javascript:alert(1)"},"run"]," ",["a",{"href":"JavaScript:x"},"run2"]," ",["img",{"src":"data:image/png;base64,AAAA","alt":"pic"}]," ",["a",{"href":"/rel"},"rel"]]]`
	c := build(t, Page{Frames: []Frame{frame(0, "https://example.com/", "", tree)}})
	if strings.Contains(strings.ToLower(c.Markdown), "javascript:") || strings.Contains(c.Markdown, "data:") {
		t.Errorf("markdown keeps a script or data URL: %s", c.Markdown)
	}
	if !strings.Contains(c.Markdown, "[rel](https://example.com/rel)") {
		t.Errorf("relative link: %s", c.Markdown)
	}
}

// The page sends its tree as a JSON string (Chrome's script result
// converter cuts plain values nested deeper than 100 levels): the decoder
// takes the string form and keeps content 150 levels down.
func TestDecodeTreeTakesTheStringForm(t *testing.T) {
	deep := `["body",0,` + strings.Repeat(`["div",0,`, 150) + `"DEEP-BOTTOM"` + strings.Repeat(`]`, 150) + `]`
	wrapped, _ := json.Marshal(deep)
	n, err := DecodeTree(wrapped)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(Text(n), "DEEP-BOTTOM") {
		t.Errorf("content 150 levels down was lost: %q", Text(n))
	}
	for _, in := range []string{`"text"`, `"\"text\""`, `"{}"`, `"[1]"`, `"[\"p\""`} {
		if _, err := DecodeTree([]byte(in)); err == nil {
			t.Errorf("DecodeTree(%s) accepted it", in)
		}
	}
	c, err := Build(Page{Frames: []Frame{{FrameID: 0, URL: "https://example.com/", Tree: wrapped}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Markdown, "DEEP-BOTTOM") {
		t.Errorf("markdown lost the deep content: %q", c.Markdown)
	}
}

// A box sent with "scrolls" gets a line before it saying how much of it
// shows; a malformed mark is ignored.
func TestScrollingBoxIsMarked(t *testing.T) {
	c := build(t, Page{Frames: []Frame{frame(0, "http://x/", "", `["body",0,["p",0,"before"],["ul",{"scrolls":"40 6"},["li",0,"one"],["li",0,"two"]],["div",{"scrolls":"6 40"},"odd"]]`)}})
	if !strings.Contains(c.Markdown, "before\n\n(scrolls: 40 items, 6 shown)\n\n- one") {
		t.Errorf("markdown: %q", c.Markdown)
	}
	if strings.Count(c.Markdown, "scrolls:") != 1 {
		t.Errorf("a malformed mark came out: %q", c.Markdown)
	}
}

// A reader view that is a small page's markdown again adds nothing; one
// that picks the article out of a longer page does.
func TestReaderRepeatsTheMarkdown(t *testing.T) {
	md := "# Order\n\nName\n\nEmail\n\nCountry Denmark\n\nSend order"
	for _, tt := range []struct {
		reader string
		want   bool
	}{
		{"Name\n\nEmail\n\nCountry Denmark", true},
		{"", true},
		{"Name\n\nEmail\n\nA line the page lacks", false},
		{"Name", false}, // a short part of a longer page
		// Small differences are no news: another word for a button,
		// punctuation, markdown's marks.
		{"Name\n\n**Email**\n\nCountry: Denmark!", true},
	} {
		if got := Repeats(tt.reader, md); got != tt.want {
			t.Errorf("Repeats(%q) = %v, want %v", tt.reader, got, tt.want)
		}
	}
	// The demo page after its button is clicked: the reader view has
	// "clicked" where the markdown has "Go clicked".
	demo := "# Browser Bridge demo\n\nIf you can read this through `browser-bridge`, an agent can too: this page was opened by the bridge in its own window and tab group, through the extension and the native messaging host, with no remote-debugging port.\n\n- [A link](https://example.com/)\n- Name\n- Go clicked"
	demoReader := "If you can read this through `browser-bridge`, an agent can too: this page was opened by the bridge in its own window and tab group, through the extension and the native messaging host, with no remote-debugging port.\n\n- [A link](https://example.com/)\n- Name\n- clicked"
	if !Repeats(demoReader, demo) {
		t.Error("the demo page's reader view, the markdown but for a word, was not judged a repeat")
	}
	// A short article in a site's chrome: the reader view takes away
	// navigation, a sidebar and a footer, and is worth its size.
	story := "The harbour master has published the new tide tables for the winter season.\n\nBoats that moor at the inner quay should expect the low water to come later."
	chrome := "[Home](/) [News](/news) [Sport](/sport) [Weather](/weather) [About us](/about)\n\n# Tides\n\n" + story +
		"\n\n## Most read\n\n- [Council approves the new cycle lanes](/a)\n- [Bakery wins the regional prize](/b)\n\nCopyright 2026 The Gazette. All rights reserved."
	if Repeats("Tides\n\n"+story, chrome) {
		t.Error("a short article's reader view, which takes the chrome away, was judged a repeat")
	}
	// On a large page the reader view is kept: it leaves out the rest.
	article := strings.Repeat("A paragraph of the article.\n\n", 100)
	if Repeats(article, "Nav\n\n"+article+"Footer") {
		t.Error("the reader view of a large page was judged a repeat")
	}
}

package extract

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Element classes for plain-text layout.
var (
	paragraphs = set("p h1 h2 h3 h4 h5 h6 blockquote pre table ul ol dl figure form fieldset details address hr")
	blocks     = set("div section article aside nav header footer main li dt dd tr caption figcaption legend summary body")
)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// Text renders a decoded tree as plain text: whitespace collapsed as a
// browser does, a line per block, a blank line around paragraphs, table
// cells separated by a tab.
func Text(n *html.Node) string {
	var t textWriter
	t.node(n, false)
	return strings.TrimSpace(t.b.String())
}

type textWriter struct {
	b        strings.Builder
	space    bool // a collapsed space is pending
	newlines int  // newlines pending (max 2)
	atStart  bool // nothing written on the current line yet
}

func (t *textWriter) text(s string, pre bool) {
	if s == "" {
		return
	}
	if pre {
		t.flush()
		t.b.WriteString(s)
		t.atStart = strings.HasSuffix(s, "\n")
		return
	}
	if startsWithSpace(s) {
		t.space = true
	}
	for i, w := range strings.Fields(s) {
		if i > 0 {
			t.space = true
		}
		t.flush()
		t.b.WriteString(w)
		t.atStart = false
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	if unicode.IsSpace(r) {
		t.space = true
	}
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

func (t *textWriter) flush() {
	if t.b.Len() == 0 {
		t.newlines, t.space = 0, false
		return
	}
	if t.newlines > 0 {
		t.b.WriteString(strings.Repeat("\n", t.newlines))
		t.newlines, t.space, t.atStart = 0, false, true
		return
	}
	if t.space && !t.atStart {
		t.b.WriteByte(' ')
	}
	t.space = false
}

func (t *textWriter) newline(n int) {
	t.newlines = max(t.newlines, n)
	t.space = false
}

func (t *textWriter) node(n *html.Node, pre bool) {
	switch n.Type {
	case html.TextNode:
		t.text(n.Data, pre)
		return
	case html.ElementNode, html.DocumentNode:
	default:
		return
	}
	tag := n.Data
	switch tag {
	case "br":
		t.newline(1)
		t.atStart = true
		return
	case "img":
		return
	case "td", "th":
		if !t.atStart && t.newlines == 0 && t.b.Len() > 0 {
			t.space = false
			t.b.WriteByte('\t')
			t.atStart = true
		}
	}
	switch {
	case paragraphs[tag]:
		t.newline(2)
	case blocks[tag]:
		t.newline(1)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t.node(c, pre || tag == "pre")
	}
	switch {
	case paragraphs[tag]:
		t.newline(2)
	case blocks[tag]:
		t.newline(1)
	}
}

// textOf is the whitespace-normalised text under n.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
			return
		}
		if n.Type == html.ElementNode && n.Data == "img" {
			if alt := attr(n, "alt"); alt != "" {
				b.WriteString(alt)
				b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// Bounds on one link, so a link is never larger than a small budget.
const (
	maxLinkText = 200
	maxLinkURL  = 2000
)

// Links lists the visible links with absolute URLs, in page order, once
// each. Script links and links to a place on this same page are left out.
func Links(n *html.Node, pageURL string) []Link {
	base, _ := url.Parse(pageURL)
	var out []Link
	seen := map[Link]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			if l, ok := link(n, base); ok && !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func link(a *html.Node, base *url.URL) (Link, bool) {
	href := strings.TrimSpace(attr(a, "href"))
	if href == "" {
		return Link{}, false
	}
	u, err := url.Parse(href)
	if err != nil {
		return Link{}, false
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	switch u.Scheme {
	case "http", "https", "file", "mailto", "tel", "ftp":
	default:
		return Link{}, false
	}
	if base != nil && u.Fragment != "" {
		same := *u
		same.Fragment = ""
		b := *base
		b.Fragment = ""
		if same.String() == b.String() {
			return Link{}, false // an anchor on this page
		}
	}
	s := u.String()
	if len(s) > maxLinkURL {
		return Link{}, false // a data blob in disguise; not a place to go
	}
	// The visible text (an image's alt for an image link); never a title
	// or aria-label, which a person does not read on the page.
	return Link{Text: Shorten(textOf(a), maxLinkText), URL: s}, true
}

// Headings lists the visible headings in page order.
func Headings(n *html.Node) []Heading {
	var out []Heading
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6' {
			if t := textOf(n); t != "" {
				out = append(out, Heading{Level: int(n.Data[1] - '0'), Text: Shorten(t, 300)})
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// Shorten cuts s to at most n characters, the last of them "…" when it
// was cut.
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

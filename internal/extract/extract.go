// Package extract turns the serialized visible DOM of a page's frames (as
// the extension's page/extract.js sends it) into what an agent reads:
// plain text, markdown, a reader view of the main article, links,
// headings and what became of each frame — and cuts the result to a
// character budget with exact continuation (budget.go). It is pure Go and
// knows nothing of browsers or the bridge.
package extract

import (
	"bytes"
	"fmt"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
)

// Frame is one frame's answer from page/extract.js.
type Frame struct {
	FrameID   int        `json:"frameId"`
	URL       string     `json:"url"`
	Title     string     `json:"title"`
	Tree      []byte     `json:"-"` // the JSON of the tree, or a JSON string holding it (see DecodeTree)
	Frames    []FrameRef `json:"frames"`
	Truncated bool       `json:"truncated"`
	// HiddenRuns is how many elements' text the page hid from people in a
	// way pages hide text for machines only (font-size 0, the background's
	// colour, scaled to nothing, clipped, off-screen, under a layer): left
	// out, and counted in a warning. PartialEditors is how many code
	// editors showed only part of their text.
	HiddenRuns     int `json:"hiddenRuns"`
	PartialEditors int `json:"partialEditors"`
	// Width and Height are the frame's viewport, which matches its
	// element's content box in the parent.
	Width, Height float64 `json:"-"`
}

// FrameRef is a child frame element as its parent document saw it.
type FrameRef struct {
	FrameID int    `json:"frameId"` // -1 when the browser could not say
	Visible bool   `json:"visible"`
	Src     string `json:"src"`
}

// KnownFrame is a frame of the tab as the browser lists it.
type KnownFrame struct {
	FrameID       int    `json:"frameId"`
	ParentFrameID int    `json:"parentFrameId"`
	URL           string `json:"url"`
	ErrorOccurred bool   `json:"errorOccurred"`
}

// Page is everything read from one tab.
type Page struct {
	// Frames are the frames whose script answered; the top frame (ID 0)
	// must be among them.
	Frames []Frame
	// Known lists every frame of the tab (may be empty).
	Known []KnownFrame
	// Failed holds the error of each frame whose script failed.
	Failed map[int]string
}

// Content is a page read in full, before any budget.
type Content struct {
	URL      string
	Title    string
	Text     string
	Markdown string
	Reader   Reader
	Links    []Link
	Headings []Heading
	Frames   []FrameInfo
	Warnings []string
}

// Reader is the main content of the page, without navigation and chrome.
type Reader = tool.Reader

// Link is a visible link.
type Link = tool.Link

// Heading is a visible heading.
type Heading = tool.Heading

// FrameInfo says what became of one frame: included in place, or why not.
type FrameInfo = tool.FrameInfo

// maxFrameNesting bounds frames within frames.
const maxFrameNesting = 16

// Build reads a page into Content. parts names the parts to compute (see
// CheckInclude); nil computes all of them.
func Build(p Page, parts map[string]bool) (*Content, error) {
	want := func(part string) bool { return parts == nil || parts[part] }
	doc, infos, warnings, err := assemble(p)
	if err != nil {
		return nil, err
	}
	c := &Content{Frames: infos, Warnings: warnings}
	top := topFrame(p)
	c.URL, c.Title = top.URL, strings.TrimSpace(top.Title)
	body := findBody(doc)
	if want(PartText) {
		c.Text = Text(body)
	}
	if want(PartLinks) {
		c.Links = Links(body, c.URL)
	}
	if want(PartHeadings) {
		c.Headings = Headings(body)
	}
	// The markdown converter collapses whitespace in the tree it reads, and
	// readability rewrites it: they come last, in that order.
	if want(PartMarkdown) {
		if c.Markdown, err = Markdown(body, c.URL); err != nil {
			return nil, err
		}
	}
	if want(PartReader) {
		c.Reader, err = readerView(doc, c.URL, c.Title)
		if err != nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("no reader view: %v", err))
		}
	}
	return c, nil
}

func topFrame(p Page) Frame {
	for _, f := range p.Frames {
		if f.FrameID == 0 {
			return f
		}
	}
	return Frame{}
}

// assemble decodes every frame and puts each visible child frame's content
// in place of its element in the parent, as a person sees it. It returns
// the whole document and what became of each frame.
func assemble(p Page) (*html.Node, []FrameInfo, []string, error) {
	byID := map[int]*Frame{}
	for i := range p.Frames {
		byID[p.Frames[i].FrameID] = &p.Frames[i]
	}
	top, ok := byID[0]
	if !ok {
		return nil, nil, nil, fmt.Errorf("the top frame gave no content")
	}
	known := map[int]KnownFrame{}
	for _, k := range p.Known {
		known[k.FrameID] = k
	}
	var warnings []string
	trees := map[int]*html.Node{}
	for id, f := range byID {
		t, err := DecodeTree(f.Tree)
		if err != nil {
			if id == 0 {
				return nil, nil, nil, err
			}
			p.Failed = withFailure(p.Failed, id, err.Error())
			continue
		}
		trees[id] = t
		if f.Truncated {
			warnings = append(warnings, fmt.Sprintf("frame %d is very large; its content was cut short", id))
		}
	}

	included := map[int]bool{0: true}
	hiddenIn := map[int]bool{}
	parentOf := map[int]int{}
	for id, k := range known {
		parentOf[id] = k.ParentFrameID
	}
	used := map[int]bool{0: true}

	var place func(id int, depth int)
	place = func(id int, depth int) {
		f := byID[id]
		root := trees[id]
		for _, ref := range f.Frames {
			switch {
			case ref.Visible:
			case ref.FrameID >= 0:
				hiddenIn[ref.FrameID] = true
			default:
				// Unnamed: the hidden frame is the child with its URL.
				for cid, k := range known {
					if k.ParentFrameID == id && k.URL == ref.Src {
						hiddenIn[cid] = true
					}
				}
			}
		}
		// Frames the browser could not name (-1) are matched to the
		// parent's children by URL and content size, then in order.
		spare := func(ph *html.Node) int {
			var cands []int
			for cid, k := range known {
				if k.ParentFrameID == id && !used[cid] {
					cands = append(cands, cid)
				}
			}
			sort.Ints(cands)
			src := attr(ph, "src")
			w, _ := strconv.ParseFloat(attr(ph, "width"), 64)
			h, _ := strconv.ParseFloat(attr(ph, "height"), 64)
			best, score := -1, -1
			for _, cid := range cands {
				s := 0
				if known[cid].URL == src {
					s += 2
				}
				if f, ok := byID[cid]; ok && near(f.Width, w) && near(f.Height, h) {
					s++
				}
				if s > score {
					best, score = cid, s
				}
			}
			return best
		}
		for _, ph := range placeholders(root) {
			cid, err := strconv.Atoi(attr(ph, "id"))
			if err != nil || cid < 0 {
				cid = spare(ph)
			}
			child, ok := trees[cid]
			if cid <= 0 || !ok || used[cid] || depth >= maxFrameNesting {
				ph.Parent.RemoveChild(ph)
				continue
			}
			used[cid] = true
			included[cid] = true
			parentOf[cid] = id
			place(cid, depth+1)
			// The frame's body becomes a div in the parent's place.
			child.Data, child.DataAtom = "div", 0
			child.Attr = []html.Attribute{{Key: "class", Val: "bb-frame"}}
			ph.Parent.InsertBefore(child, ph)
			ph.Parent.RemoveChild(ph)
		}
	}
	place(0, 0)
	hiddenRuns, partialEditors := 0, 0
	for id := range included {
		if f, ok := byID[id]; ok {
			hiddenRuns += max(f.HiddenRuns, 0)
			partialEditors += max(f.PartialEditors, 0)
		}
	}
	if hiddenRuns > 0 {
		warnings = append(warnings, fmt.Sprintf("%d hidden text runs left out: text on the page that people cannot see (font-size 0, transparent or the background's colour, moved or clipped out of sight, under another layer)", hiddenRuns))
	}
	if partialEditors > 0 {
		warnings = append(warnings, fmt.Sprintf("%d code editors show only part of their text (the lines on screen); the code blocks hold those lines", partialEditors))
	}

	doc := &html.Node{Type: html.DocumentNode}
	htmlEl := element("html", nil)
	head := element("head", nil)
	title := element("title", nil)
	title.AppendChild(&html.Node{Type: html.TextNode, Data: top.Title})
	head.AppendChild(title)
	htmlEl.AppendChild(head)
	htmlEl.AppendChild(trees[0])
	doc.AppendChild(htmlEl)

	// What became of every frame other than the top one.
	ids := map[int]bool{}
	for id := range byID {
		ids[id] = true
	}
	for id := range known {
		ids[id] = true
	}
	for id := range p.Failed {
		ids[id] = true
	}
	var order []int
	for id := range ids {
		if id != 0 {
			order = append(order, id)
		}
	}
	sort.Ints(order)
	origin := map[int]string{0: originOf(top.URL, "")}
	var originFor func(id int, depth int) string
	originFor = func(id int, depth int) string {
		if o, ok := origin[id]; ok {
			return o
		}
		parent := origin[0]
		if pid, ok := parentOf[id]; ok && depth < maxFrameNesting {
			parent = originFor(pid, depth+1)
		}
		o := originOf(frameURL(id, byID, known), parent)
		origin[id] = o
		return o
	}
	var infos []FrameInfo
	for _, id := range order {
		fi := FrameInfo{FrameID: id, URL: frameURL(id, byID, known), Included: included[id]}
		if pid, ok := parentOf[id]; ok {
			fi.ParentFrameID = &pid
		}
		fi.CrossOrigin = originFor(id, 0) != origin[0]
		if !fi.Included {
			fi.Reason = whyNot(id, byID, trees, known, p.Failed, hiddenIn, included, parentOf)
		}
		infos = append(infos, fi)
	}
	return doc, infos, warnings, nil
}

func near(a, b float64) bool { return a-b <= 1 && b-a <= 1 }

func withFailure(m map[int]string, id int, msg string) map[int]string {
	if m == nil {
		m = map[int]string{}
	}
	m[id] = msg
	return m
}

func frameURL(id int, byID map[int]*Frame, known map[int]KnownFrame) string {
	if f, ok := byID[id]; ok && f.URL != "" {
		return f.URL
	}
	return known[id].URL
}

// whyNot says in a sentence why a frame's content is not in the result.
func whyNot(id int, byID map[int]*Frame, trees map[int]*html.Node, known map[int]KnownFrame, failed map[int]string, hiddenIn, included map[int]bool, parentOf map[int]int) string {
	if msg, ok := failed[id]; ok {
		return "its content could not be read: " + msg
	}
	if _, ok := byID[id]; ok {
		if _, ok := trees[id]; !ok {
			return "its content could not be decoded"
		}
		if hiddenIn[id] {
			return "the frame is hidden on the page"
		}
		if pid, ok := parentOf[id]; ok && !included[pid] {
			return "its parent frame is not included"
		}
		return "the frame is not in the visible part of its parent"
	}
	k := known[id]
	if k.ErrorOccurred {
		return "the frame failed to load"
	}
	if u, err := url.Parse(k.URL); err == nil {
		switch u.Scheme {
		case "chrome", "chrome-extension", "chrome-untrusted", "devtools", "edge", "brave", "chrome-error":
			return fmt.Sprintf("the browser does not let extensions read %s: pages", u.Scheme)
		}
	}
	return "the extension could not run its script in this frame (a sandboxed, protected or still loading frame)"
}

// originOf is scheme://host of a URL; about: and empty URLs inherit the
// parent's origin (about:blank and srcdoc frames share their creator's).
func originOf(raw, parent string) string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" || u.Scheme == "about" {
		return parent
	}
	if u.Scheme == "blob" {
		if inner, err := url.Parse(u.Opaque); err == nil && inner.Host != "" {
			return inner.Scheme + "://" + inner.Host
		}
	}
	if u.Host == "" {
		return u.Scheme + ":" // data:, file: — opaque or local
	}
	return u.Scheme + "://" + u.Host
}

func placeholders(root *html.Node) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == frameTag {
				out = append(out, c)
				continue
			}
			walk(c)
		}
	}
	walk(root)
	return out
}

func findBody(doc *html.Node) *html.Node {
	var found *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && found == nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "body" {
				found = c
				return
			}
			walk(c)
		}
	}
	walk(doc)
	if found == nil {
		return doc
	}
	return found
}

// newConverter is the markdown converter: CommonMark plus tables, with
// minimal cell padding (aligned columns cost characters, not meaning).
func newConverter() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(
			table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal),
			table.WithHeaderPromotion(true),
			table.WithSkipEmptyRows(true),
		),
	))
}

// smallPage is the size of markdown up to which a page is small: its
// reader view, if it is most of the page, is the page again. On a larger
// page the reader view is what saves reading the navigation and the rest
// around the article, and is kept.
const smallPage = 2000

// Repeats reports whether a reader view's markdown adds nothing to the
// page's markdown, so that sending both would send the page twice.
//
// The measure is on words (runs of letters and digits, lower-cased, link
// targets left out), so that markdown's marks, punctuation, spacing and
// a reworded line do not count as news (the demo page's reader view has
// "clicked" where its markdown has "Go clicked"). A reader view repeats a
// page when
//   - the page is small (smallPage): on a larger one the reader view is
//     what saves reading the chrome around the article;
//   - it brings almost no words of its own (at most 5% of its words):
//     readability works on the same DOM, so these are rewordings; and
//   - it takes little of the page away: at most a quarter of the page's
//     words, or at most maxDropped words (a heading, a button or two)
//     while it keeps at least half of them. A reader view that leaves out more than that has cut away
//     navigation, a sidebar or a footer, and is worth its size even on a
//     short article.
func Repeats(reader, markdown string) bool {
	r := words(reader)
	if len(r) == 0 {
		return true
	}
	if len(markdown) > smallPage {
		return false
	}
	page := map[string]int{}
	m := words(markdown)
	for _, w := range m {
		page[w]++
	}
	added := 0
	for _, w := range r {
		if page[w] > 0 {
			page[w]--
		} else {
			added++
		}
	}
	dropped := 0
	for _, n := range page {
		dropped += n
	}
	return added*20 <= len(r) && (dropped*4 <= len(m) || dropped <= maxDropped && dropped*2 <= len(m))
}

// maxDropped is the number of a small page's words a reader view may
// leave out and still be the page again: a title, a button, a label.
const maxDropped = 8

// linkTarget is a markdown link's or image's target, "](…)": its URL is
// not words a person reads.
var linkTarget = regexp.MustCompile(`\]\([^)]*\)`)

// words are the lower-cased runs of letters and digits of a markdown
// text, its link targets left out.
func words(md string) []string {
	return strings.FieldsFunc(strings.ToLower(linkTarget.ReplaceAllString(md, "]")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Markdown converts a decoded tree to markdown; relative links resolve
// against pageURL.
func Markdown(n *html.Node, pageURL string) (string, error) {
	var opts []converter.ConvertOptionFunc
	if u, err := url.Parse(pageURL); err == nil && u.Host != "" {
		opts = append(opts, converter.WithDomain(u.Scheme+"://"+u.Host))
	}
	out, err := newConverter().ConvertNode(n, opts...)
	if err != nil {
		return "", fmt.Errorf("converting to markdown: %w", err)
	}
	return string(bytes.TrimSpace(out)), nil
}

// readerView finds the main article (a readability port) and renders it
// as markdown.
func readerView(doc *html.Node, pageURL, title string) (Reader, error) {
	r := Reader{Title: title}
	u, err := url.Parse(pageURL)
	if err != nil {
		u = &url.URL{}
	}
	art, err := readability.FromDocument(doc, u)
	if err != nil {
		return r, err
	}
	if t := strings.TrimSpace(art.Title()); t != "" {
		r.Title = t
	}
	r.Byline = strings.TrimSpace(art.Byline())
	if art.Node == nil {
		return r, fmt.Errorf("the page has no main article")
	}
	r.Markdown, err = Markdown(art.Node, pageURL)
	return r, err
}

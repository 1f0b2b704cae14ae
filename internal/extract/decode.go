package extract

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Limits on a decoded tree. Page content is untrusted: a hostile page may
// send deep or huge trees, and the decoder must stay bounded.
const (
	maxDepth = 512
	maxNodes = 1_000_000
	maxAttr  = 4096
)

// frameTag is the element a frame placeholder decodes to; Build replaces
// it with the frame's own content.
const frameTag = "bb-frame"

// tags are the element names the page script may send. Anything else
// decodes as a span (its text stays, its meaning is lost).
var tags = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`a abbr address article aside b blockquote body br caption cite code dd del
		details dfn div dl dt em fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr i img ins kbd
		label legend li main mark nav ol p pre q s samp section small span strong sub summary sup table tbody td
		tfoot th thead time tr u ul var button`) {
		tags[t] = true
	}
}

// attrs each tag may carry; others are dropped. A title is kept only on
// an abbreviation (its expansion); a link's title or aria-label is not
// text a person reads on the page, and a page could hide words for the
// model in it.
var allowedAttrs = map[string]bool{
	"href": true, "title": true, "src": true, "alt": true, "colspan": true, "rowspan": true,
	"start": true, "id": true, "class": true, "role": true,
}

// DecodeTree turns one serialized node of page/extract.js into an
// html.Node: a JSON string is a text node, [tag, attrs, ...children] an
// element (attrs an object of strings, or 0 / null). Form controls decode
// to the text a person sees in them; the value of a sensitive field is
// never used, even when a page sends one. Malformed children are skipped;
// only a root that is not an element is an error.
//
// The page sends its tree JSON-encoded inside a JSON string (Chrome's
// converter of script results cuts values nested deeper than 100 levels
// to null; a string passes whole), so a root that is a string holding an
// element is decoded once more. Both forms are accepted.
func DecodeTree(raw []byte) (*html.Node, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("decoding the page's tree: %w", err)
	}
	if s, ok := v.(string); ok {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("decoding the page's tree: %w", err)
		}
	}
	if _, ok := v.([]any); !ok {
		return nil, errors.New("decoding the page's tree: the root is not an element")
	}
	d := decoder{}
	n := d.node(v, 0)
	if n == nil || n.Type != html.ElementNode {
		return nil, errors.New("decoding the page's tree: the root is not an element")
	}
	return n, nil
}

type decoder struct {
	nodes int
}

func (d *decoder) node(v any, depth int) *html.Node {
	d.nodes++
	if d.nodes > maxNodes {
		return nil
	}
	switch x := v.(type) {
	case string:
		return &html.Node{Type: html.TextNode, Data: x}
	case []any:
		if len(x) == 0 {
			return nil
		}
		tag, _ := x[0].(string)
		tag = strings.ToLower(tag)
		if tag == "" {
			return nil
		}
		var attrs map[string]any
		if len(x) > 1 {
			attrs, _ = x[1].(map[string]any)
		}
		switch tag {
		case "input", "select", "textarea":
			return control(tag, attrs, x)
		case "frame":
			return element(frameTag, []html.Attribute{{Key: "height", Val: str(attrs["height"])}, {Key: "id", Val: str(attrs["id"])},
				{Key: "src", Val: str(attrs["src"])}, {Key: "width", Val: str(attrs["width"])}})
		}
		if !tags[tag] {
			tag = "span"
		}
		n := element(tag, nil)
		for k, val := range attrs {
			if allowedAttrs[k] && (k != "title" || tag == "abbr") {
				if s := str(val); s != "" && ((k != "href" && k != "src") || safeURL(s)) {
					n.Attr = append(n.Attr, html.Attribute{Key: k, Val: s})
				}
			}
		}
		sortAttrs(n.Attr)
		if tag == "br" || tag == "hr" || tag == "img" {
			return n
		}
		if depth >= maxDepth {
			return n // deeper content is dropped, not a stack overflow
		}
		for _, c := range x[min(2, len(x)):] {
			if k := d.node(c, depth+1); k != nil {
				if m := scrollMark(c); m != nil {
					n.AppendChild(m)
				}
				n.AppendChild(k)
			}
		}
		return n
	}
	return nil
}

// scrollMark is the line put before a box whose content is partly
// scrolled out of view (attribute "scrolls": "<items> <shown>", sent by
// page/extract.js), so the reader knows the box holds more than a person
// sees at once; nil for any other node.
func scrollMark(v any) *html.Node {
	x, ok := v.([]any)
	if !ok || len(x) < 2 {
		return nil
	}
	attrs, _ := x[1].(map[string]any)
	s, _ := attrs["scrolls"].(string)
	var items, shown int
	if n, err := fmt.Sscanf(s, "%d %d", &items, &shown); err != nil || n != 2 || items < 1 || shown < 0 || shown > items {
		return nil
	}
	p := element("p", nil)
	p.AppendChild(&html.Node{Type: html.TextNode, Data: fmt.Sprintf("(scrolls: %d items, %d shown)", items, shown)})
	return p
}

// control renders a form control as the text a person sees in it.
func control(tag string, attrs map[string]any, x []any) *html.Node {
	var t string
	switch tag {
	case "select":
		if len(x) > 2 {
			t, _ = x[2].(string)
		}
	case "textarea":
		t = str(attrs["value"])
	default:
		switch str(attrs["type"]) {
		case "checkbox":
			t = "☐"
			if attrs["checked"] != nil {
				t = "☑"
			}
		case "radio":
			t = "○"
			if attrs["checked"] != nil {
				t = "◉"
			}
		case "button", "text":
			t = str(attrs["value"])
		default:
			// "sensitive" (password, payment card), "file", unknown: nothing.
		}
	}
	t = strings.TrimSpace(t)
	if t == "" {
		return nil
	}
	n := element("span", nil)
	n.AppendChild(&html.Node{Type: html.TextNode, Data: " " + t + " "})
	return n
}

// safeURL keeps links and images to places a reader can go; script and
// data URLs are dropped (a data image would also cost the whole budget).
func safeURL(s string) bool {
	scheme, _, ok := strings.Cut(s, ":")
	if !ok || strings.ContainsAny(scheme, "/?#") {
		return true // relative
	}
	switch strings.ToLower(strings.TrimSpace(scheme)) {
	case "http", "https", "file", "mailto", "tel", "ftp":
		return true
	}
	return false
}

func element(tag string, attrs []html.Attribute) *html.Node {
	return &html.Node{Type: html.ElementNode, Data: tag, DataAtom: atom.Lookup([]byte(tag)), Attr: attrs}
}

func str(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case float64:
		s = fmt.Sprint(x)
	case bool:
		if x {
			s = "true"
		}
	}
	if len(s) > maxAttr {
		s = strings.ToValidUTF8(s[:maxAttr], "")
	}
	return s
}

func sortAttrs(a []html.Attribute) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j].Key < a[j-1].Key; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// attr returns the value of n's attribute key.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

package actions

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/extract"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"github.com/google/go-cmp/cmp"
)

func bigContent() *extract.Content {
	c := &extract.Content{URL: "https://example.com/", Title: "Example",
		Frames: []extract.FrameInfo{{FrameID: 3, URL: "https://ads.example/", CrossOrigin: true, Reason: "the frame is hidden on the page"}}}
	var md, text strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&md, "## Part %d\n\nParagraph %d with *some* words in it.\n\n", i, i)
		fmt.Fprintf(&text, "Part %d\nParagraph %d with some words in it.\n", i, i)
		c.Links = append(c.Links, extract.Link{Text: fmt.Sprintf("link %d", i), URL: fmt.Sprintf("https://example.com/%d", i)})
		c.Headings = append(c.Headings, extract.Heading{Level: 2, Text: fmt.Sprintf("Part %d", i)})
	}
	c.Markdown, c.Text = md.String(), text.String()
	c.Reader = extract.Reader{Title: "Example", Markdown: c.Markdown[:4000]}
	return c
}

func TestShapeExtractWindows(t *testing.T) {
	c := bigContent()
	include, _ := extract.CheckInclude(nil)
	tab := browser.TabInfo{TabID: 7, URL: c.URL, Title: c.Title}
	const maxChars = 3000
	var md, text, reader strings.Builder
	var links []extract.Link
	var headings []extract.Heading
	offset := 0
	for calls := 0; ; calls++ {
		res := shapeExtract(tab, c, include, offset, maxChars, []string{"page warning"})
		b, _ := json.Marshal(res)
		if utf8.RuneCount(b) > maxChars {
			t.Fatalf("window at %d is %d characters of JSON, budget %d", offset, len(b), maxChars)
		}
		if res.TabID != 7 || res.URL != c.URL || res.Title != c.Title {
			t.Fatalf("tab fields: %+v", res)
		}
		if (offset == 0) != (len(res.Frames) > 0) {
			t.Errorf("frames must come in the first window only (offset %d: %v)", offset, res.Frames)
		}
		if res.Markdown != nil {
			md.WriteString(*res.Markdown)
		}
		if res.Text != nil {
			text.WriteString(*res.Text)
		}
		if res.Reader != nil {
			reader.WriteString(res.Reader.Markdown)
			if res.Reader.Title != "Example" {
				t.Errorf("reader window lacks its title: %+v", res.Reader)
			}
		}
		if res.Links != nil {
			links = append(links, res.Links...)
		}
		if res.Headings != nil {
			headings = append(headings, res.Headings...)
		}
		if res.NextOffset == nil {
			break
		}
		if !strings.Contains(strings.Join(res.Warnings, " "), fmt.Sprintf("offset %d", *res.NextOffset)) {
			t.Errorf("the window does not say how to go on: %v", res.Warnings)
		}
		if *res.NextOffset <= offset || calls > 1000 {
			t.Fatalf("no progress at %d", offset)
		}
		offset = *res.NextOffset
	}
	if md.String() != c.Markdown || text.String() != c.Text || reader.String() != c.Reader.Markdown {
		t.Error("string parts were lost or repeated across windows")
	}
	if diff := cmp.Diff(c.Links, links); diff != "" {
		t.Errorf("links across windows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(c.Headings, headings); diff != "" {
		t.Errorf("headings across windows (-want +got):\n%s", diff)
	}
}

// A page full of ad frames with long URLs: frames[] shrinks so that the
// whole first window, metadata included, keeps to the budget, and says so.
func TestShapeExtractFramesKeepToTheBudget(t *testing.T) {
	c := bigContent()
	c.Frames = nil
	for i := range 60 {
		c.Frames = append(c.Frames, extract.FrameInfo{FrameID: i + 1, URL: "https://ads.example/" + strings.Repeat("x", 3000),
			CrossOrigin: true, Reason: "the frame is hidden on the page"})
	}
	c.Title = strings.Repeat("Title ", 1000)
	var warnings []string
	for range 20 {
		warnings = append(warnings, strings.Repeat("a page's warning ", 100))
	}
	include, _ := extract.CheckInclude(nil)
	for _, maxChars := range []int{tool.MinMaxChars, 2000, 5000, tool.DefaultMaxChars} {
		res := shapeExtract(browser.TabInfo{TabID: 7}, c, include, 0, maxChars, warnings)
		b, _ := json.Marshal(res)
		if n := utf8.RuneCount(b); n > maxChars && !(maxChars == tool.MinMaxChars && n <= maxChars*3/2) {
			t.Errorf("maxChars %d: the first window is %d characters of JSON", maxChars, n)
		}
		if len(res.Frames) >= maxFramesListed || !strings.Contains(strings.Join(res.Warnings, " "), "the page has 60 frames; frames lists the first") {
			t.Errorf("maxChars %d: %d frames listed, warnings %v", maxChars, len(res.Frames), res.Warnings)
		}
		for _, f := range res.Frames {
			if len([]rune(f.URL)) > maxFrameURL+1 {
				t.Fatalf("frame URL of %d characters", len(f.URL))
			}
		}
	}
}

// Text whose JSON quoting is heavy (short lines, quotes, backslashes):
// the windows still keep to maxChars as JSON, and still cover it all.
func TestShapeExtractEscapingKeepsToTheBudget(t *testing.T) {
	var md strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&md, "\"%d\"\\\n", i)
	}
	c := &extract.Content{URL: "https://example.com/", Title: "Quotes", Markdown: md.String()}
	include, _ := extract.CheckInclude([]string{"markdown"})
	const maxChars = 4000
	var got strings.Builder
	for offset, calls := 0, 0; ; calls++ {
		res := shapeExtract(browser.TabInfo{TabID: 1}, c, include, offset, maxChars, nil)
		b, _ := json.Marshal(res)
		if n := utf8.RuneCount(b); n > maxChars {
			t.Fatalf("window at %d is %d characters of JSON", offset, n)
		}
		got.WriteString(*res.Markdown)
		if res.NextOffset == nil {
			break
		}
		if *res.NextOffset <= offset || calls > 500 {
			t.Fatalf("no progress at %d", offset)
		}
		offset = *res.NextOffset
	}
	if got.String() != c.Markdown {
		t.Fatal("windows lost or repeated text")
	}
}

func TestShapeExtractSmallPageInOneWindow(t *testing.T) {
	c := &extract.Content{URL: "https://example.com/", Title: "T", Markdown: "# T\n\nHello", Text: "T\n\nHello"}
	include, _ := extract.CheckInclude([]string{"markdown", "links"})
	res := shapeExtract(browser.TabInfo{TabID: 1}, c, include, 0, tool.DefaultMaxChars, nil)
	b, _ := json.Marshal(res)
	want := `{"tabId":1,"url":"https://example.com/","title":"T","markdown":"# T\n\nHello","links":[],"totalChars":10}`
	if string(b) != want {
		t.Errorf("result:\n%s\nwant\n%s", b, want)
	}
	// frames and warnings are parts too: include names them.
	include, err := extract.CheckInclude([]string{"markdown", "frames", "warnings"})
	if err != nil {
		t.Fatal(err)
	}
	res = shapeExtract(browser.TabInfo{TabID: 1}, c, include, 0, tool.DefaultMaxChars, []string{"w"})
	b, _ = json.Marshal(res)
	want = `{"tabId":1,"url":"https://example.com/","title":"T","markdown":"# T\n\nHello","frames":[],"warnings":["w"],"totalChars":10}`
	if string(b) != want {
		t.Errorf("result:\n%s\nwant\n%s", b, want)
	}
}

func TestWaitCondition(t *testing.T) {
	c := waitCondition(&tool.WaitFor{Locator: tool.Locator{Role: "button", Name: "Go"}})
	if c.loc == nil || c.describe() != `an element with role "button" named "Go"` {
		t.Errorf("role waitFor: %+v", c)
	}
	c = waitCondition(&tool.WaitFor{URLContains: "/done"})
	if c.urlContains != "/done" || c.describe() != `a URL containing "/done"` {
		t.Errorf("urlContains waitFor: %+v", c)
	}
}

func TestShapeInspectNeverSplitsAnElement(t *testing.T) {
	var all []control
	for i := 0; i < 200; i++ {
		all = append(all, control{Ref: fmt.Sprintf("e%d", i), Tag: "a", Role: "link", Name: fmt.Sprintf("Link number %d", i), Selector: fmt.Sprintf("ul > li:nth-of-type(%d) > a", i+1)})
	}
	var got []string
	offset := 0
	for calls := 0; ; calls++ {
		res := shapeInspect(browser.TabInfo{TabID: 2}, all, offset, 2000, nil)
		if res.Count != len(all) {
			t.Fatalf("count %d", res.Count)
		}
		for _, e := range res.Elements {
			got = append(got, e.Ref)
		}
		if res.NextOffset == nil {
			break
		}
		if *res.NextOffset <= offset || calls > 500 {
			t.Fatal("no progress")
		}
		offset = *res.NextOffset
	}
	if len(got) != len(all) {
		t.Fatalf("%d elements across windows, want %d", len(got), len(all))
	}
	for i, r := range got {
		if r != all[i].Ref {
			t.Fatalf("element %d is %s, want %s", i, r, all[i].Ref)
		}
	}
}

func TestMergeInspectPlacesFrames(t *testing.T) {
	top := `{"elements":[{"ref":"e1","tag":"button","rect":[10,10,50,20]}],
		"frames":[{"frameId":-1,"src":"https://a.example/f","x":100,"y":200,"width":300,"height":100,"visible":true},
		          {"frameId":-1,"src":"https://a.example/f","x":100,"y":400,"width":500,"height":150,"visible":false}],
		"viewport":{"width":1280,"height":800}}`
	small := `{"elements":[{"ref":"e1","tag":"a","rect":[5,6,10,10]}],"viewport":{"width":300,"height":100}}`
	large := `{"elements":[{"ref":"e2","tag":"a","rect":[1,2,10,10]}],"viewport":{"width":500,"height":150}}`
	res := []protocol.PageFrameResult{{FrameID: 0, Value: json.RawMessage(top)}, {FrameID: 4, Value: json.RawMessage(large)}, {FrameID: 9, Value: json.RawMessage(small)}, {FrameID: 12, Error: "no access"}}
	known := []protocol.Frame{{FrameID: 4, ParentFrameID: 0, URL: "https://a.example/f"}, {FrameID: 9, ParentFrameID: 0, URL: "https://a.example/f"}}
	list, _ := mergeInspect(res, known)
	if len(list) != 3 {
		t.Fatalf("merged %d elements: %+v", len(list), list)
	}
	// Same URL twice: the sizes tell the frames apart.
	want := []struct {
		ref     string
		frame   int
		x, y    float64
		visible bool
	}{{"e1", 0, 10, 10, true}, {"f4e2", 4, 101, 402, false}, {"f9e1", 9, 105, 206, true}}
	for i, w := range want {
		e := list[i]
		if e.Ref != w.ref || e.FrameID != w.frame || e.Rect[0] != w.x || e.Rect[1] != w.y || (e.Visible == nil) != w.visible {
			t.Errorf("element %d: %+v, want %+v", i, e, w)
		}
	}
}

func TestSearchTemplate(t *testing.T) {
	home := t.TempDir()
	t.Setenv("BROWSER_BRIDGE_HOME", home)
	t.Setenv(EnvSearchURL, "")
	if tmpl, from, err := searchTemplate(); err != nil || tmpl != DefaultSearchURL || !strings.Contains(from, "default") {
		t.Errorf("default: %q %q %v", tmpl, from, err)
	}
	os.WriteFile(filepath.Join(home, "settings.json"), []byte(`{"searchUrl":"https://search.example/?q={query}"}`), 0o600)
	if tmpl, from, _ := searchTemplate(); tmpl != "https://search.example/?q={query}" || !strings.Contains(from, "searchUrl in ") {
		t.Errorf("settings: %q %q", tmpl, from)
	}
	t.Setenv(EnvSearchURL, "https://env.example/s?q={query}")
	if tmpl, from, _ := searchTemplate(); tmpl != "https://env.example/s?q={query}" || !strings.Contains(from, EnvSearchURL) {
		t.Errorf("the environment wins: %q %q", tmpl, from)
	}
	t.Setenv(EnvSearchURL, "https://env.example/")
	if _, _, err := searchTemplate(); protocol.CodeOf(err) != protocol.CodeInvalidArgument {
		t.Errorf("a template without {query}: %v", err)
	}
}

func TestReadCache(t *testing.T) {
	c := &readCache{m: map[readKey]readEntry{}}
	k := readKey{tabID: 1, kind: "extract", parts: "markdown"}
	c.put(k, "https://a.example/", 42)
	if v, ok := c.get(k, "https://a.example/"); !ok || v != 42 {
		t.Errorf("get: %v %v", v, ok)
	}
	if _, ok := c.get(k, "https://b.example/"); ok {
		t.Error("a tab that moved on still hit the cache")
	}
	for i := 0; i < readEntries+5; i++ {
		c.put(readKey{tabID: 100 + i}, "u", i)
	}
	if len(c.m) > readEntries {
		t.Errorf("the cache holds %d entries, at most %d", len(c.m), readEntries)
	}
}

// A search engine that cannot be reached is named, with where its URL
// came from, instead of "no results". The fake browser stands
// in for Chrome showing its error page for the results page.
func TestSearchNamesAnUnreachableEngine(t *testing.T) {
	t.Setenv("BROWSER_BRIDGE_HOME", t.TempDir())
	t.Setenv(EnvSearchURL, "http://127.0.0.1:9/find?q={query}")
	fake := fakebrowser.New()
	fake.Handle("window.create", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3}))
	fake.Handle("tab.group", fakebrowser.Reply(protocol.TabGroupResult{GroupID: 11}))
	fake.Handle("tab.waitLoad", fakebrowser.Reply(browser.TabInfo{TabID: 7, WindowID: 3, URL: "http://127.0.0.1:9/find?q=go", LoadError: "net::ERR_CONNECTION_REFUSED"}))
	env := engine(t, fake)
	_, err := Run(context.Background(), env, "session:a", input(t, `{"action":"search","query":"go"}`), nil)
	if err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:9/find?q=go") || !strings.Contains(err.Error(), EnvSearchURL) || !strings.Contains(err.Error(), "ERR_CONNECTION_REFUSED") {
		t.Fatalf("search with an unreachable engine: %v", err)
	}
}

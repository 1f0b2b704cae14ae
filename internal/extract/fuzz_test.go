package extract

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeTree feeds arbitrary page data through the decoder and the
// whole build: it must never panic, and a sensitive field's value must
// never come out.
func FuzzDecodeTree(f *testing.F) {
	for _, s := range []string{
		`["body",0,["p",0,"hi"]]`,
		`["body",0,["a",{"href":"/x"},"x"],["frame",{"id":"2"}]]`,
		`["body",0,["table",0,["tr",0,["td",{"colspan":"2"},"a"]]]]`,
		`["body",0,["input",{"type":"sensitive","value":"SECRETVALUE"}]]`,
		`["body",0,["pre",0,"  a\n  b"],["h7",0,"x"],["br"],["img",{"src":"x","alt":"y"}]]`,
		`["body",{"class":["x"]},[[[]]],{},null,1.5]`,
		`["body",0,["ul",0,["li",0,["ol",0,["li",0,"deep"]]]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := DecodeTree(data)
		if err != nil {
			return
		}
		_ = Text(n)
		_ = Links(n, "https://example.com/")
		_ = Headings(n)
		c, err := Build(Page{Frames: []Frame{{FrameID: 0, URL: "https://example.com/", Tree: data}}}, nil)
		if err != nil {
			return
		}
		if strings.Contains(string(data), `"sensitive","value":"SECRETVALUE"`) {
			all, _ := json.Marshal(c)
			if strings.Contains(string(all), "SECRETVALUE") {
				t.Fatalf("a sensitive value came out: %s", all)
			}
		}
	})
}

// FuzzSlice checks that windows cover every included character exactly
// once for any budget and any starting point.
func FuzzSlice(f *testing.F) {
	f.Add("some markdown\nwith lines", "plain text", "reader body", "link text", 7, 0)
	f.Add("", "", "", "", 1, 3)
	f.Add("日本語のテキスト", "ελληνικά", "", "ü", 2, 5)
	f.Fuzz(func(t *testing.T, md, text, reader, linkText string, budget, offset int) {
		if budget <= 0 || budget > 1<<16 || offset < 0 || offset > 1<<20 {
			return
		}
		// Content comes from JSON, so it is valid UTF-8.
		for _, s := range []string{md, text, reader, linkText} {
			if !utf8.ValidString(s) {
				return
			}
		}
		c := &Content{Markdown: md, Text: text, Reader: Reader{Markdown: reader},
			Links:    []Link{{Text: linkText, URL: "https://example.com/a"}, {Text: "b", URL: "https://example.com/b"}},
			Headings: []Heading{{Level: 1, Text: linkText}}}
		include, _ := CheckInclude(nil)
		// Any offset gives a window that moves forward.
		ch := c.Slice(include, offset, budget)
		if ch.Next != 0 && ch.Next <= offset {
			t.Fatalf("offset %d: next %d does not move forward", offset, ch.Next)
		}
		got, _ := collect(t, c, include, budget)
		if got.Markdown != c.Markdown || got.Text != c.Text || got.Reader.Markdown != c.Reader.Markdown ||
			len(got.Links) != len(c.Links) || len(got.Headings) != len(c.Headings) {
			t.Fatalf("windows of budget %d lost or repeated content: %+v", budget, got)
		}
	})
}

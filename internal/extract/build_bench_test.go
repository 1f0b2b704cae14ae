package extract

import (
	"fmt"
	"strings"
	"testing"
)

// largeTree is the serialized form of the e2e benchmark page: a 2,000-row
// table, 200 paragraphs and 500 links.
func largeTree() []byte {
	var b strings.Builder
	b.WriteString(`["body",0,["h1",0,"Inventory"]`)
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, `,["p",0,"Paragraph %d describes the stock of the north warehouse, the deliveries of the week and the orders that wait for parts."]`, i)
	}
	b.WriteString(`,["ul",0`)
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, `,["li",0,["a",{"href":"https://example.com/item/%d"},"Item %d"]]`, i, i)
	}
	b.WriteString(`],["table",0,["thead",0,["tr",0,["th",0,"SKU"],["th",0,"Name"],["th",0,"Qty"],["th",0,"Price"]]],["tbody",0`)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, `,["tr",0,["td",0,"SKU-%05d"],["td",0,"Widget model %d"],["td",0,"%d"],["td",0,"%d.%02d"]]`, i, i, i%97, i%300, i%100)
	}
	b.WriteString(`]]]`)
	return []byte(b.String())
}

// BenchmarkBuild is the Go side of extract on the large page.
func BenchmarkBuild(b *testing.B) {
	tree := largeTree()
	p := Page{Frames: []Frame{{FrameID: 0, URL: "https://example.com/", Title: "Large", Tree: tree}}}
	b.SetBytes(int64(len(tree)))
	for i := 0; i < b.N; i++ {
		if _, err := Build(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

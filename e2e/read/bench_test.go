package read

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// largePage is the benchmark page: a 2,000-row table, 200 paragraphs and
// 500 links.
func largePage() string {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Large page</title><h1>Inventory</h1>")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d describes the stock of the north warehouse, the deliveries of the week and the orders that wait for parts.</p>", i)
	}
	b.WriteString("<ul>")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, `<li><a href="/item/%d">Item %d</a></li>`, i, i)
	}
	b.WriteString("</ul><table><thead><tr><th>SKU</th><th>Name</th><th>Qty</th><th>Price</th></tr></thead><tbody>")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "<tr><td>SKU-%05d</td><td>Widget model %d</td><td>%d</td><td>%d.%02d</td></tr>", i, i, i%97, i%300, i%100)
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// BenchmarkExtractLargePage extracts a large page through the whole chain
// (client → daemon → native host → extension → page) and reports, from one
// run on one tab, the size of what extract returns beside the size of the
// page's full accessibility tree as CDP gives it (Accessibility.getFullAXTree
// through the extension's cdp verb). Tokens are estimated as bytes/4 for
// both, so the ratios are the token ratios.
//
// The accessibility tree is taken from the same page in a second Chromium
// driven over --remote-debugging-pipe (the tree does not depend on the
// browser instance; the bridge's cdp passthrough is for tabs, not for a
// benchmark's bookkeeping). Run with:
// go test -run '^$' -bench ExtractLargePage ./e2e/read/
func BenchmarkExtractLargePage(b *testing.B) {
	ctx := context.Background()
	page := largePage()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	defer srv.Close()

	c, err := client.Connect(ctx, paths.ForHome(bridge.Home), "session:bench")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	call := func(in map[string]any) json.RawMessage {
		b.Helper()
		out, err := c.Call(ctx, in, 60*time.Second, nil)
		if err != nil {
			b.Fatalf("%v: %v", in, err)
		}
		return out
	}
	var opened struct {
		TabID int `json:"tabId"`
	}
	json.Unmarshal(call(map[string]any{"action": "open", "url": srv.URL}), &opened)
	defer call(map[string]any{"action": "close", "tabId": opened.TabID})
	raw, err := browsertest.StartRawCDP()
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	if err := raw.Navigate(ctx, srv.URL+"/"); err != nil {
		b.Fatal(err)
	}
	var tree json.RawMessage
	if err := raw.Call(ctx, "Accessibility.getFullAXTree", map[string]any{}, &tree); err != nil {
		b.Fatal(err)
	}
	var nodes struct {
		Nodes []json.RawMessage `json:"nodes"`
	}
	json.Unmarshal(tree, &nodes)
	ax := struct{ Bytes, Nodes int }{len(tree), len(nodes.Nodes)}
	full := call(map[string]any{"action": "extract", "tabId": opened.TabID, "maxChars": 1000000})
	md := call(map[string]any{"action": "extract", "tabId": opened.TabID, "maxChars": 1000000, "include": []string{"markdown"}})
	bounded := call(map[string]any{"action": "extract", "tabId": opened.TabID})
	if !strings.Contains(string(full), "SKU-01999") || !strings.Contains(string(md), "SKU-01999") {
		b.Fatal("the extract lacks the table's last row")
	}

	sizes := func(b *testing.B) {
		b.ReportMetric(float64(ax.Bytes), "axtree-B")
		b.ReportMetric(float64(ax.Nodes), "axtree-nodes")
		b.ReportMetric(float64(len(bounded)), "ours-default-B")
		b.ReportMetric(float64(len(bounded))/float64(ax.Bytes), "tokens-default/axtree")
	}
	// The whole page in every part (markdown, reader, links, headings,
	// text): the most extract can return.
	b.Run("all-parts", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			call(map[string]any{"action": "extract", "tabId": opened.TabID, "maxChars": 1000000})
		}
		sizes(b)
		b.ReportMetric(float64(len(full)), "ours-B")
		b.ReportMetric(float64(len(full))/float64(ax.Bytes), "tokens-ours/axtree")
	})
	// The whole page read to its end with the defaults, window after
	// window (nextOffset), as an agent reads it: what it costs in all.
	b.Run("read-to-end", func(b *testing.B) {
		var bytes, calls int
		for i := 0; i < b.N; i++ {
			bytes, calls = 0, 0
			offset := 0
			for {
				in := map[string]any{"action": "extract", "tabId": opened.TabID}
				if offset > 0 {
					in["offset"] = offset
				}
				out := call(in)
				bytes += len(out)
				calls++
				var w struct {
					NextOffset *int `json:"nextOffset"`
				}
				json.Unmarshal(out, &w)
				if w.NextOffset == nil || calls > 100 {
					break
				}
				offset = *w.NextOffset
			}
		}
		b.ReportMetric(float64(bytes), "read-B")
		b.ReportMetric(float64(calls), "calls")
	})
	// The whole page as markdown only.
	b.Run("markdown", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			call(map[string]any{"action": "extract", "tabId": opened.TabID, "maxChars": 1000000, "include": []string{"markdown"}})
		}
		sizes(b)
		b.ReportMetric(float64(len(md)), "ours-B")
		b.ReportMetric(float64(len(md))/float64(ax.Bytes), "tokens-ours/axtree")
	})
}

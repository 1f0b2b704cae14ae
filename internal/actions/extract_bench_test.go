package actions_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/daemon"
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
// The daemon runs in this process so that it has the test-only action
// test.axtree; `browser-bridge launch --headless` finds it answering and
// uses it. Run with: go test -run XXX -bench ExtractLargePage ./internal/actions/
func BenchmarkExtractLargePage(b *testing.B) {
	env, err := browsertest.NewEnv()
	if err != nil {
		b.Fatal(err)
	}
	defer env.Close()
	layout := paths.ForHome(env.Home)
	d, err := daemon.New(layout, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()

	stop, err := launch(env)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()

	page := largePage()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	defer srv.Close()

	c, err := client.Connect(ctx, layout, "session:bench")
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
	var ax struct {
		Bytes int `json:"bytes"`
		Nodes int `json:"nodes"`
	}
	json.Unmarshal(call(map[string]any{"action": "test.axtree", "tabId": opened.TabID}), &ax)
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

// launch starts `browser-bridge launch --headless` in env and waits until
// it says the extension is connected; stop ends it by its process group.
func launch(env browsertest.Env) (stop func(), err error) {
	cmd := env.Command(context.Background(), "launch", "--headless")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop = func() {
		cmd.Process.Signal(os.Interrupt)
		waited := make(chan struct{})
		go func() { cmd.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(15 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-waited
		}
	}
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(out)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
		io.Copy(io.Discard, out)
	}()
	select {
	case l, ok := <-line:
		if ok && strings.Contains(l, `"pid"`) {
			return stop, nil
		}
	case <-time.After(60 * time.Second):
	}
	stop()
	return nil, fmt.Errorf("launch --headless did not report a connected extension")
}

// Package mcp tests `browser-bridge mcp` the way an agent runs it: the
// SDK's MCP client spawns the real binary as a subprocess over stdio, and
// its calls go through the real daemon to a real Chromium with the real
// extension.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

var bridge *browsertest.Bridge

func TestMain(m *testing.M) {
	os.Exit(browsertest.Main(m, &bridge))
}

// syncBuffer collects a subprocess's stderr for failure messages.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startMCP spawns `browser-bridge mcp args...` as an agent would and
// connects the SDK's client to it. The server goes away with the test.
func startMCP(t testing.TB, opts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := bridge.Command(context.Background(), append([]string{"mcp"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e agent", Version: "1"}, opts).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to browser-bridge mcp: %v\nstderr: %s", err, stderr)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Logf("closing the MCP session: %v", err)
		}
		if s := stderr.String(); s != "" {
			t.Logf("browser-bridge mcp stderr:\n%s", s)
		}
	})
	return cs
}

// callTool calls use_user_browser with args; a protocol error fails the
// test (tool errors are results).
func callTool(t testing.TB, cs *mcp.ClientSession, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "use_user_browser", Arguments: args})
	if err != nil {
		t.Fatalf("calling %v: %v", args, err)
	}
	return res
}

// mustCall is callTool that fails on a tool error and returns the
// structured result.
func mustCall(t testing.TB, cs *mcp.ClientSession, args map[string]any) map[string]any {
	t.Helper()
	res := callTool(t, cs, args)
	if res.IsError {
		t.Fatalf("calling %v: tool error %s", args, text(res))
	}
	return structured(t, res)
}

func structured(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent is not an object: %s", b)
	}
	return m
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// errorOf is the {code, message} of a tool error (nil for a success).
func errorOf(t testing.TB, res *mcp.CallToolResult) *protocol.Error {
	t.Helper()
	if !res.IsError {
		return nil
	}
	var sc struct{ Error *protocol.Error }
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &sc)
	if sc.Error == nil || !strings.HasPrefix(text(res), sc.Error.Code+": ") {
		t.Fatalf("tool error without its code: %s / %s", b, text(res))
	}
	return sc.Error
}

// site serves /page/<title> as a page with that title, for the test's life.
func site(t testing.TB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		title := strings.TrimPrefix(r.URL.Path, "/page/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1>", html.EscapeString(title), html.EscapeString(title))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func num(t testing.TB, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

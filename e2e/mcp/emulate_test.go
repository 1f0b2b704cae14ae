package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An emulated phone over MCP: a viewport screenshot's image is the whole
// phone screen (downscaled), not its top part; and the clip that a whole
// long page's result suggests is in CSS px: followed, it gives the next
// screenful at the phone's scale, not an image three times too large.
func TestEmulatedPhoneScreenshotsOverMCP(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Long</title><meta name="viewport" content="width=device-width"><body style="margin:0">`+
			`<div style="height:6000px;background:linear-gradient(#f00,#00f)">Top of the page</div>`)
	}))
	t.Cleanup(page.Close)
	cs := startMCP(t, nil)
	opened := mustCall(t, cs, map[string]any{"action": "open", "url": page.URL, "runId": "mcp-phone"})
	t.Cleanup(func() {
		callTool(t, cs, map[string]any{"action": "close", "closeWorkspace": true, "runId": "mcp-phone"})
	})
	tab := num(t, opened, "tabId")
	mustCall(t, cs, map[string]any{"action": "emulate", "tabId": tab, "device": "iphone-15"})

	res := callTool(t, cs, map[string]any{"action": "screenshot", "tabId": tab, "mode": "viewport"})
	if res.IsError {
		t.Fatalf("screenshot: %s", text(res))
	}
	cfg := imageOf(t, res)
	if ratio := float64(cfg.Height) / float64(cfg.Width); math.Abs(ratio-852.0/393) > 0.02 {
		t.Errorf("the viewport image is %d×%d (%.2f tall per wide), want the whole phone screen (%.2f)", cfg.Width, cfg.Height, ratio, 852.0/393)
	}

	res = callTool(t, cs, map[string]any{"action": "screenshot", "tabId": tab})
	if res.IsError {
		t.Fatalf("screenshot: %s", text(res))
	}
	m := regexp.MustCompile(`(\{"clip":\{[^}]*\}\})`).FindStringSubmatch(text(res))
	if m == nil {
		t.Fatalf("no clip suggested: %s", text(res))
	}
	var hint struct {
		Clip map[string]float64 `json:"clip"`
	}
	if err := json.Unmarshal([]byte(m[1]), &hint); err != nil {
		t.Fatal(err)
	}
	if hint.Clip["width"] != 393 {
		t.Errorf("the suggested clip %s is not in CSS px: the phone is 393 CSS px wide", m[1])
	}
	next := mustCall(t, cs, map[string]any{"action": "screenshot", "tabId": tab, "clip": hint.Clip})
	if w := num(t, next, "width"); w != 393*3 {
		t.Errorf("following the suggested clip gave an image %d px wide, want %d (393 CSS px at 3×)", w, 393*3)
	}
}

// imageOf is the size of a result's image block.
func imageOf(t *testing.T, res *mcp.CallToolResult) image.Config {
	t.Helper()
	for _, c := range res.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			cfg, _, err := image.DecodeConfig(bytes.NewReader(ic.Data))
			if err != nil {
				t.Fatal(err)
			}
			return cfg
		}
	}
	t.Fatalf("no image block: %s", text(res))
	return image.Config{}
}

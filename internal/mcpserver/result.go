package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// maxRestChars bounds the JSON of the fields a result's text shows after
// its headline and body. The whole result is always in structuredContent.
const maxRestChars = 24000

// shaper turns daemon results into tool results.
type shaper struct {
	screenshots string // folder whose image files may be attached
	imageMax    int    // longest side of attached images; 0: none
}

// result is a successful call: compact text the model reads first, the
// full JSON result as structured content, and for a screenshot the image.
func (sh shaper) result(action string, raw json.RawMessage) *mcp.CallToolResult {
	res := &mcp.CallToolResult{StructuredContent: raw}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&m) != nil || m == nil {
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(raw)}}
		return res
	}
	var text string
	if action == "status" {
		text = statusText(m)
	} else {
		text = resultText(m)
	}
	img, note := sh.image(m)
	if note != "" {
		text = note + "\n" + text
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: text}}
	if img != nil {
		res.Content = append(res.Content, img)
	}
	return res
}

// resultText is a headline (tab, title, url), the page's markdown or text
// when the result has it, and the other fields as compact JSON.
func resultText(m map[string]any) string {
	var parts []string
	if h := headline(m); h != "" {
		parts = append(parts, h)
	}
	shown := map[string]bool{"tabId": true, "url": true, "title": true}
	for _, k := range []string{"markdown", "text"} {
		if s, ok := m[k].(string); ok && s != "" {
			parts = append(parts, s)
			shown["markdown"], shown["text"] = true, true // text repeats markdown
			break
		}
	}
	rest := map[string]any{}
	for k, v := range m {
		if !shown[k] {
			rest[k] = v
		}
	}
	if len(rest) > 0 {
		parts = append(parts, compactJSON(rest, maxRestChars))
	}
	return strings.Join(parts, "\n\n")
}

// headline is "tab 12 · Title · https://…" for results about a tab.
func headline(m map[string]any) string {
	var parts []string
	if id, ok := m["tabId"].(json.Number); ok {
		parts = append(parts, "tab "+id.String())
	}
	for _, k := range []string{"title", "url"} {
		if s, ok := m[k].(string); ok && s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// compactJSON marshals v without indentation (keys sorted), cut at limit.
func compactJSON(v any, limit int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	s := strings.TrimSpace(b.String())
	if len(s) > limit {
		cut := limit
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + fmt.Sprintf("… (cut at %d of %d characters; the whole result is in structuredContent)", cut, len(s))
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// errorResult is a failed call: a tool error (isError) whose text starts
// with the stable code, then the sentence that says what to do.
func errorResult(err error) *mcp.CallToolResult {
	e := protocol.AsError(err)
	if isCancel(err) {
		e = protocol.Errorf(protocol.CodeTimeout, "the call was cancelled before it finished")
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: e.Code + ": " + e.Message}},
		StructuredContent: map[string]any{"error": e},
	}
}

// image attaches a screenshot file named by the result's path, and says
// what it attached (or why not).
func (sh shaper) image(m map[string]any) (*mcp.ImageContent, string) {
	path, _ := m["path"].(string)
	if sh.imageMax <= 0 || !isScreenshot(path, sh.screenshots) {
		return nil, ""
	}
	t, err := makeThumbnail(path, sh.imageMax)
	if err != nil {
		return nil, fmt.Sprintf("Screenshot saved to %s (no image attached: %v).", path, err)
	}
	note := fmt.Sprintf("Screenshot saved to %s (%d×%d px); the image below is %d×%d.", path, t.srcW, t.srcH, t.width, t.height)
	if t.srcH > 3*t.srcW {
		note += " For detail of a tall page, take mode viewport or a clip."
	}
	return &mcp.ImageContent{Data: t.data, MIMEType: t.mime}, note
}

package actions

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"image/jpeg"
	"math"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/shots"
)

func init() { register("screenshot", screenshot) }

// screenshot captures the whole page (default), the viewport, or a clip
// through CDP, as JPEG quality 70, into a 0600 file; the result names the
// file and its size, never the image bytes.
func screenshot(r *run) (*tool.ScreenshotResult, error) {
	mode := r.in.Mode
	switch {
	case r.in.Clip != nil:
		if mode != "" {
			return nil, invalid("give mode or clip, not both")
		}
		mode = "clip"
	case mode == "":
		mode = "full"
	case mode != "full" && mode != "viewport":
		return nil, invalid("mode must be \"full\" (default) or \"viewport\"")
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	if err := r.camera().refuseFramed(t); err != nil {
		return nil, err
	}
	if _, err := r.b.CDPAttach(r.ctx, protocol.CDPAttachParams{TabID: t.TabID}); err != nil {
		if protocol.CodeOf(err) == protocol.CodeProtectedPage && mode == "full" {
			return nil, protocol.Errorf(protocol.CodeFullPageUnavailable, "this page (%s) cannot be captured: the browser does not let extensions debug it; screenshots work on ordinary web pages", t.URL)
		}
		return nil, err
	}
	// Sensitive fields (passwords, card numbers a browser autofilled) are
	// masked in every frame for the capture, and put back after.
	masked, err := r.runPage(t.TabID, frames{all: true}, maskScript("maskSensitive"), nil)
	if err != nil {
		return nil, err
	}
	ratio := pixelRatio(masked)
	defer r.runPage(t.TabID, frames{all: true}, maskScript("unmaskSensitive"), nil)
	var data []byte
	var scale float64
	switch mode {
	case "viewport":
		scale = ratio
		data, err = r.camera().capture(t.TabID, nil)
	case "clip":
		c := r.in.Clip
		data, err = r.camera().capture(t.TabID, &viewport{X: c.X, Y: c.Y, Width: c.Width, Height: c.Height, Scale: 1})
	default:
		data, scale, err = r.camera().captureFull(t.TabID, ratio)
	}
	if err != nil {
		return nil, err
	}
	// A frame may have gone to such a page while the picture was taken:
	// the picture is then thrown away.
	if err := r.camera().refuseFramed(t); err != nil {
		return nil, err
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the browser returned an image that does not decode: %w", err)
	}
	if mode == "clip" {
		scale = float64(cfg.Width) / r.in.Clip.Width
	}
	path, err := r.env.Screenshots.Write(data, ".jpg")
	if err != nil {
		return nil, err
	}
	return &tool.ScreenshotResult{Page: pageOf(t), Path: path, Width: cfg.Width, Height: cfg.Height, Bytes: len(data), Mode: mode,
		Scale: math.Round(scale*1000) / 1000}, nil
}

// refuseFramed refuses a screenshot of a page that frames what the
// bridge may not read: a file the upload rules refuse, or a site the
// user's rules deny (an allowed page of the user's framing a denied
// site). The picture would show it; extract and inspect leave
// such frames out instead, and the agent can read the rest of the page
// that way. Refused, not masked: a mask would be drawn by a script in a
// page that may move, resize, re-create or navigate the frame between
// the mask and the capture, and one frame missed shows what the user
// denied, while a refusal shows nothing. Every page is looked at, not
// only file: pages: a web page cannot frame file: itself, but a frame it
// holds may have been led there (as the extension's old blocked page
// once did), and the look is one call that reads no page.
func (r camera) refuseFramed(t browser.TabInfo) error {
	frames, err := r.tabFrames(t.TabID)
	if err != nil {
		return err
	}
	for _, f := range frames {
		if why := fileURLRefused(f.URL); why != "" {
			return protocol.Errorf(protocol.CodeBlockedByPolicy, "the page frames %q, which the bridge may not read: %s (the same rules as for uploads); a screenshot would show it — open another page", f.URL, why)
		}
		if why := r.siteRefused(f.URL); why != "" {
			return protocol.Errorf(protocol.CodeBlockedByPolicy, "the page frames %q, which the bridge may not touch: %s; a screenshot would show it — extract reads the rest of the page, or open another page", f.URL, why)
		}
	}
	return nil
}

// captureParams is the params of CDP's Page.captureScreenshot.
type captureParams struct {
	Format                string    `json:"format"`
	Quality               int       `json:"quality"`
	Clip                  *viewport `json:"clip,omitempty"`
	CaptureBeyondViewport bool      `json:"captureBeyondViewport,omitempty"`
}

// viewport is CDP's Page.Viewport: a clip of the document in CSS pixels,
// captured at Scale.
type viewport struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Scale  float64 `json:"scale"`
}

// capture runs Page.captureScreenshot with clip (nil: the viewport).
func (r camera) capture(tabID int, clip *viewport) ([]byte, error) {
	params := captureParams{Format: "jpeg", Quality: shots.Quality, Clip: clip, CaptureBeyondViewport: clip != nil}
	var out struct {
		Data string `json:"data"`
	}
	if err := r.b.CDP(r.ctx, protocol.CDPParams{TabID: tabID, Method: "Page.captureScreenshot", Params: params}, &out); err != nil {
		if strings.Contains(err.Error(), "Unable to capture screenshot") {
			return nil, protocol.Errorf(protocol.CodeFullPageUnavailable, "the browser could not capture this screenshot (%v); take a smaller clip, or mode: \"viewport\"", err)
		}
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(out.Data)
	if err != nil {
		return nil, fmt.Errorf("decoding the screenshot: %w", err)
	}
	return b, nil
}

// pixelRatio is the image px a capture takes per CSS px of the page,
// the device scale factor (an emulated one included) times the page's
// zoom: the top frame's devicePixelRatio, as the mask script read it in
// the extension's isolated world, where the page's scripts cannot
// redefine it (the browser's layout metrics give CSS px for both sizes
// under an emulated device). Bounded, so that no page makes a capture
// huge.
func pixelRatio(frames []protocol.PageFrameResult) float64 {
	for _, f := range frames {
		var v struct {
			Ratio float64 `json:"ratio"`
		}
		if f.FrameID != 0 || json.Unmarshal(f.Value, &v) != nil {
			continue
		}
		if v.Ratio > 0 && v.Ratio <= 8 {
			return math.Round(v.Ratio*1000) / 1000
		}
	}
	return 1
}

// captureFull captures the whole document: one shot when it fits in a GPU
// texture, else tiles joined together. It also returns the image's px per
// CSS px.
func (r camera) captureFull(tabID int, ratio float64) ([]byte, float64, error) {
	// The size in CSS pixels, from the browser.
	type size struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	}
	var m struct {
		CSSContentSize size `json:"cssContentSize"`
	}
	if err := r.b.CDP(r.ctx, protocol.CDPParams{TabID: tabID, Method: "Page.getLayoutMetrics"}, &m); err != nil {
		return nil, 0, err
	}
	w, h := math.Ceil(m.CSSContentSize.Width), math.Ceil(m.CSSContentSize.Height)
	if w <= 0 || h <= 0 {
		return nil, 0, protocol.Errorf(protocol.CodeFullPageUnavailable, "the page reports no size to capture; try mode \"viewport\"")
	}
	// Limits are in device pixels: on a 2x screen a CSS pixel is four.
	plan := shots.PlanFull(w, h, ratio)
	if len(plan.Tiles) > 1 {
		r.progress(fmt.Sprintf("capturing a %.0f px tall page in %d tiles", h, len(plan.Tiles)))
	}
	tiles := make([][]byte, len(plan.Tiles))
	for i, tile := range plan.Tiles {
		data, err := r.capture(tabID, &viewport{X: 0, Y: tile.Y, Width: w, Height: tile.Height, Scale: plan.Scale})
		if err != nil {
			return nil, 0, err
		}
		tiles[i] = data
	}
	scale := plan.Scale * ratio
	if len(tiles) == 1 {
		return tiles[0], scale, nil
	}
	// Joined without decoding (milliseconds, the memory of the JPEGs);
	// tiles that cannot be joined that way (a band Chrome rounded to
	// another height) are decoded and drawn instead.
	if data, err := shots.Join(tiles); err == nil {
		return data, scale, nil
	}
	data, err := plan.Stitch(ratio, tiles)
	return data, scale, err
}

// maskScript runs a function of page/mask.js.
func maskScript(fn string) pageScript { return script(fn, "page/mask.js") }

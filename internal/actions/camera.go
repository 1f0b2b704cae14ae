package actions

import (
	"encoding/base64"
	"fmt"
	"math"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/shots"
)

// camera captures the page for screenshot and pdf: what it may show (no
// frame the bridge may not read), the sensitive fields masked for the
// capture, and the capture itself, a viewport, a clip or the whole
// document in tiles. It needs only the page (reach).
type camera struct{ reach }

// camera is the run's camera. It is built here, not in run.go with the
// other steps, so that the engine's files do not name it: only the
// actions that capture do (screenshot.go, pdf.go).
func (r *run) camera() camera { return camera{r.reach} }

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

// holdCamera waits until no other capture of tab tabID runs, and holds
// the tab's camera until the returned function is called. A capture
// masks the page's sensitive fields and unmasks them after, so two at
// once (the replay's picture beside the agent's screenshot, two agents)
// could unmask what the other is capturing; page/mask.js counts its
// holds as well. Other actions do not wait for a capture.
func holdCamera(r *run, tabID int) (func(), error) {
	unlock, _, err := r.env.cameras.lock(r.ctx, tabKey{r.browser.Info().Instance, tabID}, r.progress)
	return unlock, err
}

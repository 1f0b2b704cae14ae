package actions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"math"

	"github.com/browser-bridge/browser-bridge/internal/tool"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
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
	// Attaching also finds a dialog left open, which would hold the mask
	// below: it is answered first (as an input's is, see prepareInput).
	if err := r.answers().answerOpenDialogs(t.TabID); err != nil {
		if protocol.CodeOf(err) == protocol.CodeProtectedPage && mode == "full" {
			return nil, protocol.Errorf(protocol.CodeFullPageUnavailable, "this page (%s) cannot be captured: the browser does not let extensions debug it; screenshots work on ordinary web pages", t.URL)
		}
		return nil, err
	}
	unlock, err := holdCamera(r, t.TabID)
	if err != nil {
		return nil, err
	}
	defer unlock()
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

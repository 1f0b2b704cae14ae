package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// openCardPage opens, in a workspace of the test's own, a page with the
// same card number in an autofilled card field (at the top), a password
// field (100 px down) and a plain field (200 px down), 60 px high each.
func openCardPage(t *testing.T) int {
	t.Helper()
	const value = "4111 1111 1111 1111"
	style := "position:absolute;left:0;width:600px;height:60px;font:40px monospace;border:0;padding:0;margin:0;outline:0"
	page := fmt.Sprintf(`<!doctype html><title>Card</title><body style="margin:0">
<input id="card" autocomplete="cc-number" value="%[1]s" style="%[2]s;top:0">
<input id="pw" type="password" value="%[1]s" style="%[2]s;top:100px">
<input id="plain" name="comment" value="%[1]s" style="%[2]s;top:200px">`, value, style)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page) }))
	t.Cleanup(srv.Close)
	ws := "mask-" + t.Name()
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return num(t, call(t, map[string]any{"action": "open", "url": srv.URL + "/", "browserWorkspaceId": ws}), "tabId")
}

// A screenshot masks sensitive fields: an autofilled card number is
// captured as dots — like a password field with the same value, unlike a
// plain field — and the page's own style is put back afterwards (issue
// 11, finding 7).
func TestScreenshotMasksSensitiveFields(t *testing.T) {
	tab := openCardPage(t)

	shot := func(top float64) image.Image {
		t.Helper()
		res := call(t, map[string]any{"action": "screenshot", "tabId": tab, "clip": map[string]any{"x": 0, "y": top, "width": 600, "height": 60}})
		f, err := os.Open(res["path"].(string))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := jpeg.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	card, pw, plain := shot(0), shot(100), shot(200)
	if d := diff(card, pw); d > 6 {
		t.Errorf("the card field differs from a password field by %.1f: it was not masked", d)
	}
	if d := diff(card, plain); d < 10 {
		t.Errorf("the card field looks like the plain one (difference %.1f): the number was captured in clear", d)
	}
	// Put back: the page's style has no mask after the capture.
	if r := bridge.Call(t, map[string]any{"action": "wait", "tabId": tab, "selector": `#card[style*="text-security"]`, "timeoutMs": 1000}); r.Err == nil || r.Err.Code != protocol.CodeTimeout {
		t.Errorf("the mask stayed on the page: %s", r.Stdout)
	}
}

// diff is the mean absolute difference of two images' grey levels (0–255).
func diff(a, b image.Image) float64 {
	r := a.Bounds().Intersect(b.Bounds())
	var sum, n float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			ga := float64(ar+ag+ab) / 3 / 257
			gb := float64(br+bg+bb) / 3 / 257
			if ga > gb {
				sum += ga - gb
			} else {
				sum += gb - ga
			}
			n++
		}
	}
	return sum / n
}

// Screenshots of one tab that overlap (two agents, or the replay's
// picture beside the agent's own) each capture the card masked: the one
// that ends first does not unmask the field while the other captures.
func TestOverlappingScreenshotsStayMasked(t *testing.T) {
	tab := openCardPage(t)
	shot := func(top float64) (image.Image, error) {
		r := bridge.Call(t, map[string]any{"action": "screenshot", "tabId": tab, "clip": map[string]any{"x": 0, "y": top, "width": 600, "height": 60}})
		if r.Err != nil {
			return nil, r.Err
		}
		var res struct {
			Path string `json:"path"`
		}
		if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
			return nil, err
		}
		f, err := os.Open(res.Path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return jpeg.Decode(f)
	}
	plain, err := shot(200)
	if err != nil {
		t.Fatal(err)
	}
	const each = 4
	imgs := make(chan image.Image, 2*each)
	errs := make(chan error, 2*each)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				img, err := shot(0)
				if err != nil {
					errs <- err
					continue
				}
				imgs <- img
			}
		}()
	}
	wg.Wait()
	close(imgs)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n := 0
	for img := range imgs {
		if n++; diff(img, plain) < 10 {
			t.Errorf("screenshot %d of the overlapping ones caught the card number in clear (difference to the plain field %.1f)", n, diff(img, plain))
		}
	}
	// Put back once both are done.
	if r := bridge.Call(t, map[string]any{"action": "wait", "tabId": tab, "selector": `#card[style*="text-security"]`, "timeoutMs": 1000}); r.Err == nil || r.Err.Code != protocol.CodeTimeout {
		t.Errorf("the mask stayed on the page: %s", r.Stdout)
	}
}

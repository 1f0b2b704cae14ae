package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeImage writes a w×h test image: left half red, right half blue.
func writeImage(t testing.TB, path string, w, h int, alpha uint8) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{R: 255, A: alpha}
			if x >= w/2 {
				c = color.NRGBA{B: 255, A: alpha}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	var err error
	if strings.HasSuffix(path, ".png") {
		err = png.Encode(&buf, img)
	} else {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// screenshotResult runs a fake screenshot whose result names path and
// returns what the client got.
func screenshotResult(t *testing.T, dir, path string, imageMax int) *mcp.CallToolResult {
	t.Helper()
	fake := &fakeDaemon{answer: func(context.Context, map[string]any, func(string)) (json.RawMessage, error) {
		return json.Marshal(map[string]any{"tabId": 4, "url": "https://a/", "title": "A", "path": path, "width": 1, "height": 1, "bytes": 1})
	}}
	cs := connect(t, Options{Dial: fake.dial, Screenshots: dir, ImageMax: imageMax}, nil)
	res := call(t, cs, ToolName, `{"action":"screenshot"}`)
	if res.IsError {
		t.Fatal(text(res))
	}
	return res
}

func imageOf(res *mcp.CallToolResult) *mcp.ImageContent {
	for _, c := range res.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			return ic
		}
	}
	return nil
}

func TestScreenshotComesBackDownscaled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shot.jpg")
	writeImage(t, path, 3000, 2000, 255)
	res := screenshotResult(t, dir, path, 1280)
	ic := imageOf(res)
	if ic == nil {
		t.Fatalf("no image block: %s", text(res))
	}
	if ic.MIMEType != "image/jpeg" {
		t.Errorf("MIME type %q", ic.MIMEType)
	}
	img, err := jpeg.Decode(bytes.NewReader(ic.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 853 {
		t.Errorf("image is %v, want 1280×853", b.Size())
	}
	// The box filter keeps the halves apart: red on the left, blue right.
	if r, _, b, _ := img.At(100, 400).RGBA(); r>>8 < 200 || b>>8 > 60 {
		t.Errorf("left pixel %v is not red", img.At(100, 400))
	}
	if r, _, b, _ := img.At(1180, 400).RGBA(); b>>8 < 200 || r>>8 > 60 {
		t.Errorf("right pixel %v is not blue", img.At(1180, 400))
	}
	if !strings.Contains(text(res), path) || !strings.Contains(text(res), "3000×2000") {
		t.Errorf("text does not give the file and its size: %s", text(res))
	}
}

func TestSmallPNGGoesAsItIs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "small.png")
	writeImage(t, path, 300, 200, 128)
	ic := imageOf(screenshotResult(t, dir, path, 1280))
	if ic == nil || ic.MIMEType != "image/png" {
		t.Fatalf("image %v", ic)
	}
	orig, _ := os.ReadFile(path)
	if !bytes.Equal(ic.Data, orig) {
		t.Error("a file that fits was re-encoded")
	}
}

func TestTallTransparentPNGIsFlattened(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tall.png")
	writeImage(t, path, 400, 4000, 0) // fully transparent
	res := screenshotResult(t, dir, path, 300)
	ic := imageOf(res)
	if ic == nil {
		t.Fatalf("no image: %s", text(res))
	}
	img, err := jpeg.Decode(bytes.NewReader(ic.Data))
	if err != nil {
		t.Fatal(err)
	}
	// The top 520 px (1.3 times the width), scaled to 300 px.
	if b := img.Bounds(); b.Dx() != 231 || b.Dy() != 300 {
		t.Errorf("image is %v, want 231×300", b.Size())
	}
	if r, g, b, _ := img.At(10, 10).RGBA(); r>>8 < 240 || g>>8 < 240 || b>>8 < 240 {
		t.Errorf("transparent pixels became %v, want white", img.At(10, 10))
	}
	if !strings.Contains(text(res), "its top 520 px") || !strings.Contains(text(res), "clip") {
		t.Errorf("no word of the top and how to get the rest: %s", text(res))
	}
}

// A whole long page goes back as its top at the file's scale, cut from
// the JPEG without decoding the rest, with the clip for the next part in
// the page's CSS px.
func TestTallPageGoesAsItsTop(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.jpg")
	writeImage(t, path, 640, 20000, 255)
	fake := &fakeDaemon{answer: func(context.Context, map[string]any, func(string)) (json.RawMessage, error) {
		return json.Marshal(map[string]any{"tabId": 4, "url": "https://a/", "title": "A", "path": path, "width": 640, "height": 20000, "bytes": 1, "mode": "full", "scale": 0.5})
	}}
	cs := connect(t, Options{Dial: fake.dial, Screenshots: dir, ImageMax: 1280}, nil)
	res := call(t, cs, ToolName, `{"action":"screenshot","tabId":4}`)
	ic := imageOf(res)
	if ic == nil {
		t.Fatalf("no image: %s", text(res))
	}
	img, err := jpeg.Decode(bytes.NewReader(ic.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 832 {
		t.Errorf("image is %v, want the top 640×832 as it is", b.Size())
	}
	if want := `{"clip":{"x":0,"y":1664,"width":1280,"height":1664}}`; !strings.Contains(text(res), want) {
		t.Errorf("text lacks the next part's clip %s: %s", want, text(res))
	}
}

func TestOnlyScreenshotFilesAreAttached(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.jpg")
	writeImage(t, outside, 10, 10, 255)
	link := filepath.Join(dir, "link.jpg")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	notImage := filepath.Join(dir, "notes.txt")
	os.WriteFile(notImage, []byte("x"), 0o600)
	inside := filepath.Join(dir, "ok.jpg")
	writeImage(t, inside, 10, 10, 255)
	for _, c := range []struct {
		path     string
		imageMax int
	}{
		{outside, 1280}, {link, 1280}, {notImage, 1280}, {filepath.Join(dir, "..", filepath.Base(filepath.Dir(outside)), "secret.jpg"), 1280},
		{"ok.jpg", 1280}, {inside, 0},
	} {
		if ic := imageOf(screenshotResult(t, dir, c.path, c.imageMax)); ic != nil {
			t.Errorf("attached %s (image-max %d)", c.path, c.imageMax)
		}
	}
}

func TestBrokenScreenshotIsANoteNotAFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "broken.jpg")
	os.WriteFile(path, []byte("not a jpeg"), 0o600)
	res := screenshotResult(t, dir, path, 1280)
	if imageOf(res) != nil || !strings.Contains(text(res), "no image attached") {
		t.Errorf("result: %s", text(res))
	}
}

func TestDownscaleAveragesBoxes(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for x := range 4 {
		v := uint8(x * 60) // 0, 60, 120, 180
		src.SetRGBA(x, 0, color.RGBA{v, v, v, 255})
		src.SetRGBA(x, 1, color.RGBA{v + 20, v + 20, v + 20, 255})
	}
	dst := downscale(src, 2, 1)
	for dx, want := range []uint8{40, 160} { // mean of {0,60,20,80}, {120,180,140,200}
		if got := dst.RGBAAt(dx, 0); got.R != want || got.A != 255 {
			t.Errorf("pixel %d is %v, want %d", dx, got, want)
		}
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct{ w, h, side, ww, wh int }{
		{3000, 2000, 1280, 1280, 853}, {2000, 3000, 1280, 853, 1280}, {1280, 40000, 1280, 41, 1280}, {5000, 1, 100, 100, 1},
	} {
		if w, h := fit(c.w, c.h, c.side); w != c.ww || h != c.wh {
			t.Errorf("fit(%d, %d, %d) = %d×%d, want %d×%d", c.w, c.h, c.side, w, h, c.ww, c.wh)
		}
	}
}

func BenchmarkThumbnailFullPage(b *testing.B) {
	path := filepath.Join(b.TempDir(), "page.jpg")
	writeImage(b, path, 1280, 12000, 255)
	for b.Loop() {
		if _, err := makeThumbnail(path, 1280); err != nil {
			b.Fatal(err)
		}
	}
}

// A viewport screenshot of a phone (more than twice as tall as wide)
// goes whole, downscaled, never as its top.
func TestPhoneViewportGoesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "phone.jpg")
	writeImage(t, path, 1179, 2556, 255)
	fake := &fakeDaemon{answer: func(context.Context, map[string]any, func(string)) (json.RawMessage, error) {
		return json.Marshal(map[string]any{"tabId": 4, "url": "https://a/", "title": "A", "path": path, "width": 1179, "height": 2556, "bytes": 1, "mode": "viewport", "scale": 3})
	}}
	cs := connect(t, Options{Dial: fake.dial, Screenshots: dir, ImageMax: 1280}, nil)
	res := call(t, cs, ToolName, `{"action":"screenshot","tabId":4,"mode":"viewport"}`)
	ic := imageOf(res)
	if ic == nil {
		t.Fatalf("no image: %s", text(res))
	}
	img, err := jpeg.Decode(bytes.NewReader(ic.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dy() != 1280 || b.Dx() < 589 || b.Dx() > 591 {
		t.Errorf("image is %v, want the whole phone screen downscaled to 590×1280", b.Size())
	}
	if strings.Contains(text(res), "top") {
		t.Errorf("the note speaks of a top part: %s", text(res))
	}
}

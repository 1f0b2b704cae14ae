package mcpserver

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	_ "image/png" // screenshots may be PNG files
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/shots"
)

// Limits of the image that goes back to the model with a screenshot.
const (
	// DefaultImageMax is the default longest side in px. Models see
	// little more (Claude scales images to at most 1568 px), and a
	// 1280 px JPEG stays well under a few hundred KB.
	DefaultImageMax = 1280
	// maxImageBytes bounds the encoded image; a bigger one is scaled down
	// further, so no multi-megabyte base64 blob ends up in a transcript.
	maxImageBytes = 1 << 20
	// maxFileBytes and maxPixels bound what is read and decoded at all.
	maxFileBytes = 64 << 20
	maxPixels    = 16384 * 16384
	jpegQuality  = 75
	// A screenshot more than tallRatio times taller than wide (a whole
	// long page) goes as its top part, topRatio times as tall as wide,
	// at the file's own scale: squeezed whole into imageMax it would be a
	// strip a few dozen pixels wide that no one can read.
	tallRatio = 2
	topRatio  = 1.3
)

// thumbnail is a screenshot made fit for a model.
type thumbnail struct {
	data          []byte
	mime          string
	width, height int // of data
	srcW, srcH    int // of the file
	topH          int // px of the file's top that data shows (srcH: all of it)
}

// isScreenshot reports whether path is an image file in dir, the
// screenshots folder: only those are read back, whatever a result says.
func isScreenshot(path, dir string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jpg", ".jpeg", ".png":
	default:
		return false
	}
	if dir == "" || !filepath.IsAbs(path) {
		return false
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(realDir, real)
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..")
}

// makeThumbnail reads an image file and scales it so its longest side is
// at most maxSide px. A file that already fits (in size and bytes) goes
// as it is.
func makeThumbnail(path string, maxSide int) (*thumbnail, error) {
	return makeThumbnailOf(path, maxSide, false)
}

// makeThumbnailOf is makeThumbnail; whole: a tall image is never cut to
// its top (a phone's viewport is more than twice as tall as wide, and
// its screenshot is one screen, shown whole).
func makeThumbnailOf(path string, maxSide int, whole bool) (*thumbnail, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s is over %d MiB", path, maxFileBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", path, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels {
		return nil, fmt.Errorf("%s is %d×%d px, too large to attach", path, cfg.Width, cfg.Height)
	}
	t := &thumbnail{srcW: cfg.Width, srcH: cfg.Height, topH: cfg.Height}
	var img image.Image
	if cfg.Height > tallRatio*cfg.Width && !whole {
		t.topH = int(topRatio * float64(cfg.Width))
		// A JPEG's top is cut from its coded data without decoding the
		// rest (a 32,000 px page would take ~50 MB and half a second);
		// another image is decoded whole and cut.
		var top []byte
		if format == "jpeg" {
			top, _ = shots.CropTop(data, t.topH)
		}
		if top != nil {
			data, cfg.Height = top, t.topH
		} else {
			whole, _, err := image.Decode(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("decoding %s: %w", path, err)
			}
			b := whole.Bounds()
			img = whole.(interface {
				SubImage(image.Rectangle) image.Image
			}).SubImage(image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+t.topH))
			cfg.Height = t.topH
		}
	}
	if img == nil && max(cfg.Width, cfg.Height) <= maxSide && len(data) <= maxImageBytes {
		t.data, t.mime, t.width, t.height = data, "image/"+format, cfg.Width, cfg.Height
		return t, nil
	}
	if img == nil {
		if img, _, err = image.Decode(bytes.NewReader(data)); err != nil {
			return nil, fmt.Errorf("decoding %s: %w", path, err)
		}
	}
	side := min(maxSide, max(cfg.Width, cfg.Height))
	for {
		w, h := fit(cfg.Width, cfg.Height, side)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, downscale(img, w, h), &jpeg.Options{Quality: jpegQuality}); err != nil {
			return nil, fmt.Errorf("encoding the image: %w", err)
		}
		if buf.Len() <= maxImageBytes || side <= 64 {
			t.data, t.mime, t.width, t.height = buf.Bytes(), "image/jpeg", w, h
			return t, nil
		}
		side = side * 3 / 4
	}
}

// fit scales w×h so that its longest side is side, keeping the aspect.
func fit(w, h, side int) (int, int) {
	if w >= h {
		return side, max(1, (h*side+w/2)/w)
	}
	return max(1, (w*side+h/2)/h), side
}

// downscale averages each box of source pixels into one pixel (a box
// filter: sharp enough for text at the sizes we scale to, and simple). It
// converts one source row at a time, so a tall full-page screenshot never
// exists twice in memory. Transparent pixels are put on white.
func downscale(src image.Image, dw, dh int) *image.RGBA {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	if sw < dw || sh < dh {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src) // never upscale: copy
		return dst
	}
	x0 := make([]int, dw+1) // destination column dx averages source columns x0[dx] to x0[dx+1]
	for dx := range x0 {
		x0[dx] = dx * sw / dw
	}
	row := image.NewRGBA(image.Rect(0, 0, sw, 1))
	op := draw.Src
	if o, ok := src.(interface{ Opaque() bool }); !ok || !o.Opaque() {
		op = draw.Over
	}
	white := image.NewUniform(color.White)
	acc := make([]uint64, dw*4)
	dy, rows := 0, 0
	for sy := 0; sy < sh; sy++ {
		if op == draw.Over {
			draw.Draw(row, row.Bounds(), white, image.Point{}, draw.Src)
		}
		draw.Draw(row, row.Bounds(), src, image.Pt(b.Min.X, b.Min.Y+sy), op)
		for dx := range dw {
			a := acc[dx*4 : dx*4+4]
			for i := x0[dx] * 4; i < x0[dx+1]*4; i += 4 {
				a[0] += uint64(row.Pix[i])
				a[1] += uint64(row.Pix[i+1])
				a[2] += uint64(row.Pix[i+2])
				a[3] += uint64(row.Pix[i+3])
			}
		}
		rows++
		if sy+1 == (dy+1)*sh/dh { // last source row of destination row dy
			out := dst.Pix[dy*dst.Stride:]
			for dx := range dw {
				n := uint64(rows * (x0[dx+1] - x0[dx]))
				for c := range 4 {
					out[dx*4+c] = uint8((acc[dx*4+c] + n/2) / n)
					acc[dx*4+c] = 0
				}
			}
			dy, rows = dy+1, 0
		}
	}
	return dst
}

package shots

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

func TestPlanFull(t *testing.T) {
	for _, tt := range []struct {
		name        string
		w, h, ratio float64
		tiles       int
		scale       float64
		width       int
		height      int
	}{
		{"fits", 1280, 3000, 1, 1, 1, 1280, 3000},
		{"tall", 1280, 20000, 1, 3, 1, 1280, 20000},
		{"2x screen", 1280, 5000, 2, 2, 1, 2560, 10000},
		{"scaled down", 1280, 100000, 1, 4, 0.32, 410, 32000},
	} {
		p := PlanFull(tt.w, tt.h, tt.ratio)
		if len(p.Tiles) != tt.tiles || p.Scale != tt.scale || p.Width != tt.width || p.Height != tt.height {
			t.Errorf("%s: %+v", tt.name, p)
		}
		// The tiles cover the page exactly, in order.
		y := 0.0
		for _, tile := range p.Tiles {
			if tile.Y != y || tile.Height <= 0 {
				t.Errorf("%s: tile %+v after y %g", tt.name, tile, y)
			}
			y += tile.Height
		}
		if y != tt.h {
			t.Errorf("%s: tiles cover %g of %g", tt.name, y, tt.h)
		}
	}
}

func TestStitch(t *testing.T) {
	p := Plan{Scale: 1, Width: 10, Height: 20, Tiles: []Tile{{0, 10}, {10, 10}}}
	tile := func(c color.Color) []byte {
		img := image.NewRGBA(image.Rect(0, 0, 10, 10))
		for x := range 10 {
			for y := range 10 {
				img.Set(x, y, c)
			}
		}
		var b bytes.Buffer
		jpeg.Encode(&b, img, nil)
		return b.Bytes()
	}
	out, err := p.Stitch(1, [][]byte{tile(color.White), tile(color.Black)})
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(out))
	if err != nil || img.Bounds().Dx() != 10 || img.Bounds().Dy() != 20 {
		t.Fatalf("stitched %v %v", img.Bounds(), err)
	}
	if r, _, _, _ := img.At(5, 3).RGBA(); r < 0xf000 {
		t.Errorf("top tile not white: %d", r)
	}
	if r, _, _, _ := img.At(5, 16).RGBA(); r > 0x1000 {
		t.Errorf("bottom tile not black: %d", r)
	}
	if _, err := p.Stitch(1, [][]byte{tile(color.White)}); err == nil {
		t.Error("a missing tile was not refused")
	}
	if _, err := p.Stitch(1, [][]byte{tile(color.White), []byte("junk")}); err == nil {
		t.Error("a tile that is no JPEG was not refused")
	}
}

// However wide and tall the page and however dense the screen, the
// stitched image stays within MaxPixels (the daemon's memory for it).
func TestPlanFullBoundsTheImage(t *testing.T) {
	for _, c := range [][3]float64{{8000, 30000, 1}, {3000, 30000, 2}, {1280, 1_000_000, 3}, {8000, 8000, 8}} {
		p := PlanFull(c[0], c[1], c[2])
		if px := p.Width * p.Height; px > MaxPixels*101/100 {
			t.Errorf("%v: %d×%d = %d pixels, over %d", c, p.Width, p.Height, px, MaxPixels)
		}
		if p.Width > MaxWidth+1 || p.Height > MaxHeight+1 {
			t.Errorf("%v: %d×%d over the sides' limits", c, p.Width, p.Height)
		}
	}
}

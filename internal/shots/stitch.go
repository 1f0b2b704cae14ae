package shots

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
)

// Limits of a full-page capture, in device pixels.
const (
	// Quality is the JPEG quality of every screenshot (docs/design.md#actions).
	Quality = 70
	// TileHeight: GPU textures stop near 16,384 px, so a taller page is
	// captured in tiles of this height and joined. It is a whole number
	// of JPEG MCU rows (16 px), so that Join can join the tiles as they
	// are.
	TileHeight = 8000
	// MaxHeight and MaxWidth bound the stitched image (JPEG stops at
	// 65,535; memory is 4 bytes a pixel); larger pages are scaled down to
	// fit, so a 100,000 px page still gives one readable file.
	MaxHeight = 32000
	MaxWidth  = 8000
	// MaxPixels bounds the stitched image's area, and so the daemon's
	// memory for it (4 bytes a pixel: 160 MB).
	MaxPixels = 40_000_000
)

// Tile is one capture of a full page: a band of the document in CSS
// pixels.
type Tile struct {
	Y, Height float64
}

// Plan is how to capture a whole page of w×h CSS pixels on a screen of
// ratio device pixels per CSS pixel: the scale of every capture, and the
// bands to capture (one when the page fits in a texture).
type Plan struct {
	Scale float64
	Tiles []Tile
	// Width and Height are the size of the stitched image.
	Width, Height int
}

// PlanFull plans the capture of a whole page.
func PlanFull(w, h, ratio float64) Plan {
	if ratio <= 0 {
		ratio = 1
	}
	scale := min(1, MaxHeight/(h*ratio), MaxWidth/(w*ratio), math.Sqrt(MaxPixels/(w*h*ratio*ratio)))
	p := Plan{Scale: scale, Width: int(math.Ceil(w * ratio * scale)), Height: int(math.Ceil(h * ratio * scale))}
	if h*ratio*scale <= TileHeight {
		p.Tiles = []Tile{{0, h}}
		return p
	}
	step := TileHeight / (ratio * scale) // CSS px per tile
	for y := 0.0; y < h; y += step {
		p.Tiles = append(p.Tiles, Tile{y, math.Min(step, h-y)})
	}
	return p
}

// Stitch draws JPEG tiles, captured as p plans, into one JPEG: what Join
// does without decoding, for tiles it cannot join.
func (p Plan) Stitch(ratio float64, tiles [][]byte) ([]byte, error) {
	if len(tiles) != len(p.Tiles) {
		return nil, fmt.Errorf("stitching: %d tiles for a plan of %d", len(tiles), len(p.Tiles))
	}
	if ratio <= 0 {
		ratio = 1
	}
	canvas := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	for i, data := range tiles {
		tile, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("decoding a screenshot tile: %w", err)
		}
		top := int(math.Round(p.Tiles[i].Y * ratio * p.Scale))
		draw.Draw(canvas, tile.Bounds().Add(image.Pt(0, top)), tile, tile.Bounds().Min, draw.Src)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, canvas, &jpeg.Options{Quality: Quality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

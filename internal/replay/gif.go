package replay

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"io"
)

// The GIF's frame: the capture scaled to fit frameW×frameH above a band
// that names the step.
const (
	frameW     = 640
	frameH     = 400
	bandH      = 24
	textScale  = 2
	frameDelay = 150 // hundredths of a second a frame shows
)

// WriteGIF writes t as an animated GIF: one frame per step, the step's
// capture (or a blank frame when it has none) with its number, action,
// target and outcome written under it.
func WriteGIF(w io.Writer, t Timeline, image func(Entry) []byte) error {
	anim := &gif.GIF{}
	for i, e := range t.Entries {
		var shot *imageType
		if b := image(e); b != nil {
			if img, err := jpeg.Decode(bytes.NewReader(b)); err == nil {
				shot = &imageType{img}
			}
		}
		anim.Image = append(anim.Image, frame(i+1, e, shot))
		anim.Delay = append(anim.Delay, frameDelay)
	}
	if len(anim.Image) == 0 {
		return ErrNoTimeline
	}
	return gif.EncodeAll(w, anim)
}

type imageType struct{ image.Image }

// frame draws one step.
func frame(n int, e Entry, shot *imageType) *image.Paletted {
	bounds := image.Rect(0, 0, frameW, frameH+bandH)
	rgba := image.NewRGBA(bounds)
	draw.Draw(rgba, bounds, image.NewUniform(color.RGBA{0xf4, 0xf4, 0xf4, 0xff}), image.Point{}, draw.Src)
	if shot != nil {
		scaleInto(rgba, image.Rect(0, 0, frameW, frameH), shot.Image)
	}
	band := image.Rect(0, frameH, frameW, frameH+bandH)
	bg := color.RGBA{0x20, 0x20, 0x20, 0xff}
	if e.Code != "" {
		bg = color.RGBA{0x80, 0x00, 0x00, 0xff}
	}
	draw.Draw(rgba, band, image.NewUniform(bg), image.Point{}, draw.Src)
	out := quantize(rgba)
	text := caption(n, e)
	maxChars := (frameW - 16) / ((glyphW + glyphGap) * textScale)
	if r := []rune(text); len(r) > maxChars {
		text = string(r[:maxChars-3]) + "..."
	}
	drawText(out, 8, frameH+(bandH-glyphH*textScale)/2, text, color.White, textScale)
	return out
}

// quantize maps img onto the Plan 9 palette, each colour to its nearest
// (colours are looked up once per 15-bit colour, not per pixel).
func quantize(img *image.RGBA) *image.Paletted {
	out := image.NewPaletted(img.Rect, palette.Plan9)
	var cache [1 << 15]int16
	for i := range cache {
		cache[i] = -1
	}
	pal := color.Palette(palette.Plan9)
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			i := img.PixOffset(x, y)
			r, g, b := img.Pix[i], img.Pix[i+1], img.Pix[i+2]
			key := int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3)
			if cache[key] < 0 {
				cache[key] = int16(pal.Index(color.RGBA{r, g, b, 0xff}))
			}
			out.SetColorIndex(x, y, uint8(cache[key]))
		}
	}
	return out
}

// scaleInto draws src into the rectangle r of dst, scaled to fit with its
// aspect kept, by averaging the source pixels under each target pixel.
func scaleInto(dst *image.RGBA, r image.Rectangle, src image.Image) {
	sb := src.Bounds()
	if sb.Dx() <= 0 || sb.Dy() <= 0 {
		return
	}
	w, h := r.Dx(), sb.Dy()*r.Dx()/sb.Dx()
	if h > r.Dy() {
		h, w = r.Dy(), sb.Dx()*r.Dy()/sb.Dy()
	}
	if w <= 0 || h <= 0 {
		return
	}
	ox, oy := r.Min.X+(r.Dx()-w)/2, r.Min.Y
	for y := 0; y < h; y++ {
		y0, y1 := sb.Min.Y+y*sb.Dy()/h, sb.Min.Y+(y+1)*sb.Dy()/h
		y1 = max(y1, y0+1)
		for x := 0; x < w; x++ {
			x0, x1 := sb.Min.X+x*sb.Dx()/w, sb.Min.X+(x+1)*sb.Dx()/w
			x1 = max(x1, x0+1)
			if yc, ok := src.(*image.YCbCr); ok {
				// The usual case, a JPEG: one sample, read directly.
				yi, ci := yc.YOffset((x0+x1)/2, (y0+y1)/2), yc.COffset((x0+x1)/2, (y0+y1)/2)
				r8, g8, b8 := color.YCbCrToRGB(yc.Y[yi], yc.Cb[ci], yc.Cr[ci])
				dst.SetRGBA(ox+x, oy+y, color.RGBA{r8, g8, b8, 0xff})
				continue
			}
			var rs, gs, bs, n uint32
			// At most a 2×2 sample of the source box: enough for a
			// thumbnail, and bounded whatever the source's size.
			sy, sx := max(1, (y1-y0)/2), max(1, (x1-x0)/2)
			for yy := y0; yy < y1; yy += sy {
				for xx := x0; xx < x1; xx += sx {
					cr, cg, cb, _ := src.At(xx, yy).RGBA()
					rs, gs, bs, n = rs+cr, gs+cg, bs+cb, n+1
				}
			}
			dst.SetRGBA(ox+x, oy+y, color.RGBA{uint8(rs / n >> 8), uint8(gs / n >> 8), uint8(bs / n >> 8), 0xff})
		}
	}
}

// Thumbnail scales a JPEG capture down to at most width px wide and
// encodes it again as a small JPEG; a capture already that small, or one
// that does not decode, comes back as it is.
func Thumbnail(b []byte, width int) []byte {
	src, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil || src.Bounds().Dx() <= width {
		return b
	}
	sb := src.Bounds()
	h := sb.Dy() * width / sb.Dx()
	if h <= 0 {
		return b
	}
	dst := image.NewRGBA(image.Rect(0, 0, width, h))
	scaleInto(dst, dst.Bounds(), src)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 70}); err != nil {
		return b
	}
	return out.Bytes()
}

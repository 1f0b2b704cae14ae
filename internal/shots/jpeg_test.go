package shots

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"testing"
)

// picture is a w×h image with detail everywhere (gradients, noise,
// edges), so that every kind of coefficient occurs.
func picture(w, h int, seed uint64) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, 1))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{uint8(x * 255 / w), uint8(y * 7), uint8(rng.IntN(256)), 255}
			if (x/9+y/13)%3 == 0 {
				c = color.RGBA{255, 255, 255, 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func encode(t testing.TB, img image.Image, q int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func decode(t testing.TB, data []byte) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	return img
}

// samePixels compares got with want placed at y offset dy.
func samePixels(t *testing.T, got, want image.Image, dy int) {
	t.Helper()
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if got.At(x, y+dy) != want.At(x, y) {
				t.Fatalf("pixel %d,%d differs: %v, want %v", x, y+dy, got.At(x, y+dy), want.At(x, y))
			}
		}
	}
}

// Joining is lossless: the joined image decodes to exactly the tiles'
// pixels, one below the other, for color (4:2:0) and gray JPEGs, a last
// tile of any height and a width that is no whole number of MCUs.
func TestJoinIsLossless(t *testing.T) {
	for _, tc := range []struct {
		name    string
		w       int
		heights []int
		gray    bool
	}{
		{"color", 100, []int{64, 48, 37}, false},
		{"one tile", 33, []int{21}, false},
		{"gray", 50, []int{24, 16, 9}, true},
	} {
		var tiles [][]byte
		var want []image.Image
		for i, h := range tc.heights {
			var img image.Image = picture(tc.w, h, uint64(i))
			if tc.gray {
				g := image.NewGray(img.Bounds())
				for y := range h {
					for x := range tc.w {
						g.Set(x, y, img.At(x, y))
					}
				}
				img = g
			}
			data := encode(t, img, 70)
			tiles = append(tiles, data)
			want = append(want, decode(t, data))
		}
		out, err := Join(tiles)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := decode(t, out)
		total := 0
		for _, h := range tc.heights {
			total += h
		}
		if got.Bounds().Dx() != tc.w || got.Bounds().Dy() != total {
			t.Fatalf("%s: joined %v, want %d×%d", tc.name, got.Bounds(), tc.w, total)
		}
		dy := 0
		for i, w := range want {
			samePixels(t, got, w, dy)
			dy += tc.heights[i]
		}
	}
}

// Chrome codes every capture with Huffman tables of its own; its tiles
// (testdata: three bands of one page, 96, 96 and 50 px tall) join into
// exactly their pixels.
func TestJoinChromeTiles(t *testing.T) {
	var tiles [][]byte
	for i := range 3 {
		b, err := os.ReadFile(fmt.Sprintf("testdata/chrome-tile-%d.jpg", i))
		if err != nil {
			t.Fatal(err)
		}
		tiles = append(tiles, b)
	}
	out, err := Join(tiles)
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, out)
	dy := 0
	for _, tile := range tiles {
		want := decode(t, tile)
		samePixels(t, got, want, dy)
		dy += want.Bounds().Dy()
	}
	if got.Bounds().Dy() != dy {
		t.Errorf("joined %d px tall, want %d", got.Bounds().Dy(), dy)
	}
}

func TestCropTop(t *testing.T) {
	full := encode(t, picture(80, 100, 3), 70)
	out, err := CropTop(full, 40)
	if err != nil {
		t.Fatal(err)
	}
	got, whole := decode(t, out), decode(t, full)
	if got.Bounds().Dy() != 40 || got.Bounds().Dx() != 80 {
		t.Fatalf("crop %v", got.Bounds())
	}
	for y := range 40 {
		for x := range 80 {
			if got.At(x, y) != whole.At(x, y) {
				t.Fatalf("pixel %d,%d differs", x, y)
			}
		}
	}
	if len(out) >= len(full) {
		t.Errorf("the crop (%d B) is not smaller than the whole (%d B)", len(out), len(full))
	}
}

func TestJoinRefuses(t *testing.T) {
	a := encode(t, picture(64, 30, 1), 70) // 30 px: not whole MCU rows
	b := encode(t, picture(64, 32, 2), 70)
	wide := encode(t, picture(80, 32, 2), 70)
	other := encode(t, picture(64, 32, 2), 90) // other quantization
	for name, tiles := range map[string][][]byte{
		"partial MCU row above": {a, b},
		"other width":           {b, wide},
		"other quality":         {b, other},
		"not a JPEG":            {b, []byte("junk")},
		"cut short":             {b, b[:len(b)/2]},
		"none":                  nil,
	} {
		if _, err := Join(tiles); err == nil {
			t.Errorf("%s: joined", name)
		}
	}
	// The last tile may be any height.
	if _, err := Join([][]byte{b, a}); err != nil {
		t.Errorf("a short last tile: %v", err)
	}
}

func FuzzJoin(f *testing.F) {
	a := encode(f, picture(32, 16, 1), 70)
	f.Add(a, a)
	f.Add(a[:len(a)-40], a)
	f.Fuzz(func(t *testing.T, x, y []byte) {
		out, err := Join([][]byte{x, y})
		if err == nil && (len(out) < 4 || out[0] != 0xFF || out[1] != 0xD8) {
			t.Errorf("joined into %x…", out[:min(len(out), 8)])
		}
		CropTop(x, 8)
	})
}

func BenchmarkJoin(b *testing.B) {
	var tiles [][]byte
	for i := range 4 {
		tiles = append(tiles, encode(b, picture(736, 2000, uint64(i)), 70))
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Join(tiles); err != nil {
			b.Fatal(err)
		}
	}
}

package replay

import (
	"image"
	"image/color"
	"strings"
)

// glyphs is a tiny built-in bitmap font, 3×5 pixels a character, for the
// captions drawn on GIF frames: each string is five rows of three
// columns, '#' set. Lower case is drawn as upper case; a character the
// font lacks is drawn as '?'.
var glyphs = map[rune]string{
	'A': ".#.#.#####.##.#", 'B': "##.#.###.#.###.", 'C': ".###..#..#...##", 'D': "##.#.##.##.###.",
	'E': "####..###..####", 'F': "####..###..#...", 'G': ".###..#.##.#.##", 'H': "#.##.####.##.##",
	'I': "###.#..#..#.###", 'J': "..#..#..##.#.#.", 'K': "#.##.###.#.##.#", 'L': "#..#..#..#..###",
	'M': "#.#####.##.##.#", 'N': "##.#.##.##.##.#", 'O': ".#.#.##.##.#.#.", 'P': "##.#.###.#..#..",
	'Q': ".#.#.##.##.#.##", 'R': "##.#.###.#.##.#", 'S': ".###...#...###.", 'T': "###.#..#..#..#.",
	'U': "#.##.##.##.####", 'V': "#.##.##.##.#.#.", 'W': "#.##.##.#####.#", 'X': "#.##.#.#.#.##.#",
	'Y': "#.##.#.#..#..#.", 'Z': "###..#.#.#..###",
	'0': "####.##.##.####", '1': ".#.##..#..#.###", '2': "##...#.#.#..###", '3': "##...#.#...###.",
	'4': "#.##.####..#..#", '5': "####..##...###.", '6': ".###..####.####", '7': "###..#..#.#..#.",
	'8': "####.#####.####", '9': "####.####..###.",
	' ': "...............", '.': "............#..", ',': ".........#.#...", ':': "....#.....#....",
	'-': "......###......", '_': "............###", '/': "..#..#.#.#..#..", '(': ".#.#..#..#...#.",
	')': ".#...#..#..#.#.", '#': "#.####.####.#.#", '\'': ".#..#..........", '"': "#.##.#.........",
	'?': "##...#.#.....#.", '!': ".#..#..#.....#.", '=': "...###...###...", '+': "....#.###.#....",
	'@': ".#.#.####..##..", '&': ".#.#.#.#.#.#.##", '%': "#....#.#.#....#", '<': "..#.#.#...#...#",
	'>': "#...#...#.#.#..", '[': "##.#..#..#..##.", ']': ".##..#..#..#.##", '*': "#.#.#.#.#......",
}

// glyphW and glyphH are a character's size in font pixels, glyphGap the
// space after it.
const (
	glyphW   = 3
	glyphH   = 5
	glyphGap = 1
)

// textWidth is how wide s is drawn at scale.
func textWidth(s string, scale int) int {
	return len([]rune(s)) * (glyphW + glyphGap) * scale
}

// drawText draws s at (x, y) (its top left) in c, each font pixel a
// scale×scale square; what falls outside img is clipped.
func drawText(img *image.Paletted, x, y int, s string, c color.Color, scale int) {
	idx := uint8(img.Palette.Index(c))
	for _, r := range strings.ToUpper(s) {
		g, ok := glyphs[r]
		if !ok {
			g = glyphs['?']
		}
		for i := 0; i < glyphW*glyphH && i < len(g); i++ {
			if g[i] != '#' {
				continue
			}
			px, py := x+(i%glyphW)*scale, y+(i/glyphW)*scale
			for dy := 0; dy < scale; dy++ {
				for dx := 0; dx < scale; dx++ {
					if (image.Point{px + dx, py + dy}).In(img.Rect) {
						img.SetColorIndex(px+dx, py+dy, idx)
					}
				}
			}
		}
		x += (glyphW + glyphGap) * scale
	}
}

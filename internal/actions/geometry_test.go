package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"math"
	"os"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// quadMap takes a frame's viewport onto the corners the browser reports:
// its corners onto the corners, its middle onto the middle of a
// parallelogram, and a plane in perspective onto the projective image.
func TestQuadMap(t *testing.T) {
	// A 300×200 viewport turned by 30° about its top-left at (100, 50),
	// scaled by 0.5.
	c, s := math.Cos(math.Pi/6)*0.5, math.Sin(math.Pi/6)*0.5
	rot := func(x, y float64) (float64, float64) { return 100 + c*x - s*y, 50 + s*x + c*y }
	var quad []float64
	for _, p := range [][2]float64{{0, 0}, {300, 0}, {300, 200}, {0, 200}} {
		x, y := rot(p[0], p[1])
		quad = append(quad, x, y)
	}
	m, ok := quadMap(quad, 300, 200)
	if !ok {
		t.Fatal("no map")
	}
	for _, p := range [][2]float64{{0, 0}, {300, 200}, {150, 100}, {40, 170}} {
		gx, gy := m.apply(p[0], p[1])
		wx, wy := rot(p[0], p[1])
		if !near(gx, wx) || !near(gy, wy) {
			t.Errorf("(%v) went to (%v, %v), want (%v, %v)", p, gx, gy, wx, wy)
		}
	}
	inv, ok := m.inverse()
	if !ok {
		t.Fatal("no inverse")
	}
	if x, y := inv.apply(m.apply(40, 170)); !near(x, 40) || !near(y, 170) {
		t.Errorf("round trip gave (%v, %v)", x, y)
	}
	// A trapezoid (a plane tilted away in perspective): the corners land
	// on the corners, and lines stay lines — the middle of the viewport
	// goes to where the quad's diagonals cross.
	trap := []float64{10, 10, 110, 10, 90, 60, 30, 60}
	m, ok = quadMap(trap, 100, 50)
	if !ok {
		t.Fatal("no map of the trapezoid")
	}
	for i, p := range [][2]float64{{0, 0}, {100, 0}, {100, 50}, {0, 50}} {
		if x, y := m.apply(p[0], p[1]); !near(x, trap[2*i]) || !near(y, trap[2*i+1]) {
			t.Errorf("corner %d went to (%v, %v)", i, x, y)
		}
	}
	// Diagonals (10,10)-(90,60) and (110,10)-(30,60) cross at (60, 41.25).
	if x, y := m.apply(50, 25); !near(x, 60) || !near(y, 41.25) {
		t.Errorf("the middle went to (%v, %v), want the diagonals' crossing (60, 41.25)", x, y)
	}
	// Composition: translate then the map.
	mm := translate(5, 5).then(m)
	if x, y := mm.apply(-5, -5); !near(x, 10) || !near(y, 10) {
		t.Errorf("then gave (%v, %v)", x, y)
	}
	// A frame seen edge-on has no map.
	if _, ok := quadMap([]float64{0, 0, 10, 0, 10, 0, 0, 0}, 10, 10); ok {
		t.Error("a flat quad has a map")
	}
}

// Several text matches: the first visible one of the highest click rank;
// the first one when none is visible.
func TestPick(t *testing.T) {
	el := func(ref string, visible bool, rank int) Element {
		return Element{Element: tool.Element{Ref: ref, Visible: visible}, rank: rank}
	}
	all := []Element{el("h", true, 0), el("hidden", false, 2), el("b", true, 2), el("b2", true, 2)}
	if got := pick(all).Ref; got != "b" {
		t.Errorf("picked %s, want b", got)
	}
	if got := pick([]Element{el("x", false, 0), el("y", false, 0)}).Ref; got != "x" {
		t.Errorf("picked %s, want x", got)
	}
}

// The note page/locate.js gives about sensitive fields is the one the
// engine looks for (wait's timeout repeats it).
func TestSensitiveNoteMatchesThePageScript(t *testing.T) {
	b, err := os.ReadFile("../../extension/page/locate.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"`+sensitiveNote+`"`) {
		t.Errorf("page/locate.js does not say %q", sensitiveNote)
	}
}

// childOf walks a frame up to the child of an ancestor.
func TestChildOf(t *testing.T) {
	f := cdpFrames{top: "T", parent: map[string]string{"A": "T", "B": "A", "C": "B", "X": "T"}}
	for _, c := range []struct{ ancestor, id, want string }{
		{"T", "C", "A"}, {"A", "C", "B"}, {"B", "C", "C"}, {"X", "C", ""}, {"T", "T", ""}, {"T", "nope", ""},
	} {
		if got := f.childOf(c.ancestor, c.id); got != c.want {
			t.Errorf("childOf(%s, %s) = %q, want %q", c.ancestor, c.id, got, c.want)
		}
	}
}

package audit

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

func TestTail(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	if got, err := Tail(l, 5); err != nil || len(got) != 0 {
		t.Fatalf("no trail: %v %v", got, err)
	}
	lg := Open(l, func(err error) { t.Error(err) })
	defer lg.Close()
	lg.max = 4000 // rotate after a dozen entries or so
	for i := range 40 {
		lg.Write(Entry{Session: "s", Action: fmt.Sprintf("a%02d", i), Params: map[string]any{"pad": strings.Repeat("x", 200)}, Code: "ok"})
	}
	if _, err := os.Stat(File(l) + ".1"); err != nil {
		t.Fatalf("the test wants a rotated file: %v", err)
	}
	for _, n := range []int{1, 3, 20} {
		got, err := Tail(l, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != n {
			t.Fatalf("Tail(%d) gave %d entries", n, len(got))
		}
		for i, e := range got {
			if want := fmt.Sprintf("a%02d", 40-n+i); e.Action != want {
				t.Errorf("Tail(%d)[%d] = %s, want %s", n, i, e.Action, want)
			}
		}
	}
}

// A file larger than what Tail reads starts at a whole line.
func TestTailOfALargeFile(t *testing.T) {
	l := paths.ForHome(t.TempDir())
	lg := Open(l, func(err error) { t.Error(err) })
	defer lg.Close()
	for i := range 600 {
		lg.Write(Entry{Session: "s", Action: fmt.Sprintf("a%03d", i), Params: map[string]any{"pad": strings.Repeat("y", 150)}, Code: "ok"})
	}
	got, err := Tail(l, 3)
	if err != nil || len(got) != 3 || got[2].Action != "a599" || got[0].Action != "a597" {
		t.Fatalf("%+v %v", got, err)
	}
}

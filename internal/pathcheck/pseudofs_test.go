package pathcheck

import "testing"

// TestPseudoRoot checks the prefix rule alone, on every platform: whole
// components only, and only the roots of this platform.
func TestPseudoRoot(t *testing.T) {
	for _, r := range pseudoRoots {
		for _, p := range []string{r, r + "/x", r + "/a/b"} {
			if got := pseudoRoot(p); got != r {
				t.Errorf("pseudoRoot(%q) = %q, want %q", p, got, r)
			}
		}
		for _, p := range []string{r + "x", r + "x/y", "/home" + r, "/home" + r + "/x"} {
			if got := pseudoRoot(p); got != "" {
				t.Errorf("pseudoRoot(%q) = %q, want none", p, got)
			}
		}
	}
	if got := pseudoRoot("/tmp/report.pdf"); got != "" {
		t.Errorf("pseudoRoot(/tmp/report.pdf) = %q", got)
	}
}

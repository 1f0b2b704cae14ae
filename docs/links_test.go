package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// link is a markdown link's target: ](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// heading is a markdown heading line.
var heading = regexp.MustCompile(`^#{1,6} (.*)$`)

// anchors lists the #fragments GitHub gives the headings of a markdown
// file: lower case, punctuation but - and _ dropped, spaces as -, and -1,
// -2 … for repeats. Lines inside code fences are not headings.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, seen, fence := map[string]bool{}, map[string]int{}, false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		m := heading.FindStringSubmatch(l)
		if fence || m == nil {
			continue
		}
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRelativeLinksResolve checks every relative link of the README and of
// docs/: the file exists, and a #fragment names one of its headings.
func TestRelativeLinksResolve(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("..", "README.md"))
	if len(files) < 2 {
		t.Fatalf("found only %v: run from docs/", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			dest := f
			if file != "" {
				dest = filepath.Join(filepath.Dir(f), file)
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, target)
				continue
			}
			if frag != "" && !anchors(t, dest)[frag] {
				t.Errorf("%s links to %s, but %s has no heading #%s", f, target, dest, frag)
			}
		}
	}
}

// TestREADMEIsADoor keeps the README short and leading with the job: a
// developer who reads its first screen learns that the agent sees the
// console and the network.
func TestREADMEIsADoor(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 350 {
		t.Errorf("the README has %d lines; keep it at 350 or fewer and move the rest to docs/", len(lines))
	}
	first := strings.ToLower(strings.Join(lines[:min(40, len(lines))], "\n"))
	for _, word := range []string{"console", "network"} {
		if !strings.Contains(first, word) {
			t.Errorf("the README's first 40 lines do not name %s", word)
		}
	}
}

package docs

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The README's list of actions ("### The actions") names every action of
// the tool, and only those: an action added to the contract without its
// line in the README fails here, in the unit stage.
func TestReadmeNamesEveryAction(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(b), "\n### The actions\n")
	if !ok {
		t.Fatal(`README.md has no "### The actions" section`)
	}
	if i := strings.Index(list, "\n#"); i >= 0 {
		list = list[:i]
	}
	// Only the list's items: its last line points at the parameters.
	var named []string
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(l, "- ") {
			for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(l, -1) {
				named = append(named, m[1])
			}
		}
	}
	actions := tool.Names()
	for _, a := range actions {
		if !slices.Contains(named, a) {
			t.Errorf("README.md's list of actions does not name %q", a)
		}
	}
	for _, n := range named {
		if !slices.Contains(actions, n) {
			t.Errorf("README.md's list of actions names %q, which is not an action", n)
		}
	}
}

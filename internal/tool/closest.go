package tool

import (
	"sort"
	"strings"
)

// Closest returns the names a typo most likely meant: those equal to it
// but for case, dashes and underscores (--tab-id, --URL), else those
// within an edit distance of a third of its length (clik), best first.
func Closest(typo string, names []string) []string {
	fold := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s))
	}
	var same []string
	for _, n := range names {
		if fold(n) == fold(typo) {
			same = append(same, n)
		}
	}
	if len(same) > 0 {
		sort.Strings(same)
		return same
	}
	limit := max(1, len([]rune(typo))/3)
	type scored struct {
		name string
		d    int
	}
	var near []scored
	for _, n := range names {
		if d := editDistance(fold(typo), fold(n)); d <= limit {
			near = append(near, scored{n, d})
		}
	}
	sort.Slice(near, func(i, j int) bool {
		if near[i].d != near[j].d {
			return near[i].d < near[j].d
		}
		return near[i].name < near[j].name
	})
	var out []string
	for _, s := range near[:min(3, len(near))] {
		out = append(out, s.name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, by runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

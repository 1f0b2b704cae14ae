package tool

import (
	"slices"
	"testing"
)

// Every action is in the tool description's list, once: its After names
// an action of the contract, and only the first (status) has none.
func TestEveryActionIsListed(t *testing.T) {
	listed := Listed()
	for _, s := range Specs() {
		if n := count(listed, s.Name); n != 1 {
			t.Errorf("action %s is listed %d times: its After (%q) must name another action", s.Name, n, s.After)
		}
		if s.After == "" && s.Name != "status" {
			t.Errorf("action %s has no After: name the action it comes after in the tool description", s.Name)
		}
	}
	if listed[0] != "status" {
		t.Errorf("the list starts with %s, not status", listed[0])
	}
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// The results that carry a page's words say so on their fields, which the
// MCP server fences; a result of the bridge's own words
// (type's value read back) does not.
func TestPageParts(t *testing.T) {
	for name, want := range map[string][]string{
		"extract":  {"markdown", "reader", "links", "headings", "text", "changes"},
		"inspect":  {"elements"},
		"search":   {"results"},
		"find":     {"matches"},
		"evaluate": {"value", "valueCut"},
		"console":  {"messages"},
		"network":  {"requests", "request"},
		"type":     nil,
		"click":    nil,
	} {
		s, _ := Lookup(name)
		if got := s.PageParts(); !slices.Equal(got, want) {
			t.Errorf("%s: page parts %q, want %q", name, got, want)
		}
	}
}

package actions

// The site rules' judgement of what the recorder kept, shared by console,
// network and the report of what an action set off (report.go).

import (
	"net/url"
	"slices"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/policy"
)

// offLimits is the site rules' judgement of a recorded entry: its URL or
// the page that made it is of a denied site. The extension keeps such
// entries out as they come; this judges them again with the rules as
// they are now, which may deny what was allowed when it was recorded.
// (A function of the rules, not a method of run: see documentBody.)
func offLimits(rules *policy.Rules) func(urls ...string) bool {
	return func(urls ...string) bool {
		if rules == nil {
			return false
		}
		return slices.ContainsFunc(urls, func(u string) bool { return names(u) && !rules.Check(u).Allowed })
	}
}

// names says whether u names a place of its own for the rules: "", a
// script without a URL ("<anonymous>") and an about:blank or
// about:srcdoc frame (its creator's) do not, and are left to the page's
// URL, which is judged with them.
func names(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Scheme != "" && !strings.EqualFold(p.Scheme, "about")
}

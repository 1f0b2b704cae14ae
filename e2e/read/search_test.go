package read

import (
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestSearchClassifiesResults(t *testing.T) {
	t.Parallel()
	ws := workspace(t)
	res, out := call(t, map[string]any{"action": "search", "query": "what is a widget", "browserWorkspaceId": ws})
	if !strings.HasPrefix(str(res, "url"), site+"/search?q=what+is+a+widget") {
		t.Errorf("the engine template was not used: %v", res["url"])
	}
	if res["incognito"] != true {
		t.Errorf("search did not run incognito: %s", out)
	}
	// open joins the workspace's window, incognito now (docs/design.md#workspaces), and
	// says so.
	if o, _ := call(t, map[string]any{"action": "open", "url": site + "/", "browserWorkspaceId": ws}); o["incognito"] != true {
		t.Errorf("open after a search does not say it is incognito: %v", o)
	}
	if num(t, res, "tabId") <= 0 || !strings.Contains(str(res, "title"), "what is a widget") || str(res, "query") != "what is a widget" {
		t.Errorf("tab fields: %v", res)
	}
	hits := list(res, "results")
	type hit struct{ kind, title, url string }
	var got []hit
	for i, h := range hits {
		if num(t, h, "position") != i+1 {
			t.Errorf("result %d has position %v", i, h["position"])
		}
		got = append(got, hit{str(h, "kind"), str(h, "title"), str(h, "url")})
	}
	want := []hit{
		{"ad", "Best Widgets - Shop Widgets Online", "https://shop.example/deals"},
		{"ad", "Widgets Direct | Official Site", "https://widgets.example/"},
		{"featured", "Widget Definition & Meaning - Dictionary", "https://dictionary.example/widget"},
		{"organic", "Widget - Wikipedia", "https://en.wikipedia.example/wiki/Widget"},
		{"people_also_ask", "What is a widget used for?", "https://faq.example/widget-use"},
		{"people_also_ask", "What are examples of widgets?", ""},
		{"people_also_ask", "Why is it called a widget?", ""},
		// Sponsored products: ad cards without a heading.
		{"ad", "Widget Pro 3000", "https://store.example/widget-pro"},
		{"ad", "Widget Mini", "https://gadgets.example/widget-mini"},
		{"organic", "The Complete Widget Guide", "https://widgetworks.example/guide"},
		{"video", "How Widgets Work (10 min)", "https://video.example/watch?v=widget1"},
		{"video", "Build a Widget at Home", "https://video.example/watch?v=widget2"},
		{"news", "Widget makers report record year", "https://news.example/widgets-2026"},
		{"organic", "10 Widgets Everyone Should Know", "https://blog.example/widgets"},
		// The ads at the bottom, whose title is no heading.
		{"ad", "Widget Outlet - 50% Off Today", "https://widget-outlet.example/sale"},
		{"related_search", "widget meaning", site + "/search?q=widget+meaning"},
		{"related_search", "widget app", site + "/search?q=widget+app"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
	snippets := map[string]string{}
	for _, h := range hits {
		snippets[str(h, "title")] = str(h, "snippet")
	}
	for title, want := range map[string]string{
		"Widget - Wikipedia":                       "graphical user interface",
		"Best Widgets - Shop Widgets Online":       "Free shipping",
		"Widget Definition & Meaning - Dictionary": "small gadget",
		"The Complete Widget Guide":                "history, types",
		"Widget Outlet - 50% Off Today":            "Clearance on every widget",
		"Widget Pro 3000":                          "$19.99",
	} {
		if !strings.Contains(snippets[title], want) {
			t.Errorf("snippet of %q is %q, want it to contain %q", title, snippets[title], want)
		}
	}
}

func TestSearchReportsConsentAndTrafficWalls(t *testing.T) {
	t.Parallel()
	ws := workspace(t)
	msg := failCode(t, map[string]any{"action": "search", "query": "consent please", "browserWorkspaceId": ws}, protocol.CodeBlockedByPolicy)
	if !strings.Contains(msg, "consent") {
		t.Errorf("the consent wall is not named: %q", msg)
	}
	msg = failCode(t, map[string]any{"action": "search", "query": "unusual please", "browserWorkspaceId": ws}, protocol.CodeBlockedByPolicy)
	if !strings.Contains(msg, "unusual traffic") {
		t.Errorf("the traffic check is not named: %q", msg)
	}
	failCode(t, map[string]any{"action": "search", "query": "  ", "browserWorkspaceId": ws}, protocol.CodeInvalidArgument)
}

// Ads whose title is an ARIA heading inside their link come back as ads,
// in several result-page shapes, and nothing of an ad as organic (issue
// 24, item 3).
func TestSearchKeepsAdsWithHeadingTitles(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"ads please", "ads please 2", "ads please 3"} {
		t.Run(strings.ReplaceAll(q, " ", "-"), func(t *testing.T) { checkAdShapes(t, q) })
	}
}

// Google's own ad markup, top (#tads) and bottom (#bottomads), comes back
// as ads beside the organic results.
func TestSearchKeepsGoogleTextAds(t *testing.T) {
	t.Parallel()
	checkAds(t, "google ads please", "AD-TOP Widgets at half price", "AD-BOTTOM Widget outlet", "ORG-ONE The widget handbook", "ORG-TWO Widgets explained")
}

func checkAdShapes(t *testing.T, q string) {
	checkAds(t, q, "AD-ONE Widgets on sale", "AD-TWO Buy widgets", "AD-THREE Widget deals", "AD-FOUR Widgets direct", "ORG-ONE The widget handbook", "ORG-TWO Widgets explained")
}

// checkAds runs the search q and wants each of titles back once, as an ad
// when it starts with AD-, else as organic, and no ad's text in an organic
// hit.
func checkAds(t *testing.T, q string, titles ...string) {
	res, out := call(t, map[string]any{"action": "search", "query": q, "browserWorkspaceId": workspace(t)})
	kinds := map[string]string{}
	for _, h := range list(res, "results") {
		title := str(h, "title")
		if prev, ok := kinds[title]; ok {
			t.Errorf("%q twice, as %s and %s", title, prev, str(h, "kind"))
		}
		kinds[title] = str(h, "kind")
		if strings.HasPrefix(title, "AD-") != (str(h, "kind") == "ad") || (strings.Contains(str(h, "snippet"), "AD-") && str(h, "kind") != "ad") {
			t.Errorf("%q came back as %s", title, str(h, "kind"))
		}
	}
	for _, want := range titles {
		if _, ok := kinds[want]; !ok {
			t.Errorf("%q is missing: %v", want, kinds)
		}
	}
	if t.Failed() {
		t.Logf("%s", out)
	}
}

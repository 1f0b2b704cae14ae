package read

import (
	"strings"
	"testing"
	"time"
)

// An SPA whose data arrives 400 ms after a click is read with its data,
// also when its DOM had been quiet for long before the click (then only
// the request in flight tells that more is coming), and when the click
// starts its request after a short timer.
func TestExtractAfterAClickWaitsForTheData(t *testing.T) {
	t.Parallel()
	for _, button := range []string{"#now", "#later"} {
		tab := openPage(t, "/spa")
		time.Sleep(time.Second) // long quiet before the click
		call(t, map[string]any{"action": "click", "tabId": tab, "selector": button})
		res, _ := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}})
		if text := str(res, "text"); !strings.Contains(text, "ORDER-4711") {
			t.Errorf("%s: extract right after the click lacks the data that came 400 ms later:\n%s", button, text)
		}
		if w, _ := res["warnings"].([]any); len(w) > 0 {
			t.Errorf("%s: warnings %v", button, w)
		}
	}
}

// A page that fetches its data on load is read with it.
func TestExtractWaitsForDataFetchedOnLoad(t *testing.T) {
	t.Parallel()
	res, _ := extractURL(t, "/spa#onload", map[string]any{"include": []string{"text"}})
	if text := str(res, "text"); !strings.Contains(text, "ORDER-4711") {
		t.Errorf("extract lacks the data the page fetched on load:\n%s", text)
	}
}

package read

import (
	"encoding/json"
	"strings"
	"testing"
)

// Reading the large page to its end with the defaults gives the page
// once: a page larger than the budget is read as its markdown only (which
// holds its text, links and headings), each window within its budget, in
// at most 150 KB in all — and every other part is still there through
// include.
func TestReadingALargePageToItsEnd(t *testing.T) {
	t.Parallel()
	tab := openPage(t, "/big")
	const maxChars = 20000 // the default budget
	total, offset, calls := 0, 0, 0
	var md strings.Builder
	for {
		in := map[string]any{"action": "extract", "tabId": tab}
		if offset > 0 {
			in["offset"] = offset
		}
		res, _ := call(t, in)
		b, _ := json.Marshal(res)
		if len([]rune(string(b))) > maxChars*105/100 {
			t.Errorf("the window at %d is %d characters, over its budget of %d", offset, len(b), maxChars)
		}
		total += len(b)
		calls++
		md.WriteString(str(res, "markdown"))
		for _, p := range []string{"reader", "links", "headings", "text"} {
			if _, ok := res[p]; ok {
				t.Errorf("the window at %d repeats the page as %s", offset, p)
			}
		}
		if omitted, _ := res["omitted"].([]any); len(omitted) != 4 {
			t.Errorf("the window at %d does not name the parts it left out: %v", offset, res["omitted"])
		}
		if offset == 0 {
			w, _ := json.Marshal(res["warnings"])
			if !strings.Contains(string(w), "include") {
				t.Errorf("the first window does not say how to get the parts left out: %s", w)
			}
		}
		next, more := res["nextOffset"].(float64)
		if !more || calls > 50 {
			break
		}
		offset = int(next)
	}
	t.Logf("the whole page in %d calls, %d bytes", calls, total)
	if total > 150_000 {
		t.Errorf("reading the page to its end took %d bytes in %d calls, over 150 KB", total, calls)
	}
	for _, tok := range []string{"BIGPARA-0000", "BIGPARA-0399"} {
		if strings.Count(md.String(), tok) != 1 {
			t.Errorf("%s is not in the markdown read in windows exactly once", tok)
		}
	}
	// The parts left out, through include.
	for _, p := range []string{"reader", "links", "headings", "text"} {
		res, _ := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{p}})
		if _, ok := res[p]; !ok {
			t.Errorf("include [%s] does not give it: %v", p, res)
		}
		if res["omitted"] != nil {
			t.Errorf("include [%s] says parts were left out: %v", p, res["omitted"])
		}
	}
}

package tool

import (
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	names := []string{"tabId", "text", "url", "urlContains", "maxChars", "click", "close", "clean"}
	for typo, want := range map[string]string{"tab-id": "[tabId]", "URL": "[url]", "clik": "[click]", "tabid": "[tabId]", "zzzz": "[]", "clos": "[close]"} {
		if got := Closest(typo, names); strings.Join(got, " ") != strings.Trim(want, "[]") {
			t.Errorf("Closest(%q) = %v, want %s", typo, got, want)
		}
	}
}

// A mistyped action is refused with the action it is close to, as a
// mistyped parameter is.
func TestUnknownActionSaysWhatItMeant(t *testing.T) {
	_, _, err := Parse([]byte(`{"action":"screenshoot"}`))
	if err == nil || !strings.Contains(err.Error(), `did you mean "screenshot"?`) {
		t.Fatalf("got %v, want a did-you-mean naming screenshot", err)
	}
	_, _, err = Parse([]byte(`{"action":"zzzzzzzz"}`))
	if err == nil || strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), "screenshot") {
		t.Fatalf("got %v, want the list of actions and no guess", err)
	}
}

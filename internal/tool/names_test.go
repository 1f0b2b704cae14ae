package tool

import (
	"strings"
	"testing"
)

// A key that differs from a parameter only in case is refused like an
// unknown key, naming the parameter, at any depth.
func TestKeysDifferingInCaseAreRefused(t *testing.T) {
	for in, want := range map[string]string{
		`{"action":"open","URL":"https://example.com/"}`:                    `unknown parameter "URL"; did you mean "url"?`,
		`{"Action":"status"}`:                                               `did you mean "action"?`,
		`{"action":"click","text":"Go","TabId":3}`:                          `"TabId"; did you mean "tabId"?`,
		`{"action":"extract","tabId":1,"waitFor":{"Selector":"#a"}}`:        `"waitFor.Selector"; did you mean "waitFor.selector"?`,
		`{"action":"screenshot","clip":{"x":0,"y":0,"Width":5,"height":5}}`: `"clip.Width"`,
		`{"action":"drag","from":{"text":"a"},"to":{"Text":"b"}}`:           `"to.Text"`,
	} {
		_, _, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %s", in, err, want)
		}
	}
	if _, _, err := Parse([]byte(`{"action":"drag","from":{"text":"a"},"to":{"text":"b"}}`)); err != nil {
		t.Errorf("exact names refused: %v", err)
	}
}

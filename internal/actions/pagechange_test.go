package actions

import (
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
)

// Only an action that changes the page asks its locate for a note of the
// page, and its observe step takes the note once. (The fake browser
// stands in for the extension; nothing here reaches a page.)
func TestPageMarkIsAnActingRunsOnce(t *testing.T) {
	t.Parallel()
	env := engine(t, fakebrowser.New())
	read := start(t, env, `{"action":"inspect","tabId":2}`)
	if tok := pageMarkFor(read); tok != "" {
		t.Errorf("inspect asked for a note of the page: %q", tok)
	}
	click := start(t, env, `{"action":"click","tabId":2,"selector":"a"}`)
	tok := pageMarkFor(click)
	if tok == "" || pageMarkFor(click) != tok {
		t.Fatalf("click's token %q: want one, the same on every locate", tok)
	}
	other := start(t, env, `{"action":"type","tabId":2,"selector":"input","value":"x"}`)
	if o := pageMarkFor(other); o == tok {
		t.Errorf("two runs share token %q", tok)
	}
	if got := takePageMark(click); got != tok {
		t.Errorf("takePageMark = %q, want %q", got, tok)
	}
	if got := takePageMark(click); got != "" {
		t.Errorf("takePageMark again = %q, want none", got)
	}
}

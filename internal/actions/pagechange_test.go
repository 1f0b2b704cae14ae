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
	if tok := read.mark.note(); tok != "" {
		t.Errorf("inspect asked for a note of the page: %q", tok)
	}
	click := start(t, env, `{"action":"click","tabId":2,"selector":"a"}`)
	tok := click.mark.note()
	if tok == "" || click.mark.note() != tok {
		t.Fatalf("click's token %q: want one, the same on every locate", tok)
	}
	other := start(t, env, `{"action":"type","tabId":2,"selector":"input","value":"x"}`)
	if o := other.mark.note(); o == tok {
		t.Errorf("two runs share token %q", tok)
	}
	if got := click.mark.take(); got != tok {
		t.Errorf("take = %q, want %q", got, tok)
	}
	if got := click.mark.take(); got != "" {
		t.Errorf("take again = %q, want none", got)
	}
}

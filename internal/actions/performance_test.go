package actions

import (
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// An element is named by its role and name when it has both, else by its
// tag, id and text.
func TestDescribeNode(t *testing.T) {
	for _, c := range []struct {
		n    protocol.TraceNode
		want string
	}{
		{protocol.TraceNode{Role: "heading", Name: "Welcome", Tag: "h1"}, `heading "Welcome"`},
		{protocol.TraceNode{Role: "generic", Name: "x", Tag: "div", ID: "moved", Text: "A box"}, `div#moved "A box"`},
		{protocol.TraceNode{Role: "paragraph", Tag: "p", Text: "Some words"}, `p "Some words"`},
		{protocol.TraceNode{}, "node"},
	} {
		if got := describeNode(c.n); got != c.want {
			t.Errorf("describeNode(%+v) = %s, want %s", c.n, got, c.want)
		}
	}
}

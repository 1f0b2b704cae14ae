package actions

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("find", find) }

var findScript = script("find", "page/find.js")

// maxFound is how many matches find returns: enough to pick from, a few
// KB at most (the count says how many there are in all).
const maxFound = 20

// findArgs are page/find.js find's.
type findArgs struct {
	Query string `json:"query"`
	Max   int    `json:"max"`
}

// foundFrame is one frame's answer.
type foundFrame struct {
	Matches []tool.Found `json:"matches"`
	Total   int          `json:"total"`
}

// find looks for the query's text in every frame's rendered, visible
// page (shadow roots included) and returns the first matches, top frame
// first, each with a ref that names its element as a locator. A match's
// rect is in its own frame's viewport.
func find(r *run) (*tool.FindResult, error) {
	q := strings.TrimSpace(r.in.Query)
	if q == "" {
		return nil, invalid("find needs query: the text to look for")
	}
	t, err := r.guards().pageTarget()
	if err != nil {
		return nil, err
	}
	res, err := r.runPage(t.TabID, frames{all: true}, findScript, findArgs{Query: q, Max: maxFound})
	if err != nil {
		return nil, err
	}
	// Frames at a URL the bridge may not read are left out (refuseFrames
	// already blanked their answers; a top frame fails the action).
	out := &tool.FindResult{Page: pageOf(t), Matches: []tool.Found{}}
	for _, fr := range res {
		if fr.Error != "" {
			if fr.FrameID != 0 {
				out.Warnings = append(out.Warnings, fmt.Sprintf("frame %d was not searched: %s", fr.FrameID, fr.Error))
			}
			continue
		}
		var f foundFrame
		if err := json.Unmarshal(fr.Value, &f); err != nil {
			continue
		}
		out.Count += f.Total
		for _, m := range f.Matches {
			if len(out.Matches) == maxFound {
				break
			}
			m.FrameID, m.Ref = fr.FrameID, tool.FrameRef(fr.FrameID, m.Ref)
			out.Matches = append(out.Matches, m)
		}
	}
	if out.Count > len(out.Matches) {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d matches; the first %d are listed (a longer query narrows them)", out.Count, len(out.Matches)))
	}
	return out, nil
}

package actions

import "encoding/json"

// test.axtree exists only in this package's test binary: it asks the tab
// for its full accessibility tree through the extension's cdp verb (the
// tree peers hand to models) and says how big it is, so the extract
// benchmark can set our output beside it, measured on the same tab.
func init() {
	register("test.axtree", func(r *run) (any, error) {
		if r.in.TabID == nil {
			return nil, invalid("test.axtree needs tabId")
		}
		var raw json.RawMessage
		if err := r.call("cdp", map[string]any{"tabId": *r.in.TabID, "method": "Accessibility.getFullAXTree", "params": map[string]any{}}, &raw); err != nil {
			return nil, err
		}
		var tree struct {
			Nodes []json.RawMessage `json:"nodes"`
		}
		if err := json.Unmarshal(raw, &tree); err != nil {
			return nil, err
		}
		r.call("cdp.detach", map[string]any{"tabId": *r.in.TabID}, nil)
		return map[string]any{"bytes": len(raw), "nodes": len(tree.Nodes)}, nil
	})
}

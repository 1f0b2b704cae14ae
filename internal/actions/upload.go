package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func init() { register("upload", upload) }

// upload sets files on a file input. The paths are checked here, in the
// daemon, before anything reaches Chrome; no file content ever enters a
// result, only names and sizes as the page sees them.
func upload(r *run) (any, error) {
	paths, err := pathcheck.Check(r.in.Paths)
	if err != nil {
		return nil, err
	}
	t, el, err := r.domTarget()
	if err != nil {
		return nil, err
	}
	token := randomToken()
	var input struct {
		Multiple bool `json:"multiple"`
	}
	if err := r.act(t.TabID, el, "markUpload", map[string]any{"token": token}, &input); err != nil {
		return nil, err
	}
	if len(paths) > 1 && !input.Multiple {
		r.act(t.TabID, el, "uploaded", nil, nil) // remove the mark
		return nil, invalid("this file input takes one file; %d were given", len(paths))
	}
	setErr := r.call("dom.setFiles", map[string]any{"tabId": t.TabID, "token": token, "files": paths}, nil)
	var got struct {
		Files []struct {
			Name string `json:"name"`
			Size int64  `json:"size"`
		} `json:"files"`
	}
	if err := r.act(t.TabID, el, "uploaded", nil, &got); err != nil && setErr == nil {
		setErr = err
	}
	if setErr != nil {
		return nil, setErr
	}
	if len(got.Files) != len(paths) {
		return nil, protocol.Errorf(protocol.CodeElementNotFound, "the file input holds %d files after setting %d; the page may have replaced the input — locate it again and retry", len(got.Files), len(paths))
	}
	res, err := r.finish(t, &el)
	if err != nil {
		return nil, err
	}
	return struct {
		actResult
		Files any `json:"files"`
	}{res, got.Files}, nil
}

package actions

import (
	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/staging"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

func init() { register("upload", upload) }

// upload sets files on a file input. The paths are checked here, in the
// daemon, before anything reaches Chrome, and Chrome is given private
// copies made from the files as they were opened for the check
// (internal/staging), never the paths themselves: Chrome reads the files
// later, when the page does, and by then a path may name another file. No
// file content ever enters a result, only names and sizes as the page
// sees them.
func upload(r *run) (*tool.UploadResult, error) {
	paths, cleanup, err := staging.Stage(r.in.Paths)
	if err != nil {
		return nil, err
	}
	// Until Chrome has been asked to take the copies, nothing holds them:
	// a failure before that removes them. After, the page may read them
	// at any time, and staging removes them when their time is up.
	handed := false
	defer func() {
		if !handed {
			cleanup()
		}
	}()
	l, err := r.domTarget()
	if err != nil {
		return nil, err
	}
	token := randomToken()
	var input struct {
		Multiple bool `json:"multiple"`
		Chooser  bool `json:"chooser"`
	}
	if err := l.act("markUpload", actArgs{Token: token}, &input); err != nil {
		return nil, err
	}
	if input.Chooser {
		return r.uploadByChooser(l.tab, paths, &handed)
	}
	if len(paths) > 1 && !input.Multiple {
		l.act("uploaded", actArgs{}, nil) // remove the mark
		return nil, invalid("this file input takes one file; %d were given — give one path", len(paths))
	}
	handed = true
	setErr := r.b.DOMSetFiles(r.ctx, protocol.DOMSetFilesParams{TabID: l.tab.TabID, Token: token, Files: paths})
	var got protocol.DOMChooseFilesResult
	if err := l.act("uploaded", actArgs{}, &got); err != nil && setErr == nil {
		setErr = err
	}
	if setErr != nil {
		return nil, setErr
	}
	return r.uploaded(l, got, len(paths))
}

// uploaded is the result of an upload of want files, into the element
// locator l found, that the page reports as got: an error when the input
// does not hold them all.
func (r *run) uploaded(l *locator, got protocol.DOMChooseFilesResult, want int) (*tool.UploadResult, error) {
	if len(got.Files) != want {
		// Not "retry": the page may have taken the files in another way,
		// and a retry could upload them twice.
		return nil, protocol.Errorf(protocol.CodeElementNotFound, "the file input holds %d files after setting %d, and the page was not told of them; the page may have replaced the input — check the page (extract or screenshot) before trying again", len(got.Files), want)
	}
	if got.Emptied {
		l.warnings = append(l.warnings, "the page took the files and emptied its file input, as many upload widgets do")
	}
	res, err := r.observer().observeLocated(l)
	if err != nil {
		return nil, err
	}
	files := make([]tool.File, len(got.Files))
	for i, f := range got.Files {
		files[i] = tool.File(f)
	}
	return &tool.UploadResult{ActResult: *res, Files: files}, nil
}

// uploadByChooser uploads through an element that is not a file input but
// opens a file chooser when clicked (a "Choose file" button in front of a
// hidden input): the extension clicks it with trusted input while Chrome
// hands file choosers to the debugger instead of showing them, and sets
// the files on the input behind the chooser.
func (r *run) uploadByChooser(t browser.TabInfo, paths []string, handed *bool) (*tool.UploadResult, error) {
	loc, err := r.needLocator()
	if err != nil {
		return nil, err
	}
	l := r.locator()
	if err := l.locateForInput(t, loc); err != nil {
		return nil, err
	}
	if l.el.ObscuredBy != "" {
		// The click would go to what covers it, and the files to whatever
		// chooser that opens.
		return nil, protocol.Errorf(protocol.CodeElementNotFound, "the element is covered by %s, so a click would not reach it; close or scroll away what covers it, or locate the file input", l.el.ObscuredBy)
	}
	*handed = true
	got, err := r.b.DOMChooseFiles(r.ctx, protocol.DOMChooseFilesParams{TabID: t.TabID, Files: paths, InFrame: l.el.FrameID != 0,
		Commands: clickCmds(l.el.X, l.el.Y, "left", 1)})
	if err != nil {
		return nil, err
	}
	return r.uploaded(l, got, len(paths))
}

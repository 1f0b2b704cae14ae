package tool

// The files family: files into the page, and out of it.
func init() {
	declare(
		Spec{
			Name:        "upload",
			After:       "drag",
			Result:      UploadResult{},
			Summary:     "put files (paths) into a file input.",
			Doc:         "puts files (up to 20 absolute paths on the machine of the browser) into a file input. The daemon checks every path first (ErrUploadPathRejected names the path and the rule).",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"paths", "dialog"},
			Needs:       [][]string{LocatorParams, {"paths"}},
			ChangesPage: true,
		},
		Spec{
			Name:    "downloads",
			After:   "upload",
			Result:  DownloadsResult{},
			Summary: "files the bridge's clicks downloaded.",
			Doc:     "lists the files the bridge's clicks and key presses downloaded recently, brought up to date (one in progress then may be done now).",
			Kind:    KindRead,
		},
	)
}

// UploadResult is a page action's result plus the files the input holds.
type UploadResult struct {
	ActResult
	Files []File `json:"files"`
}

// File is a file a file input holds: its name and size as the page sees
// them, never its content.
type File struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// DownloadsResult lists recent downloads, newest first, and the bridge's
// downloads folder.
type DownloadsResult struct {
	Downloads []Download `json:"downloads"`
	Folder    string     `json:"folder,omitempty"`
}

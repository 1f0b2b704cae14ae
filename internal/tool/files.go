package tool

// The files family: files into the page, and out of it.
func init() {
	declare(
		Spec{
			Name:        "upload",
			Summary:     "put files (paths) into a file input.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"paths", "dialog"},
			Needs:       [][]string{LocatorParams, {"paths"}},
			ChangesPage: true,
		},
		Spec{
			Name:    "downloads",
			Summary: "list the files the bridge's clicks downloaded (path, name, bytes, mime, state).",
			Kind:    KindRead,
		},
	)
}

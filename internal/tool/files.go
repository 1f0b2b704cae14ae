package tool

// The files family: files into the page.
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
	)
}

package tool

// The reading family: actions that look at a page and change nothing.
func init() {
	declare(
		Spec{
			Name:    "extract",
			Summary: "read the rendered page as markdown, links, headings (optional url, waitFor); long pages continue with offset.",
			Kind:    KindRead,
			Params:  []string{"url", "target", "incognito", "waitFor", "include", "maxChars", "offset", "dialog"},
		},
		Spec{
			Name:    "inspect",
			Summary: "list interactive elements with a ref for locators.",
			Kind:    KindRead,
			Params:  []string{"maxChars", "offset", "dialog"},
		},
		Spec{
			Name:    "wait",
			Summary: "wait for load, a locator or urlContains.",
			Kind:    KindRead,
			Locator: true,
			Params:  []string{"urlContains", "load", "dialog"},
		},
		Spec{
			Name:    "screenshot",
			Summary: "save a JPEG of the page (or viewport, clip): a file path plus a downscaled image.",
			Kind:    KindRead,
			Params:  []string{"mode", "clip", "dialog"},
		},
	)
}

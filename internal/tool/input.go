package tool

// The input family: acting on a page as a person would.
func init() {
	declare(
		Spec{
			Name:        "click",
			Summary:     "click an element.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"inputMode", "button", "clickCount", "dialog"},
			Needs:       [][]string{LocatorParams},
			ChangesPage: true,
			OpensTabs:   true,
			// A link to a file downloads it.
			StartsDownloads: true,
		},
		Spec{
			Name:        "type",
			Summary:     "type value into a field, code editor or date/time/color/range input (clear replaces).",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"inputMode", "value", "clear", "dialog"},
			Needs:       [][]string{LocatorParams, {"value", "clear"}},
			ChangesPage: true,
		},
		Spec{
			Name:        "press",
			Summary:     "press keys, focusing a locator first if given.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"inputMode", "keys", "dialog"},
			Needs:       [][]string{{"keys"}},
			ChangesPage: true,
			OpensTabs:   true,
			// Enter on a focused link to a file downloads it.
			StartsDownloads: true,
		},
		Spec{
			Name:        "select",
			Summary:     "choose option(s) of a <select>.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"option", "options", "dialog"},
			Needs:       [][]string{LocatorParams, {"option", "options"}},
			ChangesPage: true,
		},
		Spec{
			Name:        "check",
			Summary:     "set a checkbox or radio to checked.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"checked", "dialog"},
			Needs:       [][]string{LocatorParams},
			ChangesPage: true,
		},
		Spec{
			Name:        "hover",
			Summary:     "move the mouse over an element (:hover menus open); returns what is under the pointer.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"dialog"},
			Needs:       [][]string{LocatorParams},
			ChangesPage: true,
		},
		Spec{
			Name:        "scroll",
			Summary:     "scroll to top/bottom, to a locator, or by deltaX/deltaY.",
			Kind:        KindInput,
			Locator:     true,
			Params:      []string{"to", "deltaX", "deltaY", "dialog"},
			ChangesPage: true,
		},
	)
}

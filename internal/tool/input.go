package tool

import "time"

// HandoffDeadline is the longest a hand-off waits for the user (SPEC §2):
// time to sign in, solve a CAPTCHA or find a second factor.
const HandoffDeadline = 10 * time.Minute

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
			Name:        "drag",
			Summary:     "drag from (a locator) and drop on to (a locator or x, y), with real mouse events.",
			Kind:        KindInput,
			Params:      []string{"from", "to", "dialog"},
			Needs:       [][]string{{"from"}, {"to"}},
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
		// handoff does not take the tab's turn (ChangesPage): it holds the
		// tab for minutes, and the actions that come meanwhile must fail
		// with handoff_in_progress at once rather than wait behind it.
		Spec{
			Name:     "handoff",
			Summary:  "hand the tab to the user (sign-in, CAPTCHA, 2FA): shows message with Done/Cancel and waits, timeoutMs up to 600000; returns outcome done, cancelled or timeout.",
			Kind:     KindInput,
			Params:   []string{"message"},
			Needs:    [][]string{{"message"}},
			Deadline: HandoffDeadline,
		},
	)
}

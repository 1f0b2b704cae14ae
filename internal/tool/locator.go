package tool

import (
	"fmt"
	"strconv"
	"strings"
)

// given counts the locator kinds set.
func (l Locator) given() int {
	n := 0
	for _, s := range []string{l.Selector, l.Text, l.Role, l.Label, l.Placeholder, l.Ref} {
		if s != "" {
			n++
		}
	}
	if l.X != nil || l.Y != nil {
		n++
	}
	return n
}

// Present reports whether the locator names anything (a name alone
// counts, so that Check can say it needs a role).
func (l Locator) Present() bool { return l.given() > 0 || l.Name != "" }

// IsPoint reports whether the locator is a point (x, y) rather than an
// element.
func (l Locator) IsPoint() bool { return l.X != nil }

// Check enforces "exactly one locator" and the shape of each.
func (l Locator) Check() error {
	n := l.given()
	if n == 0 {
		if l.Name != "" {
			return invalid("name goes with role: give role too (e.g. role \"button\", name \"Save\")")
		}
		return nil
	}
	if n > 1 {
		return invalid("give exactly one locator: selector, text, role (+ name), label, placeholder, ref, or x and y")
	}
	if l.Name != "" && l.Role == "" {
		return invalid("name goes with role: give role too (e.g. role \"button\", name \"Save\")")
	}
	if (l.X == nil) != (l.Y == nil) {
		return invalid("a point needs both x and y")
	}
	switch l.Coordinates {
	case "", "viewport", "document":
	default:
		return invalid("coordinates must be \"viewport\" or \"document\"")
	}
	if l.Coordinates != "" && l.X == nil {
		return invalid("coordinates goes with x and y")
	}
	if l.X != nil && l.FrameID != nil {
		return invalid("a point (x, y) is in the page's own coordinates; drop frameId, or locate the element inside the frame instead")
	}
	if l.Nth != nil && *l.Nth < 0 {
		return invalid("nth is 0-based and cannot be negative")
	}
	if l.Ref != "" {
		if _, _, err := ParseRef(l.Ref); err != nil {
			return err
		}
	}
	return nil
}

// Describe names the locator in messages.
func (l Locator) Describe() string {
	switch {
	case l.Ref != "":
		return fmt.Sprintf("ref %q", l.Ref)
	case l.Selector != "":
		return fmt.Sprintf("selector %q", l.Selector)
	case l.Role != "" && l.Name != "":
		return fmt.Sprintf("role %q named %q", l.Role, l.Name)
	case l.Role != "":
		return fmt.Sprintf("role %q", l.Role)
	case l.Text != "":
		return fmt.Sprintf("text %q", l.Text)
	case l.Label != "":
		return fmt.Sprintf("label %q", l.Label)
	case l.Placeholder != "":
		return fmt.Sprintf("placeholder %q", l.Placeholder)
	case l.X != nil:
		return fmt.Sprintf("point (%g, %g)", *l.X, *l.Y)
	}
	return "no locator"
}

// Check checks extract's wait condition: one element locator or
// urlContains, not both.
func (w *WaitFor) Check() error {
	if w == nil {
		return nil
	}
	if err := w.Locator.Check(); err != nil {
		return fmt.Errorf("waitFor: %w", err)
	}
	switch {
	case w.IsPoint() || w.Coordinates != "":
		return invalid("waitFor waits for an element: give selector, text, role (+ name), label, placeholder, ref, or urlContains — not x and y")
	case w.Present() && w.URLContains != "":
		return invalid("waitFor takes one condition: a locator or urlContains, not both")
	case !w.Present() && w.URLContains == "":
		return invalid("waitFor needs one condition: selector, text, role (+ name), label, placeholder, ref, or urlContains")
	}
	return nil
}

// FrameRef makes a ref that names its frame: refs from page scripts
// ("e12") are per frame, so a ref from a child frame carries its frameId
// ("f3e12") and can be used without a separate frameId.
func FrameRef(frameID int, ref string) string {
	if frameID == 0 {
		return ref
	}
	return "f" + strconv.Itoa(frameID) + ref
}

// ParseRef splits a ref from FrameRef into frameId and the frame's own ref.
func ParseRef(s string) (frameID int, ref string, err error) {
	bad := invalid("ref %q is not a ref from inspect (they look like e12 or f3e12)", s)
	if strings.HasPrefix(s, "f") {
		i := strings.IndexByte(s, 'e')
		if i < 2 {
			return 0, "", bad
		}
		id, err := strconv.Atoi(s[1:i])
		if err != nil || id < 0 {
			return 0, "", bad
		}
		frameID, s = id, s[i:]
	}
	if len(s) < 2 || s[0] != 'e' {
		return 0, "", bad
	}
	if _, err := strconv.Atoi(s[1:]); err != nil {
		return 0, "", bad
	}
	return frameID, s, nil
}

package bridge

import (
	"errors"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Code is a stable error code: the Code of an *Error, and itself an error
// to compare with, so that
//
//	errors.Is(err, bridge.ErrElementNotFound)
//
// holds for any *Error with that code, and
//
//	var e *bridge.Error
//	if errors.As(err, &e) { switch e.Code { case bridge.ErrTimeout: … } }
//
// branches on it. Codes are never renamed; a newer daemon may send one that
// is not listed here, and it still arrives as an *Error with that Code.
type Code string

// Error implements error, so a Code can be the target of errors.Is.
func (c Code) Error() string { return string(c) }

// The stable codes (docs/design.md#actions and the bridge's own).
const (
	ErrExtensionNotConnected Code = "extension_not_connected"          // no extension connected: install it and keep Chrome open
	ErrBridgeDisabled        Code = "bridge_disabled"                  // turned off by `browser-bridge disable` or BROWSER_BRIDGE_DISABLE=1
	ErrTimeout               Code = "timeout"                          // the call's deadline passed; the message names what it waited for
	ErrElementNotFound       Code = "element_not_found"                // no element matches the locator
	ErrElementObscured       Code = "element_obscured"                 // something covers the target, so it would not get the input; nothing was pressed
	ErrProtectedPage         Code = "protected_page"                   // chrome://, the Web Store, pages the extension may not touch
	ErrFullPageUnavailable   Code = "full_page_screenshot_unavailable" // the page cannot be captured whole
	ErrUploadPathRejected    Code = "upload_path_rejected"             // an upload path broke a rule; the message names it
	ErrTabNotFound           Code = "tab_not_found"                    // no such tab (closed, or from an earlier browser session)
	ErrNotOwned              Code = "not_owned"                        // the tab or group is not this caller's
	ErrInvalidArgument       Code = "invalid_argument"                 // a parameter is wrong; the message names it
	ErrIncognitoNotAllowed   Code = "incognito_not_allowed"            // the extension may not run in incognito windows
	ErrBlockedByPolicy       Code = "blocked_by_policy"                // a site rule (or a search consent wall) stops it
	ErrVersionMismatch       Code = "version_mismatch"                 // the extension and the binary are of different versions
	ErrPausedByUser          Code = "paused_by_user"                   // the user paused the bridge
	ErrDeclinedByUser        Code = "declined_by_user"                 // the user said no
	ErrHandoffInProgress     Code = "handoff_in_progress"              // the tab is handed to the user for now
	ErrEvaluateDisabled      Code = "evaluate_disabled"                // evaluate is off until the user runs browser-bridge policy evaluate on
	ErrEvaluationFailed      Code = "evaluation_failed"                // the expression threw, rejected or did not parse; the message is the engine's
	ErrInternal              Code = "internal_error"                   // a fault of the bridge itself; the message says what to report
	ErrUnknownVerb           Code = "unknown_verb"                     // the extension does not know the command
	ErrMethodNotAllowed      Code = "method_not_allowed"               // a CDP method the bridge refuses to programs
)

// Error is an error the bridge reports: a stable Code and a sentence that
// says what to do. Every method of Client returns one for a failure of the
// call itself; a failure to reach the daemon, or a cancelled context,
// comes back as it is (context.Canceled, context.DeadlineExceeded).
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

// Error is the code and the message.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Is reports whether target is e's Code (or an *Error with e's Code).
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case *Error:
		return t != nil && t.Code == e.Code
	}
	return false
}

// fromInternal turns the daemon's error into an *Error; any other error
// stays as it is.
func fromInternal(err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return &Error{Code: Code(pe.Code), Message: pe.Message}
	}
	return err
}

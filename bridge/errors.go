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

// The stable codes (SPEC §2 and the bridge's own).
const (
	ErrExtensionNotConnected Code = protocol.CodeExtensionNotConnected // no extension connected: install it and keep Chrome open
	ErrBridgeDisabled        Code = protocol.CodeBridgeDisabled        // turned off by `browser-bridge disable` or BROWSER_BRIDGE_DISABLE=1
	ErrTimeout               Code = protocol.CodeTimeout               // the call's deadline passed; the message names what it waited for
	ErrElementNotFound       Code = protocol.CodeElementNotFound       // no element matches the locator
	ErrProtectedPage         Code = protocol.CodeProtectedPage         // chrome://, the Web Store, pages the extension may not touch
	ErrFullPageUnavailable   Code = protocol.CodeFullPageUnavailable   // the page cannot be captured whole
	ErrUploadPathRejected    Code = protocol.CodeUploadPathRejected    // an upload path broke a rule; the message names it
	ErrTabNotFound           Code = protocol.CodeTabNotFound           // no such tab (closed, or from an earlier browser session)
	ErrNotOwned              Code = protocol.CodeNotOwned              // the tab or group is not this caller's
	ErrInvalidArgument       Code = protocol.CodeInvalidArgument       // a parameter is wrong; the message names it
	ErrIncognitoNotAllowed   Code = protocol.CodeIncognitoNotAllowed   // the extension may not run in incognito windows
	ErrBlockedByPolicy       Code = protocol.CodeBlockedByPolicy       // a site rule (or a search consent wall) stops it
	ErrVersionMismatch       Code = protocol.CodeVersionMismatch       // the extension and the binary are of different versions
	ErrPausedByUser          Code = protocol.CodePausedByUser          // the user paused the bridge
	ErrDeclinedByUser        Code = protocol.CodeDeclinedByUser        // the user said no
	ErrHandoffInProgress     Code = protocol.CodeHandoffInProgress     // the tab is handed to the user for now
	ErrInternal              Code = protocol.CodeInternal              // a fault of the bridge itself; the message says what to report
	ErrUnknownVerb           Code = protocol.CodeUnknownVerb           // the extension does not know the command
	ErrMethodNotAllowed      Code = protocol.CodeMethodNotAllowed      // a CDP method the bridge refuses to programs
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

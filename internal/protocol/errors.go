package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Stable error codes. Callers (and models) branch on these; never rename one.
const (
	CodeExtensionNotConnected = "extension_not_connected"
	CodeBridgeDisabled        = "bridge_disabled"
	CodeTimeout               = "timeout"
	CodeElementNotFound       = "element_not_found"
	// CodeElementObscured: the target would not receive the input at the
	// point acted on (something covers it); nothing was pressed.
	CodeElementObscured     = "element_obscured"
	CodeProtectedPage       = "protected_page"
	CodeFullPageUnavailable = "full_page_screenshot_unavailable"
	CodeUploadPathRejected  = "upload_path_rejected"
	CodeTabNotFound         = "tab_not_found"
	CodeNotOwned            = "not_owned"
	CodeInvalidArgument     = "invalid_argument"
	CodeIncognitoNotAllowed = "incognito_not_allowed"
	CodeBlockedByPolicy     = "blocked_by_policy"
	CodeVersionMismatch     = "version_mismatch"
	CodePausedByUser        = "paused_by_user"
	CodeDeclinedByUser      = "declined_by_user"
	CodeHandoffInProgress   = "handoff_in_progress"
	// CodeEvaluateDisabled: evaluate is off until the user turns it on
	// (browser-bridge policy evaluate on); CodeEvaluationFailed: the
	// expression threw, rejected or did not parse.
	CodeEvaluateDisabled = "evaluate_disabled"
	CodeEvaluationFailed = "evaluation_failed"
	// CodeInternal is for faults of the bridge itself; its message says what
	// to report.
	CodeInternal = "internal_error"
	// CodeUnknownVerb is the extension's answer to a command type outside its
	// allow-list; it means the binary and extension are out of step.
	CodeUnknownVerb = "unknown_verb"
	// CodeMethodNotAllowed is the extension's refusal of a CDP method
	// outside the allow-list of what the actions send (the actions' own
	// door) or on the deny-list of a program's door.
	CodeMethodNotAllowed = "method_not_allowed"
)

// Error is an error with a stable code and a sentence that says what to do.
// On the wire it is {"code": ..., "message": ...}; a bare string (as Hive's
// extension sends) decodes with code internal_error.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// format and args are what Errorf made Message of, kept when an
	// argument is a Tab, so that ShowTabs can name the tab otherwise.
	format string
	args   []any
}

// Error implements error; it is the message.
func (e *Error) Error() string { return e.Message }

// Tab is a tab ID that an error's message names: pass it to Errorf as
// Tab(id). The error keeps it as a value beside the sentence, so the
// daemon can name the tab as its caller knows it (ShowTabs) without
// reading the sentence back.
type Tab int

// Errorf returns an *Error with the given code.
func Errorf(code, format string, args ...any) *Error {
	e := &Error{Code: code, Message: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if _, ok := a.(Tab); ok {
			e.format, e.args = format, args
			break
		}
	}
	return e
}

// Tabs lists the tabs the error's message names (its Tab arguments).
func (e *Error) Tabs() []int {
	var out []int
	for _, a := range e.args {
		if t, ok := a.(Tab); ok {
			out = append(out, int(t))
		}
	}
	return out
}

// ShowTabs is the error with every tab its message names shown as show
// says (the daemon gives a tab the slot of its browser); an error that
// names no tab is returned as it is.
func (e *Error) ShowTabs(show func(int) int) *Error {
	if e.format == "" {
		return e
	}
	args := make([]any, len(e.args))
	for i, a := range e.args {
		if t, ok := a.(Tab); ok && t > 0 {
			a = Tab(show(int(t)))
		}
		args[i] = a
	}
	return Errorf(e.Code, e.format, args...)
}

// UnmarshalJSON accepts an object or a plain string. An object may list
// in "tabs" the tab IDs its message names, each written "tab N" (the
// extension's errors do, extension/protocol.js BridgeError): those become
// the error's Tab values, so ShowTabs names them as the caller knows them.
// The list is not sent on (Error marshals its code and message only).
func (e *Error) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*e = Error{Code: CodeInternal, Message: s}
		return nil
	}
	var p struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Tabs    []int  `json:"tabs"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*e = Error{Code: p.Code, Message: p.Message}
	if e.Code == "" {
		e.Code = CodeInternal
	}
	e.format, e.args = namedTabs(p.Message, p.Tabs)
	return nil
}

// namedTabs is the format and Tab arguments that give msg back, with
// every "tab N" for an N of tabs (a whole number, not the start of a
// longer one) an argument; "" when msg names none of them. The rest of
// msg is kept as it is (a % is escaped).
func namedTabs(msg string, tabs []int) (string, []any) {
	if len(tabs) == 0 || len(tabs) > 16 {
		return "", nil
	}
	var f strings.Builder
	var args []any
	for rest := msg; rest != ""; {
		i := strings.Index(rest, "tab ")
		if i < 0 {
			f.WriteString(strings.ReplaceAll(rest, "%", "%%"))
			break
		}
		f.WriteString(strings.ReplaceAll(rest[:i+4], "%", "%%"))
		rest = rest[i+4:]
		n := 0
		for n < len(rest) && n < 19 && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		id, err := strconv.Atoi(rest[:n])
		// Only a number written as the extension writes one ("tab 07" is
		// not tab 7: shown again, it would lose its zero).
		if n == 0 || err != nil || (n < len(rest) && rest[n] >= '0' && rest[n] <= '9') || strconv.Itoa(id) != rest[:n] || !slices.Contains(tabs, id) {
			continue
		}
		args = append(args, Tab(id))
		fmt.Fprintf(&f, "%%[%d]v", len(args))
		rest = rest[n:]
	}
	if len(args) == 0 {
		return "", nil
	}
	return f.String(), args
}

// AsError turns any error into an *Error, keeping the code of one found in
// its chain and using CodeInternal otherwise.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// CodeOf returns the code of err, or "" when it has none.
func CodeOf(err error) string {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The exec family (docs/design.md#actions): running a developer's expression in the
// page, filling a form in one call, and finding text in the rendered page.
func init() {
	declare(
		Spec{
			Name:        "evaluate",
			After:       "network",
			Result:      EvaluateResult{},
			Summary:     "run JavaScript in the page: its value as JSON; off unless the user allows it.",
			Doc:         "runs an expression in the page's own context and returns its value as JSON (a promise is awaited). It is off until the user runs `browser-bridge policy evaluate on` (ErrEvaluateDisabled); an expression that throws is ErrEvaluationFailed.",
			Kind:        KindInput,
			Params:      []string{"expression", "frameId", "maxChars", "dialog"},
			Needs:       [][]string{{"expression"}},
			ChangesPage: true,
		},
		Spec{
			Name:        "fill",
			After:       "type",
			Result:      FillResult{},
			Summary:     "set several fields in order.",
			Doc:         "sets several fields in one call, in order, as Type, Select and Check do; the first failure stops it, and its error names the field.",
			Kind:        KindInput,
			Params:      []string{"fields", "dialog"},
			Needs:       [][]string{{"fields"}},
			ChangesPage: true,
		},
		Spec{
			Name:    "find",
			After:   "wait",
			Result:  FindResult{},
			Summary: "find query on the page: matches with ref.",
			Doc:     "finds text on the visible page; each match's Ref is a locator.",
			Kind:    KindRead,
			Params:  []string{"query", "dialog"},
			Needs:   [][]string{{"query"}},
		},
	)
}

// ExecParams are the exec family's own parameters; Input embeds them.
type ExecParams struct {
	Expression string `json:"expression,omitempty" jsonschema:"JavaScript to evaluate."`
	// Fields are fill's, each a FillField (see FillFields). The schema
	// gives their items no properties of their own: the description says
	// them in a line, where the locator's thirteen would cost the tool
	// list a kilobyte.
	Fields []json.RawMessage `json:"fields,omitempty" jsonschema:"Each: a locator plus value, option(s) or checked."`
}

// MaxFillFields bounds one fill: a form, not a spreadsheet.
const MaxFillFields = 100

// FillFields decodes and checks fill's fields, and says what each sets
// (FillField.Kind), or which one is wrong and how.
func (p ExecParams) FillFields() ([]FillField, []string, error) {
	switch n := len(p.Fields); {
	case n == 0:
		return nil, nil, invalid(`fill needs fields: a list such as [{"label": "Email", "value": "a@example.com"}, {"selector": "#country", "option": "FR"}, {"label": "Terms", "checked": true}]`)
	case n > MaxFillFields:
		return nil, nil, invalid("fill takes at most %d fields at once; split the form into several calls", MaxFillFields)
	}
	out := make([]FillField, len(p.Fields))
	kinds := make([]string, len(p.Fields))
	for i, raw := range p.Fields {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out[i]); err != nil {
			return nil, nil, invalid("fields[%d] is not a field: %s (an object such as {\"label\": \"Email\", \"value\": \"a@example.com\"})", i, describeJSONError(err))
		}
		k, err := out[i].Kind(i)
		if err != nil {
			return nil, nil, err
		}
		kinds[i] = k
	}
	return out, kinds, nil
}

// checkExec checks the exec family's parameters as Parse checks the rest:
// an expression of only spaces, and fill's fields.
func (in *Input) checkExec() error {
	if in.Expression != "" && strings.TrimSpace(in.Expression) == "" {
		return invalid("expression is blank; give the JavaScript to evaluate, e.g. document.title")
	}
	if in.Fields != nil {
		_, _, err := in.FillFields()
		return err
	}
	return nil
}

// FillField is one field of fill: an element locator and what to set,
// exactly one of Value (typed as type types it), Option or Options (as
// select), or Checked (as check). A point is no field: the schema leaves
// x, y and coordinates out and fill refuses them.
type FillField struct {
	Locator `omit:"x,y,coordinates"`
	Value   *string  `json:"value,omitempty"`
	Option  string   `json:"option,omitempty"`
	Options []string `json:"options,omitempty"`
	Checked *bool    `json:"checked,omitempty"`
}

// Describe names the field in messages: its index and locator.
func (f FillField) Describe(i int) string {
	return fmt.Sprintf("field %d (%s)", i, f.Locator.Describe())
}

// Kind says what the field sets: "type", "select" or "check" (the action
// whose steps set it), or an invalid_argument saying what is wrong.
func (f FillField) Kind(i int) (string, error) {
	var kinds []string
	if f.Value != nil {
		kinds = append(kinds, "type")
	}
	if f.Option != "" || len(f.Options) > 0 {
		kinds = append(kinds, "select")
	}
	if f.Checked != nil {
		kinds = append(kinds, "check")
	}
	switch {
	case !f.Locator.Present():
		return "", invalid("fields[%d] needs a locator: selector, text, role (+ name), label, placeholder or ref", i)
	case f.IsPoint() || f.Coordinates != "":
		return "", invalid("fields[%d] is a point; fill sets elements: give selector, text, role (+ name), label, placeholder or ref", i)
	case len(kinds) == 0:
		return "", invalid("%s sets nothing: give value (text to type), option/options (a <select>) or checked", f.Describe(i))
	case len(kinds) > 1:
		return "", invalid("%s gives more than one thing to set: one of value, option/options or checked", f.Describe(i))
	}
	if err := f.Locator.Check(); err != nil {
		return "", fmt.Errorf("fields[%d]: %w", i, err)
	}
	if err := checkFrameID(fmt.Sprintf("fields[%d].frameId", i), f.FrameID); err != nil {
		return "", err
	}
	return kinds[0], nil
}

// EvaluateResult is the value of an expression, as JSON: Value when it
// fits maxChars, else ValueCut, its first maxChars characters. Type is
// the value's JavaScript type (undefined has no value).
type EvaluateResult struct {
	Page
	FrameID    int             `json:"frameId,omitempty"`
	Type       string          `json:"type"`
	Value      json.RawMessage `json:"value,omitempty" content:"page"`
	ValueCut   string          `json:"valueCut,omitempty" content:"page"`
	TotalChars int             `json:"totalChars"`
	Outcome
}

// FillResult is the tab after a fill and each field's outcome, in order.
type FillResult struct {
	Page
	Fields []FilledField `json:"fields"`
	Outcome
}

// FilledField is what one field of fill became: the element set, and the
// value read back (Value, or ValueHidden for a password), the options
// selected, or the checked state.
type FilledField struct {
	Index       int      `json:"index"`
	Set         string   `json:"set"` // typed, selected or checked
	Element     *Element `json:"element,omitempty"`
	Value       *string  `json:"value,omitempty"`
	ValueHidden bool     `json:"valueHidden,omitempty"`
	Selected    []string `json:"selected,omitempty"`
	Checked     *bool    `json:"checked,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
}

// FindResult is where a text is on the rendered page: Count matches in
// all, Matches the first of them.
type FindResult struct {
	Page
	Matches []Found `json:"matches" content:"page"`
	Count   int     `json:"count"`
	Outcome
}

// Found is one match of find: the text as the page shows it, the words
// around it, a ref (a locator for click, scroll, …) of the element that
// holds it, its frame and its box in the top frame's viewport.
type Found struct {
	Text    string `json:"text"`
	Context string `json:"context"`
	Ref     string `json:"ref"`
	FrameID int    `json:"frameId,omitempty"`
	Rect    Rect   `json:"rect"`
}

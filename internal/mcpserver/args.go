package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	contract "github.com/browser-bridge/browser-bridge/internal/tool"
)

// decodeArgs turns a tool call's arguments into a checked input and the
// raw JSON to send to the daemon. action is the tool's own action in split
// mode ("" for the single tool); meta is the request's _meta, whose runId
// counts when the arguments have none. Every failure is a coded
// invalid_argument error: the arguments come from a model, and the model
// learns from the sentence.
func decodeArgs(raw json.RawMessage, action string, meta map[string]any) (*contract.Input, json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		_, _, err := contract.Parse(raw) // says what is wrong with it
		if err == nil {
			err = invalid("the arguments must be a JSON object")
		}
		return nil, nil, err
	}
	given := present(obj)
	changed := false
	if action != "" {
		if a, ok := given["action"]; ok {
			var s string
			if json.Unmarshal(obj[a], &s) != nil || s != action {
				return nil, nil, wrongTool(action, s)
			}
		}
		obj["action"], _ = json.Marshal(action)
		changed = true
	}
	if _, ok := given["runId"]; !ok {
		if id := metaRunID(meta); id != "" {
			obj["runId"], _ = json.Marshal(id)
			changed = true
		}
	}
	if changed {
		raw, _ = json.Marshal(obj)
	}
	// Parse also refuses parameters of other actions and missing ones.
	in, _, err := contract.Parse(raw)
	if err != nil {
		return nil, nil, err
	}
	return in, raw, nil
}

// budgetReserve is what a result's structured content may take of its
// maxChars budget: the daemon cuts the page to the rest, so that the
// text and the structured content together keep to the budget.
const budgetReserve = 300

// reserveBudget asks the daemon, for an action with a maxChars budget,
// for budgetReserve characters less than the call's budget (never less
// than the smallest budget).
func reserveBudget(in *contract.Input, raw json.RawMessage) json.RawMessage {
	spec, ok := contract.Lookup(in.Action)
	if !ok || !slices.Contains(spec.Params, "maxChars") {
		return raw
	}
	budget := in.MaxChars
	if budget == 0 {
		budget = contract.DefaultMaxChars
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return raw
	}
	if k, ok := present(obj)["maxChars"]; ok {
		delete(obj, k) // under whatever case it came
	}
	obj["maxChars"], _ = json.Marshal(max(contract.MinMaxChars, budget-budgetReserve))
	out, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return out
}

// wrongTool says that a split tool's action is its name.
func wrongTool(action, asked string) error {
	msg := SplitToolName(action) + " takes no action parameter: its name is its action"
	if asked != "" {
		msg += "; for " + asked + " call " + SplitToolName(asked)
	}
	return invalid("%s", msg)
}

// present maps the canonical name of each parameter given (not null) to
// the key it was given under. encoding/json matches names without regard
// to case, so these checks do too.
func present(obj map[string]json.RawMessage) map[string]string {
	out := map[string]string{}
	for k, v := range obj {
		if string(bytes.TrimSpace(v)) == "null" {
			continue
		}
		out[canonical(k)] = k
	}
	return out
}

func canonical(k string) string {
	if _, ok := contract.FieldNamed(k); ok {
		return k
	}
	for _, f := range contract.Fields() {
		if strings.EqualFold(f.Name, k) {
			return f.Name
		}
	}
	return k
}

// metaRunID reads runId from a request's _meta: a string, or a whole
// number some clients send instead.
func metaRunID(meta map[string]any) string {
	switch v := meta["runId"].(type) {
	case string:
		return v
	case float64:
		if v == float64(int64(v)) {
			return fmt.Sprint(int64(v))
		}
	case json.Number:
		return v.String()
	}
	return ""
}

func invalid(format string, args ...any) error {
	return protocol.Errorf(protocol.CodeInvalidArgument, format, args...)
}

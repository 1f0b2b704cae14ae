package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/actions"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// decodeArgs turns a tool call's arguments into a checked input and the
// raw JSON to send to the daemon. action is the tool's own action in split
// mode ("" for the single tool); meta is the request's _meta, whose runId
// counts when the arguments have none. Every failure is a coded
// invalid_argument error: the arguments come from a model, and the model
// learns from the sentence.
func decodeArgs(raw json.RawMessage, action string, meta map[string]any) (*actions.Input, json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		_, err := actions.Parse(raw) // says what is wrong with it
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
	in, err := actions.Parse(raw)
	if err != nil {
		return nil, nil, err
	}
	if err := checkParams(in.Action, given); err != nil {
		return nil, nil, err
	}
	return in, raw, nil
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
	if _, ok := params[k]; ok {
		return k
	}
	for name := range params {
		if strings.EqualFold(name, k) {
			return name
		}
	}
	return k
}

// checkParams checks that every parameter given belongs to the action and
// that the action has what it needs.
func checkParams(action string, given map[string]string) error {
	names := make([]string, 0, len(given))
	for n := range given {
		names = append(names, n)
	}
	slices.Sort(names) // the same input always gets the same sentence
	for _, n := range names {
		if !applies(n, action) {
			return invalid("parameter %q does not apply to %s; it is for %s", given[n], action, strings.Join(params[n].actions, ", "))
		}
	}
	for _, group := range actionDocs[action].need {
		if !slices.ContainsFunc(group, func(n string) bool { _, ok := given[n]; return ok }) {
			return invalid("%s needs %s", action, alternatives(group))
		}
	}
	return nil
}

// alternatives says "url", "option or options", or "selector, text, …
// or x+y".
func alternatives(group []string) string {
	words := make([]string, len(group))
	for i, n := range group {
		words[i] = n
		if n == "x" {
			words[i] = "x+y"
		} else if n == "role" {
			words[i] = "role+name"
		}
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
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

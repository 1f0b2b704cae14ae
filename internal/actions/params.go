package actions

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// Which parameters each action takes, once, for every front end: Parse
// refuses a parameter given to an action it does not apply to, and one
// that misses what it needs; the MCP schema and the CLI read the same
// table.

// LocatorActions take a locator (SPEC §2).
var LocatorActions = []string{"click", "type", "press", "select", "check", "upload", "scroll", "wait"}

// LocatorParams are the ways to name one element; a call gives one.
var LocatorParams = []string{"selector", "text", "role", "label", "placeholder", "ref", "x"}

// paramActions maps a parameter to the actions it applies to; a parameter
// that is not listed applies to every action.
var paramActions = map[string][]string{
	"url":       {"open", "extract"},
	"target":    {"open", "extract"},
	"incognito": {"open", "extract", "search"},
	"query":     {"search"},

	"selector": LocatorActions, "text": LocatorActions, "role": LocatorActions, "name": LocatorActions,
	"label": LocatorActions, "placeholder": LocatorActions, "ref": LocatorActions,
	"x": LocatorActions, "y": LocatorActions, "coordinates": LocatorActions,
	"nth": LocatorActions, "exact": LocatorActions,
	"frameId": LocatorActions,

	"waitFor":     {"extract"},
	"urlContains": {"wait"},
	"load":        {"wait"},
	"include":     {"extract"},
	"maxChars":    {"extract", "inspect"},
	"offset":      {"extract", "inspect"},

	"inputMode":  {"click", "type", "press"},
	"dialog":     {"open", "extract", "inspect", "wait", "screenshot", "click", "type", "press", "select", "check", "upload", "scroll"},
	"button":     {"click"},
	"clickCount": {"click"},
	"value":      {"type"},
	"clear":      {"type"},
	"keys":       {"press"},
	"option":     {"select"},
	"options":    {"select"},
	"checked":    {"check"},
	"paths":      {"upload"},
	"to":         {"scroll"},
	"deltaX":     {"scroll"},
	"deltaY":     {"scroll"},

	"mode": {"screenshot"},
	"clip": {"screenshot"},

	"closeWorkspace": {"close"},
}

// actionNeeds lists, per action, groups of parameters: a call must give at
// least one parameter of each group.
var actionNeeds = map[string][][]string{
	"search": {{"query"}},
	"open":   {{"url"}},
	"click":  {LocatorParams},
	"type":   {LocatorParams, {"value", "clear"}},
	"press":  {{"keys"}},
	"select": {LocatorParams, {"option", "options"}},
	"check":  {LocatorParams},
	"upload": {LocatorParams, {"paths"}},
	"close":  {{"tabId", "closeWorkspace"}},
}

// AppliesTo returns the actions a parameter applies to (nil: all).
func AppliesTo(param string) []string { return paramActions[param] }

// Applies reports whether param belongs to action.
func Applies(param, action string) bool {
	as, ok := paramActions[param]
	return !ok || slices.Contains(as, action)
}

// Needs returns the groups of parameters action needs one of each.
func Needs(action string) [][]string { return actionNeeds[action] }

// paramNames are the JSON names of Input's fields.
var paramNames = func() []string {
	var out []string
	t := reflect.TypeOf(Input{})
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}()

// givenParams returns the canonical names of the parameters present (not
// null) in a JSON object. encoding/json matches names without regard to
// case, so this does too.
func givenParams(raw []byte) map[string]bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	out := map[string]bool{}
	for k, v := range obj {
		if string(bytes.TrimSpace(v)) == "null" {
			continue
		}
		for _, n := range paramNames {
			if strings.EqualFold(n, k) {
				out[n] = true
				break
			}
		}
	}
	return out
}

// checkParams refuses parameters of other actions and missing needs.
func checkParams(action string, given map[string]bool) error {
	names := make([]string, 0, len(given))
	for n := range given {
		names = append(names, n)
	}
	slices.Sort(names) // the same input always gets the same sentence
	for _, n := range names {
		if !Applies(n, action) {
			return invalid("parameter %q does not apply to %s; it is for %s", n, action, strings.Join(paramActions[n], ", "))
		}
	}
	for _, group := range actionNeeds[action] {
		if !slices.ContainsFunc(group, func(n string) bool { return given[n] }) {
			if slices.Equal(group, LocatorParams) {
				return invalid("%s needs a locator: %s", action, Alternatives(group))
			}
			return invalid("%s needs %s", action, Alternatives(group))
		}
	}
	return nil
}

// Alternatives says "url", "option or options", or "selector, text, … or
// x+y".
func Alternatives(group []string) string {
	words := make([]string, len(group))
	for i, n := range group {
		switch n {
		case "x":
			words[i] = "x+y"
		case "role":
			words[i] = "role+name"
		default:
			words[i] = n
		}
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

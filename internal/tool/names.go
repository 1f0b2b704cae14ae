package tool

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// exactNames refuses a parameter named but for its case ("URL" for
// "url"), at the top level and inside object parameters (waitFor, clip,
// to). encoding/json matches names without regard to case, so without
// this such a key was quietly taken; it is refused the way an
// unknown key is, naming the parameter it is close to.
func exactNames(raw []byte, t reflect.Type, path string) error {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil // not an object: the decoder says what is wrong
	}
	fields := FieldsOf(t)
	for k, v := range obj {
		var match *Field
		for i, f := range fields {
			if f.Name == k {
				match = &fields[i]
				break
			}
			if strings.EqualFold(f.Name, k) {
				return invalid("unknown parameter %q; did you mean %q? Parameter names are case-sensitive", path+k, path+f.Name)
			}
		}
		if match == nil {
			continue // unknown: the decoder refuses it
		}
		elem := match.Elem()
		for elem.Kind() == reflect.Slice || elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		if elem == reflect.TypeFor[To]() {
			elem = reflect.TypeFor[Locator]() // an object to is a locator
		}
		if elem.Kind() == reflect.Struct && bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")) {
			if err := exactNames(v, elem, path+k+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

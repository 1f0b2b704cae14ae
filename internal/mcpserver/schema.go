package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/actions"
)

// schema is the subset of JSON Schema the tool needs. It keeps properties
// in the order of actions.Input, which is the order a model should read
// them in (common parameters first); a map would sort them.
type schema struct {
	Type                 string   `json:"type,omitempty"`
	Description          string   `json:"description,omitempty"`
	Enum                 []string `json:"enum,omitempty"`
	Items                *schema  `json:"items,omitempty"`
	Properties           props    `json:"properties,omitempty"`
	Required             []string `json:"required,omitempty"`
	AdditionalProperties *bool    `json:"additionalProperties,omitempty"`
}

// props is an ordered set of properties.
type props []prop

type prop struct {
	name string
	s    *schema
}

// MarshalJSON writes the properties as one object, in order.
func (p props) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, pr := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(pr.name)
		b.Write(name)
		b.WriteByte(':')
		v, err := json.Marshal(pr.s)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// field is one top-level parameter of actions.Input.
type field struct {
	name string
	typ  reflect.Type
}

// inputFields lists actions.Input's parameters in declaration order.
func inputFields() []field {
	return structFields(reflect.TypeFor[actions.Input]())
}

func structFields(t reflect.Type) []field {
	var out []field
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, field{name, f.Type})
	}
	return out
}

// inputSchema is the schema of the tool input for one action, or for every
// action when action is "" (the single tool, whose action is a parameter).
func inputSchema(action string) *schema {
	s := &schema{Type: "object", AdditionalProperties: new(false)}
	for _, f := range inputFields() {
		p := params[f.name]
		switch {
		case f.name == "action":
			if action != "" {
				continue // the tool's name says it
			}
			ps := &schema{Type: "string", Description: p.desc, Enum: actions.Names()}
			s.Properties = append(s.Properties, prop{f.name, ps})
			s.Required = append(s.Required, f.name)
			continue
		case action != "" && !actions.Applies(f.name, action):
			continue
		}
		s.Properties = append(s.Properties, prop{f.name, typeSchema(f.typ, f.name, p)})
	}
	if action != "" {
		for _, group := range actions.Needs(action) {
			if len(group) == 1 {
				s.Required = append(s.Required, group[0])
			}
		}
	}
	return s
}

// typeSchema maps a Go type to JSON Schema. path names the parameter, so
// nested fields find their descriptions.
func typeSchema(t reflect.Type, path string, p param) *schema {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s := &schema{Description: p.desc}
	switch t.Kind() {
	case reflect.String:
		s.Type, s.Enum = "string", p.enum
	case reflect.Bool:
		s.Type = "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s.Type = "integer"
	case reflect.Float32, reflect.Float64:
		s.Type = "number"
	case reflect.Slice, reflect.Array:
		s.Type = "array"
		s.Items = typeSchema(t.Elem(), path+"[]", param{enum: p.enum})
	case reflect.Struct:
		s.Type, s.AdditionalProperties = "object", new(false)
		for _, f := range structFields(t) {
			// A nested field is described only by its own "parent.child"
			// entry; the parent's description covers the others, which
			// keeps the definitions small.
			s.Properties = append(s.Properties, prop{f.name, typeSchema(f.typ, path+"."+f.name, params[path+"."+f.name])})
		}
	case reflect.Map:
		s.Type = "object"
	case reflect.Interface:
		// any JSON value
	default:
		panic(fmt.Sprintf("mcpserver: parameter %s has Go type %s, which has no JSON Schema mapping", path, t))
	}
	return s
}

package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	contract "github.com/browser-bridge/browser-bridge/internal/tool"
)

// schema is the subset of JSON Schema the tool needs. It keeps properties
// in the order of the contract's Input, which is the order a model should read
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

// inputSchema is the schema of the tool input for one action, or for every
// action when action is "" (the single tool, whose action is a parameter).
// Names, types, descriptions and enums all come from the contract.
func inputSchema(action string) *schema {
	s := &schema{Type: "object", AdditionalProperties: new(false)}
	spec, _ := contract.Lookup(action)
	for _, f := range contract.Fields() {
		switch {
		case f.Name == "action":
			if action != "" {
				continue // the tool's name says it
			}
			ps := &schema{Type: "string", Description: f.Doc, Enum: contract.Names()}
			s.Properties = append(s.Properties, prop{f.Name, ps})
			s.Required = append(s.Required, f.Name)
			continue
		case spec != nil && !spec.Takes(f.Name):
			continue
		}
		s.Properties = append(s.Properties, prop{f.Name, typeSchema(f.Type, f.Name, f.Doc, f.Enum)})
	}
	if spec != nil {
		for _, group := range spec.Needs {
			if len(group) == 1 {
				s.Required = append(s.Required, group[0])
			}
		}
	}
	return s
}

// typeSchema maps a Go type to JSON Schema. path names the parameter, for
// the panic of a type without a mapping.
func typeSchema(t reflect.Type, path, desc string, enum []string) *schema {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s := &schema{Description: desc}
	if t == reflect.TypeFor[json.RawMessage]() {
		// A JSON object the contract decodes itself (fill's fields): an
		// object, named by the parameter's description. As a []byte it
		// would read as a list of integers, which a client that checks
		// its input against the schema would then refuse to send.
		s.Type = "object"
		return s
	}
	if t == reflect.TypeFor[contract.To]() {
		// scroll's "top"/"bottom" or drag's drop-target object: any JSON
		// value, as the description says.
		return s
	}
	switch t.Kind() {
	case reflect.String:
		s.Type, s.Enum = "string", enum
	case reflect.Bool:
		s.Type = "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s.Type = "integer"
	case reflect.Float32, reflect.Float64:
		s.Type = "number"
	case reflect.Slice, reflect.Array:
		s.Type = "array"
		s.Items = typeSchema(t.Elem(), path+"[]", "", enum)
	case reflect.Struct:
		s.Type, s.AdditionalProperties = "object", new(false)
		for _, f := range contract.FieldsOf(t) {
			// A nested field is not described: the parent's description
			// names them, which keeps the definitions small.
			s.Properties = append(s.Properties, prop{f.Name, typeSchema(f.Type, path+"."+f.Name, "", nil)})
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

package tool

import (
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Field is one parameter of Input (or of an object parameter), as the
// MCP schema, the CLI flags and the parameter checks see it.
type Field struct {
	// Name is the JSON name.
	Name string
	// Go is the Go name of the struct field.
	Go string
	// Type is the Go type; a pointer means "optional, and zero is a value".
	Type reflect.Type
	// Doc is the description (the jsonschema tag).
	Doc string
	// Enum lists the accepted values of a string or of a list's items.
	Enum []string
	// Page marks a result's field that holds the page's own words (the
	// tag content:"page"): the MCP server shows it fenced as the page's.
	Page bool
}

// Elem is the field's type without a pointer.
func (f Field) Elem() reflect.Type {
	if f.Type.Kind() == reflect.Pointer {
		return f.Type.Elem()
	}
	return f.Type
}

// Fields lists the parameters of Input in declaration order, the fields
// of embedded structs (the Locator) in place.
func Fields() []Field { return FieldsOf(reflect.TypeFor[Input]()) }

// FieldsOf lists the JSON fields of a struct type the way encoding/json
// sees them: embedded structs are flattened (less the fields their omit
// tag names), "-" and unexported fields left out. It is the one walker of
// the contract's types.
//
// Each type is walked once: every call's parameter check asks for the
// fields of Input and its object parameters, and walking them each time
// cost 0.9 ms and 127 KB of garbage a call, the daemon's largest source
// of garbage in the soak once the replay store stopped rereading its
// index (BenchmarkParse: 0.09 ms, 7 KB now). The list is shared:
// callers must not change it.
func FieldsOf(t reflect.Type) []Field {
	if f, ok := walked.Load(t); ok {
		return f.([]Field)
	}
	f, _ := walked.LoadOrStore(t, walkFields(t))
	return f.([]Field)
}

// walked holds FieldsOf's lists by type.
var walked sync.Map // reflect.Type → []Field

func walkFields(t reflect.Type) []Field {
	var out []Field
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			omit := strings.Split(f.Tag.Get("omit"), ",")
			for _, sub := range walkFields(f.Type) {
				if !slices.Contains(omit, sub.Name) {
					out = append(out, sub)
				}
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		var enum []string
		if e := f.Tag.Get("enum"); e != "" {
			enum = strings.Split(e, ",")
		}
		out = append(out, Field{Name: name, Go: f.Name, Type: f.Type, Doc: f.Tag.Get("jsonschema"), Enum: enum, Page: f.Tag.Get("content") == "page"})
	}
	return out
}

var (
	fieldsOnce   sync.Once
	fieldsByName map[string]Field
)

// fieldIndex maps Input's JSON names to their fields.
func fieldIndex() map[string]Field {
	fieldsOnce.Do(func() {
		fieldsByName = map[string]Field{}
		for _, f := range Fields() {
			fieldsByName[f.Name] = f
		}
	})
	return fieldsByName
}

// FieldNamed returns Input's parameter of that JSON name.
func FieldNamed(name string) (Field, bool) {
	f, ok := fieldIndex()[name]
	return f, ok
}

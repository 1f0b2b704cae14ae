package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// writeJSON copies the JSON value of r to buf, compacted, with the value
// of every secret-named member (a scalar, or a whole object or array)
// replaced by "[redacted]". It reports false on malformed input.
func writeJSON(buf *bytes.Buffer, r io.Reader) bool {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	// stack holds, per open object or array, whether it is an object,
	// and for objects whether the next token is a member's name.
	var stack []level
	secretNext := false // the value about to come belongs to a secret name
	skip := 0           // depth of a secret value being skipped
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return len(stack) == 0
		}
		if err != nil {
			return false
		}
		if skip > 0 {
			switch tok {
			case json.Delim('{'), json.Delim('['):
				skip++
			case json.Delim('}'), json.Delim(']'):
				skip--
			}
			if skip == 0 {
				afterValue(&stack)
			}
			continue
		}
		// The separator before this token.
		if n := len(stack); n > 0 && tok != json.Delim('}') && tok != json.Delim(']') {
			top := &stack[n-1]
			if top.object && !top.wantKey {
				buf.WriteByte(':')
			} else if !top.first {
				buf.WriteByte(',')
			}
			top.first = false
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				writeString(buf, k)
				stack[n-1].wantKey = false
				secretNext = SecretName(k)
				continue
			}
		}
		if secretNext {
			secretNext = false
			writeString(buf, Mark)
			if tok == json.Delim('{') || tok == json.Delim('[') {
				skip = 1
				continue
			}
			afterValue(&stack)
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			buf.WriteByte(byte(t))
			switch t {
			case '{':
				stack = append(stack, level{object: true, wantKey: true, first: true})
			case '[':
				stack = append(stack, level{first: true})
			case '}', ']':
				stack = stack[:len(stack)-1]
				afterValue(&stack)
			}
		case string:
			writeString(buf, t)
			afterValue(&stack)
		case json.Number:
			buf.WriteString(string(t))
			afterValue(&stack)
		case bool:
			buf.WriteString(strconv.FormatBool(t))
			afterValue(&stack)
		case nil:
			buf.WriteString("null")
			afterValue(&stack)
		}
	}
}

// afterValue notes that a value of the innermost object or array ended:
// an object next expects a name.
func afterValue(stack *[]level) {
	if n := len(*stack); n > 0 && (*stack)[n-1].object {
		(*stack)[n-1].wantKey = true
	}
}

// level is an open object or array: whether it is an object, whether its
// next token is a member's name, and whether nothing was written in it.
type level struct{ object, wantKey, first bool }

func writeString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// node is one parsed JSON value, objects keeping their members' order.
type node struct {
	kind   byte     // '{', '[' or 0 for a scalar
	keys   []string // an object's member names
	kids   []*node  // an object's member values or an array's elements
	scalar any      // string, json.Number, bool or nil
}

// parseJSON reads one JSON value from dec's next token on. json.Decoder
// bounds the nesting (10,000 levels), which bounds the recursion here.
func parseJSON(dec *json.Decoder) (*node, bool) {
	tok, err := dec.Token()
	if err != nil {
		return nil, false
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return &node{scalar: tok}, true
	}
	n := &node{kind: byte(d)}
	for dec.More() {
		if d == '{' {
			k, err := dec.Token()
			key, isString := k.(string)
			if err != nil || !isString {
				return nil, false
			}
			n.keys = append(n.keys, key)
		}
		kid, ok := parseJSON(dec)
		if !ok {
			return nil, false
		}
		n.kids = append(n.kids, kid)
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return nil, false
	}
	return n, true
}

// pairNames are the member names under which a list of name/value
// objects ([{"name":"password","value":…}], as forms are often posted)
// names the field that its "value" member holds.
var pairNames = []string{"name", "key", "field", "param"}

// redactNode replaces, in n, the value of every secret-named member (a
// scalar, or a whole object or array) with its mark, except values plainly no
// secret (null, "", "undefined"); the "value" of an object whose name
// member names a secret; and the secrets inside strings (JSON held in a
// string, name: value pairs, a GraphQL query's inline arguments, tokens).
func redactNode(n *node) {
	switch n.kind {
	case '{':
		valueSecret := false
		for i, k := range n.keys {
			if s, ok := n.kids[i].scalar.(string); ok && n.kids[i].kind == 0 && isPairName(k) && SecretName(s) {
				valueSecret = true
			}
		}
		for i, k := range n.keys {
			if SecretName(k) || (valueSecret && strings.EqualFold(k, "value")) {
				if !notSecretNode(n.kids[i]) {
					n.kids[i] = &node{scalar: markNode(n.kids[i])}
				}
				continue
			}
			redactNode(n.kids[i])
		}
	case '[':
		for _, kid := range n.kids {
			redactNode(kid)
		}
	default:
		if s, ok := n.scalar.(string); ok {
			n.scalar = redactString(s)
		}
	}
}

// markNode is the mark of a secret value: of a string's characters, or
// of the JSON text of anything else.
func markNode(n *node) string {
	if s, ok := n.scalar.(string); ok && n.kind == 0 {
		return markCred(s)
	}
	var buf bytes.Buffer
	writeNode(&buf, n)
	return mark(buf.String())
}

func isPairName(k string) bool {
	for _, p := range pairNames {
		if strings.EqualFold(k, p) {
			return true
		}
	}
	return false
}

// notSecretNode reports whether a value under a secret name is plainly no
// secret: null, or a string such as "" or "undefined".
func notSecretNode(n *node) bool {
	if n.kind != 0 {
		return false
	}
	switch v := n.scalar.(type) {
	case nil:
		return true
	case string:
		return plainlyNotSecret(v)
	}
	return false
}

// redactString redacts a string value: as JSON when it holds a JSON
// object or array, else as free text.
func redactString(s string) string {
	if t := strings.TrimSpace(s); len(t) > 1 && (t[0] == '{' || t[0] == '[') {
		if out, ok := JSON(s); ok {
			return out
		}
	}
	return loose(s)
}

// writeNode writes n to buf as compact JSON.
func writeNode(buf *bytes.Buffer, n *node) {
	switch n.kind {
	case '{', '[':
		buf.WriteByte(n.kind)
		for i, kid := range n.kids {
			if i > 0 {
				buf.WriteByte(',')
			}
			if n.kind == '{' {
				writeString(buf, n.keys[i])
				buf.WriteByte(':')
			}
			writeNode(buf, kid)
		}
		if n.kind == '{' {
			buf.WriteByte('}')
		} else {
			buf.WriteByte(']')
		}
		return
	}
	switch t := n.scalar.(type) {
	case string:
		writeString(buf, t)
	case json.Number:
		buf.WriteString(string(t))
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	default:
		buf.WriteString("null")
	}
}

// writeJSON copies the JSON value of r to buf, compacted and redacted
// (see redactNode). It reports false on malformed input or more than one
// value.
func writeJSON(buf *bytes.Buffer, r io.Reader) bool {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	n, ok := parseJSON(dec)
	if !ok {
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		return false
	}
	redactNode(n)
	writeNode(buf, n)
	return true
}

func writeString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

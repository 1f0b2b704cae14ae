package redact

import (
	"mime"
	"regexp"
	"strings"
	"unicode/utf16"
)

// htmlTag matches the tags of an HTML document that carry a secret in an
// attribute: <meta name="csrf-token" content=…> and <input type=hidden
// name="authenticity_token" value=…>.
var htmlTag = regexp.MustCompile(`(?i)<(?:meta|input)\b[^<>]*>`)

// htmlAttr is one name=value attribute of a tag.
var htmlAttr = regexp.MustCompile(`(?i)\b([a-z][a-z0-9_:-]*)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)`)

// htmlTags redacts the content and value attributes of the meta and input
// tags of body whose name (or property or id) is secret-named, and the
// value of a password input.
func htmlTags(body string) string {
	lower := strings.ToLower(body)
	if !strings.Contains(lower, "<meta") && !strings.Contains(lower, "<input") {
		return body
	}
	return htmlTag.ReplaceAllStringFunc(body, func(tag string) string {
		attrs := htmlAttr.FindAllStringSubmatchIndex(tag, -1)
		secret := false
		for _, a := range attrs {
			name, val := strings.ToLower(tag[a[2]:a[3]]), strings.Trim(tag[a[4]:a[5]], `"'`)
			switch {
			case (name == "name" || name == "property" || name == "id") && SecretName(val),
				name == "type" && strings.EqualFold(val, "password"):
				secret = true
			}
		}
		if !secret {
			return tag
		}
		var b strings.Builder
		last := 0
		for _, a := range attrs {
			name, val := strings.ToLower(tag[a[2]:a[3]]), tag[a[4]:a[5]]
			if (name != "content" && name != "value") || plainlyNotSecret(val) {
				continue
			}
			b.WriteString(tag[last:a[4]])
			b.WriteString(`"` + mark(strings.Trim(val, `"'`)) + `"`)
			last = a[5]
		}
		b.WriteString(tag[last:])
		return b.String()
	})
}

// dispositionName finds a multipart part's field name in its headers
// (filename= does not match: \b needs a word start).
var dispositionName = regexp.MustCompile(`(?i)content-disposition:[^\r\n]*?\bname=("[^"\r\n]*"|[^\s;]+)`)

// multipartBody redacts the secret-named fields of a multipart/form-data
// body, and the pairs and tokens of the others, keeping the rest byte for
// byte. The boundary comes from the content type or, when that is
// missing, from the body's first line; ok is false when neither gives
// one. A part cut short (the body was truncated) is still redacted.
func multipartBody(contentType, body string) (string, bool) {
	boundary := ""
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		boundary = params["boundary"]
	}
	if boundary == "" && strings.HasPrefix(body, "--") {
		first, _, _ := strings.Cut(body[2:], "\n")
		boundary = strings.TrimRight(first, "\r")
	}
	// No cap on the boundary's length: a longer one than the standard's 70
	// bytes is still what the server splits on, and splitting costs the
	// body's length whatever the delimiter's.
	if boundary == "" || !strings.Contains(body, "--"+boundary) {
		return "", false
	}
	delim := "--" + boundary
	parts := strings.Split(body, delim)
	for i, p := range parts {
		if i == 0 {
			continue // the preamble
		}
		parts[i] = multipartPart(p)
	}
	return strings.Join(parts, delim), true
}

// multipartPart redacts one part: the text between two delimiters, its
// headers, a blank line and its content.
func multipartPart(p string) string {
	sep := "\r\n\r\n"
	h := strings.Index(p, sep)
	if h < 0 {
		sep = "\n\n"
		h = strings.Index(p, sep)
	}
	if h < 0 {
		return loose(p)
	}
	head, content := p[:h+len(sep)], p[h+len(sep):]
	tail := ""
	if strings.HasSuffix(content, "\r\n") {
		content, tail = content[:len(content)-2], "\r\n"
	} else if strings.HasSuffix(content, "\n") {
		content, tail = content[:len(content)-1], "\n"
	}
	name := ""
	if m := dispositionName.FindStringSubmatch(head); m != nil {
		name = strings.Trim(m[1], `"`)
	}
	if SecretName(name) && !plainlyNotSecret(content) {
		return head + mark(content) + tail
	}
	return head + loose(content) + tail
}

// utf16Text decodes body when it is UTF-16 that was passed on as bytes
// (ASCII text then comes with a NUL after or before each letter, and no
// rule would see "password" in it): a byte order mark, or NULs in every
// other byte of its start. Other bodies are returned as they are.
func utf16Text(body string) string {
	s, bigEndian, ok := utf16Start(body)
	if !ok {
		return body
	}
	units := make([]uint16, len(s)/2)
	for i := range units {
		hi, lo := s[2*i+1], s[2*i]
		if bigEndian {
			hi, lo = lo, hi
		}
		units[i] = uint16(hi)<<8 | uint16(lo)
	}
	return string(utf16.Decode(units))
}

// utf16Start reports whether body is UTF-16, and in which byte order, and
// returns it without its byte order mark.
func utf16Start(body string) (s string, bigEndian, ok bool) {
	switch {
	case strings.HasPrefix(body, "\xff\xfe"):
		return body[2:], false, true
	case strings.HasPrefix(body, "\xfe\xff"):
		return body[2:], true, true
	}
	n := min(len(body), 256) &^ 1
	if n < 4 {
		return body, false, false
	}
	var evenNUL, oddNUL int
	for i := 0; i < n; i++ {
		if body[i] == 0 {
			if i%2 == 0 {
				evenNUL++
			} else {
				oddNUL++
			}
		}
	}
	half := n / 2
	switch {
	case oddNUL*4 >= half*3 && evenNUL == 0:
		return body, false, true
	case evenNUL*4 >= half*3 && oddNUL == 0:
		return body, true, true
	}
	return body, false, false
}

package extension

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// block returns the lines of file between the line start and the next line
// "end" (both excluded), failing the test when either is missing.
func block(t *testing.T, file, start, end string) []string {
	t.Helper()
	b, err := fs.ReadFile(FS(), file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	i := slices.Index(lines, start)
	if i < 0 {
		t.Fatalf("%s has no line %q", file, start)
	}
	n := slices.Index(lines[i+1:], end)
	if n < 0 {
		t.Fatalf("%s: the block after %q does not end with a line %q", file, start, end)
	}
	return lines[i+1 : i+1+n]
}

var (
	verbEntry    = regexp.MustCompile(`^  "([a-zA-Z]+(?:\.[a-zA-Z]+)*)": \[((?:"[a-zA-Z]+"(?:, "[a-zA-Z]+")*)?)\],$`)
	handlerEntry = regexp.MustCompile(`^  "([a-zA-Z]+(?:\.[a-zA-Z]+)*)": [a-zA-Z]+(?:\.[a-zA-Z]+)?,$`)
	comment      = regexp.MustCompile(`^\s*(//.*)?$`)
)

// jsVerbs parses protocol.js's VERBS: verb -> parameter names. Every line
// of the table is a comment or one entry, so an entry this parser would
// miss fails instead.
func jsVerbs(t *testing.T) map[string][]string {
	t.Helper()
	verbs := map[string][]string{}
	for _, l := range block(t, "protocol.js", "export const VERBS = {", "};") {
		if comment.MatchString(l) {
			continue
		}
		m := verbEntry.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("protocol.js VERBS: %q is not one entry on one line (\"verb\": [\"param\", ...],)", l)
			continue
		}
		if _, dup := verbs[m[1]]; dup {
			t.Errorf("protocol.js VERBS lists %q twice", m[1])
		}
		params := []string{}
		for _, p := range strings.Split(m[2], ", ") {
			if p != "" {
				params = append(params, strings.Trim(p, `"`))
			}
		}
		verbs[m[1]] = params
	}
	if len(verbs) == 0 {
		t.Fatal("protocol.js VERBS lists no verb")
	}
	return verbs
}

// Every verb the extension declares has a handler in dispatch.js, and every
// handler is declared: dispatch refuses what VERBS lacks, so a handler
// missing from it would be dead, and a verb without a handler unknown.
func TestVerbsHaveHandlers(t *testing.T) {
	verbs := jsVerbs(t)
	handlers := map[string]bool{}
	for _, l := range block(t, "dispatch.js", "const handlers = {", "};") {
		if comment.MatchString(l) {
			continue
		}
		m := handlerEntry.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("dispatch.js handlers: %q is not one entry on one line (\"verb\": handler,)", l)
			continue
		}
		if handlers[m[1]] {
			t.Errorf("dispatch.js has two handlers for %q", m[1])
		}
		handlers[m[1]] = true
	}
	for v := range verbs {
		if !handlers[v] {
			t.Errorf("VERBS lists %q, which has no handler in dispatch.js", v)
		}
	}
	for v := range handlers {
		if _, ok := verbs[v]; !ok {
			t.Errorf("dispatch.js handles %q, which VERBS in protocol.js does not list", v)
		}
	}
}

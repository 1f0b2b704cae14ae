//go:build unix

package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// slack is how much later than its deadline a command may end: a CLI
// process starts, connects and prints. The client itself would give up
// 5 s after the deadline (client.CallSlack); a command that needs that
// long has failed here already.
const slack = 1500 * time.Millisecond

// inflight is one `browser-bridge call` running in the background: what a
// command is while a fault strikes.
type inflight struct {
	in       map[string]any
	deadline time.Duration
	started  time.Time
	faulted  time.Time // when the fault struck (see strike)
	done     chan outcome
}

// outcome is exactly what one command gave back, and when.
type outcome struct {
	In       map[string]any
	Deadline time.Duration
	Took     time.Duration
	// AfterFault is how long after the fault it ended (0: no fault
	// was marked).
	AfterFault time.Duration
	Exit       int
	Stdout     []byte
	Stderr     []byte
	// Values is how many JSON values stdout held: exactly one, always.
	Values int
	// Result is the value when it is a result, Err when it is an error.
	Result map[string]any
	Err    *protocol.Error
	// Hung: nothing came back even long after the deadline.
	Hung bool
}

// deadlineOf is the deadline the daemon gives in (docs/design.md#wire-protocol), by the
// contract's own parse.
func deadlineOf(in map[string]any) time.Duration {
	raw, _ := json.Marshal(in)
	if parsed, _, err := tool.Parse(raw); err == nil {
		return parsed.Deadline()
	}
	return tool.DefaultDeadline
}

// start runs in as a CLI call in the background.
func start(t *testing.T, in map[string]any) *inflight {
	t.Helper()
	f := &inflight{in: in, deadline: deadlineOf(in), started: time.Now(), done: make(chan outcome, 1)}
	raw, _ := json.Marshal(in)
	// Long after the deadline and the client's own slack: a command still
	// running then has hung, which is the failure to catch.
	ctx, cancel := context.WithTimeout(context.Background(), f.deadline+15*time.Second)
	cmd := bridge.Command(ctx, "call", string(raw))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting %v: %v", in, err)
	}
	go func() {
		defer cancel()
		err := cmd.Wait()
		o := outcome{In: in, Deadline: f.deadline, Took: time.Since(f.started), Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Hung: ctx.Err() != nil}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			o.Exit = ee.ExitCode()
		}
		o.decode()
		f.done <- o
	}()
	return f
}

// runNow runs in and waits for it.
func runNow(t *testing.T, in map[string]any) outcome {
	t.Helper()
	return start(t, in).wait(t)
}

// decode counts the JSON values on stdout and sorts the one into a
// result or an error.
func (o *outcome) decode() {
	dec := json.NewDecoder(bytes.NewReader(o.Stdout))
	var first map[string]any
	for {
		var v map[string]any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			o.Values = -1 // not JSON: counts as garbage, never as an answer
			return
		}
		if o.Values == 0 {
			first = v
		}
		o.Values++
	}
	if o.Values != 1 {
		return
	}
	if e, ok := first["error"].(map[string]any); ok {
		code, _ := e["code"].(string)
		msg, _ := e["message"].(string)
		o.Err = &protocol.Error{Code: code, Message: msg}
		return
	}
	o.Result = first
}

// strike marks the moment the fault struck the command.
func (f *inflight) strike() { f.faulted = time.Now() }

// wait waits for the command to end.
func (f *inflight) wait(t *testing.T) outcome {
	t.Helper()
	o := <-f.done
	if !f.faulted.IsZero() {
		o.AfterFault = f.started.Add(o.Took).Sub(f.faulted)
	}
	return o
}

// once checks that the command ended exactly once: one JSON value on
// stdout, either a result (exit 0) or one {"error":{code,message}} with a
// stable code and a sentence (exit 1) — never both, never nothing — and
// not after its deadline (+ slack).
func (o outcome) once(t *testing.T) outcome {
	t.Helper()
	switch {
	case o.Hung:
		t.Fatalf("%v: nothing came back %s after its deadline of %s", o.In, o.Took-o.Deadline, o.Deadline)
	case o.Values != 1:
		t.Fatalf("%v: %d JSON values on stdout, want exactly one: %q", o.In, o.Values, o.Stdout)
	case o.Err != nil && (o.Err.Code == "" || len(o.Err.Message) < 20):
		t.Fatalf("%v: an error without a code or a sentence: %q", o.In, o.Stdout)
	case o.Err != nil && o.Exit == 0, o.Err == nil && o.Exit != 0:
		t.Fatalf("%v: exit %d does not match the answer %q", o.In, o.Exit, o.Stdout)
	case o.Err == nil && o.Result == nil:
		t.Fatalf("%v: neither a result nor an error: %q", o.In, o.Stdout)
	case o.Took > o.Deadline+slack:
		t.Fatalf("%v: ended %s after its deadline of %s: %s", o.In, o.Took-o.Deadline, o.Deadline, o.summary())
	}
	return o
}

// code is the error's code ("" for a result).
func (o outcome) code() string {
	if o.Err == nil {
		return ""
	}
	return o.Err.Code
}

// summary says what came back, for the fault table.
func (o outcome) summary() string {
	switch {
	case o.Hung:
		return "nothing (hung)"
	case o.Err != nil:
		m := o.Err.Message
		if len(m) > 90 {
			m = m[:90] + "…"
		}
		return fmt.Sprintf("error %s: %q", o.Err.Code, m)
	case o.Result != nil:
		var parts []string
		for _, k := range []string{"title", "navigated", "waited"} {
			if v, ok := o.Result[k]; ok {
				parts = append(parts, fmt.Sprintf("%s %v", k, v))
			}
		}
		if d, ok := o.Result["dialog"].(map[string]any); ok {
			parts = append(parts, fmt.Sprintf("dialog %v answered", d["type"]))
		}
		if w, ok := o.Result["warnings"].([]any); ok && len(w) > 0 {
			parts = append(parts, fmt.Sprintf("%d warnings", len(w)))
		}
		return "result (" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprintf("garbage %q", o.Stdout)
}

// must fails the test unless o is a result.
func (o outcome) must(t *testing.T) map[string]any {
	t.Helper()
	o.once(t)
	if o.Err != nil {
		t.Fatalf("%v: %s", o.In, o.summary())
	}
	return o.Result
}

// num reads a JSON number field as int.
func num(t *testing.T, m map[string]any, key string) int { return browsertest.Num(t, m, key) }

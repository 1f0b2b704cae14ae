package launch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// TestQuickStartAsWritten runs the README's Quick start as a new user
// would, from the commands in its code blocks: go install into a
// folder on PATH, install, launch, status, mcp --print-config, and then the
// MCP server answers tools/list and a status that says connected. Only the
// go install of the published module is left out (no network here); its
// twin from the clone runs instead. A README whose quick start drifts from
// the binary fails here.
func TestQuickStartAsWritten(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := quickStart(t, string(readme))
	gomod, _ := os.ReadFile("../../go.mod")
	if v := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod); v == nil || !strings.Contains(section, "Go "+string(v[1])) {
		t.Errorf("the quick start does not name go.mod's Go version")
	}
	cmds := commandsOf(section)
	for _, want := range []string{"go install ./cmd/browser-bridge", "browser-bridge install", "browser-bridge launch", "browser-bridge mcp --print-config claude"} {
		if !containsPrefix(cmds, want) {
			t.Fatalf("the quick start lacks %q; its commands: %q", want, cmds)
		}
	}

	e, err := browsertest.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	gobin := filepath.Join(e.Home, "gobin")
	root, _ := filepath.Abs("../..")
	var config string
	env := []string{}
	for _, kv := range e.Vars {
		switch k, v, _ := strings.Cut(kv, "="); k {
		case "PATH":
			kv = "PATH=" + gobin + string(os.PathListSeparator) + v
		case "XDG_CONFIG_HOME":
			config = v
		}
		env = append(env, kv)
	}
	env = append(env, "GOBIN="+gobin)
	// The test's HOME is new, so go would build from a cold cache: keep
	// the caches the test binary's go uses.
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if v, err := exec.Command("go", "env", k).Output(); err == nil {
			env = append(env, k+"="+strings.TrimSpace(string(v)))
		}
	}
	// The user's own Chromium, for install to find.
	os.MkdirAll(filepath.Join(config, "chromium"), 0o700)

	run := func(ctx context.Context, line string) *exec.Cmd {
		f := strings.Fields(line)
		bin, err := exec.LookPath(f[0])
		if f[0] == "browser-bridge" {
			bin, err = filepath.Join(gobin, "browser-bridge"), nil // the one go install put on PATH
		}
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		cmd := exec.CommandContext(ctx, bin, f[1:]...)
		cmd.Env, cmd.Dir = env, root
		return cmd
	}
	output := func(line string) (string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		var out, errb bytes.Buffer
		cmd := run(ctx, line)
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\nstdout %s\nstderr %s", line, err, out.Bytes(), errb.Bytes())
		}
		return out.String(), errb.String()
	}

	var launch *exec.Cmd
	for _, line := range cmds {
		switch {
		case strings.Contains(line, "@latest"):
			continue // the published module: no network here
		case strings.HasPrefix(line, "browser-bridge launch"):
			// Started in the background, as the README says to leave it
			// running; headless, as it says to without a desktop.
			launch = run(t.Context(), "browser-bridge launch --headless")
			stdout, _ := launch.StdoutPipe()
			logf, _ := os.Create(filepath.Join(e.Home, "launch.log"))
			launch.Stderr = logf
			if err := launch.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				launch.Process.Signal(os.Interrupt)
				launch.Wait()
			}()
			first := make(chan string, 1)
			go func() {
				s := bufio.NewScanner(stdout)
				s.Scan()
				first <- s.Text()
				for s.Scan() {
				}
			}()
			select {
			case l := <-first:
				if !strings.Contains(l, `"connected":true`) {
					t.Fatalf("launch printed %q", l)
				}
			case <-time.After(60 * time.Second):
				b, _ := os.ReadFile(logf.Name())
				t.Fatalf("launch printed nothing in 60 s; log:\n%s", b)
			}
		case strings.HasPrefix(line, "browser-bridge mcp --print-config claude"):
			out, where := output(line)
			if !strings.Contains(out, "claude mcp add") || !strings.Contains(out, filepath.Join(gobin, "browser-bridge")+" mcp") || where == "" {
				t.Errorf("%s printed %q (stderr %q)", line, out, where)
			}
		default:
			out, _ := output(line)
			if strings.HasPrefix(line, "browser-bridge install") && !strings.Contains(out, "Load unpacked") {
				t.Errorf("install does not say the next step: %s", out)
			}
		}
	}
	if launch == nil {
		t.Fatal("the quick start never launched a browser")
	}
	if out, _ := output("browser-bridge status"); !strings.Contains(out, `"connected": true`) {
		t.Fatalf("status after the quick start: %s", out)
	}

	// The agent's side: the MCP server answers tools/list, and its status
	// says connected.
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	mcp := run(ctx, "browser-bridge mcp")
	mcp.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"quick start","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"use_user_browser","arguments":{"action":"status"}}}`,
	}, "\n") + "\n")
	out, err := mcp.Output()
	if err != nil {
		t.Fatalf("mcp: %v\n%s", err, out)
	}
	answers := map[float64]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) == nil {
			answers[m.ID] = string(m.Result)
		}
	}
	if !strings.Contains(answers[2], `"name":"use_user_browser"`) {
		t.Errorf("tools/list: %s", answers[2])
	}
	if !strings.Contains(answers[3], "Connected to Chrome") {
		t.Errorf("status over MCP: %s", answers[3])
	}
}

// quickStart is the README's "## Quick start" section.
func quickStart(t *testing.T, readme string) string {
	_, rest, ok := strings.Cut(readme, "\n## Quick start\n")
	if !ok {
		t.Fatal("the README has no ## Quick start")
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// commandsOf lists the command lines of a section's code blocks, without
// their comments.
func commandsOf(section string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(section, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if c, _, _ := strings.Cut(l, "#"); in && strings.TrimSpace(c) != "" {
			out = append(out, strings.TrimSpace(c))
		}
	}
	return out
}

func containsPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

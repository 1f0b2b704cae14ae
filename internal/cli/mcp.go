package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/mcpserver"
	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// runMCP runs `mcp`: an MCP server on stdin/stdout for one agent session,
// or with --print-config the snippet that registers it with a client.
func runMCP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	tools := fs.String("tools", mcpserver.ModeSingle, "single: one use_user_browser tool; split: one tool per action (browser_open, …)")
	imageMax := imageMaxFlag(mcpserver.DefaultImageMax)
	fs.Var(&imageMax, "image-max", "longest side in `px` of the image a screenshot returns (0: only the file path)")
	printConfig := fs.String("print-config", "", "print the config for a client ("+strings.Join(mcpserver.Clients, ", ")+") and exit")
	if err := parseFlagSet(fs, args, 0); err != nil {
		return err
	}
	if *printConfig != "" {
		return printMCPConfig(fs, *printConfig)
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	// A daemon on another machine, through a socket forwarded over SSH
	// (client.EnvSocket): the client dials it and starts none here; a
	// half-set pair is refused now rather than at the first call.
	if _, _, _, err := client.Forwarded(); err != nil {
		return err
	}
	srv, err := mcpserver.New(mcpserver.Options{
		Dial:        mcpserver.DialDaemon(layout),
		Tools:       *tools,
		Screenshots: layout.Screenshots(),
		ImageMax:    int(imageMax),
		Prepare:     func(ctx context.Context) error { return client.EnsureDaemon(ctx, layout) },
	})
	if err != nil {
		return err
	}
	return srv.ServeStdio(ctx)
}

// envNPM is set to 1 by the npm package's launcher: the binary runs from
// an npm package.
const envNPM = "BROWSER_BRIDGE_NPM"

// forwardVars point a server at a forwarded daemon socket.
var forwardVars = []string{client.EnvSocket, client.EnvSecretFile}

// printMCPConfig prints the snippet on stdout and where it goes on stderr.
// The server's flags given with --print-config are kept in the snippet.
func printMCPConfig(fs *flag.FlagSet, client string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding own binary: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	args := []string{"mcp"}
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "print-config" {
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	env := map[string]string{}
	if h := os.Getenv(paths.EnvHome); h != "" {
		abs, err := filepath.Abs(h)
		if err != nil {
			return fmt.Errorf("resolving %s: %w", paths.EnvHome, err)
		}
		env[paths.EnvHome] = abs
	}
	// A server for a forwarded socket needs its variables too.
	for _, k := range forwardVars {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		}
	}
	command := exe
	fromNPM := os.Getenv(envNPM) == "1"
	if fromNPM {
		// The binary sits in npm's cache or a project's node_modules,
		// neither a path to write into a client's config; npx finds (or
		// fetches) the package wherever the client runs it.
		command, args = "npx", append([]string{"-y", "browser-bridge"}, args...)
	}
	snippet, where, err := mcpserver.ClientConfig(client, command, args, env)
	if err != nil {
		return err
	}
	fmt.Fprint(Stdout, snippet)
	fmt.Fprintln(Stderr, "# "+where)
	if fromNPM {
		fmt.Fprintln(Stderr, "# the browser side, once: npx -y browser-bridge install")
	} else if strings.HasPrefix(exe, os.TempDir()) {
		fmt.Fprintln(Stderr, "# note: "+strconv.Quote(exe)+" is a temporary build (go run?); build the binary to a lasting place first")
	}
	return nil
}

// imageMaxFlag is --image-max: a size in px, or 0 for no image. A negative
// size is refused while parsing, like a value that is no number, rather
// than taken for 0 (or for no bound) behind the user's back.
type imageMaxFlag int

// String implements flag.Value; --print-config writes the flag back with it.
func (f *imageMaxFlag) String() string { return strconv.Itoa(int(*f)) }

// Set implements flag.Value.
func (f *imageMaxFlag) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize) // what flag.Int takes
	if err != nil {
		return errors.New("not a whole number of px")
	}
	if n < 0 {
		return errors.New("must be 0 (send the file path only) or a size in px")
	}
	*f = imageMaxFlag(n)
	return nil
}

package cli

import (
	"context"
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
	fs.SetOutput(Stderr)
	tools := fs.String("tools", mcpserver.ModeSingle, "single: one use_user_browser tool; split: one tool per action (browser_open, …)")
	imageMax := fs.Int("image-max", mcpserver.DefaultImageMax, "longest side in px of the image a screenshot returns (0: only the file path)")
	printConfig := fs.String("print-config", "", "print the config for a client ("+strings.Join(mcpserver.Clients, ", ")+") and exit")
	if err := fs.Parse(args); err != nil {
		return &ExitError{Code: 2}
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("mcp takes only flags, not %q", fs.Arg(0))
	}
	if *printConfig != "" {
		return printMCPConfig(fs, *printConfig)
	}
	layout, err := paths.Default()
	if err != nil {
		return err
	}
	srv, err := mcpserver.New(mcpserver.Options{
		Dial:        mcpserver.DialDaemon(layout),
		Tools:       *tools,
		Screenshots: layout.Screenshots(),
		ImageMax:    *imageMax,
		Prepare:     func(ctx context.Context) error { return client.EnsureDaemon(ctx, layout) },
	})
	if err != nil {
		return err
	}
	return srv.ServeStdio(ctx)
}

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
	snippet, where, err := mcpserver.ClientConfig(client, exe, args, env)
	if err != nil {
		return err
	}
	fmt.Fprint(Stdout, snippet)
	fmt.Fprintln(Stderr, "# "+where)
	if strings.HasPrefix(exe, os.TempDir()) {
		fmt.Fprintln(Stderr, "# note: "+strconv.Quote(exe)+" is a temporary build (go run?); build the binary to a lasting place first")
	}
	return nil
}

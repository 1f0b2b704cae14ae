package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/daemon"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// runWebSocket runs `websocket enable [--url URL] [--token T] | disable |
// status [--browser B]`: the extension's opt-in WebSocket transport, which
// serves the Hive-compatible protocol to a server on this machine. The
// daemon tells the extension (of the default browser, or of B), which
// keeps the setting; the extension dials exactly the URL given (loopback
// only).
func runWebSocket(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "websocket needs enable [--url URL] [--token T], disable or status"), 2)
	}
	if isHelpFlag(args[0]) {
		fmt.Fprintf(Stdout, "browser-bridge websocket: %s\n(browser-bridge websocket enable --help lists the flags of enable)\n", commands["websocket"].summary)
		return errHelped
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("websocket "+sub, flag.ContinueOnError)
	// With several browsers connected, each extension keeps its own
	// setting: --browser picks one (default: the default browser).
	browser := fs.String("browser", "", "the browser whose extension to configure: a label or slot from status (default: the default browser)")
	var verb string
	var params any
	switch sub {
	case "enable":
		u := fs.String("url", protocol.DefaultWebSocketURL, "the WebSocket server to dial (loopback only)")
		token := fs.String("token", "", "a token the server expects (sent in hello and as Sec-WebSocket-Protocol)")
		if err := parseFlagSet(fs, args, 0); err != nil {
			return err
		}
		if err := daemon.CheckWebSocketURL(*u); err != nil {
			return printError(protocol.AsError(err), 2)
		}
		verb, params = "websocket.configure", protocol.WebSocketConfig{Enabled: true, URL: *u, Token: *token}
	case "disable", "status":
		if err := parseFlagSet(fs, args, 0); err != nil {
			return err
		}
		verb, params = "websocket.status", struct{}{}
		if sub == "disable" {
			verb, params = "websocket.configure", protocol.WebSocketConfig{Enabled: false}
		}
	default:
		return printError(protocol.Errorf(protocol.CodeInvalidArgument, "unknown websocket command %q: use %s", sub, strings.Join([]string{"enable", "disable", "status"}, ", ")), 2)
	}
	return viaDaemon(ctx, tool.DefaultDeadline, func(c *client.Client, progress func(string)) (json.RawMessage, error) {
		return c.VerbIn(ctx, *browser, verb, params, progress)
	})
}

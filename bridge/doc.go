// Package bridge is the Go client of Browser Bridge: a program drives the
// user's own Chrome through the bridge's daemon, with the same actions an
// AI agent gets over MCP and with Hive's low-level browser-bridge verbs.
//
// Dial connects to the daemon of the install — BROWSER_BRIDGE_HOME, or the
// per-user folders, as the command line finds it — presenting the
// install's secret, and starts the daemon when none runs. Then:
//
//   - one typed method per action of the use_user_browser tool (Status,
//     Search, Open, Extract, Inspect, Wait, Click, Hover, Type, Press,
//     Select, Check, Upload, Scroll, Screenshot, CloseTabs), whose params
//     structs carry the tool's parameter names as their json names, and
//     Do for any action by name;
//   - the Hive-compatible verbs (ContextCreate, ContextDestroy, TabCreate,
//     TabClose, TabList, TabActivate, TabGet, TabGroupList, CDPAttach,
//     CDPDetach, CDP) and the extension's WebSocket transport
//     (WebSocketEnable, WebSocketDisable, WebSocketStatus). A program works
//     there only in the tabs it created, with Chrome's own IDs of one
//     browser: the one WithVerbsIn names, else the default browser at
//     the client's first verb, for as long as the client is connected.
//
// Every method takes a context first and fails with an *Error that has a
// stable Code; compare with errors.Is(err, bridge.ErrElementNotFound) or
// switch on the Code from errors.As. The daemon checks every parameter,
// as it does for MCP and the command line.
//
//	ctx := context.Background()
//	c, err := bridge.Dial(ctx)
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer c.Close()
//	tab, err := c.Open(ctx, bridge.OpenParams{URL: "https://example.com/"})
//	if err != nil {
//		log.Fatal(err)
//	}
//	page, err := c.Extract(ctx, bridge.ExtractParams{Target: bridge.Target{TabID: tab.TabID}})
//	if err != nil {
//		log.Fatal(err)
//	}
//	fmt.Println(page.Title, len(page.Links))
//	_, err = c.Click(ctx, bridge.ClickParams{Target: bridge.Target{TabID: tab.TabID}, Locator: bridge.Locator{Text: "More information"}})
//	if errors.Is(err, bridge.ErrElementNotFound) {
//		fmt.Println("no such link")
//	}
//
// # From another machine, over SSH
//
// The daemon never listens on a network port, but OpenSSH forwards its
// unix socket: a program (or an agent's `browser-bridge mcp`) on machine A
// drives the Chrome of machine B. On B, the daemon must run (any
// browser-bridge command starts it, `browser-bridge launch` keeps one with
// a browser); `browser-bridge doctor --json` prints its "socket" (by
// default $XDG_RUNTIME_DIR/browser-bridge/daemon-<id>.sock, e.g.
// /run/user/1000/browser-bridge/daemon-1a2b3c4d5e6f.sock) and its
// "secret" file. On A:
//
//	mkdir -m 700 ~/.bb-B                      # the socket's folder must be private
//	scp B:.config/browser-bridge/secret ~/.bb-B/secret && chmod 600 ~/.bb-B/secret
//	ssh -N -o StreamLocalBindUnlink=yes \
//	    -L $HOME/.bb-B/daemon.sock:/run/user/1000/browser-bridge/daemon-1a2b3c4d5e6f.sock B
//
// Then either pass the socket to Dial:
//
//	c, err := bridge.Dial(ctx, bridge.WithSocket(home+"/.bb-B/daemon.sock", home+"/.bb-B/secret"))
//
// or set BROWSER_BRIDGE_SOCKET and BROWSER_BRIDGE_SECRET_FILE to those two
// paths: Dial without options, `browser-bridge mcp`, `call` and the action
// subcommands then use them (and `mcp --print-config` writes
// them into the client's config). Either way nothing starts a daemon on A.
// Paths in results and parameters (screenshot files, upload paths) are
// B's; keep both machines on the same browser-bridge version.
package bridge

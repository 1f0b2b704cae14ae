// Package mcpserver is `browser-bridge mcp`: an MCP server, on the official
// Go SDK, whose tool use_user_browser (or, split, one tool per action)
// passes inputs to the daemon and shapes its results for a model. It is
// thin on purpose: what an action means lives in package actions, run by
// the daemon; this package only decodes, forwards and shapes.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/browser-bridge/browser-bridge/internal/version"
)

// Options configure a Server.
type Options struct {
	// Dial connects to the daemon (DialDaemon in production).
	Dial DialFunc
	// Tools is ModeSingle (default) or ModeSplit.
	Tools string
	// Screenshots is the folder whose image files may go back as images.
	Screenshots string
	// ImageMax is the longest side in px of those images; 0 attaches none
	// (New refuses a negative one).
	ImageMax int
	// ProgressEvery is the heartbeat of a waiting call (default
	// DefaultProgressEvery).
	ProgressEvery time.Duration
	// Prepare, if set, runs in the background when a connection starts:
	// production starts the daemon there, so that it and the extension's
	// reconnect are done before the first call.
	Prepare func(context.Context) error
}

// Server is the MCP server. One Server serves any number of MCP
// connections; each is its own session for the daemon.
type Server struct {
	opts  Options
	mcp   *mcp.Server
	shape shaper

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
}

// New builds a server with its tools.
func New(opts Options) (*Server, error) {
	switch opts.Tools {
	case "":
		opts.Tools = ModeSingle
	case ModeSingle, ModeSplit:
	default:
		return nil, fmt.Errorf("unknown tools mode %q: use %s or %s", opts.Tools, ModeSingle, ModeSplit)
	}
	if opts.Dial == nil {
		return nil, errors.New("mcpserver: Options.Dial is required")
	}
	if opts.ImageMax < 0 {
		return nil, fmt.Errorf("image max %d px is negative: use 0 to send the file path only", opts.ImageMax)
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = DefaultProgressEvery
	}
	s := &Server{opts: opts, shape: shaper{opts.Screenshots, opts.ImageMax}, sessions: map[*mcp.ServerSession]*session{}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "browser-bridge", Version: version.Version}, &mcp.ServerOptions{
		// The tool list is fixed, and no logging capability is offered.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	for _, t := range tools(opts.Tools) {
		s.mcp.AddTool(t.def, s.handler(t.action))
	}
	return s, nil
}

// handler is one tool's handler: decode, call the daemon, shape.
func (s *Server) handler(action string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, raw, err := decodeArgs(req.Params.Arguments, action, req.Params.Meta)
		if err != nil {
			return errorResult(err), nil
		}
		raw = reserveBudget(in, raw)
		report, stop := progress(ctx, req, in.Action, s.opts.ProgressEvery)
		defer stop()
		res, err := s.session(req.Session, req.ClientInfo()).call(ctx, raw, in.Deadline(), report)
		if err != nil {
			return errorResult(err), nil
		}
		return s.shape.result(in.Action, res), nil
	}
}

// Serve serves one MCP connection on t until the client goes away or ctx
// ends, then closes the connection's daemon session.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	ss, err := s.mcp.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("connecting the MCP transport: %w", err)
	}
	if s.opts.Prepare != nil {
		go s.opts.Prepare(ctx)
	}
	stop := context.AfterFunc(ctx, func() { ss.Close() })
	defer stop()
	err = ss.Wait()
	// The entry stays, closed: a handler still running after the end
	// must not dial a new session for a connection that is gone.
	s.session(ss, nil).close()
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client (or a signal) ended it: a normal end
	}
	return err
}

// session returns the daemon session of an MCP connection, creating it
// on first use. It is named after the client, which a request knows under
// every protocol version (from _meta, or from the initialize handshake).
func (s *Server) session(ss *mcp.ServerSession, client *mcp.Implementation) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.sessions[ss]; ok {
		return sess
	}
	name := ""
	if client != nil {
		name = client.Name
	}
	sess := newSession(name, s.opts.Dial)
	s.sessions[ss] = sess
	return sess
}

package ipc

import (
	"encoding/json"
	"fmt"
	"net"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// ReadAuth reads the handshake of a connection the daemon accepted: one
// frame of at most MaxHandshake bytes holding a protocol.Auth. The whole
// frame, header and body, must have arrived by deadline (the time of the
// accept plus ConnectTimeout). A Conn made with NewConn(nc, RequestRead)
// would move the read deadline to RequestRead after the header as soon as
// the 4-byte header arrived, so a header sent at 4.5 s stretched a 5 s
// handshake to 14.5 s; here nothing moves it.
//
// It returns the connection framed for the rest of the session (frames up
// to MaxFrame, each bounded by RequestRead once it has started) and the
// handshake; checking the secret and the role is the caller's. On error
// the caller closes nc.
func ReadAuth(nc net.Conn, deadline time.Time) (*Conn, protocol.Auth, error) {
	var auth protocol.Auth
	if err := nc.SetReadDeadline(deadline); err != nil {
		return nil, auth, err
	}
	r := nmframe.Reader{R: nc, Limit: MaxHandshake, Dir: "in the handshake"}
	b, err := r.Read()
	if err != nil {
		return nil, auth, fmt.Errorf("reading the handshake: %w", err)
	}
	if err := json.Unmarshal(b, &auth); err != nil {
		return nil, auth, fmt.Errorf("decoding the handshake: %w", err)
	}
	if auth.Type != protocol.TypeAuth {
		return nil, auth, fmt.Errorf("the first message is %q, not %q", auth.Type, protocol.TypeAuth)
	}
	if err := nc.SetReadDeadline(time.Time{}); err != nil {
		return nil, auth, err
	}
	return NewConn(nc, RequestRead), auth, nil
}

//go:build unix

package hive

// A minimal RFC 6455 WebSocket, both ends, written for these tests with the
// standard library only: the server plays Hive's bridge for the extension,
// and the client speaks CDP to Chromium's DevTools endpoint. It handles
// what those peers send: the opening handshake (Sec-WebSocket-Accept, the
// Sec-WebSocket-Protocol echo), masked client frames, text frames split
// into continuations, and ping, pong and close. Not a general library:
// no extensions, no binary messages.

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

func acceptKey(key string) string {
	h := sha1.Sum([]byte(key + wsGUID))
	return base64.StdEncoding.EncodeToString(h[:])
}

// wsConn is one WebSocket connection; client says whether this end masks
// its frames (a client must, a server must not).
type wsConn struct {
	c      net.Conn
	r      *bufio.Reader
	client bool
	wmu    sync.Mutex
	// The opening handshake as the server saw it.
	Path      string
	Origin    string
	Protocols []string // Sec-WebSocket-Protocol values the client offered
	// CloseCode is the code of the peer's close frame, once one came.
	CloseCode int
}

// writeFrame writes one unfragmented frame.
func (w *wsConn) writeFrame(op byte, payload []byte) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	hdr := []byte{0x80 | op}
	mask := byte(0)
	if w.client {
		mask = 0x80
	}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, mask|byte(n))
	case n < 1<<16:
		hdr = append(hdr, mask|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, mask|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	body := payload
	if w.client {
		var key [4]byte
		rand.Read(key[:])
		hdr = append(hdr, key[:]...)
		body = make([]byte, len(payload))
		for i := range payload {
			body[i] = payload[i] ^ key[i%4]
		}
	}
	w.c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := w.c.Write(append(hdr, body...)); err != nil {
		return err
	}
	return nil
}

// WriteText sends one text message.
func (w *wsConn) WriteText(s string) error { return w.writeFrame(opText, []byte(s)) }

// readFrame reads one frame, unmasking it; a server refuses an unmasked
// client frame, as RFC 6455 §5.1 requires.
func (w *wsConn) readFrame() (fin bool, op byte, payload []byte, err error) {
	var h [2]byte
	if _, err = io.ReadFull(w.r, h[:]); err != nil {
		return
	}
	fin, op = h[0]&0x80 != 0, h[0]&0x0F
	if h[0]&0x70 != 0 {
		return false, 0, nil, errors.New("websocket: reserved bits set (no extension was agreed)")
	}
	masked := h[1]&0x80 != 0
	if !w.client && !masked {
		return false, 0, nil, errors.New("websocket: the client sent an unmasked frame")
	}
	if w.client && masked {
		return false, 0, nil, errors.New("websocket: the server sent a masked frame")
	}
	n := uint64(h[1] & 0x7F)
	switch n {
	case 126:
		var b [2]byte
		if _, err = io.ReadFull(w.r, b[:]); err != nil {
			return
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err = io.ReadFull(w.r, b[:]); err != nil {
			return
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	if n > 256<<20 {
		return false, 0, nil, fmt.Errorf("websocket: a %d-byte frame", n)
	}
	var key [4]byte
	if masked {
		if _, err = io.ReadFull(w.r, key[:]); err != nil {
			return
		}
	}
	payload = make([]byte, n)
	if _, err = io.ReadFull(w.r, payload); err != nil {
		return
	}
	if masked {
		for i := range payload {
			payload[i] ^= key[i%4]
		}
	}
	return
}

// ReadText returns the next text message, answering pings and a close on
// the way; it fails with io.EOF once the peer closed.
func (w *wsConn) ReadText() (string, error) {
	var msg []byte
	inText := false
	for {
		fin, op, p, err := w.readFrame()
		if err != nil {
			return "", err
		}
		switch op {
		case opPing:
			w.writeFrame(opPong, p)
			continue
		case opPong:
			continue
		case opClose:
			w.CloseCode = 1005
			if len(p) >= 2 {
				w.CloseCode = int(binary.BigEndian.Uint16(p[:2]))
			}
			w.writeFrame(opClose, p[:min(len(p), 2)])
			w.c.Close()
			return "", io.EOF
		case opText:
			msg, inText = p, true
		case opContinuation:
			if !inText {
				return "", errors.New("websocket: a continuation frame without a message")
			}
			msg = append(msg, p...)
		case opBinary:
			return "", errors.New("websocket: a binary message (the protocol is JSON text)")
		default:
			return "", fmt.Errorf("websocket: opcode %#x", op)
		}
		if fin {
			return string(msg), nil
		}
	}
}

// Close sends a close frame with code and closes the connection.
func (w *wsConn) Close(code int) {
	w.writeFrame(opClose, binary.BigEndian.AppendUint16(nil, uint16(code)))
	w.c.Close()
}

// wsListener accepts WebSocket connections on path; other paths get 404,
// and a request that is not an upgrade gets 400.
type wsListener struct {
	ln    net.Listener
	path  string
	Conns chan *wsConn
}

func wsListen(addr, path string) (*wsListener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	l := &wsListener{ln: ln, path: path, Conns: make(chan *wsConn, 16)}
	go l.serve()
	return l, nil
}

func (l *wsListener) Addr() string { return l.ln.Addr().String() }

func (l *wsListener) Close() { l.ln.Close() }

func (l *wsListener) serve() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			if wc, err := l.handshake(c); err == nil {
				l.Conns <- wc
			} else {
				c.Close()
			}
		}()
	}
}

func (l *wsListener) handshake(c net.Conn) (*wsConn, error) {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return nil, err
	}
	fail := func(status int, why string) (*wsConn, error) {
		fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", status, http.StatusText(status))
		return nil, errors.New(why)
	}
	if req.URL.Path != l.path {
		return fail(http.StatusNotFound, "wrong path "+req.URL.Path)
	}
	key := req.Header.Get("Sec-WebSocket-Key")
	if req.Method != http.MethodGet || !strings.EqualFold(req.Header.Get("Upgrade"), "websocket") ||
		!headerHas(req.Header, "Connection", "upgrade") || req.Header.Get("Sec-WebSocket-Version") != "13" || key == "" {
		return fail(http.StatusBadRequest, "not a websocket upgrade")
	}
	var protocols []string
	for _, v := range req.Header.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				protocols = append(protocols, p)
			}
		}
	}
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + acceptKey(key) + "\r\n"
	if len(protocols) > 0 {
		// Echo the first one: the browser fails a handshake that does not
		// name one of the subprotocols it offered.
		resp += "Sec-WebSocket-Protocol: " + protocols[0] + "\r\n"
	}
	if _, err := io.WriteString(c, resp+"\r\n"); err != nil {
		return nil, err
	}
	c.SetReadDeadline(time.Time{})
	return &wsConn{c: c, r: br, Path: req.URL.Path, Origin: req.Header.Get("Origin"), Protocols: protocols}, nil
}

func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, p := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(p), token) {
				return true
			}
		}
	}
	return false
}

// wsDial opens a client connection to url (ws:// only).
func wsDial(url string) (*wsConn, error) {
	rest, ok := strings.CutPrefix(url, "ws://")
	if !ok {
		return nil, fmt.Errorf("wsDial: %q is not a ws:// URL", url)
	}
	host, path, _ := strings.Cut(rest, "/")
	c, err := net.DialTimeout("tcp", host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	var k [16]byte
	rand.Read(k[:])
	key := base64.StdEncoding.EncodeToString(k[:])
	fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, host, key)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != acceptKey(key) {
		c.Close()
		return nil, fmt.Errorf("wsDial %s: handshake answered %s", url, resp.Status)
	}
	c.SetReadDeadline(time.Time{})
	return &wsConn{c: c, r: br, client: true}, nil
}

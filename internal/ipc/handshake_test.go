//go:build unix

package ipc_test

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// hsSocketPair is both ends of a real unix socket in a short folder.
func hsSocketPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	dir := ipctest.Dir(t)
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client, err = net.Dial("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	server, err = l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

func hsPipe(t *testing.T) (server, client net.Conn) {
	server, client = net.Pipe()
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

func authFrame(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(protocol.Auth{Type: protocol.TypeAuth, Role: protocol.RoleClient, Secret: "s", Session: "x"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A length header sent at 4.5 s moved the read
// deadline to 10 s after it, so a peer held a handshake slot for 14.5 s.
// Here the header comes at 60% of the deadline and the body a byte at a
// time after it: ReadAuth must give up at the deadline itself.
func TestReadAuthKeepsTheDeadlineOfTheWholeFrame(t *testing.T) {
	for name, pair := range map[string]func(*testing.T) (net.Conn, net.Conn){"pipe": hsPipe, "unix socket": hsSocketPair} {
		t.Run(name, func(t *testing.T) {
			server, client := pair(t)
			const budget = 400 * time.Millisecond
			start := time.Now()
			go func() {
				body := authFrame(t)
				time.Sleep(budget * 6 / 10)
				var hdr [4]byte
				binary.LittleEndian.PutUint32(hdr[:], uint32(len(body)))
				if _, err := client.Write(hdr[:]); err != nil {
					return
				}
				for _, c := range body { // slower than the budget allows
					time.Sleep(50 * time.Millisecond)
					if _, err := client.Write([]byte{c}); err != nil {
						return
					}
				}
			}()
			_, _, err := ipc.ReadAuth(server, start.Add(budget))
			took := time.Since(start)
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				t.Fatalf("ReadAuth of a trickled handshake: %v, want a timeout", err)
			}
			if took < budget || took > budget+250*time.Millisecond {
				t.Errorf("ReadAuth gave up after %v, want about %v", took, budget)
			}
		})
	}
}

func TestReadAuthGivesUpOnASilentPeer(t *testing.T) {
	server, _ := hsSocketPair(t)
	start := time.Now()
	if _, _, err := ipc.ReadAuth(server, start.Add(100*time.Millisecond)); err == nil {
		t.Fatal("a silent peer passed the handshake")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("gave up after %v", took)
	}
}

// A good handshake gives the connection for the session: the next frame
// may be large and takes as long as it takes to start (no deadline left
// over from the handshake).
func TestReadAuthReturnsTheSessionConn(t *testing.T) {
	server, client := hsSocketPair(t)
	cc := ipc.NewConn(client, 0)
	go func() {
		cc.Send(authFrame(t))
		time.Sleep(300 * time.Millisecond) // past the handshake's deadline
		cc.Send(make([]byte, 2*ipc.MaxHandshake))
	}()
	c, auth, err := ipc.ReadAuth(server, time.Now().Add(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if auth.Role != protocol.RoleClient || auth.Secret != "s" || auth.Session != "x" {
		t.Errorf("auth %+v", auth)
	}
	b, err := c.Recv()
	if err != nil || len(b) != 2*ipc.MaxHandshake {
		t.Fatalf("next frame: %d bytes, %v", len(b), err)
	}
}

func TestReadAuthRefusesWhatIsNotAHandshake(t *testing.T) {
	for name, send := range map[string][]byte{
		// "GET " read as a length is about 542 MB: refused at the header.
		"http":      []byte("GET / HTTP/1.1\r\n\r\n"),
		"too large": binary.LittleEndian.AppendUint32(nil, ipc.MaxHandshake+1),
		"not json":  append(binary.LittleEndian.AppendUint32(nil, 3), "abc"...),
		"not auth":  append(binary.LittleEndian.AppendUint32(nil, 16), `{"type":"call"} `...),
		"cut short": append(binary.LittleEndian.AppendUint32(nil, 100), `{"type"`...),
	} {
		t.Run(name, func(t *testing.T) {
			server, client := hsSocketPair(t)
			go func() {
				client.Write(send)
				if name == "cut short" {
					client.Close()
				}
			}()
			start := time.Now()
			_, _, err := ipc.ReadAuth(server, start.Add(2*time.Second))
			if err == nil {
				t.Fatal("accepted")
			}
			if time.Since(start) > time.Second {
				t.Errorf("took %v to refuse: %v", time.Since(start), err)
			}
			var tl *nmframe.TooLargeError
			if (name == "http" || name == "too large") && !errors.As(err, &tl) {
				t.Errorf("err = %v, want a TooLargeError", err)
			}
			if name == "cut short" && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("err = %v, want io.ErrUnexpectedEOF", err)
			}
		})
	}
}

// FuzzReadAuth: the handshake is read from whoever connects, before the
// secret is known. Whatever comes, ReadAuth returns (no panic, no hang)
// and accepts only an auth message within MaxHandshake.
func FuzzReadAuth(f *testing.F) {
	f.Add(append(binary.LittleEndian.AppendUint32(nil, 15), `{"type":"auth"}`...))
	f.Add([]byte("GET / HTTP/1.1\r\n\r\n"))
	f.Add(binary.LittleEndian.AppendUint32(nil, 0))
	f.Add(append(binary.LittleEndian.AppendUint32(nil, 4), "null"...))
	f.Fuzz(func(t *testing.T, in []byte) {
		server, client := net.Pipe()
		defer server.Close()
		go func() {
			client.Write(in)
			client.Close()
		}()
		_, auth, err := ipc.ReadAuth(server, time.Now().Add(time.Second))
		if err != nil {
			return
		}
		if auth.Type != protocol.TypeAuth {
			t.Fatalf("accepted a %q message", auth.Type)
		}
		if n := binary.LittleEndian.Uint32(in); n > ipc.MaxHandshake {
			t.Fatalf("accepted a %d-byte handshake", n)
		}
	})
}

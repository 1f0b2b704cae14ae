package browser

import (
	"errors"
	"io"
	"sync"
	"testing"
	"time"
)

func TestPipeDeliversFramesInOrder(t *testing.T) {
	t.Parallel()
	a, b := Pipe()
	buf := []byte("one")
	a.Send(buf)
	buf[0] = 'X' // the pipe keeps its own copy
	a.Send([]byte("two"))
	b.Send([]byte("back"))
	for _, want := range []string{"one", "two"} {
		got, err := b.Recv()
		if err != nil || string(got) != want {
			t.Fatalf("Recv = %q, %v; want %q", got, err, want)
		}
	}
	if got, err := a.Recv(); err != nil || string(got) != "back" {
		t.Fatalf("Recv = %q, %v; want back", got, err)
	}
}

func TestPipeSendersRunConcurrently(t *testing.T) {
	t.Parallel()
	a, b := Pipe()
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { a.Send([]byte("x")) })
	}
	wg.Wait()
	for i := range 50 {
		if _, err := b.Recv(); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
}

func TestPipeCloseEndsBothEnds(t *testing.T) {
	t.Parallel()
	a, b := Pipe()
	blocked := make(chan error, 1)
	go func() {
		_, err := a.Recv() // nothing was sent to a: it waits
		blocked <- err
	}()
	time.Sleep(time.Millisecond) // let it block (it may not have yet: either way it must end)
	a.Close()
	select {
	case err := <-blocked:
		if !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("blocked Recv on the closed end: %v, want io.ErrClosedPipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a blocked Recv")
	}
	if _, err := b.Recv(); !errors.Is(err, io.EOF) {
		t.Errorf("Recv on the other end: %v, want io.EOF", err)
	}
	for _, c := range []Conn{a, b} {
		if err := c.Send([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Send after Close: %v, want io.ErrClosedPipe", err)
		}
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestPipeOtherEndDrainsBeforeEOF(t *testing.T) {
	t.Parallel()
	a, b := Pipe()
	a.Send([]byte("reply"))
	a.Close()
	if got, err := b.Recv(); err != nil || string(got) != "reply" {
		t.Fatalf("Recv = %q, %v; want the frame sent before the close", got, err)
	}
	if _, err := b.Recv(); !errors.Is(err, io.EOF) {
		t.Fatalf("Recv = %v, want io.EOF", err)
	}
}

package nmframe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var b bytes.Buffer
	msgs := []string{`{"type":"hello"}`, ``, `{"id":"1","result":{"ü":"✓"}}`}
	for _, m := range msgs {
		if err := Write(&b, []byte(m), 1<<10, "test"); err != nil {
			t.Fatal(err)
		}
	}
	r := &Reader{R: &b, Limit: 1 << 10}
	for _, want := range msgs {
		got, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("after last frame: got %v, want io.EOF", err)
	}
}

func TestWriteRefusesOversizedAndWritesNothing(t *testing.T) {
	var b bytes.Buffer
	err := Write(&b, make([]byte, MaxToChrome+1), MaxToChrome, "to Chrome")
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want *TooLargeError", err)
	}
	if tl.Size != MaxToChrome+1 || tl.Limit != MaxToChrome {
		t.Fatalf("wrong sizes in %+v", tl)
	}
	if b.Len() != 0 {
		t.Fatalf("wrote %d bytes of a refused frame", b.Len())
	}
	// Exactly the limit is fine.
	if err := Write(&b, make([]byte, MaxToChrome), MaxToChrome, "to Chrome"); err != nil {
		t.Fatal(err)
	}
}

func TestReadSkipsOversizedFrameAndStaysInStep(t *testing.T) {
	var b bytes.Buffer
	hdr := make([]byte, 4)
	binary.LittleEndian.PutUint32(hdr, 10)
	b.Write(hdr)
	b.WriteString("0123456789")
	Write(&b, []byte(`ok`), 100, "")
	r := &Reader{R: &b, Limit: 5, Dir: "from Chrome", Skip: true}
	if _, err := r.Read(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	got, err := r.Read()
	if err != nil || string(got) != "ok" {
		t.Fatalf("next frame: %q, %v", got, err)
	}
}

func TestReadTruncated(t *testing.T) {
	for _, in := range [][]byte{{1, 0}, {5, 0, 0, 0, 'a', 'b'}} {
		r := &Reader{R: bytes.NewReader(in), Limit: 100}
		if _, err := r.Read(); err != io.ErrUnexpectedEOF {
			t.Errorf("%v: got %v, want io.ErrUnexpectedEOF", in, err)
		}
	}
	// A huge claimed length with no body must not allocate it.
	r := &Reader{R: bytes.NewReader([]byte{0xff, 0xff, 0xff, 0xff}), Limit: MaxFromChrome}
	if _, err := r.Read(); err == nil {
		t.Fatal("want an error for a header without body")
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &Reader{R: bytes.NewReader(data), Limit: 1 << 12, Skip: true}
		consumed := 0
		for {
			p, err := r.Read()
			if err != nil {
				var tl *TooLargeError
				if errors.As(err, &tl) {
					consumed += 4 + tl.Size
					continue
				}
				return
			}
			if len(p) > 1<<12 {
				t.Fatalf("frame of %d bytes passed a limit of 4096", len(p))
			}
			consumed += 4 + len(p)
			if consumed > len(data) {
				t.Fatalf("read more than the input")
			}
			// What was read writes back to the same bytes.
			var b bytes.Buffer
			if err := Write(&b, p, 1<<12, ""); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), data[consumed-4-len(p):consumed]) {
				t.Fatalf("re-encoding differs")
			}
		}
	})
}

func TestReadWithoutSkipFailsAtTheHeader(t *testing.T) {
	r := &Reader{R: bytes.NewReader([]byte{0xff, 0xff, 0xff, 0x0f}), Limit: 100}
	if _, err := r.Read(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge without waiting for a body", err)
	}
}

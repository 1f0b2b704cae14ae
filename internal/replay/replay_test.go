package replay

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// testJPEG is a w×h JPEG of one colour.
func testJPEG(t testing.TB, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAppendKeepsOrderAndIsPrivate(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	shot := testJPEG(t, 40, 30, color.White)
	for i := 0; i < 3; i++ {
		var img []byte
		if i != 1 {
			img = shot
		}
		if _, err := s.Append(Entry{Workspace: "ws/../1", Session: "session:a", Action: fmt.Sprint("a", i), Time: time.Now()}, img); err != nil {
			t.Fatal(err)
		}
	}
	tl, err := s.Read("ws/../1")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Entries) != 3 || tl.Entries[0].Action != "a0" || tl.Entries[2].Action != "a2" || tl.Entries[2].Seq != 2 {
		t.Fatalf("entries: %+v", tl.Entries)
	}
	if s.Image(tl.Entries[0]) == nil || s.Image(tl.Entries[1]) != nil {
		t.Fatalf("images: %q %q", tl.Entries[0].Image, tl.Entries[1].Image)
	}
	if runtime.GOOS == "windows" {
		return
	}
	filepath.Walk(s.Dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if info.IsDir() {
			want = 0o700
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", p, info.Mode().Perm(), want)
		}
		return nil
	})
	sums, err := s.List()
	if err != nil || len(sums) != 1 || sums[0].Steps != 3 || sums[0].Captures != 2 || sums[0].Workspace != "ws/../1" {
		t.Fatalf("list: %+v %v", sums, err)
	}
}

func TestBoundsDropTheOldest(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	s.MaxCaptures, s.MaxEntries = 3, 4
	shot := testJPEG(t, 40, 30, color.White)
	for i := 0; i < 6; i++ {
		if _, err := s.Append(Entry{Workspace: "w", Action: fmt.Sprint("a", i)}, shot); err != nil {
			t.Fatal(err)
		}
	}
	tl, _ := s.Read("w")
	var actions, kept []string
	for _, e := range tl.Entries {
		actions = append(actions, e.Action)
		if s.Image(e) != nil {
			kept = append(kept, e.Action)
		}
	}
	if fmt.Sprint(actions) != "[a2 a3 a4 a5]" || fmt.Sprint(kept) != "[a3 a4 a5]" {
		t.Fatalf("entries %v, with captures %v", actions, kept)
	}

	// The bytes in all: another workspace's newer captures push out the
	// oldest of both, down to the bound's low water (2.7 captures here).
	s2 := NewIn(filepath.Join(t.TempDir(), "replays"))
	s2.MaxBytes = int64(len(shot))*3 + 1
	for i := 0; i < 4; i++ {
		ws := []string{"x", "y"}[i%2]
		s2.Append(Entry{Workspace: ws, Action: fmt.Sprint("b", i)}, shot)
		time.Sleep(20 * time.Millisecond) // distinct modification times
	}
	var left []string
	for _, ws := range []string{"x", "y"} {
		tl, _ := s2.Read(ws)
		for _, e := range tl.Entries {
			if s2.Image(e) != nil {
				left = append(left, e.Action)
			}
		}
	}
	if fmt.Sprint(left) != "[b2 b3]" {
		t.Fatalf("captures left: %v, want b2 b3 (b0 and b1, the oldest of each workspace, dropped)", left)
	}
}

func TestDeleteAndClear(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	for _, ws := range []string{"a", "b", "c"} {
		s.Append(Entry{Workspace: ws, Action: "open"}, nil)
	}
	if err := s.Delete("b"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read("b"); err != ErrNoTimeline {
		t.Fatalf("after delete: %v", err)
	}
	if _, err := s.Read("a"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Clear(); n != 2 || err != nil {
		t.Fatalf("clear: %d %v", n, err)
	}
	if sums, _ := s.List(); len(sums) != 0 {
		t.Fatalf("left: %v", sums)
	}
	// Numbering starts again after a clear, and the steps are new.
	e, _ := s.Append(Entry{Workspace: "a", Action: "open"}, nil)
	if e.Seq != 0 {
		t.Fatalf("seq %d", e.Seq)
	}
}

func TestOffSwitch(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	if s.Off() {
		t.Fatal("off by default")
	}
	s.SetOff(true)
	if !s.Off() {
		t.Fatal("not off")
	}
	s.SetOff(false)
	if s.Off() {
		t.Fatal("still off")
	}
}

func TestSessionMergesWorkspaces(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	t0 := time.Now()
	s.Append(Entry{Workspace: "w1", Session: "session:s", Action: "open", Time: t0}, nil)
	s.Append(Entry{Workspace: "w2", Session: "session:s", Action: "click", Time: t0.Add(time.Second)}, nil)
	s.Append(Entry{Workspace: "w2", Session: "session:other", Action: "type", Time: t0.Add(2 * time.Second)}, nil)
	s.Append(Entry{Workspace: "w1", Session: "session:s", Action: "press", Time: t0.Add(3 * time.Second)}, nil)
	tl, err := s.Session("session:s")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tl.Entries {
		got = append(got, e.Action)
	}
	if fmt.Sprint(got) != "[open click press]" {
		t.Fatalf("%v", got)
	}
	if _, err := s.Session("session:none"); err != ErrNoTimeline {
		t.Fatalf("%v", err)
	}
}

func TestHTMLEscapesAndLoadsNothing(t *testing.T) {
	shot := testJPEG(t, 40, 30, color.White)
	tl := Timeline{Workspace: `<script>alert(1)</script>`, Entries: []Entry{
		{Workspace: "w", Action: "click", Target: `text "<img src=http://evil.example/x onerror=alert(1)>"`, Image: "00000000.jpg", URL: "https://example.com/?token=abc", Title: "</title><script>"},
		{Workspace: "w", Action: "open", Code: "timeout", Image: "00000001.jpg"},
	}}
	var b bytes.Buffer
	err := WriteHTML(&b, tl, func(e Entry) []byte {
		if e.Image == "00000000.jpg" {
			return shot
		}
		return []byte("<svg onload=alert(1)>") // not a JPEG: never an image
	})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script>alert", "<img src=http", "</title><script>", "token=abc", "<svg"} {
		if strings.Contains(out, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	if n := strings.Count(out, `src="data:image/jpeg;base64,`); n != 1 {
		t.Errorf("%d images, want 1", n)
	}
	if !strings.Contains(out, `content="default-src &#39;none&#39;; img-src data:;`) {
		t.Errorf("no strict policy: %s", out[:400])
	}
	// Nothing the page loads comes from anywhere but itself.
	for _, m := range regexp.MustCompile(`(?i)(src|href|action)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[2], "data:image/jpeg;base64,") {
			t.Errorf("the page loads %q", m[0])
		}
	}
}

func TestGIFOneFramePerStep(t *testing.T) {
	shot := testJPEG(t, 1280, 900, color.RGBA{0, 0, 255, 255})
	tl := Timeline{Workspace: "w"}
	for i := 0; i < 5; i++ {
		tl.Entries = append(tl.Entries, Entry{Workspace: "w", Action: "click", Target: "label \"Name\" ü", Image: "x"})
	}
	tl.Entries[4].Code = "element_not_found"
	var b bytes.Buffer
	if err := WriteGIF(&b, tl, func(e Entry) []byte { return shot }); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 5 || len(g.Delay) != 5 {
		t.Fatalf("%d frames", len(g.Image))
	}
	// The capture is drawn (blue), and the caption is written on its band.
	f := g.Image[0]
	if _, _, b, _ := f.At(frameW/2, frameH/2).RGBA(); b < 0x8000 {
		t.Errorf("the middle of the frame is not the capture's blue")
	}
	white := 0
	for y := frameH; y < frameH+bandH; y++ {
		for x := 0; x < frameW; x++ {
			if r, g, b, _ := f.At(x, y).RGBA(); r > 0xe000 && g > 0xe000 && b > 0xe000 {
				white++
			}
		}
	}
	if white < 100 {
		t.Errorf("no caption drawn (%d white pixels)", white)
	}
	if err := WriteGIF(&b, Timeline{}, nil); err != ErrNoTimeline {
		t.Errorf("empty: %v", err)
	}
}

func TestThumbnailIsSmaller(t *testing.T) {
	big := testJPEG(t, 1280, 900, color.RGBA{200, 10, 10, 255})
	small := Thumbnail(big, 480)
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(small))
	if err != nil || cfg.Width != 480 || cfg.Height != 337 {
		t.Fatalf("%+v %v", cfg, err)
	}
	if got := Thumbnail([]byte("not a jpeg"), 480); string(got) != "not a jpeg" {
		t.Fatal("changed bytes it could not read")
	}
}

func TestParseIndexSkipsWhatItCannotTrust(t *testing.T) {
	data := []byte(`{"seq":0,"workspace":"w","action":"open","image":"00000000.jpg"}
not json
{"seq":1,"workspace":"w","action":"click","image":"../../secret.jpg"}
{"seq":2,"workspace":"w"}

{"seq":3,"workspace":"w","action":"type","image":"0000000a.jpg"}`)
	es := ParseIndex(data)
	if len(es) != 3 || es[0].Image != "00000000.jpg" || es[1].Image != "" || es[2].Image != "" {
		t.Fatalf("%+v", es)
	}
}

func FuzzParseIndex(f *testing.F) {
	f.Add([]byte(`{"seq":0,"workspace":"w","action":"open","image":"00000000.jpg"}` + "\n"))
	f.Add([]byte("{\"seq\":1,\"workspace\":\"w\",\"action\":\"x\",\"image\":\"../a.jpg\"}\n\xff\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, e := range ParseIndex(data) {
			if e.Action == "" || e.Workspace == "" {
				t.Fatalf("kept an entry without action or workspace: %+v", e)
			}
			if e.Image != "" {
				if _, ok := imageSeq(e.Image); !ok || strings.ContainsAny(e.Image, `/\`) {
					t.Fatalf("kept image name %q", e.Image)
				}
			}
		}
	})
}

// The timelines in all are bounded: beyond MaxTimelines the one used
// longest ago goes, and one unused for MaxAge goes whatever the count.
func TestBoundsDropTheOldestTimelines(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	s.MaxTimelines = 3
	for i := 0; i < 5; i++ {
		if _, err := s.Append(Entry{Workspace: fmt.Sprint("w", i), Action: "open"}, nil); err != nil {
			t.Fatal(err)
		}
		// Distinct, ordered last uses.
		old := time.Now().Add(time.Duration(i-10) * time.Minute)
		os.Chtimes(filepath.Join(s.folder(fmt.Sprint("w", i)), indexName), old, old)
	}
	if got := listed(t, s); got != "[w2 w3 w4]" {
		t.Fatalf("timelines kept %s, want the three used last", got)
	}
	// w3 used now: w2 is then the oldest, and a new one pushes it out.
	s.Append(Entry{Workspace: "w3", Action: "click"}, nil)
	s.Append(Entry{Workspace: "w5", Action: "open"}, nil)
	if got := listed(t, s); got != "[w3 w4 w5]" {
		t.Fatalf("timelines kept %s, want w3 w4 w5", got)
	}
	if n, _ := s.Append(Entry{Workspace: "w2", Action: "open"}, nil); n.Seq != 0 {
		t.Errorf("a dropped timeline's steps start again at 0, got %d", n.Seq)
	}

	// Age: a timeline unused for MaxAge goes at the next step of any.
	s2 := NewIn(filepath.Join(t.TempDir(), "replays"))
	s2.MaxAge = time.Hour
	s2.Append(Entry{Workspace: "stale", Action: "open"}, nil)
	s2.Append(Entry{Workspace: "fresh", Action: "open"}, nil)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(s2.folder("stale"), indexName), old, old)
	s2.Append(Entry{Workspace: "fresh", Action: "click"}, nil)
	if got := listed(t, s2); got != "[fresh]" {
		t.Fatalf("timelines kept %s, want only fresh", got)
	}
}

// A timeline's index file is bounded in bytes, not only in entries: long
// URLs and titles from pages push out the oldest entries and their
// captures.
func TestBoundsTheIndexBytes(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	s.MaxIndexBytes = 4 << 10
	shot := testJPEG(t, 40, 30, color.White)
	for i := 0; i < 20; i++ {
		if _, err := s.Append(Entry{Workspace: "w", Action: "open", Title: strings.Repeat("t", 1000)}, shot); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(filepath.Join(s.folder("w"), indexName))
	if err != nil || info.Size() > s.MaxIndexBytes {
		t.Fatalf("index: %v, %d bytes, want at most %d", err, info.Size(), s.MaxIndexBytes)
	}
	tl, _ := s.Read("w")
	if len(tl.Entries) == 0 || tl.Entries[len(tl.Entries)-1].Seq != 19 {
		t.Fatalf("the newest entry is not kept: %+v", tl.Entries)
	}
	if c := s.captures(s.folder("w")); len(c) != len(tl.Entries) || c[0].seq != tl.Entries[0].Seq {
		t.Errorf("%d captures for %d entries: a dropped entry's capture is left", len(c), len(tl.Entries))
	}
}

// listed is the workspaces of s's kept timelines, sorted.
func listed(t *testing.T, s *Store) string {
	t.Helper()
	sums, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, sum := range sums {
		ids = append(ids, sum.Workspace)
	}
	sort.Strings(ids)
	return fmt.Sprint(ids)
}

// A page decides a step's URL and title (and the target and outcome come
// from the agent and the extension): each is cut at MaxField bytes with a
// visible mark, so that no line of the index is too long to read back,
// and a URL of over 1 MiB (history.replaceState) cannot wreck the index.
func TestAppendCutsPageStrings(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	long := strings.Repeat("é", 600_000) // 1.2 MB
	e, err := s.Append(Entry{Workspace: "w", Action: "open", URL: "https://example.com/#" + long, Title: long, Target: long, Code: long}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := s.Read("w")
	if err != nil || len(tl.Entries) != 1 || tl.Entries[0].Seq != e.Seq {
		t.Fatalf("read back %+v, %v; want the step", tl.Entries, err)
	}
	got := tl.Entries[0]
	for name, v := range map[string]string{"url": got.URL, "title": got.Title, "target": got.Target, "code": got.Code} {
		if len(v) > MaxField || !strings.HasSuffix(v, "…") || !utf8.ValidString(v) {
			t.Errorf("%s: %d bytes, ends %q; want at most %d, cut with …", name, len(v), v[max(0, len(v)-8):], MaxField)
		}
	}
	if c := Cut("short", MaxField); c != "short" {
		t.Errorf("a short string was cut: %q", c)
	}
}

// An index that reads back as no entry at all (every line too long or
// not JSON), however large, is emptied, and never panics.
func TestBoundIndexOfNoEntries(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	s.MaxIndexBytes = 1 << 10
	dir := s.folder("w")
	os.MkdirAll(dir, 0o700)
	junk := `{"seq":0,"workspace":"w","action":"open","url":"` + strings.Repeat("x", 70<<10) + "\"}\n"
	os.WriteFile(filepath.Join(dir, indexName), []byte(junk+"not json\n"), 0o600)
	if err := s.boundIndex(dir); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(dir, indexName)); err != nil || info.Size() > s.MaxIndexBytes {
		t.Errorf("index after bounding: %v, %v", info, err)
	}
	if e, err := s.Append(Entry{Workspace: "w", Action: "click"}, nil); err != nil || e.Seq != 0 {
		t.Errorf("append after: seq %d, %v", e.Seq, err)
	}
}

// The age limit is applied when the store is opened (the daemon starts),
// not only when a step is added: a timeline left 14 days ago goes even if
// no workspace takes a step again.
func TestPruneDropsStaleTimelines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "replays")
	s := NewIn(dir)
	for _, w := range []string{"stale", "fresh", "w3"} {
		s.Append(Entry{Workspace: w, Action: "open"}, nil)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(s.folder("stale"), indexName), old, old)
	os.WriteFile(filepath.Join(dir, "off"), nil, 0o600)

	s2 := NewIn(dir)
	s2.MaxAge = time.Hour
	s2.MaxTimelines = 2
	if err := s2.Prune(); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, s2); got != "[fresh w3]" {
		t.Errorf("after Prune %s, want [fresh w3]", got)
	}
	if !s2.Off() {
		t.Error("Prune removed the off switch")
	}
	if err := NewIn(filepath.Join(t.TempDir(), "none")).Prune(); err != nil {
		t.Errorf("Prune of a store not yet made: %v", err)
	}
}

// A bound that is passed cuts back to its low water, a tenth below it,
// and the steps after that are added without a cut until it is passed
// again; the tallies follow what is on disk, across a new store too.
func TestBoundsCutToTheLowWater(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "replays")
	s := NewIn(dir)
	s.MaxEntries, s.MaxCaptures = 20, 10
	shot := testJPEG(t, 40, 30, color.White)
	steps := func(s *Store, n int) {
		t.Helper()
		for range n {
			if _, err := s.Append(Entry{Workspace: "w", Action: "click"}, shot); err != nil {
				t.Fatal(err)
			}
		}
	}
	count := func(s *Store) (entries, captures int) {
		tl, _ := s.Read("w")
		return len(tl.Entries), len(s.captures(s.folder("w")))
	}
	steps(s, 20)
	// Captures: each 11th is cut back to 9, so they alternate 9, 10.
	if e, c := count(s); e != 20 || c != 10 {
		t.Fatalf("after 20 steps: %d entries, %d captures; want 20 and 10 (at the bounds)", e, c)
	}
	steps(s, 1)
	if e, c := count(s); e != 18 || c != 9 {
		t.Fatalf("after 21 steps: %d entries, %d captures; want 18 and 9 (the low waters of 20 and 10)", e, c)
	}
	// A new store (the daemon started again) reads the tally once and
	// goes on from it.
	s2 := NewIn(dir)
	s2.MaxEntries, s2.MaxCaptures = 20, 10
	steps(s2, 2)
	if e, _ := count(s2); e != 20 {
		t.Fatalf("after 2 more steps in a new store: %d entries, want 20", e)
	}
	steps(s2, 1)
	if e, _ := count(s2); e != 18 {
		t.Fatalf("past the bound again: %d entries, want 18", e)
	}
	tl, _ := s2.Read("w")
	if last := tl.Entries[len(tl.Entries)-1].Seq; last != 23 {
		t.Errorf("the newest step is seq %d, want 23", last)
	}
	// Removed by another process (replay --clear): the stale tally is set
	// right by the next step, which starts a timeline of its own.
	if _, err := NewIn(dir).Clear(); err != nil {
		t.Fatal(err)
	}
	steps(s2, 1)
	if e, c := count(s2); e != 1 || c != 1 {
		t.Errorf("after a clear by another store and a step: %d entries, %d captures; want 1, 1", e, c)
	}
}

// BenchmarkAppendToAFullTimeline is a step added to a timeline at its
// bound of entries, beside 10 other timelines of 200 captures each: the
// cost every step of a long session pays.
func BenchmarkAppendToAFullTimeline(b *testing.B) {
	s := NewIn(filepath.Join(b.TempDir(), "replays"))
	shot := testJPEG(b, 40, 30, color.White)
	for w := range 10 {
		for range MaxCaptures {
			s.Append(Entry{Workspace: fmt.Sprint("other", w), Action: "open"}, shot)
		}
	}
	e := Entry{Workspace: "w", Action: "click", Target: `button "Press"`, URL: "http://127.0.0.1:8080/s/agent/page", Title: "a page"}
	for range MaxEntries {
		s.Append(e, nil)
	}
	b.ResetTimer()
	for i := range b.N {
		var shotOrNot []byte
		if i%4 == 0 {
			shotOrNot = shot // a quarter of the steps change the page
		}
		if _, err := s.Append(e, shotOrNot); err != nil {
			b.Fatal(err)
		}
	}
}

// ReadFrom gives what Read gives from a step on, whether the steps asked
// for lie in the index's last 4 KiB or reach back to its start, and
// refuses a timeline that is not kept as Read does.
func TestReadFromMatchesRead(t *testing.T) {
	s := NewIn(filepath.Join(t.TempDir(), "replays"))
	// About 1.1 KB a line: the windows double from 4 KiB to the 330 KB of
	// the whole index.
	for i := range 300 {
		if _, err := s.Append(Entry{Workspace: "w", Action: "click", Title: strings.Repeat("t", 1000) + fmt.Sprint(i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.Read("w")
	if err != nil || len(all.Entries) != 300 {
		t.Fatalf("Read: %d entries, %v", len(all.Entries), err)
	}
	for _, from := range []int{-1, 0, 1, 150, 241, 298, 299, 300, 1000} {
		got, err := s.ReadFrom("w", from)
		if err != nil {
			t.Fatalf("ReadFrom(%d): %v", from, err)
		}
		var want []Entry
		for _, e := range all.Entries {
			if e.Seq >= from {
				want = append(want, e)
			}
		}
		if fmt.Sprint(got.Entries) != fmt.Sprint(want) {
			t.Errorf("ReadFrom(%d): %d entries, want %d (seq %v…)", from, len(got.Entries), len(want), seqs(got.Entries))
		}
	}
	if _, err := s.ReadFrom("none", 0); !errors.Is(err, ErrNoTimeline) {
		t.Errorf("ReadFrom of a timeline not kept: %v, want ErrNoTimeline", err)
	}
}

func seqs(es []Entry) []int {
	var out []int
	for _, e := range es[:min(len(es), 5)] {
		out = append(out, e.Seq)
	}
	return out
}

// BenchmarkReadTheNewestStep is the workspace page's ask after a step
// (the steps from the newest on) of a full timeline, by ReadFrom and by
// Read.
func BenchmarkReadTheNewestStep(b *testing.B) {
	s := NewIn(filepath.Join(b.TempDir(), "replays"))
	e := Entry{Workspace: "w", Action: "click", Target: `button "Press"`, URL: "http://127.0.0.1:8080/s/agent/page", Title: "a page"}
	for range MaxEntries {
		s.Append(e, nil)
	}
	last := MaxEntries - 1
	b.Run("ReadFrom", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if t, err := s.ReadFrom("w", last); err != nil || len(t.Entries) != 1 {
				b.Fatal(len(t.Entries), err)
			}
		}
	})
	b.Run("Read", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := s.Read("w"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// twoInputs writes a binary and a text file, then touches them with the
// current time so that a writer copying mtimes would differ between runs.
func twoInputs(t *testing.T, dir string, when time.Time) []string {
	t.Helper()
	bin := filepath.Join(dir, "browser-bridge")
	txt := filepath.Join(dir, "README.md")
	if err := os.WriteFile(bin, []byte("\x7fELF binary"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(txt, []byte("# read me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{bin, txt} {
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	// Given in the opposite of the sorted order, to check the sort.
	return []string{txt, bin}
}

func TestArchivesAreReproducible(t *testing.T) {
	a := twoInputs(t, t.TempDir(), time.Now())
	b := twoInputs(t, t.TempDir(), time.Now().Add(-48*time.Hour))
	b[0], b[1] = b[1], b[0]
	for name, write := range map[string]func(io.Writer, []string) error{"tar": writeTarGz, "zip": writeZip} {
		var x, y bytes.Buffer
		if err := write(&x, a); err != nil {
			t.Fatal(err)
		}
		if err := write(&y, b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x.Bytes(), y.Bytes()) {
			t.Errorf("%s: two runs over the same files gave different bytes", name)
		}
	}
}

func TestTarHoldsSortedEntriesWithFixedModes(t *testing.T) {
	var buf bytes.Buffer
	if err := writeTarGz(&buf, twoInputs(t, t.TempDir(), time.Now())); err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	want := []struct {
		name string
		mode int64
	}{{"README.md", 0o644}, {"browser-bridge", 0o755}}
	for _, w := range want {
		h, err := tr.Next()
		if err != nil {
			t.Fatal(err)
		}
		if h.Name != w.name || h.Mode != w.mode || !h.ModTime.Equal(stamp) {
			t.Errorf("entry %q mode %o time %v; want %q mode %o time %v", h.Name, h.Mode, h.ModTime, w.name, w.mode, stamp)
		}
	}
	if _, err := tr.Next(); err != io.EOF {
		t.Errorf("more entries than the two files: %v", err)
	}
}

func TestExtensionZipHasManifestAtRootAndNoGo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ext.zip")
	if err := run([]string{"extension", out}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var manifest bool
	for _, f := range zr.File {
		if f.Name == "manifest.json" {
			manifest = true
		}
		if filepath.Ext(f.Name) == ".go" {
			t.Errorf("the extension zip holds Go source %q", f.Name)
		}
	}
	if !manifest {
		t.Error("no manifest.json at the zip's root")
	}
}

func TestSumsListEveryFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.zip"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"sums", dir}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	// sha256("abc"), the FIPS 180-2 test vector.
	want := "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.zip\n"
	if string(got) != want {
		t.Errorf("SHA256SUMS = %q, want %q", got, want)
	}
}

func TestBadUsageSaysHow(t *testing.T) {
	if err := run([]string{"tar"}); err == nil || !bytes.Contains([]byte(err.Error()), []byte("usage")) {
		t.Errorf("run(tar) = %v, want the usage", err)
	}
}

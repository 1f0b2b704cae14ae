package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/browser-bridge/browser-bridge/extension"
)

// stamp is every entry's modification time. A fixed time (not the build's
// clock, not the checkout's) is what lets two builds agree byte for byte;
// 2000-01-01 sits safely inside both the zip (DOS, from 1980) and the tar range.
var stamp = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// entry is one file of an archive: its name inside and its content.
type entry struct {
	name string
	mode fs.FileMode
	data []byte
}

// readEntries reads files by their base names, sorted. A file that is
// executable on disk (the binary) gets 0755 and everything else 0644, so
// the umask of the machine that builds does not leak into the archive.
func readEntries(files []string) ([]entry, error) {
	var es []entry
	for _, p := range files {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		mode := fs.FileMode(0o644)
		if fi.Mode()&0o111 != 0 || strings.HasSuffix(p, ".exe") {
			mode = 0o755
		}
		es = append(es, entry{name: filepath.Base(p), mode: mode, data: data})
	}
	slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return es, nil
}

func writeTarGz(w io.Writer, files []string) error {
	es, err := readEntries(files)
	if err != nil {
		return err
	}
	// The gzip header's name and time stay empty: they would carry the
	// build's clock.
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, e := range es {
		h := &tar.Header{Name: e.name, Mode: int64(e.mode), Size: int64(len(e.data)),
			ModTime: stamp, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, files []string) error {
	es, err := readEntries(files)
	if err != nil {
		return err
	}
	return zipEntries(w, es)
}

func zipEntries(w io.Writer, es []entry) error {
	zw := zip.NewWriter(w)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: stamp}
		h.SetMode(e.mode)
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(e.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeExtension zips the extension exactly as the binary embeds it: the
// embed pattern already leaves out the Go and test files, and the manifest
// sits at the zip's root, as the Chrome Web Store wants it.
func writeExtension(w *os.File) error {
	var es []entry
	err := fs.WalkDir(extension.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(extension.FS(), p)
		if err != nil {
			return err
		}
		es = append(es, entry{name: p, mode: 0o644, data: data})
		return nil
	})
	if err != nil {
		return err
	}
	// WalkDir walks in lexical order already; sort anyway so that the
	// order is this function's promise, not the walker's.
	slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return zipEntries(w, es)
}

// writeSums writes dir/SHA256SUMS in the format `sha256sum -c` reads: one
// "HASH  NAME" line per file of dir, sorted by name.
func writeSums(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range ents {
		if !e.Type().IsRegular() || e.Name() == "SHA256SUMS" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), e.Name())
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(b.String()), 0o644)
}

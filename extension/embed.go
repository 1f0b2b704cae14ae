// Package extension embeds the Manifest V3 extension so that one binary
// carries it; launch and install write it out for Chrome to load unpacked.
package extension

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed manifest.json *.js handlers/*.js page/*.js transport/*.js ui/*
var files embed.FS

// FS returns the extension's files.
func FS() fs.FS { return files }

// WriteTo writes the extension into dir, replacing what an earlier version
// left there, and returns dir. Files are written fresh so that Chrome
// loading the folder always sees one consistent version.
func WriteTo(dir string) error {
	// Only ever clear a folder that holds an extension (or nothing): dir
	// may come from a flag, and a typo must not wipe someone's files.
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("%s cannot be checked (%w); choose another folder", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder (a file or a link); choose a folder that is empty or does not exist yet", dir)
	default:
		ents, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("%s cannot be read (%w); choose another folder", dir, err)
		}
		if len(ents) > 0 && !IsExtensionDir(dir) {
			return fmt.Errorf("%s is not empty and does not hold the Browser Bridge extension; choose an empty folder", dir)
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("clearing %s: %w", dir, err)
	}
	return fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

// IsExtensionDir reports whether dir holds a copy of this extension (any
// version) that WriteTo wrote: its manifest carries the same key, so the
// same extension ID, and it holds nothing else — the extension's source
// folder, with its Go files, is not such a copy and is never cleared.
func IsExtensionDir(dir string) bool {
	// An older version may have had other files, but only the kinds an
	// extension ships, in its own folders (a source folder has Go files
	// too; someone's folder dropped inside has anything).
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return false
	}
	foreign := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			if fi, err := fs.Stat(files, filepath.ToSlash(rel)); err != nil || !fi.IsDir() {
				return errors.New("a folder the extension does not have")
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".js", ".json", ".html", ".css", ".png":
			if d.Type().IsRegular() {
				return nil
			}
		}
		return errors.New("a file the extension does not ship")
	})
	if foreign != nil {
		return false
	}
	key := func(data []byte) string {
		var m struct {
			Key string `json:"key"`
		}
		if json.Unmarshal(data, &m) != nil {
			return ""
		}
		return m.Key
	}
	theirs, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return false
	}
	ours, _ := files.ReadFile("manifest.json")
	k := key(theirs)
	return k != "" && k == key(ours)
}

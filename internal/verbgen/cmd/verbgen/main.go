// Command verbgen writes the files generated from protocol.Verbs (see
// package verbgen) into the repository that holds the current folder. It
// runs through go generate: go generate ./internal/protocol
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/verbgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "verbgen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	files, err := verbgen.Generate(protocol.Verbs)
	if err != nil {
		return err
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// repoRoot is the nearest folder at or above the current one with a
// go.mod: go generate runs this from internal/protocol.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the current folder")
		}
		dir = parent
	}
}

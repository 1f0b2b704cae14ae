// Command clientgen writes bridge/actions_gen.go, the public Go client's
// action methods, from the contract (see package clientgen). It runs from
// bridge/ through go generate: go generate ./bridge
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/browser-bridge/browser-bridge/internal/clientgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "clientgen:", err)
		os.Exit(1)
	}
}

// run writes the file into the current folder (bridge/), reading the
// repository above it.
func run() error {
	src, err := clientgen.Generate("..")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(".", clientgen.File), src, 0o644)
}

//go:build !linux && !darwin

package pathcheck

import "os"

// pseudoRoots is empty where the project has no known layout (it is built
// for Linux and macOS); this file only keeps the package compiling.
var pseudoRoots []string

// pseudoFSType recognises no pseudo-filesystems on other systems.
func pseudoFSType(string) (string, error) { return "", nil }

// pseudoFSTypeOf recognises no pseudo-filesystems on other systems.
func pseudoFSTypeOf(*os.File) (string, error) { return "", nil }

// Command releasepack writes the release's archives so that two runs over
// the same inputs give the same bytes: entries in a fixed order, one fixed
// time stamp, fixed modes and no owner names. scripts/release runs it; the
// standard library does the whole job, so a release needs no tool besides Go.
//
//	releasepack tar OUT.tar.gz FILE...   a gzipped tar of FILEs, by base name
//	releasepack zip OUT.zip FILE...      a zip of FILEs, by base name
//	releasepack extension OUT.zip        the embedded extension, manifest at the root
//	releasepack sums DIR                 DIR/SHA256SUMS over DIR's files
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "releasepack:", err)
		os.Exit(1)
	}
}

const usage = "usage: releasepack tar|zip OUT FILE... | extension OUT | sums DIR"

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("%s", usage)
	}
	switch cmd, out := args[0], args[1]; {
	case cmd == "tar" && len(args) > 2:
		return writeFile(out, func(f *os.File) error { return writeTarGz(f, args[2:]) })
	case cmd == "zip" && len(args) > 2:
		return writeFile(out, func(f *os.File) error { return writeZip(f, args[2:]) })
	case cmd == "extension" && len(args) == 2:
		return writeFile(out, writeExtension)
	case cmd == "sums" && len(args) == 2:
		return writeSums(out)
	default:
		return fmt.Errorf("%s", usage)
	}
}

// writeFile creates out, lets write fill it, and removes it again when
// write fails, so that a half-written archive never looks like a release.
func writeFile(out string, write func(*os.File) error) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(out)
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return f.Close()
}

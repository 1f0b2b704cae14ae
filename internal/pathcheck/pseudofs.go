package pathcheck

import (
	"os"
	"strings"
)

// pseudoFS says why the canonical path canon is on a pseudo-filesystem —
// "under /proc", "on a sysfs mount" — or returns "" when it is not. Such
// files stat as regular files but are live views of processes, devices or
// the kernel (a program's environment, memory maps, open files, kernel
// state), not files the user made, so upload refuses them.
//
// The path prefix is checked first because it is free and because some
// roots cannot be told apart by their filesystem alone (/dev and /dev/shm
// are tmpfs on Linux, like /tmp). The filesystem type is checked as well,
// where the platform reports it, because a prefix is only where such a
// filesystem is usually mounted: a bind mount of /proc elsewhere would evade
// it. An error means the filesystem could not be determined; callers refuse
// the path then rather than guess.
func pseudoFS(canon string) (string, error) {
	if r := pseudoRoot(canon); r != "" {
		return "under " + r, nil
	}
	name, err := pseudoFSType(canon)
	if err != nil || name == "" {
		return "", err
	}
	return "on a " + name + " mount", nil
}

// pseudoRoot returns the entry of pseudoRoots that is canon or one of its
// parents, or "". It compares whole components, so /process is not /proc.
func pseudoRoot(canon string) string {
	for _, r := range pseudoRoots {
		if canon == r || strings.HasPrefix(canon, r+"/") {
			return r
		}
	}
	return ""
}

// pseudoFSOf says why the open file f is on a pseudo-filesystem, as
// pseudoFS does from its filesystem type alone, or returns "".
func pseudoFSOf(f *os.File) (string, error) {
	name, err := pseudoFSTypeOf(f)
	if err != nil || name == "" {
		return "", err
	}
	return "on a " + name + " mount", nil
}

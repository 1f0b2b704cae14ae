package pathcheck

import (
	"os"
	"syscall"
)

// pseudoRoots are where macOS mounts its pseudo-filesystems: devfs, with
// the /dev/fd views of open files.
var pseudoRoots = []string{"/dev"}

// pseudoFSType returns the name of the pseudo-filesystem that holds path,
// or "" for any other filesystem. It also catches /DEV and the like, which
// the case-insensitive root volume resolves into devfs.
func pseudoFSType(path string) (string, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return "", err
	}
	return pseudoName(&st), nil
}

// pseudoFSTypeOf is pseudoFSType of an open file.
func pseudoFSTypeOf(f *os.File) (string, error) {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &st); err != nil {
		return "", err
	}
	return pseudoName(&st), nil
}

func pseudoName(st *syscall.Statfs_t) string {
	b := make([]byte, 0, len(st.Fstypename))
	for _, c := range st.Fstypename {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	switch name := string(b); name {
	case "devfs", "fdesc":
		return name
	}
	return ""
}

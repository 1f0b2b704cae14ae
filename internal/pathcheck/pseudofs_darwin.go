package pathcheck

import "syscall"

// pseudoRoots are where macOS mounts its pseudo-filesystems: devfs, with
// the /dev/fd views of open files.
var pseudoRoots = []string{"/dev"}

// pseudoName names devfs and fdesc, macOS's pseudo-filesystems; it also
// catches /DEV and the like, which the case-insensitive root volume
// resolves into devfs.
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

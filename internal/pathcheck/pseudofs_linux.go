package pathcheck

import "syscall"

// pseudoRoots are where Linux mounts its pseudo-filesystems. /dev is here
// for its regular files, chiefly /dev/shm: other programs' shared memory
// (Chromium's own among them), not the user's files. Devices themselves are
// already refused as not regular files.
var pseudoRoots = []string{"/proc", "/sys", "/dev"}

// pseudoMagic maps the statfs f_type of Linux pseudo-filesystems (values
// from linux/magic.h) to their names. tmpfs is not here: /tmp is tmpfs too.
var pseudoMagic = map[uint32]string{
	0x9fa0:     "proc",
	0x62656572: "sysfs",
	0x1cd1:     "devpts",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0xf97cff8c: "selinuxfs",
	0x43415d53: "smackfs",
	0x27e0eb:   "cgroup",
	0x63677270: "cgroup2",
	0xcafe4a11: "bpf",
	0x6165676c: "pstore",
	0xde5e81e4: "efivarfs",
	0x42494e4d: "binfmt_misc",
}

// pseudoName names the Linux pseudo-filesystem of st's f_type.
func pseudoName(st *syscall.Statfs_t) string {
	// f_type is int64, int32 or uint32 depending on the architecture; every
	// magic number fits in 32 bits, and truncating to uint32 keeps those
	// with the top bit set (selinuxfs, bpf, efivarfs) equal on all of them.
	return pseudoMagic[uint32(st.Type)]
}

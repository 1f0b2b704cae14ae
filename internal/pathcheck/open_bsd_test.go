//go:build unix && !linux

package pathcheck

// noOpenat2Swap: there is only the walk here.
func noOpenat2Swap(bool) bool { return true }

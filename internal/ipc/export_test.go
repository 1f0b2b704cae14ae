package ipc

import (
	"testing"
	"time"
)

// SetConnectTimeout shortens Dial's ConnectTimeout for one test. The test
// must not run in parallel: the value is shared by the package.
func SetConnectTimeout(t *testing.T, d time.Duration) {
	old := connectTimeout
	connectTimeout = d
	t.Cleanup(func() { connectTimeout = old })
}

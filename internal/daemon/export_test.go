package daemon

import "time"

// ShortenExpiry makes entries expire after ttl and the sweep run every
// every, so a test need not wait 30 minutes. Call it before Run.
func (d *Daemon) ShortenExpiry(ttl, every time.Duration) {
	d.reg.SetTTL(ttl)
	d.sweepEvery = every
}

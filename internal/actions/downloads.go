package actions

import (
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The downloads action lists what the bridge's actions downloaded; the
// book that catches and moves those files is downloadbook.go.

func init() { register("downloads", listDownloads) }

// listDownloads is the downloads action: the downloads the bridge's
// actions started, newest first — the ones reported already and those
// that began shortly after an action — brought up to date.
func listDownloads(r *run) (*tool.DownloadsResult, error) {
	inst := r.browserInstance()
	since := time.Now().Add(-downloadKeep)
	downloads := &r.env.downloads
	downloads.mu.Lock()
	var windows []actionWindow
	for _, w := range downloads.windows {
		if w.instance == inst && w.end.After(since) {
			windows = append(windows, w)
		}
	}
	downloads.mu.Unlock()
	if len(windows) > 0 {
		items, err := r.b.DownloadsList(r.ctx, protocol.DownloadsListParams{Since: windows[0].start.Add(-50 * time.Millisecond).UnixMilli(), Limit: 100})
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			downloads.catch(it, windows)
		}
	}
	ids := downloads.ids(inst)
	list := r.settleDownloads(ids, 0)
	return &tool.DownloadsResult{Downloads: list, Folder: r.env.DownloadsFolder}, nil
}

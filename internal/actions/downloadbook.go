// Files out (the downloads of docs/controls.md). Chrome decides where a download goes:
// the user's download folder (an extension may only choose a name inside
// it), or a prompt when the user asked for one. So the bridge lets Chrome
// save the file, and once it is complete the daemon moves it — the bytes
// read from the file pathcheck.OpenDownload opened by the upload rules, written
// as a private file in the bridge's own private downloads folder
// (Env.DownloadsFolder), the
// original removed — and reports the move (savedBy "bridge"). A file it
// may not take (its name breaks the upload rules, it is over the size
// cap) stays where Chrome saved it and is reported there (savedBy
// "browser", with a note why).
//
// Only downloads the bridge's own actions started are touched: those
// that began during a click or press on the tab it acted on (the
// extension names the tab of a download that began as a navigation;
// others are matched by their referrer and URL to the tab's origin).
// The user's own downloads are never listed, moved or cancelled.

package actions

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/pathcheck"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// Download is one file a bridge action downloaded, as results report it.
type Download = tool.Download

// Bounds of the downloads an action reports.
const (
	// downloadFinishWait is how long a click waits for a download it
	// started to complete before it reports it in progress (the
	// downloads action reports it later).
	downloadFinishWait = 3 * time.Second
	// downloadLate is how long after an action a download that began only
	// then is still counted as the action's.
	downloadLate = 10 * time.Second
	downloadKeep = time.Hour
	maxCaught    = 200
	maxListed    = 20
)

// caughtDownload is a download an action of the bridge started.
type caughtDownload struct {
	d        Download
	instance string
	at       time.Time
	final    bool // moved or left for good; nothing more to do
}

// actionWindow is a click or press on a tab: downloads that start within
// it (or shortly after) on that tab are the bridge's.
type actionWindow struct {
	instance   string
	tabID      int
	origin     string
	owned      bool
	start, end time.Time
}

// downloadBook is the daemon's record of caught downloads and of the
// recent actions that may start some (Env.downloads). The zero book is
// empty and ready.
type downloadBook struct {
	mu      sync.Mutex
	caught  map[string]*caughtDownload // instance/id
	windows []actionWindow
}

func downloadKey(instance string, id int) string { return instance + "/" + strconv.Itoa(id) }

// reportDownloads lists, for an action whose spec StartsDownloads and
// that acted on page, the downloads it started, waiting a little for them
// to complete, and moves the complete ones into the bridge's folder. It
// never fails the action: a download it cannot look at is not reported.
func (r *run) reportDownloads(page tool.Page, started time.Time) []Download {
	tabID, tabURL := page.TabID, page.URL
	if tabID == 0 {
		return nil
	}
	inst := r.browserInstance()
	w := actionWindow{instance: inst, tabID: tabID, origin: originOfURL(tabURL), owned: r.reg().IsOwned(tabID), start: started, end: time.Now()}
	book := &r.env.downloads
	book.mu.Lock()
	book.windows = append(book.windows, w)
	if len(book.windows) > 100 {
		book.windows = book.windows[len(book.windows)-100:]
	}
	book.mu.Unlock()
	// ActedOnTabID: the extension holds what the tab starts next to the
	// cap by itself, with nobody polling.
	items, err := r.b.DownloadsList(r.ctx, protocol.DownloadsListParams{Since: started.Add(-50 * time.Millisecond).UnixMilli(), Limit: 20, ActedOnTabID: tabID})
	if err != nil {
		return nil
	}
	var mine []int
	for _, it := range items {
		if _, fresh := book.catch(it, []actionWindow{w}); fresh {
			mine = append(mine, it.ID)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	return r.settleDownloads(mine, downloadFinishWait)
}

// settleDownloads waits up to wait (within the call's deadline) for the
// caught downloads ids to complete, finishing each as it does, and
// returns them as they are then.
func (r *run) settleDownloads(ids []int, wait time.Duration) []Download {
	inst := r.browserInstance()
	until := time.Now().Add(wait)
	if dl, ok := r.ctx.Deadline(); ok {
		until = minTime(until, dl.Add(-time.Second))
	}
	for {
		items, err := r.b.DownloadsList(r.ctx, protocol.DownloadsListParams{IDs: ids})
		pending := false
		if err == nil {
			for _, it := range items {
				if r.advanceDownload(inst, it) {
					pending = true
				}
			}
		}
		if err != nil || !pending || !time.Now().Before(until) || r.sleep(min(100*time.Millisecond, time.Until(until))) != nil {
			break
		}
	}
	return r.env.downloads.list(inst, ids)
}

// advanceDownload brings a caught download up to date with Chrome's item:
// over the size cap it is cancelled; complete, it is moved into the
// bridge's folder. It reports whether the download is still in progress.
func (r *run) advanceDownload(inst string, it protocol.DownloadItem) bool {
	downloads := &r.env.downloads
	downloads.mu.Lock()
	c := downloads.caught[downloadKey(inst, it.ID)]
	if c == nil || c.final {
		downloads.mu.Unlock()
		return false
	}
	c.d = fromItem(it, c.d)
	downloads.mu.Unlock()
	capBytes := r.env.downloadCap()

	switch it.State {
	case "in_progress":
		if it.TotalBytes > capBytes || it.BytesReceived > capBytes {
			r.b.DownloadsCancel(r.ctx, protocol.DownloadsCancelParams{ID: it.ID})
			downloads.update(inst, it.ID, func(c *caughtDownload) {
				c.d.State, c.final = "failed", true
				c.d.Error = fmt.Sprintf("cancelled: larger than the bridge's cap of %d bytes (downloadMaxBytes in the settings)", capBytes)
			})
			return false
		}
		return true
	case "complete":
		d := finishDownload(r.env.DownloadsFolder, it, capBytes)
		downloads.update(inst, it.ID, func(c *caughtDownload) { c.d, c.final = mergeFinished(c.d, d), true })
	default: // interrupted
		downloads.update(inst, it.ID, func(c *caughtDownload) { c.final = true })
	}
	return false
}

// finishDownload moves a complete download into the bridge's folder dir,
// or says why it stays where Chrome saved it.
func finishDownload(dir string, it protocol.DownloadItem, capBytes int64) Download {
	d := Download{Path: it.Filename, SavedBy: "browser", State: "done", Bytes: max(it.FileSize, it.BytesReceived)}
	if dir == "" {
		d.Note = "not moved: the bridge has no downloads folder"
		return d
	}
	if d.Bytes > capBytes {
		d.Note = fmt.Sprintf("left where the browser saved it: larger than the cap of %d bytes (downloadMaxBytes in the settings)", capBytes)
		return d
	}
	moved, n, err := moveInto(dir, it.Filename, capBytes)
	if err != nil {
		d.Note = "left where the browser saved it: " + err.Error()
		return d
	}
	d.Path, d.SavedBy, d.Bytes = moved, "bridge", n
	return d
}

// moveInto copies the file at src into dir (private) as a file of the
// same name (made unique), then removes src. What is read is the file
// pathcheck.OpenDownload opened, by the upload rules: the path comes from the
// browser, and the bridge must not be made to take another file (one
// whose path names secrets, a symlink, a file with other names, one in a
// folder other users may write) — and only a file of the user's. It
// returns the new path and the bytes copied.
func moveInto(dir, src string, capBytes int64) (string, int64, error) {
	f, err := pathcheck.OpenDownload(src)
	if err != nil {
		var why *pathcheck.Refusal
		if errors.As(err, &why) {
			return "", 0, errors.New(why.Rule)
		}
		return "", 0, err
	}
	defer f.Close()
	if !f.Mine() {
		return "", 0, errors.New("the file is not the user's")
	}
	canon, fi := f.Canonical, f.Info
	if err := paths.EnsurePrivateDir(dir); err != nil {
		return "", 0, fmt.Errorf("the bridge's downloads folder: %w", err)
	}
	name := filepath.Base(canon)
	var out *os.File
	var dst string
	for i := 0; i < 1000; i++ {
		dst = filepath.Join(dir, uniqueName(name, i))
		out, err = os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, os.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", 0, fmt.Errorf("writing into the bridge's downloads folder: %w", err)
	}
	n, err := io.Copy(out, io.LimitReader(f, capBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > capBytes {
		err = fmt.Errorf("larger than the cap of %d bytes (downloadMaxBytes in the settings)", capBytes)
	}
	if err != nil {
		os.Remove(dst)
		return "", 0, err
	}
	os.Chtimes(dst, time.Now(), fi.ModTime())
	// Copied: the browser's copy goes (it would stay, were it not
	// removable, and the result still names the bridge's).
	os.Remove(canon)
	return dst, n, nil
}

// uniqueName is name, then "name (1).ext", "name (2).ext", …
func uniqueName(name string, i int) string {
	if i == 0 {
		return name
	}
	ext := filepath.Ext(name)
	return fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(name, ext), i, ext)
}

// downloadCap is the largest download the bridge takes, from
// Env.DownloadCap when it is set.
func (e *Env) downloadCap() int64 {
	if e.DownloadCap != nil {
		return e.DownloadCap()
	}
	return settings.DefaultDownloadMaxBytes
}

// catch records it as the bridge's when it began within one of windows
// (or downloadLate after it) on that window's tab, and returns the
// record and whether this call caught it; nil for a download that is not
// the bridge's. A download caught before keeps its record.
func (b *downloadBook) catch(it protocol.DownloadItem, windows []actionWindow) (*caughtDownload, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(windows) == 0 {
		return nil, false
	}
	key := downloadKey(windows[0].instance, it.ID)
	if c, ok := b.caught[key]; ok {
		return c, false
	}
	start, err := time.Parse(time.RFC3339Nano, it.StartTime)
	if err != nil {
		return nil, false
	}
	for i := len(windows) - 1; i >= 0; i-- {
		w := windows[i]
		if start.Before(w.start.Add(-50*time.Millisecond)) || start.After(w.end.Add(downloadLate)) || !w.started(it) {
			continue
		}
		c := &caughtDownload{instance: w.instance, at: time.Now(), d: fromItem(it, Download{TabID: w.tabID})}
		if b.caught == nil {
			b.caught = map[string]*caughtDownload{}
		}
		b.caught[key] = c
		b.prune()
		return c, true
	}
	return nil, false
}

// started says whether the download it began on the window's tab: the
// extension says so (a navigation of that tab), or it came from the
// tab's origin (its referrer, or a blob: or a same-origin URL), or,
// having no referrer, it began on a tab the bridge owns.
func (w actionWindow) started(it protocol.DownloadItem) bool {
	if it.TabID != 0 {
		return it.TabID == w.tabID
	}
	if w.origin != "" {
		if originOfURL(it.Referrer) == w.origin || originOfURL(it.URL) == w.origin {
			return true
		}
		if rest, ok := strings.CutPrefix(it.URL, "blob:"); ok && originOfURL(rest) == w.origin {
			return true
		}
	}
	return it.Referrer == "" && w.owned
}

func (b *downloadBook) prune() {
	for k, c := range b.caught {
		if time.Since(c.at) > downloadKeep {
			delete(b.caught, k)
		}
	}
	for len(b.caught) > maxCaught {
		var oldest string
		var at time.Time
		for k, c := range b.caught {
			if at.IsZero() || c.at.Before(at) {
				oldest, at = k, c.at
			}
		}
		delete(b.caught, oldest)
	}
}

func (b *downloadBook) update(inst string, id int, f func(*caughtDownload)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.caught[downloadKey(inst, id)]; c != nil {
		f(c)
	}
}

// ids are the instance's caught downloads, newest first, at most
// maxListed.
func (b *downloadBook) ids(inst string) []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var cs []*caughtDownload
	for _, c := range b.caught {
		if c.instance == inst {
			cs = append(cs, c)
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d.ID > cs[j].d.ID })
	var ids []int
	for _, c := range cs[:min(len(cs), maxListed)] {
		ids = append(ids, c.d.ID)
	}
	return ids
}

// list is the records of ids, in that order.
func (b *downloadBook) list(inst string, ids []int) []Download {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []Download{}
	for _, id := range ids {
		if c := b.caught[downloadKey(inst, id)]; c != nil {
			out = append(out, c.d)
		}
	}
	return out
}

// fromItem is d brought up to date with Chrome's item (a moved file keeps
// its new path).
func fromItem(it protocol.DownloadItem, d Download) Download {
	d.ID, d.MIME, d.URL = it.ID, it.MIME, shortURL(it.URL)
	if d.SavedBy != "bridge" {
		d.Path = it.Filename
		d.Bytes = max(it.FileSize, it.BytesReceived)
	}
	if d.Path != "" {
		d.Name = filepath.Base(d.Path)
	}
	switch it.State {
	case "complete":
		d.State = "done"
	case "interrupted":
		d.State, d.Error = "failed", firstNonEmpty(it.Error, "interrupted")
	default:
		d.State = "in_progress"
		if it.Danger != "" && it.Danger != "safe" && it.Danger != "accepted" {
			d.Note = "the browser holds it as possibly dangerous (" + it.Danger + "); only the user can keep it"
		}
	}
	return d
}

// mergeFinished is a record after its file was finished (moved or left).
func mergeFinished(d, f Download) Download {
	d.Path, d.SavedBy, d.Note, d.State = f.Path, f.SavedBy, f.Note, f.State
	if f.Bytes > 0 {
		d.Bytes = f.Bytes
	}
	if d.Path != "" {
		d.Name = filepath.Base(d.Path)
	}
	return d
}

// shortURL keeps a download's URL readable: data: URLs (a page's own
// bytes) are named, not copied.
func shortURL(u string) string {
	if strings.HasPrefix(u, "data:") {
		return "data: URL"
	}
	if len(u) > 500 {
		return u[:500] + "…"
	}
	return u
}

// originOfURL is the scheme://host[:port] of a web URL, "" for others.
func originOfURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

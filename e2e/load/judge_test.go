package load

import (
	"fmt"
	"strings"
	"testing"
)

// judged is a testing.TB that keeps what judgeSoak says instead of
// failing the test that runs it: the test reads the verdict.
type judged struct {
	testing.TB
	errors, logs []string
}

func (j *judged) Helper()                      {}
func (j *judged) Error(args ...any)            { j.errors = append(j.errors, fmt.Sprint(args...)) }
func (j *judged) Errorf(f string, args ...any) { j.errors = append(j.errors, fmt.Sprintf(f, args...)) }
func (j *judged) Log(args ...any)              { j.logs = append(j.logs, fmt.Sprint(args...)) }
func (j *judged) Logf(f string, args ...any)   { j.logs = append(j.logs, fmt.Sprintf(f, args...)) }

// soakRows are n windows whose every figure is flat, memory included;
// change edits window i (0-based) before they are judged.
func soakRows(n int, change func(i int, r *soakRow)) []soakRow {
	var rows []soakRow
	for i := range n {
		r := soakRow{window: i + 1, throughput: 6, lat: map[string][2]float64{"open": {1900, 5000}, "click": {1400, 4600}, "extract": {900, 3200}},
			state: soakRound{groups: 10, tabs: 18, windows: 11, pss: 1000 << 20}, heap: 4 << 20, rss: 24 << 20}
		if change != nil {
			change(i, &r)
		}
		rows = append(rows, r)
	}
	return rows
}

// The soak's judge passes a flat hour, and fails memory that climbs
// steadily (each window within 15 % of the median, but the last 15 %
// above the second), memory that jumps in one window, and saved tab
// groups that grow; a slow window of the times is only named.
func TestJudgeSoak(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(i int, r *soakRow)
		fails  string // a word of the failure, "" for a pass
		names  string // a word of what is only named
	}{
		{"flat", nil, "", ""},
		{"a steady climb of the daemon", func(i int, r *soakRow) { r.rss = int64(float64(24<<20) * (1 + 0.05*float64(i))) }, "daemon RSS grew", ""},
		{"a jump of Chromium", func(i int, r *soakRow) {
			if i == 3 {
				r.state.pss = 1300 << 20
			}
		}, "Chromium PSS", ""},
		{"saved groups that grow", func(i int, r *soakRow) {
			if i == 4 {
				r.state.tabs = 19
			}
		}, "saved tab groups grew", ""},
		{"one slow window", func(i int, r *soakRow) {
			if i == 2 {
				r.lat["click"] = [2]float64{2500, 4600}
			}
		}, "", "click p50"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j := &judged{TB: t}
			judgeSoak(j, soakRows(6, tt.change))
			errs := strings.Join(j.errors, "\n")
			if tt.fails == "" && errs != "" {
				t.Errorf("failed a run that should pass: %s", errs)
			}
			if tt.fails != "" && !strings.Contains(errs, tt.fails) {
				t.Errorf("errors %q: want one naming %q", errs, tt.fails)
			}
			if logs := strings.Join(j.logs, "\n"); tt.names != "" && !strings.Contains(logs, tt.names) {
				t.Errorf("logs %q: want %q named", logs, tt.names)
			}
		})
	}
}

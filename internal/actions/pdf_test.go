package actions

import "testing"

func TestPDFPages(t *testing.T) {
	tests := []struct {
		name string
		pdf  string
		want int
	}{
		{"two page objects", "%PDF-1.4\n1 0 obj\n<</Type /Pages /Count 2 /Kids [3 0 R 4 0 R]>>\nendobj\n3 0 obj\n<</Type /Page\n/Parent 1 0 R>>\n4 0 obj\n<</Type/Page/Parent 1 0 R>>", 2},
		{"page tree only", "%PDF-1.7\n<</Count 5 /Type /Pages /Kids []>>", 5},
		{"page tree, type first", "%PDF-1.7\n<</Type /Pages /Kids [] /Count 7>>", 7},
		{"nothing", "%PDF-1.7\n", 0},
		{"page at the end", "%PDF-1.7 /Type /Page", 1},
	}
	for _, tt := range tests {
		if got := pdfPages([]byte(tt.pdf)); got != tt.want {
			t.Errorf("%s: %d pages, want %d", tt.name, got, tt.want)
		}
	}
}

// FuzzPDFPages feeds the page counter what a browser (or a page that
// fools it) could return: it must answer, never panic.
func FuzzPDFPages(f *testing.F) {
	f.Add([]byte("%PDF-1.4\n<</Type /Pages /Count 2>> <</Type /Page>>"))
	f.Add([]byte("/Count 99999999999999999999999 /Type /Pages"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if n := pdfPages(b); n < 0 {
			t.Fatalf("negative page count %d", n)
		}
	})
}

package tool

import (
	"strings"
	"testing"
)

func TestViewportParams(t *testing.T) {
	tests := []struct {
		in   string
		want string // a word of the error; "" for none
	}{
		{`{"action":"viewport","width":390,"height":844,"deviceScaleFactor":3,"mobile":true}`, ""},
		{`{"action":"viewport","width":200,"height":4000}`, ""},
		{`{"action":"viewport","reset":true}`, ""},
		{`{"action":"viewport","width":199,"height":400}`, "between 200 and 4000"},
		{`{"action":"viewport","width":400,"height":4001}`, "between 200 and 4000"},
		{`{"action":"viewport","width":400}`, "both"},
		{`{"action":"viewport","width":400,"height":400,"deviceScaleFactor":0}`, "deviceScaleFactor"},
		{`{"action":"viewport","width":400,"height":400,"deviceScaleFactor":5}`, "deviceScaleFactor"},
		{`{"action":"viewport","reset":true,"width":400}`, "alone"},
		{`{"action":"viewport"}`, "needs width or reset"},
		{`{"action":"reload","width":400}`, "does not apply"},
	}
	for _, tt := range tests {
		in, _, err := Parse([]byte(tt.in))
		if err == nil {
			err = in.Navigation.CheckViewport()
		}
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.in, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one saying %q", tt.in, err, tt.want)
		}
	}
}

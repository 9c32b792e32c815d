package viewer

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The strategies of one config share its jobs: the page keeps them once,
// in the group; runs of different job lists keep their own.
func TestGroupSharesJobs(t *testing.T) {
	a, b, c := synthRun(20, 4), synthRun(20, 4), synthRun(30, 4)
	for _, tc := range []struct {
		name   string
		runs   []*Run
		shared bool
	}{
		{"same jobs", []*Run{a, b}, true},
		{"other jobs", []*Run{a, c}, false},
		{"one run", []*Run{a}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := (&Page{Title: "t", Groups: []Group{{Title: "g", Runs: tc.runs}}}).Render(&buf); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			at := strings.Index(page, `<script id="dsview-data" type="application/json">`)
			data := page[at+len(`<script id="dsview-data" type="application/json">`):]
			data = data[:strings.Index(data, "</script>")]
			var d pageData
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatal(err)
			}
			g := d.Groups[0]
			if (g.Jobs != nil) != tc.shared {
				t.Fatalf("group jobs %v, want shared %v", g.Jobs != nil, tc.shared)
			}
			for i, r := range g.Runs {
				jobs := r.Jobs
				if tc.shared {
					if jobs != nil {
						t.Errorf("run %d keeps its jobs too", i)
					}
					jobs = g.Jobs
				}
				if jobs == nil || len(jobs.ID) != len(tc.runs[i].Jobs) {
					t.Errorf("run %d: jobs %v, want %d", i, jobs, len(tc.runs[i].Jobs))
				}
			}
		})
	}
}

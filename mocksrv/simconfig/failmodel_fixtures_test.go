package simconfig

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// fmCase is one reference run of ../dssim/failure-models (its README):
// folder CONFIG.MODEL[.variant], the variant giving -g/-s or -d.
type fmCase struct {
	name, dir, config string // config: the file name inside dir
	args              []string
	opt               LoadOptions
}

// failModelCases lists every case folder with the options of its command
// line (failure-models.md §11.2).
func failModelCases(t testing.TB) []fmCase {
	t.Helper()
	var cases []fmCase
	for _, dir := range fixtures.Glob(t, "failure-models/*.*") {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue // README.md
		}
		name := filepath.Base(dir)
		parts := strings.Split(name, ".")
		c := fmCase{name: name, dir: dir, config: parts[0] + ".xml"}
		c.args = []string{"-c", c.config}
		if name != "fm-e2-attr.g5k06" { // the model is the config's attribute
			c.args = append(c.args, "-f", parts[1])
			c.opt.Failure, c.opt.FailureGiven = parts[1], true
		}
		if len(parts) == 3 {
			var g, s, d int
			if _, err := fmt.Sscanf(parts[2], "g%ds%d", &g, &s); err == nil {
				c.args = append(c.args, "-g", strconv.Itoa(g), "-s", strconv.Itoa(s))
				c.opt.Grain, c.opt.GrainGiven, c.opt.Scale, c.opt.ScaleGiven = g, true, s, true
			} else if _, err := fmt.Sscanf(parts[2], "d%d", &d); err == nil {
				c.args = append(c.args, "-d", strconv.Itoa(d))
				c.opt.EndTime, c.opt.EndTimeGiven = d, true
			} else {
				t.Fatalf("%s: unknown variant %q", name, parts[2])
			}
		}
		c.opt.BaseDir = dir
		cases = append(cases, c)
	}
	if len(cases) != 29 {
		t.Fatalf("%d failure-model cases, want 29 (failure-models.md §11.2)", len(cases))
	}
	return cases
}

// generatedList renders failures like generated-failures.txt: every
// generated failure sorted by start time (stably, as §5.7 sorts the
// events), START END TYPE ID.
func generatedList(c *Config) []byte {
	var b bytes.Buffer
	recs := append([]FailureRecord(nil), c.Failures...)
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Start < recs[j].Start })
	for _, r := range recs {
		fmt.Fprintf(&b, "%d %d %s %d\n", r.Start, r.End, r.Type, r.ID)
	}
	return b.Bytes()
}

// TestFailureModelGeneratedLists: for every reference case the whole
// generated failure list equals generated-failures.txt.gz (§13 item 5),
// the -v all total, and the job list equals ds-jobs.xml (§1.4: a model
// changes no job).
func TestFailureModelGeneratedLists(t *testing.T) {
	for _, fc := range failModelCases(t) {
		t.Run(fc.name, func(t *testing.T) {
			c, err := LoadConfig(filepath.Join(fc.dir, fc.config), fc.opt)
			if err != nil {
				t.Fatal(err)
			}
			want := fixtures.ReadGz(t, filepath.Join(fc.dir, "generated-failures.txt.gz"))
			if got := generatedList(c); !bytes.Equal(got, want) {
				t.Fatalf("generated failures differ from generated-failures.txt.gz%s", firstDiff(got, want))
			}
			if jobs, err := os.ReadFile(filepath.Join(fc.dir, "ds-jobs.xml")); err == nil {
				if got := c.JobsXML(model.Year2025, false); !bytes.Equal(got, jobs) {
					t.Fatalf("ds-jobs.xml differs%s", firstDiff(got, jobs))
				}
			}
		})
	}
}

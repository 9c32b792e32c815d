package viewpage

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/harness/viewer"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// The viewer's run of an in-process simulation, read back from the
// simulator's -v brief log with power from its timeline: its cost ends at
// the simulator's total cost and every completed job is there, for a
// queue strategy and a plain one on every embedded config (flaky-servers
// has failures, so jobs return through the global queue).
func TestRunViewerAgreesWithTheSimulator(t *testing.T) {
	variants, err := columns.ParseVariants([]string{"ffq,fafc"})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range sources.Suite() {
		for _, v := range variants {
			t.Run(src.Name+"/"+v.Label(), func(t *testing.T) {
				cfg, err := src.Load()
				if err != nil {
					t.Fatal(err)
				}
				s, _ := v.New()
				sess, err := bench.Simulate(context.Background(), cfg, s, mocksrv.Options{Stderr: io.Discard}, "dsbench")
				if err != nil || sess.Report() == nil {
					t.Skipf("%s cannot finish %s: %v", v.Label(), src.Name, err)
				}
				want := bench.SummaryOf(sess.Report())
				r, err := RunViewer(src, v)
				if err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprintf("%.2f", r.TotalCost); got != fmt.Sprintf("%.2f", want.TotalCost) {
					t.Errorf("viewer total cost %s, simulator %.2f", got, want.TotalCost)
				}
				if got := viewer.FormatCost(r.Cost[len(r.Cost)-1].V); got != fmt.Sprintf("%.2f", want.TotalCost) {
					t.Errorf("accumulated cost ends at %s, simulator %.2f", got, want.TotalCost)
				}
				done := map[int]bool{}
				for _, st := range r.Stays {
					if st.Outcome == viewer.Completed {
						done[st.Job] = true
					}
				}
				if len(done) != want.Jobs {
					t.Errorf("%d jobs completed in the viewer, %d in the summary", len(done), want.Jobs)
				}
			})
		}
	}
}

// A sweep bigger than the page's caps: the runs left out are said on the
// page.
func TestWriteHTMLCaps(t *testing.T) {
	vs, err := columns.ParseVariants([]string{"ff,bf,wf,fc,fafc,atl,lrr,ffq,bfq"})
	if err != nil {
		t.Fatal(err)
	}
	page := &viewer.Page{}
	runs := map[[2]string]int{}
	if err := addTimelines(page, &bench.Bench{Sources: sources.Suite()[:1], Variants: vs}, report.Output{}, runs); err != nil {
		t.Fatal(err)
	}
	if len(page.Groups) != 1 || len(page.Groups[0].Runs) != htmlVariants || len(runs) != htmlVariants {
		t.Fatalf("%d groups, %d runs indexed; want 1 group with %d runs", len(page.Groups), len(runs), htmlVariants)
	}
	if len(page.Notes) != 1 || !strings.HasPrefix(page.Notes[0], "1 of 9 runs with a result have no timeline here") {
		t.Errorf("notes %q", page.Notes)
	}
}

// A recovery without a failure (overlapping trace records) resets a
// powered server, and ds-server bills none of that period: the viewer's
// cost from the simulator's timeline still ends at the simulator's. The
// embedded flaky-servers config with a trace where every small and medium
// server fails at about 3,000 s twice, recovers (the inner record) 20 s
// later and recovers again (the outer one) at 50,001 s, when some are in
// use again.
func TestRunViewerBillsAResetAsTheSimulator(t *testing.T) {
	dir := t.TempDir()
	xml, err := fs.ReadFile(configs.FS(), "flaky-servers.xml")
	if err != nil {
		t.Fatal(err)
	}
	trace := ""
	for i, s := range []string{"small 0", "small 1", "small 2", "small 3", "medium 0", "medium 1", "medium 2"} {
		at := 3000 + 100*i
		trace += fmt.Sprintf("%d 50000 %s\n%d %d %s\n", at, s, at+10, at+20, s)
	}
	if err := os.WriteFile(filepath.Join(dir, "flaky-servers.failures.txt"), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "overlap.xml"), xml, 0o644); err != nil {
		t.Fatal(err)
	}
	src := sources.Source{Name: "overlap", Path: filepath.Join(dir, "overlap.xml")}
	v := columns.Variant{Strategy: "ffq"}
	_, sess, err := bench.SimulateOne(src, v, mocksrv.Options{Stderr: io.Discard})
	if err != nil || sess.Report() == nil {
		t.Fatalf("ffq on %s: %v", src.Path, err)
	}
	resets := 0
	for _, s := range sess.Engine().Timeline().Servers {
		for _, p := range s.Power {
			if p.Reset {
				resets++
			}
		}
	}
	if resets == 0 {
		t.Fatal("no powered server was reset: the trace no longer tests what it should")
	}
	if u := sess.Report().Unbilled; u.Servers == 0 {
		t.Errorf("%d resets, but Unbilled is %+v", resets, u)
	}
	r, err := RunViewer(src, v)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%.2f", r.TotalCost), fmt.Sprintf("%.2f", bench.SummaryOf(sess.Report()).TotalCost); got != want {
		t.Errorf("viewer total cost %s, simulator %s (%d resets)", got, want, resets)
	}
}

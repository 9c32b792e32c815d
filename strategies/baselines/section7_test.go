package baselines_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/baselines" // registers the strategies under test
)

// This file checks baselines.md §7 (s2-config01, all ten algorithms) end to
// end: the strategies run in-process against the project's simulator
// (mocksrv.Session) on configs/s2-config01.xml, and every offer's LSTJ
// queries and decision are compared with §7's lists, then the summary with
// §7's table. The per-job states are the simulator's, so this test depends
// on mocksrv; the unit tests of §8 do not.

// offerLog is what the client sent for one JOBN/JOBP.
type offerLog struct {
	event    string // "JOBN 3" or "JOBP 3"
	gets     []string
	lstj     []string
	decision string // "small 0", "ENQJ GQ", "PSHJ"
}

// recorder wraps a Backend and notes the messages of every offer.
type recorder struct {
	client.Backend
	offers []*offerLog
}

func (r *recorder) cur() *offerLog {
	if len(r.offers) == 0 {
		return &offerLog{}
	}
	return r.offers[len(r.offers)-1]
}

func (r *recorder) Ready() (protocol.Event, error) {
	ev, err := r.Backend.Ready()
	if o, ok := ev.(*protocol.JobOffer); ok {
		word := "JOBN"
		if o.Resubmitted {
			word = "JOBP"
		}
		r.offers = append(r.offers, &offerLog{event: fmt.Sprintf("%s %d", word, o.ID)})
	}
	return ev, err
}

func (r *recorder) GetsCapable(q protocol.Requirement) ([]protocol.Server, error) {
	r.cur().gets = append(r.cur().gets, "Capable")
	return r.Backend.GetsCapable(q)
}

func (r *recorder) GetsAvail(q protocol.Requirement) ([]protocol.Server, error) {
	l, err := r.Backend.GetsAvail(q)
	word := "Avail"
	if len(l) == 0 {
		word = "Avail(empty)"
	}
	r.cur().gets = append(r.cur().gets, word)
	return l, err
}

func (r *recorder) ListJobs(s protocol.ServerRef) ([]protocol.JobRecord, error) {
	r.cur().lstj = append(r.cur().lstj, s.String())
	return r.Backend.ListJobs(s)
}

func (r *recorder) Do(a protocol.Action) (string, error) {
	switch a := a.(type) {
	case protocol.Schedule:
		r.cur().decision = a.Server.String()
	case protocol.Enqueue, protocol.Push:
		r.cur().decision = a.String()
	}
	return r.Backend.Do(a)
}

// want7 is one line of §7: the offer, its LSTJ queries ("-" = not given by
// §7, not compared) and its decision.
type want7 struct {
	event, lstj, decision string
}

// ffList is §7's ff line; bf differs only in its queries.
func ffList(lstj2, lstj3 string) []want7 {
	return []want7{{"JOBN 0", "", "small 0"}, {"JOBN 1", "", "large 0"}, {"JOBN 2", lstj2, "small 0"},
		{"JOBN 3", lstj3, "small 1"}, {"JOBN 4", "", "medium 0"}, {"JOBN 5", "", "medium 1"},
		{"JOBN 6", "", "medium 1"}, {"JOBN 7", "", "large 0"}, {"JOBN 8", "", "large 0"}, {"JOBN 9", "", "small 0"}}
}

func all(dec string) []want7 {
	var w []want7
	for i := 0; i < 10; i++ {
		w = append(w, want7{fmt.Sprintf("JOBN %d", i), "", dec})
	}
	return w
}

func list(pairs ...string) []want7 {
	var w []want7
	for i, p := range pairs {
		w = append(w, want7{fmt.Sprintf("JOBN %d", i), "", p})
	}
	return w
}

// queued turns ff/bf's list into ffq/bfq's (§7): job 8 is enqueued, comes
// back once more to be enqueued, then goes to large 0.
func queued(base []want7) []want7 {
	w := slices.Clone(base)
	w[8].decision = "ENQJ GQ"
	return append(w, want7{"JOBP 8", "-", "ENQJ GQ"}, want7{"JOBP 8", "-", "large 0"})
}

// section7 lists §7's reference decisions.
func section7() map[string][]want7 {
	ff := ffList("small 0", "")
	bf := ffList("small 0,large 0", "large 0")
	wf := list("large 0", "large 0", "medium 0", "large 0", "large 0", "large 0", "medium 1", "medium 0", "large 0", "small 0")
	wf[1].lstj, wf[2].lstj, wf[3].lstj = "large 0", "large 0", "medium 0"
	wfq := list("large 0", "ENQJ GQ", "large 0", "large 0", "medium 0", "medium 1", "large 0", "large 0", "ENQJ GQ", "medium 0")
	wfq[1].lstj, wfq[2].lstj = "large 0", "large 0"
	wfq = append(wfq, want7{"JOBP 1", "-", "ENQJ GQ"}, want7{"JOBP 8", "-", "large 0"},
		want7{"JOBP 1", "-", "ENQJ GQ"}, want7{"JOBP 1", "-", "ENQJ GQ"}, want7{"JOBP 1", "-", "ENQJ GQ"},
		want7{"JOBP 1", "-", "large 0"})
	return map[string][]want7{
		"atl": all("large 0"), "lrr": all("large 0"),
		"ff": ff, "bf": bf, "wf": wf,
		"fc":   list("small 0", "large 0", "small 0", "small 0", "medium 0", "small 0", "small 0", "medium 0", "large 0", "small 0"),
		"fafc": list("small 0", "large 0", "small 1", "medium 0", "medium 1", "medium 0", "small 0", "large 0", "large 0", "small 1"),
		"ffq":  queued(ff), "bfq": queued(bf), "wfq": wfq,
	}
}

// summary7 is §7's table: end time, servers used, avg util, cost, avg
// wait, avg turnaround (avg exec is 2288 everywhere).
var summary7 = map[string]string{
	"atl": "12077 1 100.00 2.67 4957 7245", "lrr": "12077 1 100.00 2.67 4957 7245",
	"ff": "5683 5 97.03 2.19 154 2442", "bf": "5683 5 97.03 2.19 154 2442",
	"ffq": "5683 5 97.03 2.19 154 2442", "bfq": "5683 5 97.03 2.19 154 2442",
	"wf": "9337 4 100.00 2.81 2122 4410", "fc": "12427 3 96.60 2.00 2150 4438",
	"fafc": "5623 5 96.82 2.59 153 2441", "wfq": "7485 3 99.47 2.49 637 2925",
}

// TestSection7 runs s2-config01 with every reference algorithm.
func TestSection7(t *testing.T) {
	path := filepath.Join(fixtures.Dir(t), "configs", "s2-config01.xml")
	cfg, err := mocksrv.LoadConfig(path, mocksrv.LoadOptions{BaseDir: filepath.Dir(path)})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for alg, want := range section7() {
		t.Run(alg, func(t *testing.T) {
			sess, err := mocksrv.NewSession(cfg, mocksrv.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st, err := strategies.New(alg, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{Backend: sess}
			if _, err := client.Run(st, rec, client.Options{User: "root",
				System: func(client.Backend) (*servertypes.System, error) { return sess.System() }}); err != nil {
				t.Fatal(err)
			}
			if len(rec.offers) != len(want) {
				t.Errorf("%d offers, §7 lists %d", len(rec.offers), len(want))
			}
			for i, o := range rec.offers {
				if i >= len(want) {
					break
				}
				w := want[i]
				gets := "Capable"
				switch {
				case alg == "fafc" && o.event == "JOBN 8":
					gets = "Avail(empty),Capable"
				case alg == "fafc":
					gets = "Avail"
				}
				got := want7{o.event, strings.Join(o.lstj, ","), o.decision}
				if w.lstj == "-" {
					got.lstj = "-"
				}
				if got != w || strings.Join(o.gets, ",") != gets {
					t.Errorf("offer %d: got %s [LSTJ %s] GETS %v → %s; §7: %s [LSTJ %s] GETS %s → %s",
						i, got.event, got.lstj, o.gets, got.decision, w.event, w.lstj, gets, w.decision)
				}
			}
			r := sess.Report()
			if r == nil {
				t.Fatal("no report")
			}
			sum := fmt.Sprintf("%d %d %.2f %.2f %d %d", r.EndTime, r.ServersUsed, r.AvgUtil, r.TotalCost, r.AvgWait, r.AvgTurnaround)
			if sum != summary7[alg] || r.AvgExec != 2288 || r.Jobs != 10 {
				t.Errorf("summary %q (exec %d, jobs %d), §7: %q (exec 2288, jobs 10)", sum, r.AvgExec, r.Jobs, summary7[alg])
			}
			if !t.Failed() {
				checked++
			}
		})
	}
	t.Logf("%d/10 algorithms: every §7 decision, LSTJ list and summary identical", checked)
}

package engine

import (
	"bytes"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// TestUnbilled: the server time the report leaves out (Unbilled), one row
// per accounting rule that can leave some out, and rows where nothing is.
// One type a (2 cores, 10 s boot, $0.5/h) of 2 servers; job 0 (1 core,
// actual 15 s) comes at 5 and goes to a 0 (boot 5–15, run 15–30); job 1
// (1 core, 30 s) at 20, job 2 (1 core, 10 s) at 40; what the row does not
// place goes to a 1, and a killed job comes back from the global queue there.
func TestUnbilled(t *testing.T) {
	a0, a1 := Ref{"a", 0}, Ref{"a", 1}
	tests := []struct {
		name string
		// at20 and at40 are the commands sent when job 1 (t = 20) and
		// job 2 (t = 40) are offered, before they are placed on a1.
		at20, at40 []Command
		want       Unbilled // Cost is checked as Seconds × 0.5 / 3600
		wantCost   float32  // the report's own total: what ds-server bills
	}{
		{name: "no MIGJ, KILJ or TERM: nothing left out",
			wantCost: float32(15+30) * 0.5 / 3600}, // a 0 15–30, a 1 30–60
		{name: "§6.2: a 0's only job leaves by MIGJ at 20, a 0 stays on: 5 s (15–20) not billed",
			at20: []Command{{Op: OpMIGJ, Job: 0, Server: a0, To: a1}},
			want: Unbilled{Servers: 1, Seconds: 5}, wantCost: float32(60-30) * 0.5 / 3600},
		{name: "§6.2: the same with a TERM at 20: its billed 5 s are dropped with the server",
			at20: []Command{{Op: OpMIGJ, Job: 0, Server: a0, To: a1}, {Op: OpTERM, Server: a0}},
			want: Unbilled{Servers: 1, Seconds: 5}, wantCost: float32(60-30) * 0.5 / 3600},
		{name: "§6.1: job 1 runs on a 0 20–40 and is killed, a 0 stays on: billed to job 0's end at 30, 10 s not billed",
			at20: []Command{{Op: OpSCHD, Job: 1, Server: a0}}, at40: []Command{{Op: OpKILJ, Job: 1, Server: a0}},
			want: Unbilled{Servers: 1, Seconds: 10}, wantCost: float32(15+30) * 0.5 / 3600}, // a 1 boots 40–50, runs 50–80
		{name: "the same killed job, then a TERM: billed to the TERM, nothing left out",
			at20: []Command{{Op: OpSCHD, Job: 1, Server: a0}}, at40: []Command{{Op: OpKILJ, Job: 1, Server: a0}, {Op: OpTERM, Server: a0}},
			wantCost: float32(25+30) * 0.5 / 3600},
		{name: "job 1 runs on a 0 20–40 and leaves by MIGJ after job 0 completed there: 10 s not billed",
			at20: []Command{{Op: OpSCHD, Job: 1, Server: a0}}, at40: []Command{{Op: OpMIGJ, Job: 1, Server: a0, To: a1}},
			want: Unbilled{Servers: 1, Seconds: 10}, wantCost: float32(15+30) * 0.5 / 3600},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &model.Config{EndTime: 1000,
				Types: []model.ServerType{{Name: "a", Limit: 2, BootupTime: 10, HourlyRate: 0.5, Cores: 2, Memory: 1000, Disk: 1000}},
				Jobs: []model.Job{{ID: 0, Submit: 5, EstRunTime: 20, ActRunTime: 15, Cores: 1, Memory: 100, Disk: 100},
					{ID: 1, Submit: 20, EstRunTime: 30, ActRunTime: 30, Cores: 1, Memory: 100, Disk: 100},
					{ID: 2, Submit: 40, EstRunTime: 10, ActRunTime: 10, Cores: 1, Memory: 100, Disk: 100}}}
			e, err := NewEngine(cfg, Options{Stderr: &bytes.Buffer{}, NoHeader: true})
			if err != nil {
				t.Fatal(err)
			}
			placed := map[int]bool{}
			for step := 0; ; step++ {
				if step == 20 { // 3 jobs make at most 3 offers and 3 completions
					t.Fatal("no NONE after 20 REDYs")
				}
				r := exec(e, Command{Op: OpREDY})
				if r.Kind != ReplyEvent {
					t.Fatalf("REDY: %+v", r)
				}
				ev := r.Event
				if ev.kind == EventNONE {
					break
				}
				if ev.kind == EventCHKQ { // the job KILJ sent to the global queue: again on a 1
					exec(e, Command{Op: OpDEQJ, N: 0})
					if got := exec(e, Command{Op: OpSCHD, Job: 1, Server: a1}); got.Kind == ReplyRefused {
						t.Fatal("SCHD 1 a 1 refused after DEQJ")
					}
					continue
				}
				if ev.kind != EventJob {
					continue
				}
				j := int(ev.job)
				var cmds []Command
				switch j {
				case 0:
					cmds = []Command{{Op: OpSCHD, Job: 0, Server: a0}}
				case 1:
					cmds = tc.at20
				case 2:
					cmds = tc.at40
				}
				for _, c := range cmds {
					if got := exec(e, c); got.Kind == ReplyRefused {
						t.Fatalf("job %d: %+v refused: %s", j, c, got.Refusal.Text(""))
					}
					if c.Op == OpSCHD {
						placed[c.Job] = true
					}
				}
				if !placed[j] {
					if got := exec(e, Command{Op: OpSCHD, Job: j, Server: a1}); got.Kind == ReplyRefused {
						t.Fatalf("SCHD %d a 1 refused", j)
					}
					placed[j] = true
				}
			}
			exec(e, Command{Op: OpQUIT})
			rep := e.Finish()
			if rep.Jobs != 3 {
				t.Fatalf("%d jobs completed, want 3:\n%s", rep.Jobs, rep.Text)
			}
			if math.Abs(float64(rep.TotalCost-tc.wantCost)) > 1e-6*float64(tc.wantCost) { // float32 sums
				t.Errorf("report cost %v, want %v:\n%s", rep.TotalCost, tc.wantCost, rep.Text)
			}
			wantCost := float64(tc.want.Seconds) * 0.5 / 3600
			got := rep.Unbilled
			if got.Servers != tc.want.Servers || got.Seconds != tc.want.Seconds || math.Abs(got.Cost-wantCost) > 1e-12 {
				t.Errorf("Unbilled %+v, want %+v (cost %v)", got, tc.want, wantCost)
			}
		})
	}
}

// TestUnbilledRecoveryWithoutFailure: overlapping trace records make a
// server recover while it runs a job (Appendix C); ds-server resets it
// without billing the time it ran (it is then off: its power period ends).
// Type b (2 cores, 10 s boot, $0.5/h) fails at 10 and 20 and recovers at
// 31 and 101; job 0 (100 s) is placed on b 0 at 40 (boot 40–50), is failed
// by the reset at 101 and, taken from the global queue, runs again 111–211.
func TestUnbilledRecoveryWithoutFailure(t *testing.T) {
	cfg := &model.Config{EndTime: 1000, FailureFile: "trace",
		Types: []model.ServerType{{Name: "a", Limit: 1, BootupTime: 10, HourlyRate: 0.1, Cores: 1, Memory: 1000, Disk: 1000},
			{Name: "b", Limit: 1, BootupTime: 10, HourlyRate: 0.5, Cores: 2, Memory: 1000, Disk: 1000}},
		Failures: []model.FailureRecord{{Start: 10, End: 100, Type: "b", ID: 0}, {Start: 20, End: 30, Type: "b", ID: 0}},
		Jobs:     []model.Job{{ID: 0, Submit: 40, EstRunTime: 100, ActRunTime: 100, Cores: 2, Memory: 100, Disk: 100}}}
	e, err := NewEngine(cfg, Options{Stderr: &bytes.Buffer{}, NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	b0 := Ref{"b", 0}
	var got []string
	for step := 0; step < 20; step++ {
		r := exec(e, Command{Op: OpREDY})
		got = append(got, string(e.AppendEvent(nil, r.Event)))
		if r.Event.kind == EventNONE {
			break
		}
		if r.Event.kind == EventCHKQ { // the failed job, back in the global queue
			exec(e, Command{Op: OpDEQJ, N: 0})
		}
		if r.Event.kind == EventJob || r.Event.kind == EventCHKQ {
			if rr := exec(e, Command{Op: OpSCHD, Job: 0, Server: b0}); rr.Kind == ReplyRefused {
				t.Fatalf("SCHD 0 b 0 refused at step %d: %v", step, got)
			}
		}
	}
	want := []string{"RESF a 0 0", "RESF b 0 10", "RESF b 0 20", "RESR b 0 31", "JOBN 0 40 2 100 100 100",
		"RESR b 0 101", "CHKQ", "JCPL 211 0 b 0", "NONE"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q, want %q", got, want)
	}
	exec(e, Command{Op: OpQUIT})
	rep := e.Finish()
	// ds-server bills b 0 111–211; the meter also 50–101, when the reset
	// came without a bill.
	if want := (Unbilled{Servers: 1, Seconds: 51, Cost: 51 * 0.5 / 3600}); rep.Unbilled != want {
		t.Fatalf("Unbilled %+v, want %+v\n%s", rep.Unbilled, want, rep.Text)
	}
}

// TestUnbilledInvariants drives random runs (two types, 0–20 s boots,
// failure traces, TERM, and in two runs of three MIGJ, KILJ and
// overlapping trace records) and checks, server by server after the
// report: the meter never gives less than ds-server billed (a negative gap
// would be dropped by addUnbilled, so it is checked here), and without
// MIGJ, KILJ and overlapping records the two agree exactly (reboots,
// failures and TERMs, booting or not, are billed as metered).
func TestUnbilledInvariants(t *testing.T) {
	seeds := int64(3000)
	if testing.Short() {
		seeds = 300
	}
	refs := []Ref{{"a", 0}, {"a", 1}, {"a", 2}, {"b", 0}, {"b", 1}}
	for seed := int64(0); seed < seeds; seed++ {
		r := rand.New(rand.NewSource(seed))
		plain := seed%3 == 0 // no MIGJ, no KILJ, no overlapping records
		cfg := &model.Config{EndTime: 100000, Types: []model.ServerType{
			{Name: "a", Limit: 3, BootupTime: r.Intn(3) * 10, HourlyRate: 0.5, Cores: 2, Memory: 1000, Disk: 1000},
			{Name: "b", Limit: 2, BootupTime: 15, HourlyRate: 1, Cores: 4, Memory: 2000, Disk: 2000}}}
		submit := 0
		for i := 0; i < 8; i++ {
			submit += r.Intn(30)
			rt := 5 + r.Intn(60)
			cfg.Jobs = append(cfg.Jobs, model.Job{ID: i, Submit: submit, EstRunTime: rt, ActRunTime: rt, Cores: 1 + r.Intn(2), Memory: 100, Disk: 100})
		}
		if r.Intn(2) == 0 {
			cfg.FailureFile = "trace"
			for k := 0; k < 1+r.Intn(4); k++ {
				f := model.FailureRecord{Type: []string{"a", "b"}[r.Intn(2)], ID: r.Intn(2), Start: 5 + r.Intn(300)}
				f.End = f.Start + r.Intn(40)
				if plain && slices.ContainsFunc(cfg.Failures, func(g model.FailureRecord) bool {
					return g.Type == f.Type && g.ID == f.ID && f.Start <= g.End+1 && g.Start <= f.End+1
				}) {
					continue
				}
				cfg.Failures = append(cfg.Failures, f)
			}
		}
		e, err := NewEngine(cfg, Options{Stderr: &bytes.Buffer{}, NoHeader: true})
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 400; step++ {
			ev := exec(e, Command{Op: OpREDY}).Event
			if ev.kind == EventNONE {
				break
			}
			if ev.kind == EventCHKQ {
				exec(e, Command{Op: OpDEQJ, N: 0})
			}
			for k := r.Intn(3); k > 0; k-- { // side actions on a random server
				m := e.machines[r.Intn(len(e.machines))]
				ref := Ref{e.types[m.typ].Name, m.id}
				on := append(slices.Clone(m.running), m.waiting...)
				switch x := r.Intn(10); {
				case x < 4 && !plain && len(on) > 0:
					exec(e, Command{Op: OpMIGJ, Job: e.jobs[on[r.Intn(len(on))].job].ID, Server: ref, To: refs[r.Intn(len(refs))]})
				case x < 6 && !plain && len(on) > 0:
					exec(e, Command{Op: OpKILJ, Job: e.jobs[on[r.Intn(len(on))].job].ID, Server: ref})
				case x < 7:
					exec(e, Command{Op: OpTERM, Server: ref})
				}
			}
			if (ev.kind == EventJob || ev.kind == EventCHKQ) && len(e.sq) > 0 {
				id := e.jobs[e.sq[0].job].ID
				if ev.kind == EventJob {
					id = e.jobs[ev.job].ID
				}
				for k := 0; k < 10; k++ {
					if exec(e, Command{Op: OpSCHD, Job: id, Server: refs[r.Intn(len(refs))]}).Kind != ReplyRefused {
						break
					}
				}
			}
		}
		exec(e, Command{Op: OpQUIT})
		rep := e.Finish()
		var sum int64
		for _, s := range e.machines {
			// After the report every billed time is final (curStart -1);
			// a skipped server counts 0 whatever its billed time.
			metered, counted := e.meteredTime(s), s.billed
			if !s.hasJobs() {
				counted = 0
			}
			if metered < s.billed || (plain && metered != s.billed) {
				t.Fatalf("seed %d (plain %v): %s %d metered %d, billed %d; power %+v\n%s", seed, plain, s.name, s.id, metered, s.billed, s.power, rep.Text)
			}
			sum += int64(metered - counted)
		}
		if rep.Unbilled.Seconds != sum {
			t.Fatalf("seed %d: Unbilled %+v, the servers' gaps add up to %d s", seed, rep.Unbilled, sum)
		}
	}
}

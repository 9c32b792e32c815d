package mocksrv

import (
	"errors"
	"strings"
	"testing"
)

// A job offered again and again with nothing accepted in between ends the
// dialogue once MaxRefusedOffers is set, naming the job and the last
// refusal; an accepted action starts the count again, and with the guard
// off (dsmock) the loop goes on as ds-server's does.
func TestMaxRefusedOffers(t *testing.T) {
	const job0 = "JOBN 0 5 1 500 1000 50"
	for _, tc := range []struct {
		name  string
		limit int
		loop  []string // sent after each offer of job 0, with their replies
		want  string   // the end's message; "" for none within 3*limit offers
	}{
		{"refused SCHD", 5, []string{"SCHD 5 tiny 0", "ERR: No such waiting job exists"},
			`job 0 offered 5 times, every action refused (the last: "SCHD 5 tiny 0": ERR: No such waiting job exists)`},
		{"a query does not count as an action", 5, []string{"SCHD 0 nosuch 0", "ERR: No such server type exists", "CNTJ tiny 0 2", "0"},
			`job 0 offered 5 times, every action refused (the last: "SCHD 0 nosuch 0": ERR: No such server type exists)`},
		{"a malformed command is refused too", 5, []string{"GETS Nothing", "ERR: invalid resource information query (GETS Nothing)!"},
			`the last: "GETS Nothing": ERR: invalid resource information query (GETS Nothing)!`},
		{"no action at all", 5, nil, "job 0 offered 5 times with no action in between"},
		{"guard off", 0, []string{"SCHD 5 tiny 0", "ERR: No such waiting job exists"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDlg(t, tinyConfig(), Options{})
			d.tx.MaxRefusedOffers = tc.limit
			d.start(job0)
			for i := 0; i < 3*max(tc.limit, 5); i++ {
				for k := 0; k < len(tc.loop); k += 2 {
					d.x(tc.loop[k], tc.loop[k+1])
				}
				got, done, err := d.tx.Handle("REDY")
				if err == nil {
					if string(got) != job0 || done {
						t.Fatalf("REDY: got %q, done %v; want job 0 again", got, done)
					}
					continue
				}
				var f *Fatal
				if tc.want == "" || !errors.As(err, &f) || !done || got != nil || !strings.Contains(f.Msg, tc.want) {
					t.Fatalf("offer %d: got %q, done %v, err %v; want the end %q", i+2, got, done, err, tc.want)
				}
				if i+1 != tc.limit {
					t.Fatalf("ended after %d offers, want %d", i+1, tc.limit)
				}
				return
			}
			if tc.want != "" {
				t.Fatalf("never ended; want %q", tc.want)
			}
		})
	}
}

// An accepted action, or another event, starts the count again: a client
// that is refused often but gets on never meets the guard. Here the job
// on offer changes too, which alone starts the count again.
func TestMaxRefusedOffersResets(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.tx.MaxRefusedOffers = 3
	d.start("JOBN 0 5 1 500 1000 50")
	for range 2 {
		d.x("SCHD 0 nosuch 0", "ERR: No such server type exists")
		d.x("REDY", "JOBN 0 5 1 500 1000 50")
	}
	d.x("SCHD 0 big 0", "OK")
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	for range 2 {
		d.x("SCHD 1 tiny 0", "ERR: Server incapable of running such a job")
		d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	}
	d.x("SCHD 1 big 0", "OK")
}

// An accepted action starts the count again though the same job is
// offered again and again, far more often than the limit: a client that
// pushes its only job back (PSHJ) or queues and dequeues it is not one
// whose every action is refused.
func TestMaxRefusedOffersResetOnTheSameJob(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cycle []string // sent after each offer of job 0, with their replies
		offer string   // job 0's next offer
	}{
		{"PSHJ", []string{"PSHJ", "OK"}, "JOBP 0 "},
		{"ENQJ then DEQJ", []string{"ENQJ GQ", "OK", "DEQJ GQ 0", "OK"}, "JOBN 0 5 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig()
			cfg.Jobs, cfg.JobCount = cfg.Jobs[:1], 1
			d := newDlg(t, cfg, Options{})
			d.tx.MaxRefusedOffers = 3
			d.start("JOBN 0 5 1 500 1000 50")
			for i := range 4 * d.tx.MaxRefusedOffers {
				d.x("SCHD 0 nosuch 0", "ERR: No such server type exists")
				for k := 0; k < len(tc.cycle); k += 2 {
					d.x(tc.cycle[k], tc.cycle[k+1])
				}
				got, done, err := d.tx.Handle("REDY")
				if err != nil || done || !strings.HasPrefix(string(got), tc.offer) {
					t.Fatalf("offer %d: got %q, done %v, err %v; want %q…", i+2, got, done, err, tc.offer)
				}
			}
		})
	}
}

package baselines

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// fuzzScript decodes bytes into a job and GETS/LSTJ replies on system T-W
// or T-R: byte 0 picks the system, bytes 1–3 the job, then 5 bytes per
// record (type, id, state, available cores, flags). Ids may exceed the
// limit and the Avail reply is a subset, so odd replies are covered too.
func fuzzScript(t *testing.T, data []byte) (*fakeView, protocol.Job, bool) {
	if len(data) < 4 {
		return nil, protocol.Job{}, false
	}
	sys := sysTW(t)
	if data[0]&1 == 1 {
		sys = sysTR(t)
	}
	types := sys.Types()
	job := protocol.Job{ID: int(data[1]), Submit: 100, Cores: 1 + int(data[2])%16,
		Memory: 100 + int(data[3])*100, Disk: 100 + int(data[3]>>2)*200, EstRunTime: 1 + int(data[1])}
	v := &fakeView{Sys: sys, Capable: []protocol.Server{}, Avail: []protocol.Server{},
		LSTJ: map[protocol.ServerRef][]protocol.JobRecord{}, EJWT: map[protocol.ServerRef]int{}}
	for rest := data[4:]; len(rest) >= 5; rest = rest[5:] {
		ty := types[int(rest[0])%len(types)]
		s := protocol.Server{Type: ty.Name, ID: int(rest[1]) % (ty.Limit + 1), State: protocol.ServerState(rest[2] % 5),
			CurStartTime: 50, Cores: int(rest[3]) % (ty.Cores + 2), Memory: ty.Memory * int(rest[4]&3) / 3,
			Disk: ty.Disk * int(rest[4]>>2&3) / 3, Waiting: int(rest[4]>>4) & 3, Running: int(rest[4] >> 6)}
		if rest[4]&0x80 != 0 {
			s.Type = "ghost" // a type not in the system
		}
		v.Capable = append(v.Capable, s)
		if rest[4]&0x40 != 0 {
			v.Avail = append(v.Avail, s)
		}
		start := 60
		if rest[3]&0x80 != 0 {
			start = -1
		}
		v.LSTJ[s.Ref()] = []protocol.JobRecord{{ID: 1, State: protocol.JobStateWaiting, Submit: 1, Start: start, EstRunTime: 5, Cores: 1, Memory: 100, Disk: 100}}
		v.EJWT[s.Ref()] = int(rest[3]) * 10
	}
	return v, job, true
}

// FuzzDecide: for any replies, no strategy panics or errs (other than
// ErrNoServer), each ends with exactly one disposing action, chooses only a
// present server of a known type (atl/lrr: L), and sends LSTJ only to
// present booting servers, each at most once — every one of them for
// bf/wf/bfq/wfq (baselines.md §2.5).
func FuzzDecide(f *testing.F) {
	f.Add([]byte{0, 1, 2, 10, 2, 0, 0, 4, 0x0f, 3, 1, 1, 2, 0x05, 4, 0, 3, 0, 0x3f})
	f.Add([]byte{1, 7, 3, 3, 5, 0, 1, 16, 0xff, 4, 1, 3, 0x83, 0x15, 2, 2, 0, 2, 0x40})
	f.Add([]byte{0, 9, 0, 0, 0, 0, 4, 0, 0, 1, 1, 4, 0, 0})
	for _, c := range section8(f) {
		// seed with the §8 replies re-encoded (type, id, state, cores, flags)
		b := []byte{0, 1, 1, 1}
		if strings.Contains(c.name, "T-R") {
			b[0] = 1
		}
		for _, r := range recs(f, c.capable...) {
			for i, ty := range typesT {
				if ty.Name == r.Type {
					b = append(b, byte(i), byte(r.ID), byte(r.State), byte(r.Cores), 0x4f)
				}
			}
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		base, job, ok := fuzzScript(t, data)
		if !ok {
			return
		}
		for _, name := range append(strategies.ReferenceNames(), "cost-reduce") {
			v := *base
			v.Sent = nil
			s := mustNew(t, name)
			acts, err := s.Job(&v, job)
			if err != nil && !errors.Is(err, strategies.ErrNoServer) {
				t.Fatalf("%s: %v", name, err)
			}
			if err == nil && (len(acts) != 1 || !protocol.DisposesJob(acts[0])) {
				t.Fatalf("%s: actions %v", name, acts)
			}
			last := v.Capable // the reply the decision is made on
			switch {
			case name == "fafc" && len(v.Avail) > 0:
				last = v.Avail
			case name == "cost-reduce": // rule 1 on Avail, rule 2 on Capable
				last = append(slices.Clone(v.Avail), v.Capable...)
			}
			present := func(r protocol.ServerRef) (protocol.Server, bool) {
				var got protocol.Server
				found := false
				for _, x := range last { // the baselines' table keeps the last record of a server
					if x.Ref() == r && (name != "cost-reduce" || !found || got.State == protocol.Unavailable) {
						got, found = x, true // cost-reduce walks every record as received
					}
				}
				return got, found && got.State != protocol.Unavailable
			}
			if err == nil {
				switch a := acts[0].(type) {
				case protocol.Schedule:
					if name == "atl" || name == "lrr" {
						if l := v.Sys.Largest(); a.Server.Type != l.Name || a.Server.ID >= l.Limit {
							t.Fatalf("%s chose %s", name, a.Server)
						}
						break
					}
					if _, ok := present(a.Server); !ok {
						t.Fatalf("%s chose %s, not present in %v", name, a.Server, last)
					}
					if _, known := v.Sys.Lookup(a.Server.Type); !known {
						t.Fatalf("%s chose an unknown type: %s", name, a.Server)
					}
				case protocol.Push:
					if !slices.Contains([]string{"ff", "bf", "wf"}, name) {
						t.Fatalf("%s pushed", name)
					}
				case protocol.Enqueue:
					if !slices.Contains([]string{"ffq", "bfq", "wfq", "cost-reduce"}, name) {
						t.Fatalf("%s enqueued", name)
					}
				}
			}
			asked := map[protocol.ServerRef]bool{}
			for _, q := range v.Sent {
				if !strings.HasPrefix(q, "LSTJ ") {
					continue
				}
				r := ref(t, q[5:])
				srv, ok := present(r)
				if asked[r] || !ok || srv.State != protocol.Booting {
					t.Fatalf("%s: %q (present %v, state %v, repeated %v)", name, q, ok, srv.State, asked[r])
				}
				asked[r] = true
			}
			if slices.Contains([]string{"bf", "wf", "bfq", "wfq"}, name) {
				for _, x := range last {
					ty, known := v.Sys.Lookup(x.Type)
					if srv, ok := present(x.Ref()); ok && known && x.ID < ty.Limit && srv.State == protocol.Booting && !asked[x.Ref()] {
						t.Fatalf("%s did not query booting %s", name, x.Ref())
					}
				}
			}
		}
	})
}

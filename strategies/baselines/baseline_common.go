// Package baselines holds the reference client's ten algorithms (atl lrr ff
// bf wf fc fafc ffq bfq wfq), decision for decision and query for query
// (docs/baselines.md): their message sequences equal the
// reference client's, which the transcript tests check byte for byte.
// Importing the package registers them with package strategies.
package baselines

import (
	"fmt"
	"math"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// This file is the machinery the reference client's ten baselines share
// (baselines.md §2): the per-job server table, present(), ready() with the
// booting-server LSTJ check, and the two walk orders.

// The reference compares fitness against the 32-bit limits (baselines.md §3).
const (
	intMax = math.MaxInt32
	intMin = math.MinInt32
)

// slot is one server of the table: the last GETS record stored for it and
// the generation (job) it was stored in.
type slot struct {
	gen int
	rec protocol.Server
}

// table is the reference client's per-job server table, keyed by (type,
// id) and reset before every job (baselines.md §2.3 steps 1 and 3, §9).
// Rows are in file order; ids run 0 .. limit-1 as in ds-system.xml.
type table struct {
	sys    *servertypes.System
	types  []servertypes.Type // file order
	index  map[string]int     // type name -> file position
	sorted []int              // file positions in sorted order (stable by cores)
	file   []int              // file positions 0 .. n-1
	rows   [][]slot
	gen    int // current job's generation; a slot is stored iff slot.gen == gen
}

// bind (re)builds the table for the View's system; it is a no-op when the
// system has not changed, which is every job after the first.
func (t *table) bind(v strategies.View) error {
	sys := v.System()
	if sys == nil {
		return strategies.ErrNoSystem
	}
	if sys == t.sys {
		return nil
	}
	t.sys = sys
	t.types = sys.Types()
	t.index = make(map[string]int, len(t.types))
	t.rows = make([][]slot, len(t.types))
	for i, ty := range t.types {
		t.index[ty.Name] = i
		t.rows[i] = make([]slot, ty.Limit)
	}
	// Sorted order as positions in the file: System.Sorted is the stable
	// sort by cores only (baselines.md §2.4), so equal names map back 1:1.
	t.sorted = make([]int, 0, len(t.types))
	for _, ty := range sys.Sorted() {
		t.sorted = append(t.sorted, t.index[ty.Name])
	}
	t.file = make([]int, len(t.types))
	for i := range t.file {
		t.file[i] = i
	}
	t.gen = 0
	return nil
}

// load resets every server to "not present" and stores one GETS reply
// (baselines.md §2.3 steps 1 and 3). Record order does not matter; records
// of types not in the system, or with an id outside 0 .. limit-1, are
// ignored (§9: the reference's table has no slot for them).
func (t *table) load(recs []protocol.Server) {
	t.gen++
	last := -1 // records come grouped by type: skip the map lookup while the type repeats
	for k := range recs {
		r := &recs[k]
		i := last
		if i < 0 || t.types[i].Name != r.Type {
			var ok bool
			if i, ok = t.index[r.Type]; !ok {
				continue
			}
			last = i
		}
		if r.ID < 0 || r.ID >= len(t.rows[i]) {
			continue
		}
		t.rows[i][r.ID] = slot{gen: t.gen, rec: *r}
	}
}

// present reports whether the server appeared in the last GETS reply with a
// state other than unavailable (baselines.md §2.4), and returns its record.
func (t *table) present(typ, id int) (*protocol.Server, bool) {
	s := &t.rows[typ][id]
	if s.gen != t.gen || s.rec.State == protocol.Unavailable {
		return nil, false
	}
	return &s.rec, true
}

// walk is the server walk ff, bf, wf and their q variants share (§3.5–§3.8):
// the types in the given order (t.sorted or t.file), each type's ids in
// order, every present server asked ready() — which sends LSTJ for a
// booting one, so the walk order is the order of the LSTJ queries (§2.5).
// visit sees the server's type, its record and its readiness, and returns
// false to end the walk (ff stops at the first ready server, and with it
// the LSTJ queries). A query error ends the walk and is returned.
func (t *table) walk(v strategies.View, req protocol.Requirement, order []int,
	visit func(ty *servertypes.Type, srv *protocol.Server, ready bool) bool) error {
	for _, ti := range order {
		for id := range t.rows[ti] {
			srv, ok := t.present(ti, id)
			if !ok {
				continue
			}
			r, err := ready(v, srv, req)
			if err != nil {
				return err
			}
			if !visit(&t.types[ti], srv, r) {
				return nil
			}
		}
	}
	return nil
}

// ready is the reference's IsServerReady (baselines.md §2.4): a booting
// server is first asked LSTJ and is not ready if any of its jobs has an
// unknown start (-1), because such a job reserved nothing (ds-server.md
// §4.2); otherwise all three available resources from the GETS record must
// cover the job. The waiting-job count plays no part.
func ready(v strategies.View, s *protocol.Server, req protocol.Requirement) (bool, error) {
	if s.State == protocol.Booting {
		jobs, err := v.ListJobs(s.Ref())
		if err != nil {
			return false, err
		}
		for _, j := range jobs {
			if j.Start == -1 {
				return false, nil
			}
		}
	}
	return s.Fits(req), nil
}

// refused implements the project's reading of an ERR to SCHD for the
// reference baselines. The reference client prints the error and QUITs
// (baselines.md §2.3 step 6); our loop instead calls Job again with the
// refused server in View.Excluded. Returning ErrNoServer at once, before
// any query, makes the loop send QUIT right after the ERR, so the wire
// shows SCHD, ERR, QUIT exactly as the reference's does.
func refused(v strategies.View) bool { return len(v.Excluded()) > 0 }

// queryErr names the baseline in a query failure.
func queryErr(name string, err error) error { return fmt.Errorf("%s: %w", name, err) }

package libra

import (
	"math"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// record is what Part C needs of one job: its QoS (with the first-seen
// submit time), the admission outcome and its charge, and its finish time
// from JCPL.
type record struct {
	q        QoS
	cores    int
	est      int
	accepted bool
	reason   string // B.8's reason when rejected
	charge   float64
	server   protocol.ServerRef
	end      int  // JCPL time; -1 until then
	pending  bool // in the global queue (deferred, or waiting for a recovery)
	forced   bool // must be dispatched when offered next (CHKQ, deadline passed)
}

func (r *record) accept(s protocol.ServerRef, charge float64) {
	r.accepted, r.reason, r.charge, r.server, r.pending, r.forced = true, "", charge, s, false, false
}

func (r *record) reject(reason string, s protocol.ServerRef) {
	r.accepted, r.reason, r.charge, r.server, r.pending, r.forced = false, reason, 0, s, false, false
}

// book holds every job's record, in the order first offered. ds-sim's job
// ids are 0, 1, 2, … so records live in a slice indexed by id (a map
// lookup per job per candidate server was most of a decision's time).
type book struct {
	jobs  []*record // by job id; nil for ids not offered yet
	order []int
	extra map[int]QoS // jobs seen only in LSTJ or LSTQ (never offered to us)
}

// get returns the record of a job offered before.
func (b *book) get(id int) (*record, bool) {
	if id < 0 || id >= len(b.jobs) || b.jobs[id] == nil {
		return nil, false
	}
	return b.jobs[id], true
}

// set stores a record.
func (b *book) set(id int, r *record) {
	if id >= len(b.jobs) {
		b.jobs = append(b.jobs, make([]*record, id+1-len(b.jobs))...)
	}
	b.jobs[id] = r
}

// offered returns the job's record, made at its first offer: a JOBP's time
// field is the re-offer time, so TSU_i and TD_i are kept from the first
// (Part F, JOBP).
func (b *book) offered(job protocol.Job, sys *servertypes.System, qp *qosParams) *record {
	if r, ok := b.get(job.ID); ok {
		return r
	}
	if job.ID < 0 {
		job.ID = 0 // never from ds-server; keeps the slice index valid
	}
	r := &record{q: qp.synthesize(fields(job), pbaseRef(sys, job.Req())), cores: job.Cores, est: job.EstRunTime, end: -1}
	b.set(job.ID, r)
	b.order = append(b.order, job.ID)
	return r
}

// qosFunc gives the QoS of any job on a server: the record's when the job
// was offered to us, else synthesised from its LSTJ fields (B.3: the hash
// excludes the submit time, and LSTJ reports the original one).
func (b *book) qosFunc(sys *servertypes.System, qp *qosParams) func(protocol.Job) QoS {
	return func(j protocol.Job) QoS {
		if r, ok := b.get(j.ID); ok {
			return r.q
		}
		if q, ok := b.extra[j.ID]; ok {
			return q
		}
		if b.extra == nil {
			b.extra = map[int]QoS{}
		}
		q := qp.synthesize(fields(j), pbaseRef(sys, j.Req()))
		b.extra[j.ID] = q
		return q
	}
}

func (b *book) completed(id, t int) {
	if r, ok := b.get(id); ok {
		r.end = t
	}
}

func (b *book) force(id int) {
	if r, ok := b.get(id); ok {
		r.forced = true
	}
}

func fields(j protocol.Job) jobFields {
	return jobFields{id: j.ID, tsu: j.Submit, cores: j.Cores, mem: j.Memory, disk: j.Disk, est: j.EstRunTime}
}

// pbaseRef is B.3's PBase_ref: the lowest hourlyRate/(3600·cores) among
// the types that can run the job (every type when none can, which a valid
// ds-sim config never allows).
func pbaseRef(sys *servertypes.System, r protocol.Requirement) float64 {
	best, any := math.Inf(1), math.Inf(1)
	for _, t := range sys.Types() {
		p := t.HourlyRate / (3600 * float64(t.Cores))
		any = min(any, p)
		if t.Capable(r) {
			best = min(best, p)
		}
	}
	if math.IsInf(best, 1) {
		return any
	}
	return best
}

// judge is how every decision of the family begins: the ledger brought in
// step if it is Stale, the job's record and QoS (B.3), and every usable
// capable server judged (B.4, B.5). cands is nil when no capable server is
// usable (every one failed): the job then waits in the global queue for a
// recovery, marked pending.
func judge(v strategies.View, job protocol.Job, b *book, e *evaluator, qp *qosParams) (*record, []cand, error) {
	if err := v.Ledger().ResyncIfStale(v); err != nil { // ds-server completed jobs without telling (see Ledger)
		return nil, nil, err
	}
	r := b.offered(job, v.System(), qp)
	cands, err := e.candidates(v, job, r.q, b.qosFunc(v.System(), qp))
	if err != nil {
		return nil, nil, err
	}
	if len(cands) == 0 {
		r.pending = true
		return r, nil, nil
	}
	return r, cands, nil
}

// waitOr is judge's early answer: the error, or ENQJ for a job no usable
// server can take now.
func waitOr(err error) ([]protocol.Action, error) {
	if err != nil {
		return nil, err
	}
	return []protocol.Action{protocol.Enqueue{}}, nil
}

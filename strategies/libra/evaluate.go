package libra

import (
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// Where the server timelines of B.4 come from (parameter timeline).
const (
	// fromLedger replays the client's own ledger: the shadow model B.4 and
	// Part F allow, with no message on the wire; it is resynchronised with
	// GETS All, LSTJ and LSTQ whenever the ledger says it is Stale.
	fromLedger = "ledger"
	// fromLSTJ sends one LSTJ per non-empty candidate per job (B.4's exact
	// default) and replays what the server says.
	fromLSTJ = "lstj"
	// fromEJWT bounds the new job's start by EJWT (B.2, B.4's cheap
	// variant): max(avail, latest running end) + EJWT; conservative, so a
	// stricter admission. Existing jobs' timelines still come from the
	// ledger.
	fromEJWT = "ejwt"
)

// evaluator judges every capable server for one offered job.
type evaluator struct {
	timeline      string
	preferPowered bool
	buf           []strategies.Predicted
	cands         []cand
	recs          []protocol.JobRecord // the LSTJ reply behind the current timeline (timeline=lstj)
	fromRecs      bool                 // the current timeline came from recs
	cur           *strategies.Machine  // the machine being measured
	known         func(protocol.Job) QoS
}

// candidates returns the usable capable servers not refused for this job,
// each measured. q is the new job's QoS; known gives any other job's.
func (e *evaluator) candidates(v strategies.View, job protocol.Job, q QoS, known func(protocol.Job) QoS) ([]cand, error) {
	l := v.Ledger()
	e.cands = e.cands[:0]
	ex := v.Excluded()
	ms := l.Machines()
	for i := range ms {
		m := &ms[i]
		if !m.Capable(job.Req()) || !m.Usable() || (len(ex) > 0 && slices.Contains(ex, m.Ref)) {
			continue
		}
		tl, err := e.timelineOf(v, m, job)
		if err != nil {
			return nil, err
		}
		c := cand{m: m, idx: i}
		if e.preferPowered && !m.Powered() {
			c.tier = 1
		}
		e.cur, e.known = m, known
		c.measure(v.Now(), job, q, tl, e)
		e.cands = append(e.cands, c)
	}
	return e.cands, nil
}

// timelineOf is B.4's predicted timeline of m with job appended.
func (e *evaluator) timelineOf(v strategies.View, m *strategies.Machine, job protocol.Job) ([]strategies.Predicted, error) {
	l := v.Ledger()
	e.fromRecs = false
	switch {
	case e.timeline == fromLSTJ && !m.Empty():
		recs, err := v.ListJobs(m.Ref)
		if err != nil {
			return nil, err
		}
		e.recs, e.fromRecs = append(e.recs[:0], recs...), true
		shadow := *m
		shadow.Running, shadow.Waiting = nil, nil
		for _, r := range recs {
			p := strategies.Placement{Job: recordJob(r), Start: r.Start}
			if r.State == protocol.JobStateRunning {
				shadow.Running = append(shadow.Running, p)
			} else {
				shadow.Waiting = append(shadow.Waiting, p)
			}
		}
		e.buf = l.Predict(&shadow, &job, e.buf)
	case e.timeline == fromEJWT && !m.Empty():
		e.buf = l.Predict(m, nil, e.buf)
		wait, err := v.EstWait(m.Ref)
		if err != nil {
			return nil, err
		}
		st := availableAt(v.Now(), m)
		for _, p := range m.Running {
			st = max(st, max(p.Start+p.Job.EstRunTime, v.Now()+1))
		}
		st += wait
		e.buf = append(e.buf, strategies.Predicted{JobID: job.ID, Start: st, End: st + max(job.EstRunTime, 1)})
	default:
		e.buf = l.Predict(m, &job, e.buf)
	}
	return e.buf, nil
}

// availableAt is B.4's avail_j.
func availableAt(now int, m *strategies.Machine) int {
	switch m.State {
	case protocol.Inactive:
		return now + m.Type.BootupTime
	case protocol.Booting:
		return m.BootEnd
	}
	return now
}

// jobAt reads the i-th job of the current timeline: from the LSTJ reply it
// was built from, or from the machine's running then waiting placements
// (Predict's order).
func (e *evaluator) jobAt(i int) (int, QoS) {
	var j protocol.Job
	switch m := e.cur; {
	case e.fromRecs:
		j = recordJob(e.recs[i])
	case i < len(m.Running):
		j = m.Running[i].Job
	default:
		j = m.Waiting[i-len(m.Running)].Job
	}
	return j.Cores, e.known(j)
}

func recordJob(r protocol.JobRecord) protocol.Job {
	return protocol.Job{ID: r.ID, Submit: r.Submit, Cores: r.Cores, Memory: r.Memory, Disk: r.Disk, EstRunTime: r.EstRunTime}
}

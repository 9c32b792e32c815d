package frontier

import (
	"math"
	"slices"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// forecast is frontier's own replay of one server's FCFS queue. It is
// Ledger.Predict's rule (ds-server's, no backfilling) with one change that
// matters: runtimes are the learned predictions (see ratios.expect and
// ratios.endOf), not the estimates, and a running job that has outrun its
// prediction is not expected to end within the second (Predict's now + 1,
// which makes a queue behind an overrunning job look free: the trap
// frontier.md §4.2 measured).
type forecast struct {
	// heap holds the predicted ends of the jobs on the server, latest
	// first: the next to end is popped from the back and an end is
	// inserted in its place, so the slice keeps its capacity from one
	// forecast to the next (popping from the front, as it did, lost it,
	// and the insertions reallocated: 59 % of the scale benchmark's bytes).
	heap   []ending
	starts []int // the waiting jobs' predicted starts, in order (then the job's)
}

type ending struct {
	end int
	req protocol.Requirement
}

// outcome of a forecast for a job on a server.
type outcome struct {
	avail      int // when the server can first run anything (boot included)
	start, end int // the job's predicted start and end; start -1 if never
	billed     int // when the server's billing ends without the job
}

// scaled is an estimate stretched by the learned ratio (at least 1 s).
func scaled(est int, ratio float64) int {
	return max(1, int(math.Ceil(float64(est)*ratio)))
}

// run forecasts m's queue, then job if it is not nil.
func (fc *forecast) run(l *strategies.Ledger, m *strategies.Machine, job *protocol.Job, r *ratios) outcome {
	now := l.Now()
	o := outcome{avail: availableAt(l, m), start: -1}
	fc.heap, fc.starts = fc.heap[:0], fc.starts[:0]
	free := protocol.Requirement{Cores: m.Type.Cores, Memory: m.Type.Memory, Disk: m.Type.Disk}
	last := -1
	for _, p := range m.Running {
		end := r.endOf(p.Job.EstRunTime, p.Start, now)
		fc.heap = append(fc.heap, ending{end, p.Req()})
		free = minus(free, p.Req())
		last = max(last, end)
	}
	slices.SortFunc(fc.heap, func(a, b ending) int { return b.end - a.end })
	prev := o.avail
	blocked := false
	place := func(req protocol.Requirement, est int) int {
		if blocked {
			return -1
		}
		t := max(prev, o.avail)
		for !req.Fits(free.Cores, free.Memory, free.Disk) {
			if len(fc.heap) == 0 {
				blocked = true
				return -1
			}
			e := fc.heap[len(fc.heap)-1]
			fc.heap = fc.heap[:len(fc.heap)-1]
			t, free = max(t, e.end), plus(free, e.req)
		}
		prev, free = t, minus(free, req)
		end := t + r.expect(est)
		i, _ := slices.BinarySearchFunc(fc.heap, end, func(e ending, x int) int { return x - e.end })
		fc.heap = slices.Insert(fc.heap, i, ending{end, req})
		last = max(last, end)
		return t
	}
	for _, p := range m.Waiting {
		fc.starts = append(fc.starts, place(p.Req(), p.Job.EstRunTime))
	}
	o.billed = last
	if last < 0 {
		o.billed = l.EmptyBilledUntil(m)
	}
	if job != nil && m.Capable(job.Req()) {
		o.start = place(job.Req(), job.EstRunTime)
		o.end = o.start + r.expect(job.EstRunTime)
		if o.billed < 0 {
			o.billed = o.start // off: nothing billed before the job
		}
	}
	return o
}

func plus(a, b protocol.Requirement) protocol.Requirement {
	return protocol.Requirement{Cores: a.Cores + b.Cores, Memory: a.Memory + b.Memory, Disk: a.Disk + b.Disk}
}

func minus(a, b protocol.Requirement) protocol.Requirement {
	return protocol.Requirement{Cores: a.Cores - b.Cores, Memory: a.Memory - b.Memory, Disk: a.Disk - b.Disk}
}

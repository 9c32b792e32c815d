package engine

import (
	"github.com/dssim-go/dssim-go/protocol/didyoumean"

	"errors"
	"math/bits"
	"slices"
	"strconv"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// The memory extension (../shared/docs/estimation.md Part E), a project
// design, not ds-server behaviour: jobs carry a hidden actual memory
// (actMemory in the job file), SCHM books less memory than requested, and
// a job whose memory does not suffice fails at a drawn time and is offered
// again as JOBP. Off (MemFailOff, the default) nothing here runs: SCHM gets
// ds-server's "ERR: invalid command" and every slot books the request.
//
// Choices Part E leaves open, as implemented (also in
// mocksrv/sim_doc.go and docs/memory-extension.md):
//   - SCHM's checks: the job lookup first (SCHD's text), then allocMem
//     (100 ≤ allocMem ≤ the job's memory, else "ERR: invalid allocation
//     (<msg>)!"), then SCHD's checks with allocMem for the memory.
//   - The booked memory shows wherever the server's memory does: GETS
//     availability, LSTJ's memory field (so a client can rebuild a server's
//     state from LSTJ); JOBN, JOBP and LSTQ carry the request. MIGJ keeps a
//     job's allocMem.
//   - contention: when a job starts, Σ actMemory over the jobs then holding
//     the server (running, known-start on a booting server, and itself) >
//     the type's memory fails the job being started, and only it.
//   - The failure time t = start + ⌊r·actRunTime / 2^64⌋, r the next
//     output of splitmix64 seeded with randomSeed; only failing jobs draw.
//   - Several jobs failing at the same t go back to the head of SQ in the
//     order they failed.
//   - The report has one more line before the Summary banner, so that the
//     last three lines stay ds-server's.

// MemFailModel is the memory extension's failure model (Part E item 5);
// the zero value is the extension switched off.
type MemFailModel uint8

// The failure models.
const (
	MemFailOff        MemFailModel = iota // no extension: ds-server exactly
	MemFailHard                           // actMemory > allocMem fails (a cgroup-like hard limit; the default)
	MemFailMachine                        // actMemory > the server type's memory fails (exclusive, paper mode)
	MemFailContention                     // the summed actMemory on the server > its memory fails the job started
)

var memFailNames = [...]string{"off", "hard", "machine", "contention"}

// String is the model's name as ParseMemFailModel reads it.
func (m MemFailModel) String() string {
	if int(m) < len(memFailNames) {
		return memFailNames[m]
	}
	return "MemFailModel(" + strconv.Itoa(int(m)) + ")"
}

// ParseMemFailModel reads a failure model name: hard, machine, contention
// (or off).
func ParseMemFailModel(s string) (MemFailModel, error) {
	for i, n := range memFailNames {
		if s == n {
			return MemFailModel(i), nil
		}
	}
	return MemFailOff, errors.New("memory failure model " + strconv.Quote(s) + ": want hard, machine or contention (or off)" +
		didyoumean.Hint(s, memFailNames[:]))
}

// CheckMemExt says whether cfg can run with the memory extension on:
// its jobs must come from a job file that gives actMemory, every value
// valid. Commands call it before the run; NewEngine calls it too.
func CheckMemExt(cfg *model.Config, m MemFailModel) error {
	if cfg.ActMemoryErr != nil {
		return cfg.ActMemoryErr
	}
	if cfg.ActMemoryJobs == 0 {
		where := "generated jobs"
		if cfg.JobFile != "" {
			where = "job file " + cfg.JobFile
		}
		return errors.New("the memory extension (failure model " + m.String() + ") needs a job file whose <job> elements carry actMemory=\"…\"; " +
			cfg.Path + " uses " + where + ", which gives none (mocksrv/memwork writes such files)")
	}
	return nil
}

// memExt is the extension's state in an Engine.
type memExt struct {
	rand     uint64 // splitmix64 state
	failures int
	wasted   int64
}

// draw returns ⌊u·n⌋ for the next u = r / 2^64 of splitmix64 (Vigna's
// constants); exact integer arithmetic, so any implementation reproduces it.
func (x *memExt) draw(n int) int {
	x.rand += 0x9e3779b97f4a7c15
	z := x.rand
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	if n <= 0 {
		return 0
	}
	hi, _ := bits.Mul64(z, uint64(n))
	return int(hi)
}

// setEnd gives slot x, whose start just became known on s, its end: start +
// actual run time, or with the extension on and a failing job, the drawn
// failure time (Part E item 5).
func (e *Engine) setEnd(s *Machine, x *slot) {
	j := &e.jobs[x.job]
	x.end = x.start + j.ActRunTime
	x.memFail = false
	if e.opt.MemFail == MemFailOff || !e.memFails(s, x) {
		return
	}
	x.memFail = true
	x.end = x.start + e.mem.draw(j.ActRunTime)
}

// memFails applies the failure model to x starting on s.
func (e *Engine) memFails(s *Machine, x *slot) bool {
	act := e.jobs[x.job].ActMem()
	capacity := e.types[s.typ].Memory
	switch e.opt.MemFail {
	case MemFailHard:
		return act > x.mem()
	case MemFailMachine:
		return act > capacity
	}
	sum := act
	for _, r := range s.running {
		sum += e.jobs[r.job].ActMem()
	}
	for _, w := range s.waiting {
		if w.start >= 0 && w.job != x.job {
			sum += e.jobs[w.job].ActMem()
		}
	}
	return sum > capacity
}

// memFailed ends running job i of s at its failure time: it leaves the
// server like a completion (resources back, busy time of §6.1) but goes
// to the failed list and back to the head of SQ, offered at that time.
func (e *Engine) memFailed(s *Machine, i int) {
	r := s.running[i]
	j := &e.jobs[r.job]
	s.running = removeAt(s.running, i)
	s.release(j, r.mem())
	s.leave(r.start, r.end, s.minRunStart())
	s.failed = append(s.failed, r)
	e.mem.failures++
	e.mem.wasted += int64(j.Cores) * int64(r.end-r.start)
	e.log.queue(r.end, lineMemFailed, r.job, s.idx)
	k := 0
	for k < len(e.sq) && e.sq[k].memFail && e.sq[k].t == r.end {
		k++
	}
	e.sq = slices.Insert(e.sq, k, qent{t: r.end, job: r.job, memFail: true})
}

// afterMemFailure is finishJCPL's step for a memory failure on s in the
// completion path: waiting jobs start (§3.5), unless the batch's next
// entry is on the same server.
func (e *Engine) afterMemFailure(s *Machine) {
	if len(e.batch) == 0 || e.batch[0].srv != s.idx {
		e.startWaiting(s, e.clock)
	}
	e.touch(s)
	e.flushLog()
}

// schm is SCHM jobID type id allocMem (Part E item 4).
func (e *Engine) schm(c *Command) Refusal {
	i := -1
	if c.Missing&MissingJob == 0 {
		i = e.sqIndex(c.Job)
	}
	if i < 0 {
		return Refusal{code: rNoWaitingJob}
	}
	if c.Missing&MissingAlloc != 0 || c.Alloc < 100 || c.Alloc > e.jobs[e.sq[i].job].Memory {
		return Refusal{code: rAlloc}
	}
	return e.schdAt(i, c.Server.Type, c.Server.ID, c.Missing&MissingID == 0, c.Alloc)
}

// memReport adds the extension's counts to the report and its line.
func (e *Engine) memReport(rep *Report, b interface{ WriteString(string) (int, error) }) {
	if e.opt.MemFail == MemFailOff {
		return
	}
	rep.MemFailures, rep.WastedCoreSeconds = e.mem.failures, e.mem.wasted
	b.WriteString("# memory failures: " + strconv.Itoa(rep.MemFailures) + ", wasted core-seconds: " +
		strconv.FormatInt(rep.WastedCoreSeconds, 10) + " (failure model: " + e.opt.MemFail.String() + ")\n")
}

// MemExt reports whether the memory extension is on (the text front
// parses SCHM only then).
func (e *Engine) MemExt() bool { return e.opt.MemFail != MemFailOff }

package engine

import (
	"math"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/protocol/cfloat"
)

// Report is the end-of-run statistics (ds-server.md §6), as numbers and as
// the exact text ds-server prints.
type Report struct {
	EndTime       int     // actual simulation end time
	Jobs          int     // completed jobs counted
	Failed        int     // failed-job records (a job failed twice counts twice)
	ServersUsed   int     // total #servers used
	AvgUtil       float32 // percent
	EfUsage       float32 // percent
	TotalCost     float32 // dollars
	AvgWait       int
	AvgExec       int
	AvgTurnaround int
	Types         []TypeReport // sorted type order
	// Unscheduled is the number of jobs never run at QUIT (never released,
	// or still in SQ or GQ): the "<n> jobs not scheduled!" of §7.6.
	Unscheduled int
	// MemFailures and WastedCoreSeconds are the memory extension's counts
	// (estimation.md Part E item 5): memory failures (also counted in
	// Failed) and Σ cores × (failure time − start); zero when it is off.
	MemFailures       int
	WastedCoreSeconds int64
	// Unbilled is the server time the report's cost leaves out (not printed;
	// see the type).
	Unbilled Unbilled
	// Text is the report block exactly as printed: from the dashed line to
	// the avg waiting time line, with the per-server detail for LEVEL+.
	Text string
}

// TypeReport is one type line of the report.
type TypeReport struct {
	Name string
	Used int
	Util float32 // percent: typeUtil / used × 100
	Cost float32
}

// f2 formats a float32 as C's %.2f does for the value converted to double.
func f2(v float32) string {
	x := float64(v)
	if math.IsNaN(x) {
		// 0/0 on the reference's platform is a negative quiet NaN [NOT VERIFIED, §6.3].
		x = math.Copysign(x, -1)
	}
	return cfloat.Fixed2(x)
}

// reportSums are the sums of §6.1-§6.3 over the used servers.
type reportSums struct {
	totalUtil, grandCost                float32
	waitSum, execSum, effSum, billedSum int64
}

// report computes the statistics (§6.1-§6.3) and their text (§6.4, §6.5).
// It finalises billed times, so it runs once, after QUIT.
func (e *Engine) report() *Report {
	rep := &Report{EndTime: e.actualEnd}
	var b strings.Builder
	b.WriteString("# " + strings.Repeat("-", 85) + "\n")
	var sums reportSums
	for ti := range e.types {
		e.typeReport(rep, &sums, &b, ti)
	}
	if rep.ServersUsed > 0 {
		rep.AvgUtil = float32(float32(sums.totalUtil/float32(rep.ServersUsed)) * 100)
	}
	if sums.billedSum != 0 {
		rep.EfUsage = float32(float32(float32(sums.effSum)/float32(sums.billedSum)) * 100)
	}
	rep.TotalCost = sums.grandCost
	if rep.Jobs > 0 {
		rep.AvgWait = int(sums.waitSum / int64(rep.Jobs))
		rep.AvgExec = int(sums.execSum / int64(rep.Jobs))
	}
	rep.AvgTurnaround = rep.AvgWait + rep.AvgExec
	e.memReport(rep, &b)
	rep.writeSummary(&b)
	rep.Text = b.String()
	return rep
}

// typeReport adds type ti's servers to the report and writes its line
// (with the per-server detail for LEVEL+, §6.5).
func (e *Engine) typeReport(rep *Report, sums *reportSums, b *strings.Builder, ti int) {
	tp := &e.types[ti]
	var typeUtil, typeCost float32
	used := 0
	if e.opt.Level.Detail {
		b.WriteString("# --- [" + tp.Name + "]\n")
	}
	for id := 0; id < tp.Limit; id++ {
		util, cost, ok := e.machineReport(rep, sums, b, e.machines[e.first[ti]+int32(id)])
		if ok {
			used++
			typeUtil += util
			typeCost += cost
		}
	}
	tu := float32(0)
	if used > 0 {
		tu = float32(float32(typeUtil/float32(used)) * 100)
	}
	rep.Types = append(rep.Types, TypeReport{Name: tp.Name, Used: used, Util: tu, Cost: typeCost})
	b.WriteString("# " + strconv.Itoa(used) + " " + tp.Name + " servers used with a utilisation of " +
		f2(tu) + " at the cost of $" + f2(typeCost) + "\n")
	rep.ServersUsed += used
	sums.totalUtil += typeUtil
	sums.grandCost += typeCost
}

// machineReport adds one server to the report; used is false for a server
// that never held a job or did no valid work.
func (e *Engine) machineReport(rep *Report, sums *reportSums, b *strings.Builder, s *Machine) (util, cost float32, used bool) {
	metered := e.meteredTime(s)
	if !s.hasJobs() {
		e.addUnbilled(rep, s, metered, 0)
		if e.opt.Level.Detail {
			b.WriteString("# --- server " + strconv.Itoa(s.id) + " NEVER USED!\n")
		}
		return 0, 0, false
	}
	rep.Failed += len(s.failed)
	if s.curStart == -1 && s.billed == 0 {
		e.addUnbilled(rep, s, metered, 0)
		if e.opt.Level.Detail {
			b.WriteString("# --- server " + strconv.Itoa(s.id) + " NOT USED for valid work!\n")
		}
		return 0, 0, false
	}
	e.finaliseBilled(s)
	e.addUnbilled(rep, s, metered, s.billed)
	for _, c := range s.completed {
		rep.Jobs++
		sums.waitSum += int64(c.start - e.jobs[c.job].Submit)
		sums.execSum += int64(e.jobs[c.job].ActRunTime)
	}
	// Explicit float32 conversions keep each operation rounded on
	// its own (no fused multiply-add): the printed digits depend on it.
	util = float32(float32(s.busy) / float32(s.billed))
	rate := float32(e.types[s.typ].HourlyRate / float32(3600))
	cost = float32(float32(s.billed) * rate)
	eff := effUsage(s.completed)
	sums.effSum += int64(eff)
	sums.billedSum += int64(s.billed)
	if e.opt.Level.Detail {
		e.detail(b, s, util, cost, eff)
	}
	return util, cost, true
}

// finaliseBilled adds the billed time of a server still powered: up to the
// end of its last job, at most the simulation end (§6.1).
func (e *Engine) finaliseBilled(s *Machine) {
	if s.curStart == -1 {
		return
	}
	L := -1
	for _, lst := range [3][]slot{s.running, s.completed, s.failed} {
		for _, x := range lst {
			L = max(L, x.end)
		}
	}
	if L < 0 {
		// No such job: the reference aborts [CRASH]; Appendix D: L = curStartTime.
		L = s.curStart
	}
	L = min(L, e.actualEnd)
	s.billed += L - s.curStart
	s.curStart = -1 // finalised once
}

// writeSummary writes the summary block (§6.4).
func (rep *Report) writeSummary(b *strings.Builder) {
	b.WriteString("# ==================================== [ Summary ] ====================================\n")
	b.WriteString("# actual simulation end time: " + strconv.Itoa(rep.EndTime) + ", #jobs: " + strconv.Itoa(rep.Jobs) +
		" (failed " + strconv.Itoa(rep.Failed) + " times)\n")
	b.WriteString("# total #servers used: " + strconv.Itoa(rep.ServersUsed) + ", avg util: " + f2(rep.AvgUtil) +
		"% (ef. usage: " + f2(rep.EfUsage) + "%), total cost: $" + f2(rep.TotalCost) + "\n")
	b.WriteString("# avg waiting time: " + strconv.Itoa(rep.AvgWait) + ", avg exec time: " + strconv.Itoa(rep.AvgExec) +
		", avg turnaround time: " + strconv.Itoa(rep.AvgTurnaround) + "\n")
}

// effUsage is a server's effective usage (§6.1): its completed jobs in
// completion order, each counting from the later of the previous end and
// the earliest start among it and the jobs after it.
func effUsage(c []slot) int {
	if len(c) == 0 {
		return 0
	}
	suf := make([]int, len(c)+1)
	suf[len(c)] = math.MaxInt
	for i := len(c) - 1; i >= 0; i-- {
		suf[i] = min(c[i].start, suf[i+1])
	}
	P := suf[0]
	eff := 0
	for i, x := range c {
		if x.start > P {
			P = max(P, suf[i])
		}
		eff += x.end - P
		P = x.end
	}
	return eff
}

// detail writes one server's -v LEVEL+ lines (§6.5).
func (e *Engine) detail(b *strings.Builder, s *Machine, util, cost float32, eff int) {
	c, f, k := len(s.completed), len(s.failed), len(s.killed)
	b.WriteString("# --- server " + strconv.Itoa(s.id) + " -- util: " + f2(util*100) + "%, cost: $" + f2(cost) +
		", " + strconv.Itoa(s.nFail) + " times failed (" + strconv.Itoa(s.totalFail) + "), act. usage: " +
		strconv.Itoa(s.busy) + ", total usage: " + strconv.Itoa(s.billed) + " , ef. usage: " + strconv.Itoa(eff) +
		" (" + f2(float32(eff)/float32(s.billed)*100) + "%); jobs: " + strconv.Itoa(c+f+k) + " scheduled, " +
		strconv.Itoa(c) + " completed, " + strconv.Itoa(f) + " failed, 0 preempted, " + strconv.Itoa(k) + " killed\n")
	for _, l := range [...]struct {
		name string
		jobs []slot
	}{{"completed", s.completed}, {"failed", s.failed}, {"killed", s.killed}} {
		if len(l.jobs) == 0 {
			continue
		}
		b.WriteString("# ----- Job " + l.name + "\n")
		for _, x := range l.jobs {
			j := &e.jobs[x.job]
			b.WriteString("# ----- job " + strconv.Itoa(j.ID) + " -- submit: " + strconv.Itoa(j.Submit) +
				", start: " + strconv.Itoa(x.start) + ", end: " + strconv.Itoa(x.end) + ", core: " +
				strconv.Itoa(j.Cores) + ", mem: " + strconv.Itoa(j.Memory) + ", disk: " + strconv.Itoa(j.Disk) + "\n")
		}
	}
}

package swf

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// Converted is one ds-sim job with the hidden attributes it carries in the
// job file: model.Job's ActMemory (MB actually used, field 7 × processors,
// at most Memory; 0 when unknown) and App (the executable number, field
// 14; "" when unknown), and the two below (Missing when unknown).
type Converted struct {
	model.Job
	SWFJob int64 // the SWF job number (field 1)
	User   int64 // field 12
	Line   int   // the trace line, for messages
}

// Skip reasons, in the order reports list them.
const (
	SkipCancelled = "cancelled (status 5)"
	SkipPartial   = "partial execution line (status 2, 3 or 4)"
	SkipNoSubmit  = "no submit time"
	SkipNoRun     = "no run time"
	SkipNoProcs   = "no processor count"
	SkipTooBig    = "larger than the largest server type"
	SkipTooLate   = "time beyond 2147483647 s"
	SkipMaxJobs   = "beyond max-jobs"
)

var skipOrder = []string{SkipCancelled, SkipPartial, SkipNoSubmit, SkipNoRun, SkipNoProcs, SkipTooBig, SkipTooLate, SkipMaxJobs}

// Count is how many lines were skipped for one reason.
type Count struct {
	Reason string
	N      int
}

// Result is a converted trace.
type Result struct {
	Trace   string
	Options Options // defaults filled
	Jobs    []Converted
	Servers []Server
	Skipped []Count // reasons with N > 0, in skipOrder
	// CappedMemory counts jobs whose used memory exceeded their memory, so
	// that actMemory was capped.
	CappedMemory int
	// MemoryAtLimit counts jobs whose memory (or used memory) was more than
	// a ds-sim attribute holds, 2147483647 MB, and was capped there;
	// MemoryAtFloor those raised to 100 MB, the least GETS accepts.
	MemoryAtLimit, MemoryAtFloor int
	// NoReqTime counts the kept jobs without a requested time, whose
	// estimate is therefore their actual run time (an oracle's estimate).
	NoReqTime int
	// Machine is what the derived servers are sized to; zero when the
	// servers were given.
	Machine Machine
}

// SkippedTotal is the number of job lines not converted.
func (r *Result) SkippedTotal() int {
	n := 0
	for _, c := range r.Skipped {
		n += c.N
	}
	return n
}

// Convert maps a parsed trace to ds-sim jobs and servers (package doc).
// servers are the given config's types, nil to derive them.
func Convert(t *Trace, o Options, servers []Server) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	skipped := map[string]int{}
	// Until the jobs are renumbered, ID holds the job's index in t.Jobs:
	// the submit times are set once the jobs that no type can hold are out,
	// so that the earliest job that remains arrives at the offset.
	jobs := make([]Converted, 0, len(t.Jobs))
	var memo memoryNotes
	for i := range t.Jobs {
		if reason := skipReason(&t.Jobs[i]); reason != "" {
			skipped[reason]++
			continue
		}
		jobs = append(jobs, o.job(&t.Jobs[i], &memo))
		jobs[len(jobs)-1].ID = i
	}
	var machine Machine
	if servers == nil {
		machine = machineOf(jobs, t.Header, o)
		servers = deriveServers(jobs, machine)
	}
	jobs = dropTooBig(jobs, servers, skipped)
	first := math.Inf(1)
	for _, j := range jobs {
		first = math.Min(first, t.Jobs[j.ID].Submit)
	}
	for i := range jobs {
		// Capped one past ds-sim's range, so that dropLate counts it.
		s := float64(o.Offset) + math.Round(o.TimeScale*(t.Jobs[jobs[i].ID].Submit-first))
		jobs[i].Submit = int(math.Min(s, math.MaxInt32+1))
	}
	jobs = dropLate(jobs, skipped)
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].Submit < jobs[b].Submit })
	if o.MaxJobs > 0 && len(jobs) > o.MaxJobs {
		skipped[SkipMaxJobs] += len(jobs) - o.MaxJobs
		jobs = jobs[:o.MaxJobs]
	}
	if len(jobs) > maxJobs {
		return nil, fmt.Errorf("%s: %d jobs: ds-server reads at most %d from a job file (use max-jobs)", t.Name, len(jobs), maxJobs)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no job to convert (%d job lines, all skipped)", t.Name, len(t.Jobs))
	}
	r := &Result{Trace: t.Name, Options: o, Jobs: jobs, Servers: servers, Machine: machine}
	for i := range jobs {
		r.MemoryAtLimit += memo.atLimit[jobs[i].Line]
		r.MemoryAtFloor += memo.atFloor[jobs[i].Line]
		if t.Jobs[jobs[i].ID].ReqTime <= 0 {
			r.NoReqTime++
		}
		jobs[i].ID = i
		if jobs[i].ActMemory > jobs[i].Memory {
			jobs[i].ActMemory = jobs[i].Memory
			r.CappedMemory++
		}
	}
	for _, reason := range skipOrder {
		if skipped[reason] > 0 {
			r.Skipped = append(r.Skipped, Count{reason, skipped[reason]})
		}
	}
	return r, nil
}

// skipReason says why a job line is not converted, "" when it is.
func skipReason(j *Job) string {
	switch {
	case j.Status == 5:
		return SkipCancelled
	case j.Status >= 2 && j.Status <= 4:
		return SkipPartial
	case j.Submit == Missing:
		return SkipNoSubmit
	case j.Run == Missing:
		return SkipNoRun
	case j.ReqProcs <= 0 && j.Alloc <= 0:
		return SkipNoProcs
	}
	return ""
}

// memoryNotes records, per trace job (by its line), whether its
// memory was capped at the attribute's limit or raised to the floor, so
// that the jobs kept are counted (Result.MemoryAtLimit, MemoryAtFloor).
type memoryNotes struct{ atLimit, atFloor map[int]int }

// job maps one kept line, all but its id and submit time; memo records
// the changes its memory needed.
func (o Options) job(j *Job, memo *memoryNotes) Converted {
	procs := j.ReqProcs
	if procs <= 0 {
		procs = j.Alloc
	}
	c := Converted{SWFJob: j.Number, User: j.User, Line: j.Line}
	c.Type = "swf"
	if j.Exe != Missing {
		c.App = strconv.FormatInt(j.Exe, 10)
	}
	c.Cores = int(ceilDiv(procs, int64(o.ProcsPerCore)))
	c.ActRunTime = seconds(j.Run)
	c.EstRunTime = c.ActRunTime
	if j.ReqTime > 0 {
		c.EstRunTime = seconds(j.ReqTime)
	}
	capped := false
	switch {
	case j.ReqMem > 0:
		c.Memory, capped = kbToMB(j.ReqMem, procs)
	case j.UsedMem > 0:
		c.Memory, capped = kbToMB(j.UsedMem, procs)
	default:
		c.Memory = clampInt(int64(c.Cores) * int64(o.MemPerCore))
	}
	if c.Memory < 100 {
		c.Memory = 100
		memo.note(&memo.atFloor, j)
	}
	if j.UsedMem > 0 {
		// 0 KB stays unknown: the extension reads actMemory 0 as absent.
		var actCapped bool
		c.ActMemory, actCapped = kbToMB(j.UsedMem, procs)
		capped = capped || actCapped
	}
	if capped {
		memo.note(&memo.atLimit, j)
	}
	c.Disk = o.Disk
	return c
}

// note counts trace job j in m.
func (*memoryNotes) note(m *map[int]int, j *Job) {
	if *m == nil {
		*m = map[int]int{}
	}
	(*m)[j.Line] = 1
}

// seconds rounds a duration to whole seconds, at least 1, and caps it
// where a ds-sim attribute (a C int) ends.
func seconds(s float64) int {
	return int(math.Max(1, math.Min(math.Round(s), math.MaxInt32)))
}

// kbToMB is KB per processor × processors in MB, rounded up; capped is
// true when that is more than a ds-sim attribute holds and was capped at
// 2147483647.
func kbToMB(kbPerProc, procs int64) (mb int, capped bool) {
	v := math.Ceil(float64(kbPerProc) * float64(procs) / 1024)
	if v > math.MaxInt32 {
		return math.MaxInt32, true
	}
	return int(v), false
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func clampInt(v int64) int { return int(min(v, math.MaxInt32)) }

// dropLate removes jobs whose submit time left ds-sim's range.
func dropLate(jobs []Converted, skipped map[string]int) []Converted {
	out := jobs[:0]
	for _, j := range jobs {
		if j.Submit > math.MaxInt32 || j.Submit+j.ActRunTime > math.MaxInt32 {
			skipped[SkipTooLate]++
			continue
		}
		out = append(out, j)
	}
	return out
}

// dropTooBig removes jobs the largest server type cannot hold: GETS
// refuses requests above it (ds-server.md §5.3), so no client could place
// them.
func dropTooBig(jobs []Converted, servers []Server, skipped map[string]int) []Converted {
	big := largest(servers)
	out := jobs[:0]
	for _, j := range jobs {
		if j.Cores > big.Cores || j.Memory > big.Memory || j.Disk > big.Disk {
			skipped[SkipTooBig]++
			continue
		}
		out = append(out, j)
	}
	return out
}

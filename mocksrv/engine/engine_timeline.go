package engine

import "sort"

// powerSpan is one powered period of a server: booted at bootStart, boot
// done at bootEnd, switched off (TERM, failure, or MIGJ emptying a booting
// server) at off, or -1 while still on. reset: it ended in a recovery
// without a failure (overlapping trace records), which ds-server bills none
// of.
type powerSpan struct {
	bootStart, bootEnd, off int
	reset                   bool
}

// powerOff ends the current powered period at t; it returns that period,
// or nil when s was not powered.
func (s *Machine) powerOff(t int) *powerSpan {
	if n := len(s.power); n > 0 && s.power[n-1].off < 0 {
		s.power[n-1].off = t
		return &s.power[n-1]
	}
	return nil
}

// JobOutcome says how a job left a server.
type JobOutcome int

// Job outcomes on a server's timeline.
const (
	JobCompleted JobOutcome = iota
	JobFailed
	JobKilled
)

// TimelineJob is one job's stay on a server (a migrated job's stay on its
// source leaves no trace, as in ds-server's own statistics, §5.11).
type TimelineJob struct {
	ID         int
	Start, End int
	Cores      int
	Outcome    JobOutcome
}

// PowerPeriod is one powered period: boot started, boot done, off (-1: on
// until the end of the simulation). Reset: it ended in a recovery without
// a failure (overlapping trace records); ds-server bills none of it.
type PowerPeriod struct {
	BootStart, BootEnd, Off int
	Reset                   bool
}

// TimelineServer is one server's life.
type TimelineServer struct {
	Type  string
	ID    int
	Power []PowerPeriod
	Jobs  []TimelineJob // by start time
}

// Timeline is what happened on every server, for plots. End is the actual
// simulation end time.
type Timeline struct {
	End     int
	Servers []TimelineServer // sorted type order, id order
}

// Timeline returns the servers' history. Call it after QUIT (jobs still
// running or waiting are not included).
func (e *Engine) Timeline() *Timeline {
	tl := &Timeline{End: e.actualEnd}
	for _, s := range e.machines {
		ts := TimelineServer{Type: e.types[s.typ].Name, ID: s.id}
		for _, p := range s.power {
			ts.Power = append(ts.Power, PowerPeriod{p.bootStart, p.bootEnd, p.off, p.reset})
		}
		for _, h := range [...]struct {
			slots []slot
			o     JobOutcome
		}{{s.completed, JobCompleted}, {s.failed, JobFailed}, {s.killed, JobKilled}} {
			for _, x := range h.slots {
				if x.start < 0 || x.end < x.start {
					continue // never started (or killed before its boot-time start)
				}
				j := &e.jobs[x.job]
				ts.Jobs = append(ts.Jobs, TimelineJob{ID: j.ID, Start: x.start, End: x.end, Cores: j.Cores, Outcome: h.o})
			}
		}
		sort.SliceStable(ts.Jobs, func(a, b int) bool { return ts.Jobs[a].Start < ts.Jobs[b].Start })
		tl.Servers = append(tl.Servers, ts)
	}
	return tl
}

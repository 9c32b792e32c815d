// Package viewer builds the run viewer: a self-contained HTML page (script,
// styles and data inside the file, nothing fetched at view time) that shows
// dsbench's comparison (Comparison: a summary, a clickable plot and
// sortable tables, drawn by the page's script) and, per run, a timeline of every server with its
// jobs, boots, power-offs, failures and recoveries, and below it the
// global-queue length, the powered cores and the accumulated cost.
//
// A run comes from a ds-server or dsmock log (ParseLog, at -v all or -v
// brief, read against the config it was run with), which is also how
// dsbench feeds its in-process runs: the simulator writes the same log.
package viewer

// Outcome is how a job's stay on a server ended.
type Outcome int

// Stay outcomes. Migrated stays are kept (ds-server's statistics forget
// them, §5.11) because a user looking at a run wants to see where a job
// was before it moved.
const (
	Completed  Outcome = iota
	Failed             // the server failed under it
	Killed             // KILJ or TERM
	Migrated           // MIGJ moved it away
	Unfinished         // still waiting or running when the log ended
)

var outcomeNames = [...]string{"completed", "failed", "killed", "migrated", "unfinished"}

func (o Outcome) String() string { return outcomeNames[o] }

// Run is one simulation as the viewer shows it. Times are simulation
// seconds.
type Run struct {
	Name   string // e.g. "ff on sample-config01"
	Source string // the log file, or "in-process"
	// Part is which of its file's runs this is, "session 2" (dsmock
	// --serve) or "run 2" (logs one after another), "" when the file holds
	// one.
	Part  string
	Level string // "all", "brief" or "events": what the log showed
	End   int    // the last time anything happened
	Types []Type
	// Servers are grouped by type in ds-server's GETS order (the config's
	// types stably sorted by cores, §2.9), then by id: the order GETS All
	// lists them, which is what a ds-sim user reads every day.
	Servers []Server
	Jobs    []Job  // by id
	Stays   []Stay // by the time the job was placed
	// Queue is the global-queue length, Powered the cores of booting or
	// powered servers (steps: the value holds from T until the next point);
	// Cost the accumulated cost in dollars (linear between points).
	Queue, Powered, Cost []Point
	// TotalCost is ds-server's total cost (32-bit float sums, §6.3) of
	// what the log shows; LogCost the summary's "total cost" text when the
	// log has one ("" otherwise). They agree on every shared transcript.
	TotalCost float64
	LogCost   string
	Notes     []string // what the log could not show (e.g. TERM at -v brief)
	// Stuck is how many failed or killed jobs were still in the global
	// queue when the run ended (a strategy that never takes failed jobs
	// back); Unplaced how many jobs were offered and not placed when the
	// client quit: queued with ENQJ or their offer left unanswered, which
	// a -v brief log cannot tell apart (it shows no ENQJ). Neither kind
	// completed, so the run's waits leave them out.
	Stuck, Unplaced int
}

// Type is a server type.
type Type struct {
	Name                string
	Cores, Memory, Disk int
	Boot                int
	Rate                float32 // hourly, ds-server's 32-bit float
}

// Server is one server's life.
type Server struct {
	Type  int // index into Run.Types
	ID    int
	Power []Power
	Fails []Span // failure start .. recovery (-1: not recovered)
}

// Power is one powered period: boot started, boot done, off (-1: on at
// the end).
type Power struct {
	BootStart, BootEnd, Off int
	// Reset: the period ended in a recovery without a failure (overlapping
	// trace records), which ds-server bills none of; known only from the
	// simulator's timeline (UseTimeline).
	Reset bool
}

// Span is a closed time interval; To -1 means open at the end.
type Span struct{ From, To int }

// Job is one job of the workload.
type Job struct {
	ID, Submit          int
	Cores, Memory, Disk int
	Est, Act            int // estimated and actual run time
}

// Stay is one placement of a job on a server.
type Stay struct {
	Job    int // job id
	Server int // index into Run.Servers
	// Ready is when the job was last offered to the scheduler (its submit
	// time, or the time it came back from the global queue); Placed when it
	// was scheduled here; Start and End -1 while unknown.
	Ready, Placed, Start, End int
	Outcome                   Outcome
}

// Point is one step of a series.
type Point struct {
	T int
	V float64
}

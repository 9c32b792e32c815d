package mocksrv

import "github.com/dssim-go/dssim-go/mocksrv/engine"

// The simulation is package engine (mocksrv/engine); these names let the
// commands and the harness configure a run and read its results through
// this package, where the fronts are.
type (
	// Options configure one simulation (engine.Options).
	Options = engine.Options
	// Level is a -v verbosity level (engine.Level, ds-server.md §7.4).
	Level = engine.Level
	// Report is the end-of-run statistics (engine.Report, §6).
	Report = engine.Report
	// Unbilled is the server time the report's cost leaves out
	// (engine.Unbilled, ds-server.md §6.1, §6.2).
	Unbilled = engine.Unbilled
	// TypeReport is one type line of the report.
	TypeReport = engine.TypeReport
	// Timeline is what happened on every server (engine.Timeline).
	Timeline = engine.Timeline
	// TimelineServer is one server's life.
	TimelineServer = engine.TimelineServer
	// TimelineJob is one job's stay on a server.
	TimelineJob = engine.TimelineJob
	// PowerPeriod is one powered period of a server.
	PowerPeriod = engine.PowerPeriod
	// JobOutcome says how a job left a server.
	JobOutcome = engine.JobOutcome
)

// MemFailModel is the memory extension's failure model (estimation.md
// Part E; engine.MemFailModel): MemFailOff, the zero value, is ds-server
// exactly.
type MemFailModel = engine.MemFailModel

// The memory extension's failure models.
const (
	MemFailOff        = engine.MemFailOff
	MemFailHard       = engine.MemFailHard
	MemFailMachine    = engine.MemFailMachine
	MemFailContention = engine.MemFailContention
)

// ParseMemFailModel reads hard, machine, contention or off.
func ParseMemFailModel(s string) (MemFailModel, error) { return engine.ParseMemFailModel(s) }

// CheckMemExt says whether cfg can run with the memory extension on (a job
// file giving actMemory, every value valid); call it before the run.
func CheckMemExt(cfg *Config, m MemFailModel) error { return engine.CheckMemExt(cfg, m) }

// Job outcomes on a server's timeline.
const (
	JobCompleted = engine.JobCompleted
	JobFailed    = engine.JobFailed
	JobKilled    = engine.JobKilled
)

// Protocol-line levels (Level.Proto).
const (
	ProtoNone  = engine.ProtoNone
	ProtoBrief = engine.ProtoBrief
	ProtoAll   = engine.ProtoAll
)

// Levels used by tests and the in-process API.
var (
	LevelNone  = engine.LevelNone
	LevelBrief = engine.LevelBrief
	LevelAll   = engine.LevelAll
	LevelStats = engine.LevelStats
)

// ModelLines returns the two lines ds-server prints at -v all, before its
// banner, when it generates a failure model's failures
// (failure-models.md §8); "" otherwise (engine.ModelLines).
func ModelLines(cfg *Config, lvl Level) string { return engine.ModelLines(cfg, lvl) }

// ParseLevel reads a -v word (engine.ParseLevel).
func ParseLevel(word string) Level { return engine.ParseLevel(word) }

// Header returns the three lines ds-server prints before accepting a
// connection (§7.1).
func Header(year Year, commandLine string, port int) string {
	return engine.Header(year, commandLine, port)
}

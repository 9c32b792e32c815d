package viewer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// LogError is a log the viewer refuses: its file and 1-based line.
type LogError struct {
	File string
	Line int
	Msg  string
}

func (e *LogError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// maxLogLine bounds one log line (a GETS batch line of a huge config is a
// few hundred bytes; anything much longer is not a ds-server log).
const maxLogLine = 1 << 20

// ParseLog reads a ds-server (or dsmock) stdout log written at -v all or
// -v brief (event lines alone work too) for a run of cfg. file names the
// log in errors. A log that is not a ds-server log, that stops before the
// end-of-simulation report, or whose jobs or servers are not cfg's is
// refused with the line where it shows; nothing is built from part of a
// log. A file that holds several runs is refused too (ParseLogs reads
// them): drawn as one, their jobs would run twice.
func ParseLog(file string, r io.Reader, cfg *mocksrv.Config) (*Run, error) {
	logs, err := ParseLogs(file, r, cfg)
	switch {
	case err != nil:
		return nil, err
	case len(logs.starts) > 1:
		return nil, &LogError{File: file, Line: logs.starts[1],
			Msg: fmt.Sprintf("a second run begins here: the file holds %d runs (read them with ParseLogs)", len(logs.starts))}
	}
	return logs.Runs[0], nil
}

// Logs is what ParseLogs read from one file.
type Logs struct {
	Runs []*Run
	// Left are the runs of a file of several that cannot be drawn, each
	// with why, at its last line: one with no end-of-simulation report (a
	// log cut short, or a dsmock --serve session whose client went away)
	// or with no job placed (a client that quit at once, or -v stats).
	Left []*LogError

	starts []int // the first line of each run, drawn or left out, in file order
}

// ParseLogs reads a file that holds one run or several, each read as
// ParseLog reads one: dsmock --serve's output, where each session's log
// and report follow a line "# session N (client ADDR)" (the server's
// header lines come once, before the first), or logs written one after
// another, each beginning "# ds-sim server" again (or, with failures,
// "# Start generating resource failures"). A session line always begins
// a run after the first; a header line does once the run before it has
// shown anything but "#" lines. A file of one run that cannot be drawn is
// refused; in a file of several, such a run is left out (Logs.Left) and
// the file is refused only when none can be drawn. Either refusal's error
// is the first of Logs.Left, which is returned with it (no Runs), so a
// caller reading several files can leave such a file out as well. A line
// no ds-server log has refuses the file whichever run it is in (Logs is
// then empty). Each run's Part says
// which of the file's runs it is ("" when the file holds one); line
// numbers are the whole file's.
func ParseLogs(file string, r io.Reader, cfg *mocksrv.Config) (Logs, error) {
	logs := Logs{starts: []int{1}}
	p := newParser(file, cfg)
	end := func() {
		run, err := p.finish()
		var le *LogError
		switch {
		case err == nil:
			logs.Runs = append(logs.Runs, run)
		case errors.As(err, &le):
			logs.Left = append(logs.Left, le)
		default: // (finish's errors are all *LogError)
			logs.Left = append(logs.Left, &LogError{File: file, Line: p.line, Msg: err.Error()})
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLogLine)
	line := 0
	for sc.Scan() {
		line++
		// A log that went through a Windows editor or mailer has CRLF
		// line ends: read it all the same.
		raw := strings.TrimSuffix(sc.Text(), "\r")
		if session, ok := runStart(raw, line); ok {
			if p.begun || p.session != "" && session != "" {
				if p.run.Part == "" { // the file holds several runs after all
					p.run.Part = fmt.Sprintf("run %d", len(logs.starts))
				}
				end()
				p = newParser(file, cfg)
				logs.starts = append(logs.starts, line)
				p.run.Part = fmt.Sprintf("run %d", len(logs.starts))
			}
			if session != "" {
				p.session, p.run.Part = session, session
			}
		}
		p.line = line
		if err := p.parseLine(raw); err != nil {
			return Logs{}, err
		}
	}
	if err := sc.Err(); err != nil {
		msg := err.Error()
		if errors.Is(err, bufio.ErrTooLong) {
			msg = fmt.Sprintf("a line longer than %d MiB: not a ds-server log line", maxLogLine>>20)
		}
		return Logs{}, &LogError{File: file, Line: line + 1, Msg: msg}
	}
	if p.begun || p.session != "" || len(logs.starts) == 1 {
		end()
	}
	if len(logs.Runs) == 0 { // the one run, or every one, cannot be drawn
		return Logs{Left: logs.Left, starts: logs.starts}, logs.Left[0]
	}
	return logs, nil
}

// runStart says whether a line may begin a run: dsmock --serve's session
// line (session names it) or, after line 1, a ds-server header or the
// failure generation's line that comes before one.
func runStart(raw string, line int) (session string, ok bool) {
	if rest, found := strings.CutPrefix(raw, "# session "); found {
		n, _, _ := strings.Cut(rest, " ")
		return "session " + n, true
	}
	return "", line > 1 && (strings.HasPrefix(raw, "# ds-sim server") || strings.HasPrefix(raw, "# Start generating resource failures"))
}

// parser is the state of one log read.
type parser struct {
	file    string
	cfg     *mocksrv.Config
	run     *Run
	line    int
	begun   bool           // a line other than a "#" line has been read: the run has begun
	session string         // the dsmock --serve session line it began at, "" for none
	types   map[string]int // type name → index in run.Types
	first   []int          // index of each type's server 0 in run.Servers
	jobs    map[int]*jobState

	t         int // the remembered event time (§7.2 prefix rule)
	clock     int // the simulation clock, from the last JOBN/JOBP/JCPL/RESF/RESR
	batch     int // records of a DATA batch whose first record is still to come
	cont      int // continuation lines of the current DATA batch still to skip
	batchLine int // the line of the current DATA batch's first record
	term      int // server index of a TERM awaiting its reply, -1 for none
	proto     bool
	all       bool
	quit      bool
	summary   bool
	logEnd    int // "actual simulation end time", -1 until read
	queue     []Span
	open      []int // per server: stays still waiting or running there
}

// jobState follows one job through the log.
type jobState struct {
	job       int // index into run.Jobs
	offered   bool
	offerTime int
	placed    bool // scheduled since its last offer
	queuedAt  int  // failed or killed: in the global queue since then; -1 if not
	stay      int  // its current stay, -1 for none
}

func newParser(file string, cfg *mocksrv.Config) *parser {
	p := &parser{file: file, cfg: cfg, run: &Run{Source: file}, types: map[string]int{},
		jobs: map[int]*jobState{}, term: -1, logEnd: -1, t: -1}
	for i, t := range cfg.Types {
		p.types[t.Name] = i
		p.first = append(p.first, len(p.run.Servers))
		p.run.Types = append(p.run.Types, Type{Name: t.Name, Cores: t.Cores, Memory: t.Memory, Disk: t.Disk,
			Boot: t.BootupTime, Rate: t.HourlyRate})
		for id := range t.Limit {
			p.run.Servers = append(p.run.Servers, Server{Type: i, ID: id})
		}
	}
	p.open = make([]int, len(p.run.Servers))
	for _, j := range cfg.Jobs {
		p.jobs[j.ID] = &jobState{job: len(p.run.Jobs), queuedAt: -1, stay: -1}
		p.run.Jobs = append(p.run.Jobs, Job{ID: j.ID, Submit: j.Submit, Cores: j.Cores, Memory: j.Memory,
			Disk: j.Disk, Est: j.EstRunTime, Act: j.ActRunTime})
	}
	return p
}

func (p *parser) errf(format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	if p.run.Part != "" { // a file of several runs: which one
		msg = p.run.Part + ": " + msg
	}
	return &LogError{File: p.file, Line: p.line, Msg: msg}
}

// parseLine dispatches one line by its kind (internal/transcript's
// package comment lists them).
func (p *parser) parseLine(raw string) error {
	if p.cont > 0 { // a DATA batch's later records, verbatim
		// Each has a record's fields (8 or more: LSTJ, LSTQ, GETS) and
		// is no other kind of log line; anything else is the line at
		// fault, not the one the miscount would blame later.
		if !dataRecord(raw) {
			return p.errf("not a record of the DATA batch sent at line %d (%d more were due): %.80q", p.batchLine, p.cont, raw)
		}
		p.cont--
		return nil
	}
	if p.line == 1 && !strings.HasPrefix(raw, "# ds-sim server") && !strings.HasPrefix(raw, "# Start generating resource failures") {
		return p.errf("not a ds-server log: it should start with \"# ds-sim server\", not %.60q", raw)
	}
	s := strings.TrimLeft(raw, " ")
	if s != "" && !strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "Total #failures: ") {
		p.begun = true // (failure generation's count comes before the header)
	}
	switch {
	case s == "":
		return nil // after failed/killed lines, and a SENT message's own "\n"
	case strings.HasPrefix(s, "#"):
		return p.report(s)
	case strings.HasPrefix(s, "Total #failures: "):
		return nil
	case strings.HasPrefix(s, "t "):
		colon := strings.Index(s, ": ")
		if colon < 0 {
			return p.errf("not a ds-server log line: %.80q", raw)
		}
		t, err := strconv.Atoi(s[2:colon])
		if err != nil || t < 0 {
			return p.errf("bad event time in %.80q", raw)
		}
		p.t = t
		return p.event(s[colon+2:])
	case strings.HasPrefix(s, "job "):
		if p.t < 0 {
			return p.errf("event line before any timestamp: %.80q", raw)
		}
		return p.event(s)
	case strings.HasPrefix(s, "SENT "):
		p.proto = true
		return p.sent(s[5:])
	case strings.HasPrefix(s, "RCVD "):
		p.proto = true
		return p.rcvd(s[5:])
	}
	return p.errf("not a ds-server log line: %.80q", raw)
}

// dataRecord says whether a line can be a DATA batch's record after the
// first: 8 fields or more (LSTJ and LSTQ have 8, GETS 9 or more), not
// a protocol or report line.
func dataRecord(raw string) bool {
	f := strings.Fields(raw)
	if len(f) < 8 {
		return false
	}
	// (not "t" or "job": a server type may have that name)
	return f[0] != "RCVD" && f[0] != "SENT" && !strings.HasPrefix(f[0], "#")
}

// report reads the lines of the end-of-simulation report the viewer needs.
func (p *parser) report(s string) error {
	switch {
	case strings.HasPrefix(s, "# actual simulation end time: "):
		f := strings.Fields(strings.TrimPrefix(s, "# actual simulation end time: "))
		if len(f) == 0 {
			return p.errf("bad summary line %.80q", s)
		}
		end, err := strconv.Atoi(strings.TrimSuffix(f[0], ","))
		if err != nil {
			return p.errf("bad end time in %.80q", s)
		}
		p.logEnd = end
	case strings.HasPrefix(s, "# total #servers used: "):
		if i := strings.LastIndex(s, "total cost: $"); i >= 0 {
			p.run.LogCost = s[i+len("total cost: $"):]
		}
	case strings.HasPrefix(s, "# avg waiting time: "):
		p.summary = true
	}
	return nil
}

// server finds a server named in the log by type and id.
func (p *parser) server(typ, id string) (int, error) {
	ti, ok := p.types[typ]
	if !ok {
		return 0, p.errf("server type %q is not in config %s (a log of another config?)", typ, p.cfg.Path)
	}
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 || n >= p.cfg.Types[ti].Limit {
		return 0, p.errf("server %s %s is not in config %s (it has %d) (a log of another config?)", typ, id, p.cfg.Path, p.cfg.Types[ti].Limit)
	}
	return p.first[ti] + n, nil
}

// job finds a job named in the log by id.
func (p *parser) job(id string) (*jobState, error) {
	n, err := strconv.Atoi(id)
	if err != nil {
		return nil, p.errf("bad job id %q", id)
	}
	j, ok := p.jobs[n]
	if !ok {
		return nil, p.errf("job %d is not in config %s (%d jobs) (a log of another config?)", n, p.cfg.Path, len(p.run.Jobs))
	}
	return j, nil
}

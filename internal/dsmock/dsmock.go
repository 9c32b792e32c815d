// Package dsmock is the dsmock command: a byte-faithful stand-in for ds-server, the ds-sim
// simulator (../shared/docs/ds-server.md): the same command line, the same
// stdout log and report, the same stderr messages, the same files in the
// working directory (ds-system.xml at AUTH; ds-jobs.xml when jobs were
// generated; ds-res-failures.txt when failures are simulated).
//
//	dsmock [-c config.xml | -l n] [-p port] [-n] [-v all|brief|jobs|stats[+]] [-d n] [-j n]
//	       [-r n] [-f model|trace] [-g n] [-s n] [-o] [--write-actual] [--serve] [--timeout d] [--spin d]
//	       [--listen addr] [--mem-fail hard|machine|contention] [--max-sessions n]
//	       [--session-log-max size] [--help]
//
// dsmock's own options: --write-actual writes actRunTime into ds-jobs.xml;
// --serve keeps accepting connections, each an independent simulation of
// the same config, run concurrently, until interrupted (ds-server accepts
// one), at most --max-sessions at once (default 1000; a client beyond is
// refused with a message), each session's log kept in memory up to 64 KiB
// and then in a temporary file until the session ends, at most
// --session-log-max of it (default 1GiB; past it the session is ended);
// --timeout (default 10m) abandons a connection silent that long;
// --spin (default 100µs, 0 to turn off) is how long a read busy-polls
// before parking, which saves a thread wake-up per protocol round trip
// (internal/netspin); --mem-fail switches on the memory extension
// (estimation.md Part E, a project design: SCHM, actMemory read from the
// job file, memory failures by the model named), refused before listening
// when the config's job file gives no actMemory or an invalid one.
// -f takes one of ds-server's six failure models (teragrid nd07cpu
// websites02 ldns04 pl05 g5k06, generated as failure-models.md specifies,
// with -g and -s after it) or, a dsmock extension, a failure trace file.
// Without -c, dsmock is ds-server's no-configuration mode
// (failure-models.md §12): a random system and workload from -r, with -l
// servers per type, -j and -d; -f is accepted and generates no failures.
// Not implemented, refused with a message (decision 7): -b, -i.
// An option the run leaves without effect, which ds-server accepts and
// ignores, gets a warning on stderr (config_warn.go: -r, -j, -d, -l
// overridden by the config or --swf, -f without -c, -o without failures,
// a second -r); a combination of dsmock's own options that means nothing
// is refused before listening (refuse.go, swf.go: --write-actual without
// generated jobs, -g or -s with a failure trace, --swf with servers= and
// -c, job-file=, or the failures of its servers config).
//
// Exit statuses:
//
//	0  the client sent QUIT: the report was printed, the files written
//	   (--serve: interrupted by a signal)
//	1  a bad option or configuration (ds-server's messages, Usage line),
//	   -h, a refused unimplemented option, a port that cannot be bound,
//	   a client that disconnected or fell silent without QUIT (no report,
//	   no files; decision 4), a message without its newline in -n mode,
//	   a bad handshake (ds-server crashes there; decision 2), or an
//	   output file that cannot be written
//
// SIGINT or SIGTERM (without --serve) ends dsmock as it ends ds-server,
// by the signal (a shell shows 130 or 143), once the log so far is on
// stdout.
package dsmock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/dssim-go/dssim-go/harness/outputs"
	"github.com/dssim-go/dssim-go/internal/netspin"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// Main is dsmock: argv is the whole command line (argv[0] included, since
// ds-server echoes it in its header) and the result is the exit status.
func Main(argv []string, stdout, stderr io.Writer) int {
	return run(argv, stdout, stderr, nil, true)
}

// run is dsmock; ready, when not nil, receives the listening address
// (tests use port 0 through it). wholeProcess says that dsmock is the
// process (not a test calling it), so it may tune the runtime.
func run(argv []string, stdout, stderr io.Writer, ready func(net.Addr), wholeProcess bool) int {
	cl := commandLine{argv0: argv[0], stdout: stdout, stderr: stderr, anyPort: ready != nil}
	st, status, ok := cl.parse(argv[1:])
	if !ok {
		return status
	}
	cfg, status, ok := cl.load(st)
	if !ok {
		return status
	}
	if wholeProcess && !st.serve {
		netspin.SequentialProcess() // one conversation: one P is faster
	}
	return serve(st, cfg, strings.Join(argv, " "), stdout, stderr, ready, wholeProcess)
}

// load reads the config as ds-server does, with its messages and status
// on failure; ok is false when dsmock must exit with status.
func (cl commandLine) load(st settings) (cfg *mocksrv.Config, status int, ok bool) {
	var err error
	if st.swf != "" {
		cfg, err = loadSWF(st, cl.stderr) // an SWF trace (swf.go)
	} else if st.config == "" {
		cfg, err = mocksrv.RandomConfig(st.load) // no -c: the random system (failure-models.md §12)
	} else {
		cfg, err = mocksrv.LoadConfig(st.config, st.load)
	}
	if err != nil {
		var ce *mocksrv.ConfigError
		if errors.As(err, &ce) {
			ce.Report(cl.stdout, cl.stderr, cl.argv0)
			if where, ok := ce.Where(); ok {
				fmt.Fprintln(cl.stderr, "dsmock:", where) // ds-server's lines do not say where
			}
			return nil, ce.Status, false
		}
		fmt.Fprintln(cl.stderr, "dsmock:", err)
		return nil, 1, false
	}
	if err := refuseLoaded(st, cfg); err != nil {
		fmt.Fprintln(cl.stderr, "dsmock:", err)
		return nil, 1, false
	}
	warnNumbers(st.config, cl.stderr)
	warnLevel(st.level.Word, st.level.Recognised, cl.stderr)
	warnIgnored(st, cfg, cl.stderr)
	if cfg.GrainOnly {
		// failure-models.md §9 [UNDEFINED]: ds-server's header is garbage.
		fmt.Fprintln(cl.stderr, "dsmock: warning: "+st.config+": <servers>: failureTimeGrain without failureModel or failureFile: nothing fails; ds-res-failures.txt is still written, with an empty model name and zero parameters")
	}
	return cfg, 0, true
}

// serve listens on the port and runs one simulation, as ds-server does, or
// with --serve one per connection until interrupted; it returns the status.
func serve(st settings, cfg *mocksrv.Config, cmdline string, stdout, stderr io.Writer, ready func(net.Addr), wholeProcess bool) int {
	ln, err := listen(st.listen, st.port)
	if err != nil {
		fmt.Fprintf(stderr, "dsmock: cannot listen on %s port %d: %v\n", st.listen, st.port, err)
		return 1
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	opt := mocksrv.Options{Level: st.level, Newline: st.newline, NoFailureMsgs: st.noFailMsgs,
		Log: stdout, Stderr: stderr, CommandLine: cmdline, Port: port, MemFail: st.memFail, Year: st.year}
	var fileErr atomic.Bool
	srv := &mocksrv.Listener{Config: cfg, Options: opt, Log: stdout, ReadTimeout: st.timeout, WrapConn: netspin.Wrapper(st.spin),
		OnAuth: func(xml []byte) error { return writeFile("ds-system.xml", xml) },
		OnEnd:  sessionEnd(st, cfg, stderr, &fileErr), SessionLabel: sessionLabel,
		MaxSessions: st.limits.maxSessions, SessionLogMax: st.limits.sessionLogMax}
	if ready != nil {
		ready(ln.Addr())
	}
	if st.serve {
		fmt.Fprint(stdout, mocksrv.ModelLines(cfg, st.level)+mocksrv.Header(st.year, cmdline, port))
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if err := srv.Serve(ctx, ln); err != nil {
			fmt.Fprintln(stderr, "dsmock:", err)
			return 1
		}
		return 0
	}
	return serveOne(srv, ln, stderr, &fileErr, wholeProcess)
}

// serveOne is ds-server's single simulation; it returns the status. On
// SIGINT or SIGTERM the log written so far is flushed before dsmock dies
// of the signal: on a terminal, ds-server's log is line-buffered, so what
// it logged before Ctrl-C is on the screen.
func serveOne(srv *mocksrv.Listener, ln net.Listener, stderr io.Writer, fileErr *atomic.Bool, wholeProcess bool) int {
	ctx, release := onSignal()
	t, err := srv.ServeOneContext(ctx, ln)
	release()
	if sig, ok := interruptedBy(err); ok {
		return dieOf(sig, wholeProcess)
	}
	if err != nil {
		var f *mocksrv.Fatal
		if errors.As(err, &f) {
			printLines(stderr, fatalLines(f, ""))
			return f.Status
		}
		fmt.Fprintln(stderr, "dsmock:", err.Error()+afterNone(t, err))
		return 1
	}
	if fileErr.Load() {
		return 1
	}
	return 0
}

// sessionEnd is what happens when a simulation ends: a --serve session
// that ended badly is reported, and after a QUIT the files of §1.8 are
// written (fileErr records a file that could not be).
func sessionEnd(st settings, cfg *mocksrv.Config, stderr io.Writer, fileErr *atomic.Bool) func(*mocksrv.Text, error) {
	return func(t *mocksrv.Text, err error) {
		if err != nil && st.serve {
			// One session of many ended badly: say so and keep serving
			// (the single-connection mode reports it as it exits).
			who, cause := "session", err
			var se *mocksrv.SessionError
			if errors.As(err, &se) {
				who, cause = se.Label, se.Err
			}
			var f *mocksrv.Fatal
			if errors.As(cause, &f) {
				printLines(stderr, fatalLines(f, who))
			} else {
				fmt.Fprintf(stderr, "dsmock: %s ended: %v%s\n", who, cause, afterNone(t, cause))
			}
		}
		if err != nil || t == nil || t.Report() == nil {
			return // no files after an abnormal end (§1.8, decision 4)
		}
		if st.unbilled {
			fmt.Fprintln(stderr, unbilledLine(t.Label(), t.Report()))
		}
		if cfg.Generated {
			if werr := writeFile("ds-jobs.xml", cfg.JobsXML(st.year, st.writeActual)); werr != nil {
				fmt.Fprintln(stderr, "dsmock:", werr)
				fileErr.Store(true)
			}
		}
		if f := t.Engine().FailuresTxt(); f != nil {
			if werr := writeFile("ds-res-failures.txt", f); werr != nil {
				fmt.Fprintln(stderr, "dsmock:", werr)
				fileErr.Store(true)
			}
		}
	}
}

// afterNone is what to add to the message of a client that disconnected
// without QUIT once it had NONE: it most likely thought NONE the end, and
// the report, which only QUIT brings, is what it missed.
func afterNone(t *mocksrv.Text, err error) string {
	if t == nil || !t.NoneSent() || !errors.Is(err, mocksrv.ErrDisconnected) {
		return ""
	}
	return "; send QUIT after NONE to get the end-of-simulation report"
}

// fatalLines are the stderr lines for a session that f ended, after any
// that ds-server prints itself: ds-server's line unless it is out
// already, then dsmock's hint on a line of its own. who names a --serve
// session, whose lines say so; "" for the single session, whose first
// line is ds-server's exactly.
func fatalLines(f *mocksrv.Fatal, who string) []string {
	switch {
	case who == "":
		return f.StderrLines()
	case f.Logged && f.Hint != "":
		return []string{"dsmock: " + who + " ended: " + f.Hint}
	}
	lines := []string{"dsmock: " + who + " ended: " + f.Msg}
	if f.Hint != "" {
		lines = append(lines, "dsmock: "+who+": "+f.Hint)
	}
	return lines
}

func printLines(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// unbilledLine is --unbilled's report: the cost ds-server's report leaves
// out against a meter of every powered second (mocksrv.Unbilled): server
// time a client's MIGJ or KILJ hide, and resets by a recovery without a
// failure (§6.1, §6.2). It goes to stderr, after the report, so stdout
// stays ds-server's; with --serve it names the session, as the session's
// other messages do.
func unbilledLine(label string, rep *mocksrv.Report) string {
	who := "dsmock: "
	if label != "" {
		who += label + ": "
	}
	u := rep.Unbilled
	if u.Servers == 0 {
		return who + "the report's cost leaves nothing out"
	}
	share := ""
	if rep.TotalCost > 0 {
		share = fmt.Sprintf(", %.2f%% of $%.2f", 100*u.Cost/float64(rep.TotalCost), rep.TotalCost)
	}
	servers := "servers"
	if u.Servers == 1 {
		servers = "server"
	}
	return fmt.Sprintf("%sthe report's cost leaves out $%.2f (%d %s, %d server-seconds%s)",
		who, u.Cost, u.Servers, servers, u.Seconds, share)
}

// writeFile writes through a temporary file and a rename
// (outputs.ReplaceFile), so that concurrent simulations (--serve) never
// leave a torn file. Its errors name path once and say what is in the way.
func writeFile(path string, data []byte) error {
	if err := outputs.ReplaceFile(path, data, ".dsmock-"); err != nil {
		return fileErr(path, err)
	}
	return nil
}

// fileErr is "path: why" for a file dsmock could not write: a folder of
// that name is said in words, and the system's error without the names
// it repeats (a rename's error names the temporary file too).
func fileErr(path string, err error) error {
	if st, serr := os.Stat(path); serr == nil && st.IsDir() {
		return fmt.Errorf("%s: cannot write the file: a folder of that name is in the way", path)
	}
	var le *os.LinkError
	var pe *os.PathError
	switch {
	case errors.As(err, &le):
		err = le.Err
	case errors.As(err, &pe):
		err = pe.Err
	}
	return fmt.Errorf("%s: cannot write the file: %w", path, err)
}

// atoi reads an option value like C's atoi: leading blanks, a sign,
// digits, and a number beyond 32 bits wrapped as ds-server's int keeps it
// ("-p 4295017296" is port 50000), as in commands and configs.
func atoi(s string) int {
	v, _ := mocksrv.CInt(s)
	return v
}

// help is -h's text (decision 8: wording ours, topics of §8; exit 1).
func help(topic string) string {
	usage := `Usage: dsmock -c config.xml [options]
  -c file    configuration file (without it: a random system, as ds-server)
  -l n       servers per type of the random system, 1-1000 (no effect with -c)
  -p port    TCP port, 49152-65535 (default 50000)
  -n         newline mode: every message ends with '\n'
  -v level   all | brief | jobs | stats, with '+' for per-server detail
  -d n       job generation end time, 1-2592000 (a config endtime overrides it)
  -j n       job generation count, 1-1000000 (a config jobcount overrides it)
  -r n       random seed (only without a <config> element)
  -f model   failure model: teragrid nd07cpu websites02 ldns04 pl05 g5k06
             (or, a dsmock extension, a failure trace file)
  -g n, -s n failure time grain (60-3600, default 300) and scale (1-100,
             default 100) of the -f model; they must follow -f
  -o         do not send RESF/RESR
  -h topic   all | usage | limits | states | cmd
  --write-actual  write actRunTime into ds-jobs.xml (generated jobs only:
                  refused with a job file or --swf, which write none)
  --unbilled      after the report, say on stderr what its cost leaves out:
                  server time ds-server does not bill (hidden by MIGJ or KILJ,
                  or reset by a recovery without a failure; docs/dsbench.md)
  --serve         keep accepting connections (each an independent simulation)
  --max-sessions n     with --serve: at most n sessions at once (default 1000);
                       a client beyond them is refused with a message
  --session-log-max s  with --serve: end a session whose log passes s (default
                       1GiB; 512MiB, 100MB, bytes; 0: no limit)
  --timeout d     abandon a connection silent for d (default 10m)
  --spin d        busy-poll a read for d before parking (default 100us; 0: off)
  --listen addr   listen on addr (default 127.0.0.1; ds-server's is 0.0.0.0)
  --mem-fail m    the memory extension (docs/memory-extension.md): SCHM, actMemory
                  from the job file, memory failures by model m: hard |
                  machine | contention (default: off, ds-server exactly)
  --swf trace     run an SWF workload trace (trace.swf[:options], see dsswf -h):
                  its jobs on the -c config's servers, or without -c on
                  servers derived from the trace
  --year y        the ds-server to be: 2026 (default; 2-Apr-2026, GETS
                  records carry the hourly rate) or 2025 (4-Apr-2025)
  --help          this usage
`
	limits := `Limits:
  TCP port 49152-65535 (50000); job count 1-1000000 (1000); job run time 1-604800;
  population rate 1-100; simulation end time 1-2592000; server types 1-100;
  servers per type 1-1000; boot time 0-600; hourly rate: any non-zero value;
  random seed 1-4294967295 (1024); failure grain 60-3600 (300); failure scale 1-100 (100);
  cores 1-1024; memory and disk 1000-2147483647; min load 1-99; max load 1-100;
  job types 1-127; load-state time 3600-43200
`
	states := `Server states: 0: inactive, 1: booting, 2: idle, 3: active, 4: unavailable
Job states: 0: submitted, 1: waiting, 2: running, 3: suspended, 4: completed, 5: preempted, 6: failed, 7: killed
`
	cmds := `Commands: HELO, AUTH user, REDY, GETS All|Type t|One t id|Capable c m d|Avail c m d|Bounded c m d,
  SCHD job type id, ENQJ GQ, DEQJ GQ i, LSTQ GQ #|*|i|$, LSTJ type id, CNTJ type id state,
  EJWT type id, MIGJ job type id type id, KILJ type id job, TERM type id, PSHJ, OK, QUIT
`
	switch topic {
	case "usage":
		return usage
	case "limits":
		return limits
	case "states":
		return states
	case "cmd":
		return cmds
	}
	return usage + limits + states + cmds
}

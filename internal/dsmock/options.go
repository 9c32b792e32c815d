package dsmock

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dssim-go/dssim-go/internal/netspin"
	"github.com/dssim-go/dssim-go/mocksrv"
)

// settings are the parsed command line.
type settings struct {
	config      string
	port        int
	level       mocksrv.Level
	newline     bool
	noFailMsgs  bool
	load        mocksrv.LoadOptions
	writeActual bool
	serve       bool
	timeout     time.Duration
	spin        time.Duration
	listen      string // --listen: the address to listen on
	memFail     mocksrv.MemFailModel
	swf         string // --swf: an SWF trace spec whose jobs are run (swf.go)
	unbilled    bool   // --unbilled: say on stderr what the report's cost leaves out
	laterSeeds  []int  // the -r values after the first, which count for nothing (§8)
	year        mocksrv.Year
	limits      serveLimits // --max-sessions, --session-log-max (serveopts.go)
}

// commandLine is what reading the command line needs: ds-server's program
// name for its messages, the outputs, and whether port 0 (any free port,
// a dsmock extension for tests) is allowed.
type commandLine struct {
	argv0          string
	stdout, stderr io.Writer
	anyPort        bool
}

// usage is ds-server's answer to a bad command line: the message on
// stderr, the Usage line on stdout, status 1.
func (cl commandLine) usage(msg string) int {
	if msg != "" {
		fmt.Fprintln(cl.stderr, msg)
	}
	fmt.Fprintf(cl.stdout, "Usage: %s -h all\n", cl.argv0)
	return 1
}

// parse reads the options (argv without the program name) in order, as
// ds-server does; ok is false when dsmock must exit with status (a bad or
// refused option, -h, no -c), its messages printed.
func (cl commandLine) parse(args []string) (st settings, status int, ok bool) {
	opts, err := getopt(args, "c:p:nv:d:j:r:f:g:s:ol:b:ih:",
		map[string]bool{"write-actual": false, "serve": false, "timeout": true, "spin": true, "listen": true, "help": false, "mem-fail": true, "swf": true, "unbilled": false, "year": true,
			"max-sessions": true, "session-log-max": true})
	if err != nil {
		return st, cl.usage(err.Error()), false
	}
	st = settings{port: 50000, timeout: mocksrv.DefaultReadTimeout, spin: netspin.DefaultSpin, level: mocksrv.ParseLevel(""), listen: defaultListen, year: mocksrv.DefaultYear,
		limits: serveLimits{maxSessions: defaultMaxSessions, sessionLogMax: defaultSessionLogMax}}
	for _, o := range opts {
		if status, ok := cl.apply(&st, o); !ok {
			return st, status, false
		}
	}
	return st, 0, true
}

// apply sets one of ds-server's options (§8); dsmock's own and the
// refused ones go to applyOwn.
func (cl commandLine) apply(st *settings, o opt) (status int, ok bool) {
	switch o.name {
	case "c":
		if _, err := os.Stat(o.value); err != nil {
			return cl.usage("No such file (" + o.value + ") exist!"), false
		}
		st.config = o.value
	case "p":
		p := atoi(o.value)
		if (p < 49152 || p > 65535) && !(p == 0 && cl.anyPort) {
			return cl.usage(fmt.Sprintf("%d: Out of bound! (49152 - 65535); TCP/IP port range", p)), false
		}
		st.port = p
	case "n":
		st.newline = true
	case "v":
		st.level = mocksrv.ParseLevel(o.value)
	case "d":
		st.load.EndTime, st.load.EndTimeGiven = atoi(o.value), true
	case "j":
		st.load.JobCount, st.load.JobCountGiven = atoi(o.value), true
	case "r":
		if !st.load.SeedGiven { // only the first -r counts (§8)
			st.load.Seed, st.load.SeedGiven = atoi(o.value), true
		} else {
			st.laterSeeds = append(st.laterSeeds, atoi(o.value))
		}
	case "f":
		st.load.Failure, st.load.FailureGiven = o.value, true
	case "g", "s":
		if !st.load.FailureGiven {
			// ds-server dereferences the model it has not read yet and
			// crashes (failure-models.md §2.2): say why instead.
			return cl.usage(fmt.Sprintf("dsmock: -%s must follow -f MODEL (ds-server crashes when it comes first)", o.name)), false
		}
		if o.name == "g" {
			st.load.Grain, st.load.GrainGiven = atoi(o.value), true
		} else {
			st.load.Scale, st.load.ScaleGiven = atoi(o.value), true
		}
	case "o":
		st.noFailMsgs = true
	case "h":
		// ds-server's -h opens with its version line: the one of the
		// year dsmock speaks (a --year after -h is not read).
		fmt.Fprint(cl.stdout, "ds-sim (ds-server: "+st.year.Version()+")\n"+help(o.value))
		return 1, false
	default:
		return cl.applyOwn(st, o)
	}
	return 0, true
}

// applyOwn sets dsmock's own options and refuses ds-server's unimplemented
// ones with a message (decisions 6, 7).
func (cl commandLine) applyOwn(st *settings, o opt) (status int, ok bool) {
	refuse := func(msg string) (int, bool) {
		fmt.Fprintln(cl.stderr, msg)
		return 1, false
	}
	switch o.name {
	case "l":
		// Servers per type in the no-config mode; no effect with -c
		// (failure-models.md §12.5), warned about as the config loads.
		st.load.Limit, st.load.LimitGiven = atoi(o.value), true
	case "b":
		return refuse("dsmock: -b (break point) is not implemented")
	case "i":
		return refuse("dsmock: -i (interactive mode) is not implemented")
	case "swf":
		st.swf = o.value
	case "write-actual":
		st.writeActual = true
	case "unbilled":
		st.unbilled = true
	case "mem-fail":
		m, err := mocksrv.ParseMemFailModel(o.value)
		if err != nil {
			return refuse("dsmock: --mem-fail: " + err.Error())
		}
		st.memFail = m
	case "serve":
		st.serve = true
	case "max-sessions", "session-log-max":
		if err := st.limits.apply(o.name, o.value); err != nil {
			return refuse("dsmock: " + err.Error())
		}
	case "listen":
		if err := checkListen(o.value); err != nil {
			return refuse("dsmock: " + err.Error())
		}
		st.listen = o.value
	case "help":
		// --help is a request, not ds-server's -h topic: the usage on
		// stdout and status 0, as for dsclient -h.
		fmt.Fprint(cl.stdout, help("usage"))
		return 0, false
	case "year":
		y, err := mocksrv.ParseYear(o.value)
		if err != nil {
			return refuse("dsmock: --year: " + err.Error())
		}
		st.year = y
	case "timeout":
		d, err := time.ParseDuration(o.value)
		if err != nil || d <= 0 {
			return refuse(fmt.Sprintf("dsmock: --timeout %q: want a positive duration such as 10m or 30s", o.value))
		}
		st.timeout = d
	case "spin":
		d, err := time.ParseDuration(o.value)
		if err != nil || d < 0 {
			return refuse(fmt.Sprintf("dsmock: --spin %q: want a duration such as 100us, or 0 to turn busy-polling off", o.value))
		}
		st.spin = d
	}
	return 0, true
}

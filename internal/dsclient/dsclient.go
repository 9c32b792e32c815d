// Package dsclient is the dsclient command: it connects to ds-server (or
// dsmock), runs one of the registered strategies through the scheduling
// loop (client.Run) and exits with a status that says how the run ended.
// cmd/dsclient only calls Main.
//
// Flags are plain words so that a course harness, which splits the client's
// command line on spaces without a shell (harness.md §1), can pass them:
// "./dsclient -a fafc -p 50000 -n".
package dsclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/user"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/flaghint"
	"github.com/dssim-go/dssim-go/internal/netspin"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/protocol/didyoumean"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	_ "github.com/dssim-go/dssim-go/strategies/all" // every strategy, for -a and --list
)

// Exit statuses.
const (
	ExitOK      = 0 // NONE received, QUIT answered by QUIT
	ExitFailed  = 1 // the run failed after connecting
	ExitUsage   = 2 // bad command line
	ExitConnect = 3 // no connection within --connect-timeout
)

const exitHelp = `Exit status:
  0  the simulation ended normally: NONE, then QUIT answered by QUIT
  1  the run failed after connecting: the server refused a command (ERR),
     sent a message that is not the expected reply, closed the connection,
     or stopped answering for --read-timeout; the strategy found no server;
     jobs stayed stuck in the global queue (10 CHKQ in a row), or simulation
     time stopped advancing (the same job offered 100 times at one time)
  2  bad command line: unknown flag or strategy, bad -a or --param
  3  could not connect within --connect-timeout
On any failure one line "dsclient: <what happened>" goes to stderr.
`

type config struct {
	algo           string
	port           int
	host           string
	newline        bool
	system         string
	params         []string
	user           string
	level          string
	connectTimeout time.Duration
	readTimeout    time.Duration
	spin           time.Duration
	metrics        string
	help, list     bool
}

func flags(cfg *config) *pflag.FlagSet {
	fs := pflag.NewFlagSet("dsclient", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.SetNormalizeFunc(algoAlias)
	fs.StringVarP(&cfg.algo, "algorithm", "a", "atl", "scheduling strategy NAME, or NAME:KEY=VALUE,... as in dsbench -a but one value per key (see --list); --algo, dsbench's name, works too")
	fs.IntVarP(&cfg.port, "port", "p", 50000, "server TCP port")
	fs.StringVar(&cfg.host, "host", "127.0.0.1", "server host")
	fs.BoolVarP(&cfg.newline, "newline", "n", false, `newline framing: for a server started with -n (or <config newline="true">)`)
	fs.StringVar(&cfg.system, "system", "./ds-system.xml", "the server's ds-system.xml, read after the OK to AUTH; if it is missing or malformed, the types come from GETS All")
	fs.StringArrayVar(&cfg.params, "param", nil, "strategy parameter key=value (repeatable; see --list); a key may not also be set in -a")
	fs.StringVar(&cfg.user, "user", loginName(), "user name sent with AUTH")
	fs.StringVarP(&cfg.level, "verbose", "v", "warn", "log level on stderr: debug (every event and action), info, warn, error")
	fs.DurationVar(&cfg.connectTimeout, "connect-timeout", 10*time.Second, "keep retrying a refused connection this long")
	fs.DurationVar(&cfg.readTimeout, "read-timeout", protocol.DefaultReadTimeout, "give up when the server has not completed a reply within this long")
	fs.DurationVar(&cfg.spin, "spin", netspin.DefaultSpin, "busy-poll for a reply this long before sleeping (saves a thread wake-up per round trip; 0: off)")
	fs.StringVar(&cfg.metrics, "metrics", "", "write the strategy's metrics to this file as JSON (they are also printed at the end)")
	fs.BoolVarP(&cfg.help, "help", "h", false, "show this help")
	fs.BoolVar(&cfg.list, "list", false, "list the strategies and their parameters")
	return fs
}

// algoAlias makes --algo, dsbench's name for the strategy flag, the same
// flag as --algorithm: a user moving between the two commands does not
// trip on the spelling.
func algoAlias(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	if name == "algo" {
		name = "algorithm"
	}
	return pflag.NormalizedName(name)
}

// loginName is the current user's login name (ds-client authenticates with
// the Unix user name, baselines.md decision 2).
func loginName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	for _, v := range []string{"USER", "LOGNAME"} {
		if s := os.Getenv(v); s != "" {
			return s
		}
	}
	return "user"
}

// check refuses, before connecting, values no run can use.
func (cfg *config) check() error {
	switch {
	case cfg.port < 1 || cfg.port > 65535:
		return fmt.Errorf("port %d out of range 1..65535", cfg.port)
	case cfg.readTimeout <= 0 || cfg.connectTimeout < 0:
		return errors.New("--read-timeout must be positive and --connect-timeout not negative")
	case cfg.spin < 0:
		return fmt.Errorf("--spin %v: want 0 (off) or a positive duration", cfg.spin)
	}
	return checkMetricsFile(cfg.metrics)
}

// Main runs dsclient with args (without the program name) and returns the
// exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flags(&cfg)
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintln(stderr, "dsclient: "+oneLine(fmt.Sprintf(format, a...)))
		return code
	}
	if err := fs.Parse(args); err != nil {
		return fail(ExitUsage, "%v (see dsclient -h)", flaghint.Error(fs, err))
	}
	switch {
	case cfg.help:
		usage(stdout, fs)
		return ExitOK
	case cfg.list:
		list(stdout)
		return ExitOK
	case fs.NArg() > 0:
		return fail(ExitUsage, "unexpected argument %q (see dsclient -h)", fs.Arg(0))
	}
	if err := cfg.check(); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	var level zapcore.Level
	if err := level.UnmarshalText([]byte(cfg.level)); err != nil {
		return fail(ExitUsage, "-v %q: want debug, info, warn or error%s", cfg.level, didyoumean.Hint(cfg.level, []string{"debug", "info", "warn", "error"}))
	}
	log := newLogger(stderr, level)
	defer func() { _ = log.Sync() }()

	name, settings, err := strategySpec(cfg.algo, cfg.params)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	strat, err := strategies.New(name, settings)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}

	framing := protocol.Plain
	if cfg.newline {
		framing = protocol.Newline
	}
	addr := net.JoinHostPort(cfg.host, strconv.Itoa(cfg.port))
	cl, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{
		ConnOptions:    protocol.ConnOptions{Framing: framing, ReadTimeout: cfg.readTimeout},
		WrapConn:       netspin.Wrapper(cfg.spin),
		ConnectTimeout: cfg.connectTimeout,
		OnWait: func() {
			fmt.Fprintf(stderr, "dsclient: waiting for a server on %s (connection refused; retrying for up to %v)\n", addr, cfg.connectTimeout)
		},
	})
	if err != nil {
		return fail(ExitConnect, "%v", err)
	}
	defer cl.Close()
	log.Info("connected", zap.String("server", addr), zap.Stringer("framing", framing), zap.String("strategy", cfg.algo))

	res, err := client.Run(strat, cl, client.Options{
		User:   cfg.user,
		System: systemLoader(cfg.system, log),
		Log:    log,
	})
	if err != nil {
		return fail(ExitFailed, "%v", err)
	}
	log.Info("done", zap.Int("events", res.Events), zap.Int("jobs", res.Offers), zap.Int("actions", res.Actions),
		zap.Int("refusals", res.Refusals), zap.Int("last event time", res.LastEvent))
	printMetrics(stdout, res.Metrics)
	if cfg.metrics != "" {
		if err := writeMetrics(cfg.metrics, name, res.Metrics); err != nil {
			return fail(ExitFailed, "%v", err)
		}
	}
	return ExitOK
}

// systemLoader reads the server types from path after the handshake. A
// missing or malformed file is not fatal (the task's chosen default, which
// differs from baselines.md decision 1's "QUIT"): dsclient warns, naming
// the file and the problem, and derives the types from GETS All, which
// ds-server accepts before the first REDY (ds-server.md §1.5 step 3). Such
// types have no boot times, and no rates against a 2025 server, whose
// records carry none (servertypes.FromServers).
func systemLoader(path string, log *zap.Logger) func(client.Backend) (*servertypes.System, error) {
	return func(b client.Backend) (*servertypes.System, error) {
		sys, err := servertypes.Load(path)
		if err == nil {
			return sys, nil
		}
		problem := strings.TrimPrefix(err.Error(), path+": ")
		var pe *os.PathError
		if errors.As(err, &pe) {
			problem = pe.Err.Error()
		}
		recs, gerr := b.GetsAll()
		if gerr != nil {
			return nil, fmt.Errorf("%s unusable (%s) and GETS All failed: %w", path, problem, gerr)
		}
		what := "which gives no boot times or rates (every server looks free and quick to boot)"
		if len(recs) > 0 && recs[0].HasRate {
			what = "which gives no boot times (every server looks quick to boot); the rates are the server's own (ds-server 2026 sends them)"
		}
		log.Warn(fmt.Sprintf("cannot use %s: %s; deriving the server types from GETS All, %s", path, problem, what))
		return servertypes.FromServers(recs)
	}
}

func newLogger(w io.Writer, level zapcore.Level) *zap.Logger {
	enc := zap.NewDevelopmentEncoderConfig()
	enc.TimeKey, enc.CallerKey, enc.StacktraceKey, enc.NameKey = "", "", "", ""
	enc.EncodeLevel = zapcore.CapitalLevelEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.AddSync(w), level)
	return zap.New(core)
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprint(w, `Usage: dsclient [-a NAME[:KEY=VALUE,...]] [-p PORT] [--host HOST] [-n]
                [--system PATH] [--param KEY=VALUE]... [--user NAME] [-v LEVEL]
                [--connect-timeout DURATION] [--read-timeout DURATION]
                [--spin DURATION] [--metrics FILE]
       dsclient --list
       dsclient -h

dsclient schedules the jobs of a ds-sim simulation: it connects to ds-server
(or dsmock), sends HELO and AUTH, reads ds-system.xml, then answers every
event with the chosen strategy until the server says NONE, and quits.
Run it in the folder where ds-server writes ds-system.xml, or name the file
with --system. Use -n exactly when the server runs with -n.
Set a strategy's parameters in -a as dsbench does (-a cost-reduce:multiplier=2)
or with --param (-a cost-reduce --param multiplier=2).

Options:
`)
	fmt.Fprint(w, fs.FlagUsages())
	fmt.Fprintln(w, "\nStrategies (dsclient --list shows their parameters):")
	width := 0 // the longest name, so that every summary starts in one column
	for _, info := range strategies.All() {
		width = max(width, utf8.RuneCountInString(info.Name))
	}
	for _, info := range strategies.All() {
		fmt.Fprintf(w, "  %-*s %s\n", width, info.Name, info.Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, exitHelp)
}

func list(w io.Writer) {
	fmt.Fprintln(w, "Strategies (set a parameter with -a NAME:KEY=VALUE or --param KEY=VALUE):")
	_ = strategies.WriteList(w)
}

func oneLine(s string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
}

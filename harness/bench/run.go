package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/ports"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// ServerDsmock names the built-in simulator served over TCP (--server dsmock).
const ServerDsmock = "dsmock"

// Target says where runs happen.
type Target struct {
	// Server: "" runs the simulator in-process (the default, fastest);
	// ServerDsmock serves it over loopback TCP exactly as dsmock does; any
	// other value is the path of a server binary (ds-server or dsmock),
	// launched per run in a private temp dir as
	// "PATH -c config.xml -v brief -p PORT [-n]".
	Server string
	// Client: "" runs the project's strategies; otherwise an external client
	// command, split on white space with no shell (harness.md §1), started
	// in ClientDir with {port} replaced by the run's port (no {port}: port
	// 50000). An external client needs a TCP server: with Server "" the
	// built-in simulator is served over TCP.
	Client string
	// ClientLabel is the column name of the external client ("client").
	ClientLabel string
	// ClientDir is the folder the external client runs in (default: the
	// current directory, as the course harnesses run it, so that "java
	// MyClient" or "python3 client.py" find their files). ds-system.xml is
	// written there; runs with an external client therefore take turns.
	ClientDir string
	// Newline runs in newline mode (-n).
	Newline bool
	// MemFail switches on dsmock's memory extension (estimation.md Part
	// E) with this failure model; off (the zero value) by default.
	MemFail mocksrv.MemFailModel
	// Year is the ds-server release the built-in simulator speaks, in
	// process or over TCP, and the version of the ds-system.xml written
	// for an external client: the zero value is 2026, whose GETS records
	// carry the hourly rate. A server binary speaks its own year (the
	// project's client reads either).
	Year mocksrv.Year
	// Timeout bounds one run (default 600 s, harness.md decision 5).
	Timeout time.Duration
	// User is the AUTH name of the project's client ("dsbench").
	User string
	// Ports is the range the runs' servers listen in (the zero range:
	// DSSIM_PORTS when set, else see ports.Range).
	Ports ports.Range
	// KeepLogs, when set, is a folder where each run's server log and
	// stderr and the external client's stderr are kept, written as the run
	// goes (runLogs); a run without a result names its files.
	KeepLogs string
	// WrapConn, when not nil, wraps both ends of the connection of a
	// ServerDsmock run and the project's client's end with a server binary:
	// cmd/dsbench passes a busy-polling reader (internal/netspin), which a
	// library package leaves to its command. nil: plain connections.
	WrapConn func(net.Conn) net.Conn
}

// DefaultTimeout is the per-run timeout when none is given.
const DefaultTimeout = 600 * time.Second

// Run is one run to do: a config and either a variant or the external
// client (Variant nil).
type Run struct {
	Source  sources.Source
	Variant *columns.Variant
}

// Bench runs a grid of configs × columns.
type Bench struct {
	Sources  []sources.Source
	Variants []columns.Variant
	Target   Target
	// Parallel is the number of concurrent runs (default: the number of CPUs).
	Parallel int
	// OnResult is called after each run (from several goroutines, serialised).
	OnResult func(Result)
	// Shard, when set, limits Run to one slice of Runs (see Shard).
	Shard Shard
	// Since, when not nil, measures a run's wall time from its start
	// (time.Since by default): dsbench's shard/merge test fixes it, so
	// that two sweeps can be compared byte for byte.
	Since func(time.Time) time.Duration
}

// Columns returns the column labels in order: the variants, then the
// external client if any.
func (b *Bench) Columns() []string {
	var cols []string
	for _, v := range b.Variants {
		cols = append(cols, v.Label())
	}
	if b.Target.Client != "" {
		cols = append(cols, b.ClientLabel())
	}
	return cols
}

func (b *Bench) ClientLabel() string {
	if b.Target.ClientLabel != "" {
		return b.Target.ClientLabel
	}
	return "client"
}

// Runs lists every run: for each config, each variant, then the client.
func (b *Bench) Runs() []Run {
	var runs []Run
	for _, s := range b.Sources {
		for i := range b.Variants {
			runs = append(runs, Run{Source: s, Variant: &b.Variants[i]})
		}
		if b.Target.Client != "" {
			runs = append(runs, Run{Source: s})
		}
	}
	return runs
}

// Run does every run of the bench's shard (all runs when Shard is zero) and
// returns the results in Runs order. A run that fails is a Result with its
// status and reason; it never stops the others. Variants (the project's
// strategies) run where Target.Server says; the external client always
// runs against a TCP server.
func (b *Bench) Run(ctx context.Context) []Result {
	all := b.Runs()
	var runs []Run
	for _, k := range b.Selected() {
		runs = append(runs, all[k])
	}
	results := make([]Result, len(runs))
	par := b.Parallel
	if par <= 0 {
		par = runtime.NumCPU()
	}
	if b.Target.Server != "" && b.Target.Server != ServerDsmock || b.Target.Client != "" {
		// Each run is a process pair: more of them than CPUs only makes
		// them slow down together and approach their timeouts.
		par = min(par, runtime.NumCPU())
	}
	if b.Target.Client != "" {
		par = 1 // the client folder's ds-system.xml (and maybe the port) is shared
	}
	loaded := newConfigCache()
	var mu sync.Mutex
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(par)
	for i, run := range runs {
		g.Go(func() error {
			r := b.runOne(ctx, loaded, run)
			results[i] = r
			if b.OnResult != nil {
				mu.Lock()
				b.OnResult(r)
				mu.Unlock()
			}
			return nil
		})
	}
	_ = g.Wait() // runs report their own errors in their Result
	return results
}

// configCache loads each config once; a loaded Config is read-only during
// simulations, so concurrent runs share it.
type configCache struct {
	mu sync.Mutex
	m  map[string]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	cfg  *mocksrv.Config
	err  error
}

func newConfigCache() *configCache { return &configCache{m: map[string]*cacheEntry{}} }

func (c *configCache) load(s sources.Source) (*mocksrv.Config, error) {
	c.mu.Lock()
	e, ok := c.m[s.Name]
	if !ok {
		e = &cacheEntry{}
		c.m[s.Name] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.cfg, e.err = s.Load() })
	return e.cfg, e.err
}

func (b *Bench) runOne(ctx context.Context, cache *configCache, run Run) Result {
	start := time.Now()
	r := Result{Config: run.Source.Name}
	r.SetTransform(run.Source)
	r.SWF = run.Source.Conversion()
	if run.Variant != nil {
		r.Variant = run.Variant.Label()
	} else {
		r.Variant = b.ClientLabel()
	}
	if ctx.Err() != nil {
		// Interrupted: the runs still queued end at once, without loading
		// their configs (a large sweep took minutes to stop).
		r.fill(runOutput{err: ctx.Err()}, b.Timeout())
		return r
	}
	cfg, err := cache.load(run.Source)
	if err != nil {
		r.Status, r.Err = StatusInvalidConfig, oneLine(err.Error())
		return r
	}
	r.Bounds = BoundsOf(cfg)
	r.ResourceFailures = len(cfg.Failures) > 0
	ctx, cancel := context.WithTimeout(ctx, b.Timeout())
	defer cancel()
	inProcess := run.Variant != nil && b.Target.Server == ""
	out := b.withLogs(r, inProcess, func(logs runLogs) runOutput {
		if inProcess {
			return b.runInProcessLogged(ctx, cfg, run.Variant.New, logs)
		}
		return b.runTCP(ctx, run, cfg, logs)
	})
	r.Wall = b.since(start)
	r.fill(out, b.Timeout())
	b.keptLogs(&r, out)
	return r
}

// since is a run's wall time from start (Since).
func (b *Bench) since(start time.Time) time.Duration {
	if b.Since != nil {
		return b.Since(start)
	}
	return time.Since(start)
}

// runOutput is what a run leaves: the server's stdout (its last three lines
// are the summary) and stderr, or for an in-process run the numbers
// themselves, and the first error of the client or server.
type runOutput struct {
	stdout, stderr string
	// typed, when not nil, holds an in-process run's numbers, taken from
	// the simulator's Report: stdout and stderr are then not read (text is
	// all a server process leaves, so the other runs parse it).
	typed *typedOutput
	err   error
	// metrics is what the strategy reported (strategies.MetricsReporter):
	// in-process with the simulator's truth, over TCP without (then the
	// strategy marks what it approximated).
	metrics []strategies.Metric
	// clientStderr is what an external client wrote to stderr: shown with
	// any run that has no result, since it is usually where the client
	// says what went wrong.
	clientStderr string
	// unbilled is what the report's cost left out: nil unless dsmock ran
	// the simulation.
	unbilled *mocksrv.Unbilled
	// serverSaid is the server's own account of a failed run: the
	// message that ended the built-in server's session, or the line of a
	// server binary's stderr that says why its session ended (binaryEnd).
	// It comes first in the reason, with serverHint, what the client
	// likely did wrong (the framing), when there is one.
	serverSaid, serverHint string
	// note is the reason of a run with a result that still has something
	// to say (the client's exit after QUIT).
	note string
	// logTail is the end of an in-process run's server log, streamed to
	// its --keep-logs file as the run went (logStreamed): stdout stays
	// empty, an in-process run's numbers are typed.
	logTail     string
	logStreamed bool
	// kept are the run's --keep-logs files, logErr the first error
	// creating or writing them (see runLogs).
	kept   []string
	logErr error
}

// typedOutput is an in-process run's result: its summary (summaryErr when
// the run ended without one) and the jobs left unscheduled at QUIT.
type typedOutput struct {
	summary     Summary
	summaryErr  error
	unscheduled int
}

// versionLine begins ds-server's log (§7.1), a --server binary's stdout:
// the rest of the line is its version, which tells its year.
const versionLine = "# ds-sim server "

// results returns the run's summary and unscheduled count: typed when the
// run was in-process, else parsed from the server's text.
func (out runOutput) results() (sum Summary, unscheduled int, sumErr error) {
	if t := out.typed; t != nil {
		return t.summary, t.unscheduled, t.summaryErr
	}
	sum, sumErr = ParseSummary(out.stdout)
	return sum, Unscheduled(out.stderr), sumErr
}

func (r *Result) fill(out runOutput, timeout time.Duration) {
	if v, ok := strings.CutPrefix(out.stdout, versionLine); ok && out.typed == nil {
		r.ServerVersion, _, _ = strings.Cut(v, "\n")
	}
	sum, unscheduled, sumErr := out.results()
	r.Unscheduled = unscheduled
	r.Status, r.Err = out.status(sumErr, unscheduled, timeout)
	if sumErr == nil {
		r.Summary = sum
		r.Unbilled = out.unbilled
	}
	r.Metrics = withNet(out.metrics, r.Summary, sumErr == nil)
	if r.Status != StatusOK && !quotesStderr(r.Err, out.clientStderr) {
		r.Err = JoinReason(r.Err, clientStderrLabel+lastLines(out.clientStderr, 3))
	}
}

// quotesStderr reports whether a reason has the client's stderr already,
// or nothing of it to add: its tail (an exit detail) or its last line (a
// note after QUIT, clientAfterQuit) is in the reason.
func quotesStderr(reason, stderr string) bool {
	tail := lastLines(stderr, 3)
	return tail == "" || strings.Contains(reason, tail) || strings.Contains(reason, clientStderrLabel+lastLines(stderr, 1))
}

// clientStderrLabel introduces a quote of the client's stderr in a reason.
const clientStderrLabel = "client stderr: "

// DefaultPort is ds-server's port, used for an external client whose
// command has no {port} placeholder: such a client is expected to connect
// where ds-server listens by default, so runs take turns on that port.
const DefaultPort = 50000

// fixedPort is DefaultPort when the external client cannot be told its
// port, else 0 (any free port).
func (t Target) fixedPort() int {
	if t.Client != "" && !strings.Contains(t.Client, PortPlaceholder) {
		return DefaultPort
	}
	return 0
}

// port is the port of one run's server process. A fixed port is waited
// for as the built-in server's is (listenFixed), then released for the
// server to bind.
func (t Target) port(ctx context.Context) (int, error) {
	if p := t.fixedPort(); p != 0 {
		l, err := listenFixed(ctx, p, fixedPortWait)
		if err != nil {
			return 0, err
		}
		l.Close()
		return p, nil
	}
	return t.serverPort()
}

// ClientFolder is the folder the external client runs in: ClientDir, or
// the current directory when it is empty.
func (t Target) ClientFolder() string {
	if t.ClientDir != "" {
		return t.ClientDir
	}
	return "."
}

func (t Target) user() string {
	if t.User != "" {
		return t.User
	}
	return "dsbench"
}

// runTCP does one run against a TCP server: the built-in simulator on a
// loopback listener, or a server binary launched in a private folder.
func (b *Bench) runTCP(ctx context.Context, run Run, cfg *mocksrv.Config, logs runLogs) runOutput {
	dir, err := os.MkdirTemp("", "dsbench-")
	if err != nil {
		return runOutput{err: err}
	}
	defer os.RemoveAll(dir)
	if t := b.Target; t.Server == "" || t.Server == ServerDsmock {
		return b.runBuiltinTCP(ctx, run, cfg, dir, logs)
	}
	if err := stageConfig(run.Source, cfg, dir); err != nil {
		return runOutput{err: err}
	}
	var out runOutput
	for attempt := 0; attempt < 3; attempt++ { // another process may take the port first
		var retry bool
		if out, retry = b.runServerBinary(ctx, run, cfg, dir, logs, attempt > 0); !retry {
			break
		}
	}
	return out
}

// serverAfterClient is how long a server binary may take to exit after
// its client exited unsuccessfully: short, for one still waiting for a
// connection. One slower to exit after its QUIT (a wrapper script, a
// loaded machine) is killed then, and its report, once printed, is read
// all the same.
const serverAfterClient = time.Second

// runServerBinary is one attempt at a run against the server binary, in
// dir; retry is set when the server did not listen (another process may
// have taken its port). Another attempt (again) empties the logs as it
// starts the server: the last attempt's are the ones kept.
func (b *Bench) runServerBinary(ctx context.Context, run Run, cfg *mocksrv.Config, dir string, logs runLogs, again bool) (out runOutput, retry bool) {
	t := b.Target
	port, err := t.port(ctx)
	if err != nil {
		return runOutput{err: err}, false
	}
	args := []string{t.Server, "-c", "config.xml", "-v", "brief", "-p", strconv.Itoa(port)}
	if t.Newline {
		args = append(args, "-n")
	}
	if t.MemFail != mocksrv.MemFailOff {
		args = append(args, "--mem-fail", t.MemFail.String()) // dsmock only
	}
	if again {
		logs.reset()
	}
	srv, err := startProcess(dir, args, nil, logs[0], logs[1])
	if err != nil {
		return runOutput{err: err}, false
	}
	if err := ports.WaitListening(ctx, port, srv.done); err != nil {
		srv.kill()
		if ctx.Err() != nil {
			return runOutput{err: ctx.Err()}, false
		}
		return runOutput{stdout: logs[0].Text(), stderr: logs[1].Text(),
			err: fmt.Errorf("%w (%s)", err, srv.exitDetail("server"))}, true
	}
	metrics, clientStderr, clientErr := b.runClient(ctx, run, cfg, dir, port, logs[2])
	grace := serverGrace
	var ce *clientExit
	switch {
	case errors.As(clientErr, &ce):
		grace = serverAfterClient
	case clientErr != nil:
		grace = 0 // it may still wait for a connection that never comes
	}
	wctx, cancel := context.WithTimeout(ctx, grace)
	srvErr := srv.wait(wctx)
	cancel()
	out = runOutput{stdout: logs[0].Text(), stderr: logs[1].Text(), err: clientErr, metrics: metrics, clientStderr: clientStderr}
	end := binaryEnd(out.stderr)
	out.serverEnd(end, mocksrv.FramingHint(end, t.Newline))
	switch {
	case ctx.Err() != nil:
		out.err = ctx.Err()
	case out.err == nil && errors.Is(srvErr, context.DeadlineExceeded):
		out.err = fmt.Errorf("the server had not finished %v after the client exited (did the client connect to port %d?)", serverGrace, port)
	case out.err == nil && srvErr != nil:
		out.err = fmt.Errorf("%s", srv.exitDetail("server"))
	case ce != nil && (srvErr == nil || errors.Is(srvErr, context.DeadlineExceeded)):
		if _, err := ParseSummary(out.stdout); err == nil {
			out.clientAfterQuit() // QUIT and its report; the server exited 0 or was slow to
		}
	}
	return out, false
}

// runBuiltinTCP serves the simulation on a loopback port, as dsmock would,
// writing ds-system.xml into dir at AUTH, and runs the client against it.
func (b *Bench) runBuiltinTCP(ctx context.Context, run Run, cfg *mocksrv.Config, dir string, logs runLogs) runOutput {
	ln, err := b.Target.listen(ctx)
	if err != nil {
		return runOutput{err: err}
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	aw := &acceptWatch{Listener: ln, accepted: make(chan struct{})}
	srv := &mocksrv.Listener{
		Config:   cfg,
		WrapConn: b.Target.WrapConn,
		Options: mocksrv.Options{Level: mocksrv.LevelBrief, Newline: b.Target.Newline, Log: logs[0], Stderr: logs[1], NoHeader: true,
			MemFail: b.Target.MemFail, Year: b.Target.Year},
		ReadTimeout: b.Timeout(),
		Command:     "dsbench", // its hints name dsbench's -n, the flag the user gave
		OnAuth: func(xml []byte) error {
			return os.WriteFile(filepath.Join(dir, "ds-system.xml"), xml, 0o644)
		},
	}
	if run.Variant == nil {
		// ds-server loops forever with a client refused on every offer of
		// a job; such a run ends at once with the job and the refusal
		// named, rather than at the timeout. The project's strategies run
		// without the guard, as in-process.
		srv.MaxRefusedOffers = mocksrv.RefusedOffersGuard
	}
	s := &session{done: make(chan struct{})}
	go func() {
		s.tx, s.err = srv.ServeOne(aw)
		close(s.done)
	}()
	metrics, clientStderr, clientErr := b.runClient(ctx, run, cfg, dir, port, logs[2])
	out := runOutput{err: clientErr, metrics: metrics, clientStderr: clientStderr}
	// A client that failed before the run's end keeps its error: the
	// session, held open by a child of the client, is aborted after it.
	clientFailed := clientErr != nil && ctx.Err() == nil
	grace := serverGrace
	if clientErr != nil {
		grace = 0
	}
	never, ended := aw.waitServed(ctx, s, grace)
	if !ended {
		// The session is still writing its buffers: nothing of it can be read.
		return runOutput{err: firstErr(out.err, ctx.Err(), errSessionStuck), clientStderr: clientStderr}
	}
	out.builtinEnd(s, logs[1])
	out.stdout, out.stderr = logs[0].Text(), logs[1].Text()
	switch {
	case ctx.Err() != nil && !clientFailed:
		out.err = ctx.Err() // the log and stderr stay: they show where it hung
	case out.err == nil && never:
		// Not "accept … use of closed network connection": the client
		// ended, and nothing ever connected.
		out.err = fmt.Errorf("the client exited (status 0) without connecting to port %d", port)
	case out.err == nil && s.err != nil && aw.wasAborted():
		out.err = fmt.Errorf("the server's session had not ended %v after the client exited (does a process the client started hold the connection?)", serverGrace+serverAfterClient)
	case out.err == nil && s.err != nil:
		out.err = fmt.Errorf("server: %w", s.err)
	case s.err == nil && out.typed != nil:
		out.clientAfterQuit() // the session completed: QUIT and its report
	}
	return out
}

// errSessionStuck is a built-in session that did not end once aborted.
var errSessionStuck = fmt.Errorf("the server's session did not end %v after it was aborted", abortWait)

// firstErr is the first of errs that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// builtinEnd takes the results of the built-in server's ended session:
// the unscheduled count and summary from its report, not from text (any
// line of stderr may precede "<n> jobs not scheduled!"), and its fatal
// message with its hint, which dsmock would print to stderr as it exits
// (written to stderr, the run's capture of the server's stderr).
// Only a fatal message says why the session ended: a line of stderr
// before it is a refused command, which the session went on after.
func (out *runOutput) builtinEnd(s *session, stderr io.Writer) {
	if s.tx != nil && s.tx.Report() != nil {
		rep := s.tx.Report()
		out.typed = &typedOutput{summary: SummaryOf(rep), unscheduled: rep.Unscheduled}
		out.unbilled = &rep.Unbilled
	}
	var f *mocksrv.Fatal
	if errors.As(s.err, &f) {
		for _, l := range f.StderrLines() {
			fmt.Fprintln(stderr, l)
		}
		out.serverEnd(f.Msg, f.Hint)
	}
}

func (b *Bench) Timeout() time.Duration {
	if b.Target.Timeout > 0 {
		return b.Target.Timeout
	}
	return DefaultTimeout
}

// runClient runs the run's client against the server on port: the
// project's client loop over TCP (reading ds-system.xml from the server's
// folder dir), or the external command in the client folder. It returns
// what the project's strategy reported (over TCP there is no truth: the
// strategy marks its approximations).
func (b *Bench) runClient(ctx context.Context, run Run, cfg *mocksrv.Config, dir string, port int, stderr *capture) ([]strategies.Metric, string, error) {
	if run.Variant == nil {
		stderr, err := b.runExternal(ctx, cfg, port, stderr)
		return nil, stderr, err
	}
	metrics, err := b.runOwnClient(ctx, run, dir, port)
	return metrics, "", err
}

// runOwnClient runs the project's client loop with the run's strategy
// against the server on port.
func (b *Bench) runOwnClient(ctx context.Context, run Run, dir string, port int) ([]strategies.Metric, error) {
	addr := "127.0.0.1:" + strconv.Itoa(port)
	s, err := run.Variant.New()
	if err != nil {
		return nil, err
	}
	framing := protocol.Plain
	if b.Target.Newline {
		framing = protocol.Newline
	}
	c, err := protocol.Dial(ctx, addr, protocol.DialOptions{ConnectTimeout: 10 * time.Second, WrapConn: b.Target.WrapConn,
		ConnOptions: protocol.ConnOptions{Framing: framing, ReadTimeout: b.Timeout()}})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	sysPath := filepath.Join(dir, "ds-system.xml")
	res, err := client.Run(s, c, client.Options{User: b.Target.user(), System: func(client.Backend) (*servertypes.System, error) {
		return servertypes.Load(sysPath)
	}})
	return res.Metrics, err
}

// runExternal runs the external client command against the server on port
// and returns its stderr.
func (b *Bench) runExternal(ctx context.Context, cfg *mocksrv.Config, port int, stderr *capture) (string, error) {
	args, err := SplitCommand(b.Target.Client, port)
	if err != nil {
		return "", err
	}
	// The client reads ds-system.xml from its own folder, as next to
	// ds-server; it is written there before the client starts (the same
	// bytes the server writes at AUTH), so that a server running
	// elsewhere (a binary in its private folder) serves it too.
	cdir := b.Target.ClientFolder()
	if err := replaceFile(filepath.Join(cdir, "ds-system.xml"), mocksrv.SystemXML(cfg, b.Target.Year)); err != nil {
		return "", fmt.Errorf("client folder: %w", err)
	}
	p, err := startProcess(cdir, args, nil, nil, stderr) // a client's stdout (often every message it sent) goes to the null device
	if err != nil {
		return "", err
	}
	if err := p.wait(ctx); err != nil {
		if ctx.Err() != nil {
			return stderr.Text(), ctx.Err()
		}
		return stderr.Text(), &clientExit{detail: p.exitDetail("client " + args[0]), err: err}
	}
	return stderr.Text(), nil
}

// stageConfig writes the config and the files it names into dir, under
// the names the config uses, so that a server started in dir finds them
// (ds-server resolves them against its working directory).
func stageConfig(src sources.Source, cfg *mocksrv.Config, dir string) error {
	read := src.ReadBeside
	data, err := read(filepath.Base(src.Path))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.xml"), data, 0o644); err != nil {
		return err
	}
	for _, name := range []string{cfg.JobFile, cfg.FailureFile} {
		if name == "" || filepath.IsAbs(name) {
			continue
		}
		data, err := read(name)
		if err != nil {
			return fmt.Errorf("stage %s for the server: %w", name, err)
		}
		dst := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func oneLine(s string) string {
	return string(bytes.ReplaceAll(bytes.TrimSpace([]byte(s)), []byte("\n"), []byte(" | ")))
}

// SetTransform records the source's transform in the result's columns.
func (r *Result) SetTransform(s sources.Source) {
	if s.Base == "" {
		return
	}
	r.Base = s.Base
	if t := s.Transform; t.HasArrival {
		r.ArrivalFactor = &t.ArrivalFactor
	}
	if t := s.Transform; t.HasInaccuracy {
		r.Inaccuracy = &t.Inaccuracy
	}
}

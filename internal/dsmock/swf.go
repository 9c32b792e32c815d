package dsmock

import (
	"cmp"
	"errors"
	"fmt"
	"io"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// loadSWF converts the --swf trace (package mocksrv/swf) in memory: its
// jobs, on the <server> elements of the -c config when one is given (or
// of the spec's servers=), else on servers derived from the trace.
// ds-server has no such option: give it the files dsswf writes. What the
// conversion left out (cancelled jobs, jobs no server holds) is said on
// stderr, as dsswf reports it; stdout stays ds-server's.
func loadSWF(st settings, stderr io.Writer) (*mocksrv.Config, error) {
	if st.load.FailureGiven {
		// The trace's config lives in memory, where a failure trace on disk
		// is not found; refusing beats running without the failures.
		return nil, errors.New("--swf: -f cannot be combined with a trace; write the files with dsswf and add failureFile to the config")
	}
	p, o, err := swf.ParseSpec(st.swf)
	if err != nil {
		return nil, err
	}
	if err := refuseSWF(st, o); err != nil {
		return nil, err
	}
	if o.Servers == "" {
		o.Servers = st.config // (warned about as -c's config is)
	} else {
		for _, w := range swf.ServerWarnings(o.Servers) {
			fmt.Fprintln(stderr, "dsmock: warning:", w)
		}
	}
	w, err := swf.LoadFile(p, o)
	if err != nil {
		return nil, err
	}
	for _, n := range w.Notes() {
		fmt.Fprintf(stderr, "dsmock: --swf %s: %s\n", p, n)
	}
	return w.Config, nil
}

// refuseSWF refuses the spec options and -c configs that mean nothing or
// contradict each other with --swf (dsmock's own option, so no ds-server
// command line is refused): two sources of servers, a job file name for
// a conversion that writes none, and a servers config (-c's or
// servers=) whose failures the trace's run would silently drop (as -f is
// refused).
func refuseSWF(st settings, o swf.Options) error {
	if o.Servers != "" && st.config != "" {
		return fmt.Errorf("--swf: servers=%s and -c %s both give the servers; give one of them", o.Servers, st.config)
	}
	if o.JobFile != "" {
		// As dsbench refuses it (harness/swf.go).
		return fmt.Errorf("--swf: job-file=%s names the job file dsswf writes; dsmock --swf writes none (it converts the trace in memory): leave it out", o.JobFile)
	}
	if servers := cmp.Or(st.config, o.Servers); servers != "" {
		if err := swf.FailuresLeftBehind(servers); err != nil {
			return fmt.Errorf("--swf: %w", err)
		}
	}
	return nil
}

// swfServersConfig is the config whose <server> elements --swf runs the trace
// on: -c's or the spec's servers= (refuseSWF refuses both at once), ""
// for servers derived from the trace.
func swfServersConfig(st settings) string {
	if st.config != "" {
		return st.config
	}
	_, o, _ := swf.ParseSpec(st.swf) // parsed without error by then (loadSWF)
	return o.Servers
}

// swfIgnored lists what --swf leaves without effect: -r, -j and -d (the
// trace gives the jobs, in a config of its own), -l (the servers come
// from the servers config or the trace), and the settings of the servers
// config (-c's or servers=) that would count in a run of it
// (swf.RunSetup.Ignored).
func swfIgnored(st settings) []string {
	var out []string
	for _, o := range []struct {
		name  string
		given bool
		v     int
	}{{"-r", st.load.SeedGiven, st.load.Seed}, {"-j", st.load.JobCountGiven, st.load.JobCount}, {"-d", st.load.EndTimeGiven, st.load.EndTime}} {
		if o.given {
			out = append(out, fmt.Sprintf("%s %d has no effect: --swf runs the trace's jobs", o.name, o.v))
		}
	}
	servers := swfServersConfig(st)
	if st.load.LimitGiven {
		on := "servers derived from the trace"
		if servers != "" {
			on = servers + "'s <server> elements"
		}
		out = append(out, fmt.Sprintf("-l %d has no effect: --swf runs the trace on %s", st.load.Limit, on))
	}
	if servers != "" {
		out = append(out, swf.RunSetup{Newline: st.newline, MemFail: st.memFail != mocksrv.MemFailOff}.Ignored(servers, "--swf")...)
	}
	return out
}

package dsmock

import (
	"errors"
	"fmt"
	"io"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// loadSWF converts the --swf trace (package mocksrv/swf) in memory: its
// jobs, on the <server> elements of the -c config when one is given (and
// the spec names no servers= of its own), else on servers derived from
// the trace. ds-server has no such option: give it the files dsswf writes.
// What the conversion left out (cancelled jobs, jobs no server holds) is
// said on stderr, as dsswf reports it; stdout stays ds-server's.
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

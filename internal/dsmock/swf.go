package dsmock

import (
	"errors"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// loadSWF converts the --swf trace (package mocksrv/swf) in memory: its
// jobs, on the <server> elements of the -c config when one is given (and
// the spec names no servers= of its own), else on servers derived from
// the trace. ds-server has no such option: give it the files dsswf writes.
func loadSWF(st settings) (*mocksrv.Config, error) {
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
		o.Servers = st.config
	}
	w, err := swf.LoadFile(p, o)
	if err != nil {
		return nil, err
	}
	return w.Config, nil
}

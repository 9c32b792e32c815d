package dsbench

import (
	"fmt"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// transform parses --arrival-factor and --inaccuracy and expands the
// sources; out-of-range values and a server binary (which cannot be given a
// derived job list) are usage errors.
func (c *cliConfig) transform(srcs []sources.Source) ([]sources.Source, error) {
	afs, err := sources.ParseSweep("--arrival-factor", c.arrival, sources.CheckArrivalFactor)
	if err != nil {
		return nil, err
	}
	incs, err := sources.ParseSweep("--inaccuracy", c.inacc, sources.CheckInaccuracy)
	if err != nil {
		return nil, err
	}
	if (len(afs) > 0 || len(incs) > 0) && c.server != "" && c.server != bench.ServerDsmock {
		return nil, fmt.Errorf("--arrival-factor and --inaccuracy derive job lists for the built-in simulator: run in-process or with --server dsmock, not %s", c.server)
	}
	return sources.Expand(srcs, afs, incs), nil
}

// sourcesOrGenerated is sourcesOrReplay000 with the --memwork sweep added
// first (alone, with any --replay000, when no config is named).
func sourcesOrGenerated(replay, mem string, args []string) ([]sources.Source, error) {
	if mem == "" {
		return sourcesOrReplay000(replay, args)
	}
	out, err := sources.Memwork(mem)
	if err != nil || (len(args) == 0 && replay == "") {
		return out, err
	}
	if replay == "" {
		more, err := sources.Resolve(args)
		return append(out, more...), err
	}
	more, err := sourcesOrReplay000(replay, args)
	return append(out, more...), err
}

// checkMemFail refuses, before any run, --mem-fail with a config whose
// jobs carry no actMemory (or an invalid one), naming the config.
func checkMemFail(srcs []sources.Source, m mocksrv.MemFailModel) error {
	if m == mocksrv.MemFailOff {
		return nil
	}
	for _, s := range srcs {
		cfg, err := s.Load()
		if err != nil {
			return fmt.Errorf("config %s: %w", s.Name, err)
		}
		if err := mocksrv.CheckMemExt(cfg, m); err != nil {
			return fmt.Errorf("--mem-fail: config %s: %w", s.Name, err)
		}
	}
	return nil
}

// sourcesOrReplay000 is sources.Resolve, with the --replay000 sweep added (and
// alone when no config is named, instead of the embedded suite).
func sourcesOrReplay000(spec string, args []string) ([]sources.Source, error) {
	if spec == "" {
		return sources.Resolve(args)
	}
	out, err := sources.Replay000(spec)
	if err != nil || len(args) == 0 {
		return out, err
	}
	more, err := sources.Resolve(args)
	return append(out, more...), err
}

// swfRun is what a trace's run under t has in place of its servers
// config's own settings (swf.RunSetup.Ignored).
func swfRun(t bench.Target) swf.RunSetup {
	return swf.RunSetup{Newline: t.Newline, MemFail: t.MemFail != mocksrv.MemFailOff}
}

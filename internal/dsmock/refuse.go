package dsmock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// refuseLoaded refuses, once the config is loaded and before listening,
// what dsmock's own options cannot do with it: the memory extension
// without the job file it needs, and combinations of a dsmock extension
// that mean nothing. ds-server has none of these options, so a refusal
// changes nothing a ds-server command line does; running on would leave
// the user believing the option counted.
func refuseLoaded(st settings, cfg *mocksrv.Config) error {
	if st.limits.given != "" && !st.serve {
		return fmt.Errorf("%s bounds --serve's sessions: without --serve dsmock runs one, as ds-server does", st.limits.given)
	}
	if st.memFail != mocksrv.MemFailOff {
		if err := mocksrv.CheckMemExt(cfg, st.memFail); err != nil {
			return fmt.Errorf("--mem-fail: %w", err)
		}
	}
	if st.writeActual && !cfg.Generated {
		// ds-jobs.xml is written only for generated jobs (ds-server.md §1.8).
		from := "the jobs come from the config's job file " + cfg.JobFile
		if st.swf != "" {
			from = "--swf runs the trace's jobs"
		}
		return errors.New("--write-actual: no ds-jobs.xml is written to put actRunTime in: " + from + " (ds-jobs.xml is written only for generated jobs)")
	}
	if st.load.FailureGiven && cfg.FailureFile != "" {
		// -f named a trace (dsmock's extension; ds-server takes models
		// only): its failure times are given, -g and -s shape a model's.
		for _, g := range []struct {
			opt   string
			given bool
			v     int
		}{{"-g", st.load.GrainGiven, st.load.Grain}, {"-s", st.load.ScaleGiven, st.load.Scale}} {
			if g.given {
				return fmt.Errorf("%s %d: -f %s is a failure trace, whose failures are given; -g and -s apply to a failure model only (%s)",
					g.opt, g.v, st.load.Failure, strings.Join(simconfig.FailureModelNames(), " "))
			}
		}
	}
	return nil
}

// laterSeedWarnings name the -r options after the first: ds-server seeds
// with the first and ignores the rest (ds-server.md §8).
func laterSeedWarnings(st settings) []string {
	var out []string
	for _, r := range st.laterSeeds {
		out = append(out, "-r "+strconv.Itoa(r)+" has no effect: only the first -r counts, as in ds-server")
	}
	return out
}

package sources

import (
	"testing/fstest"

	"github.com/dssim-go/dssim-go/strategies/provisioning/replay000"
)

// Replay000 returns the seed-000 replays of a sweep spec (see
// replay000.ParseSweep), one Source each, generated in memory: dsbench
// --replay000 "seeds=0-499,pmax=5,estimate=mean|oracle".
func Replay000(spec string) ([]Source, error) {
	opts, err := replay000.ParseSweep(spec)
	if err != nil {
		return nil, err
	}
	fsys := fstest.MapFS{}
	out := make([]Source, 0, len(opts))
	for _, o := range opts {
		cfg, jobs, err := replay000.Files(o)
		if err != nil {
			return nil, err
		}
		name := o.String()
		fsys[name+"/config.xml"] = &fstest.MapFile{Data: cfg}
		fsys[name+"/jobs.xml"] = &fstest.MapFile{Data: jobs}
		out = append(out, Source{Name: name, Path: name + "/config.xml", FS: fsys})
	}
	return out, nil
}

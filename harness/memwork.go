package harness

import (
	"fmt"
	"testing/fstest"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/memwork"
)

// MemworkSources are the memory-extension workloads of a sweep spec (see
// memwork.ParseSweep), one Source per point, generated in memory: dsbench
// --memwork "seeds=1,f=1/32|1/8|1" (with --mem-fail hard to switch the
// extension on). Each file carries the workload's parameters in a comment
// (estimation.md Part F).
func MemworkSources(spec string) ([]Source, error) {
	pts, err := memwork.ParseSweep(spec)
	if err != nil {
		return nil, err
	}
	fsys := fstest.MapFS{}
	out := make([]Source, 0, len(pts))
	for _, pt := range pts {
		cfg, jobs, err := memwork.Files(pt)
		if err != nil {
			return nil, err
		}
		name := pt.String()
		fsys[name+"/config.xml"] = &fstest.MapFile{Data: cfg}
		fsys[name+"/jobs.xml"] = &fstest.MapFile{Data: jobs}
		out = append(out, Source{Name: name, Path: name + "/config.xml", FS: fsys})
	}
	return out, nil
}

// sourcesOrGenerated is sourcesOrReplay000 with the --memwork sweep added
// first (alone, with any --replay000, when no config is named).
func sourcesOrGenerated(replay, mem string, args []string) ([]Source, error) {
	if mem == "" {
		return sourcesOrReplay000(replay, args)
	}
	out, err := MemworkSources(mem)
	if err != nil || (len(args) == 0 && replay == "") {
		return out, err
	}
	if replay == "" {
		more, err := Sources(args)
		return append(out, more...), err
	}
	more, err := sourcesOrReplay000(replay, args)
	return append(out, more...), err
}

// checkMemFail refuses, before any run, --mem-fail with a config whose
// jobs carry no actMemory (or an invalid one), naming the config.
func checkMemFail(sources []Source, m mocksrv.MemFailModel) error {
	if m == mocksrv.MemFailOff {
		return nil
	}
	for _, s := range sources {
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

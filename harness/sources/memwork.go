package sources

import (
	"fmt"
	"testing/fstest"

	"github.com/dssim-go/dssim-go/mocksrv/memwork"
)

// Memwork returns the memory-extension workloads of a sweep spec (see
// memwork.ParseSweep), one Source per point, generated in memory: dsbench
// --memwork "seeds=1,f=1/32|1/8|1" (with --mem-fail hard to switch the
// extension on). Each file carries the workload's parameters in a comment
// (estimation.md Part F).
func Memwork(spec string) ([]Source, error) {
	pts, err := memwork.ParseSweep(spec)
	if err != nil {
		return nil, err
	}
	return generated(pts, memwork.Files)
}

// generated is one Source per point, named by the point, its config and
// job file made by files and served from memory (NAME/config.xml beside
// NAME/jobs.xml, which the config names).
func generated[P fmt.Stringer](pts []P, files func(P) (cfg, jobs []byte, err error)) ([]Source, error) {
	fsys := fstest.MapFS{}
	out := make([]Source, 0, len(pts))
	for _, pt := range pts {
		cfg, jobs, err := files(pt)
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

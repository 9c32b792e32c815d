package sources

import (
	"github.com/dssim-go/dssim-go/harness/corpus"
)

// Corpus returns the configs of a generated corpus spec (package
// harness/corpus), one Source each, served from memory: dsbench --corpus
// "seed=2,all*25". Each row is named as writecorpus names its file
// (tiny-007 for tiny-007.xml), and a config whose estimates are not
// ds-sim's own finds its job file (jobs/NAME.xml) beside it in the same
// FS, so the sweep's fingerprint hashes it and a --server binary is given
// it, as for the folder writecorpus writes. A bad spec is corpus's own
// error, naming the item.
func Corpus(spec string) ([]Source, error) {
	cs, err := corpus.Generate(spec)
	if err != nil {
		return nil, err
	}
	fsys := corpus.FS(cs)
	out := make([]Source, 0, len(cs))
	for _, c := range cs {
		out = append(out, Source{Name: c.Name, Path: c.Path(), FS: fsys})
	}
	return out, nil
}

package dsbench

import (
	"cmp"
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

// corpusFlag is --corpus: a generated corpus's spec (package
// harness/corpus), remembered as given even when empty, so that
// --corpus "" is refused as a spec naming no class rather than read as
// no flag (which would run the embedded suite instead).
type corpusFlag struct {
	spec string
	set  bool
}

func (f *corpusFlag) String() string { return f.spec }
func (f *corpusFlag) Type() string   { return "string" }
func (f *corpusFlag) Set(v string) error {
	f.spec, f.set = v, true
	return nil
}

// inputs are the sweep's configs: the generated ones first (--memwork,
// --replay000, --corpus, in that order), then the configs named, or the
// embedded suite when nothing is named or generated. A bad spec is refused
// here, before any run; so are two rows of one name (a --corpus config
// and the same config written by writecorpus and named too, say).
func (c *cliConfig) inputs(args []string) ([]sources.Source, error) {
	var out []sources.Source
	var from []string // where each row comes from, for the duplicate's message
	add := func(srcs []sources.Source, flag string) {
		for _, s := range srcs {
			out = append(out, s)
			from = append(from, cmp.Or(flag, s.Path))
		}
	}
	// The generators, in their order; a corpus spec's error names its item
	// but not the flag, the sweeps' name theirs.
	gens := []struct {
		flag, prefix string
		on           bool
		make         func() ([]sources.Source, error)
	}{
		{"--memwork", "", c.memwork != "", func() ([]sources.Source, error) { return sources.Memwork(c.memwork) }},
		{"--replay000", "", c.replay000 != "", func() ([]sources.Source, error) { return sources.Replay000(c.replay000) }},
		{"--corpus", "--corpus: ", c.corpus.set, func() ([]sources.Source, error) { return sources.Corpus(c.corpus.spec) }},
	}
	generated := false
	for _, g := range gens {
		if !g.on {
			continue
		}
		srcs, err := g.make()
		if err != nil {
			return nil, fmt.Errorf("%s%w", g.prefix, err)
		}
		add(srcs, g.flag)
		generated = true
	}
	if len(args) > 0 || !generated {
		srcs, err := sources.Resolve(args)
		if err != nil {
			return nil, err
		}
		add(srcs, "")
	}
	seen := map[string]int{}
	for i, s := range out {
		if j, dup := seen[s.Name]; dup {
			return nil, fmt.Errorf("two configs are both named %q (%s and %s): rename one", s.Name, from[j], from[i])
		}
		seen[s.Name] = i
	}
	return out, nil
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

// swfRun is what a trace's run under t has in place of its servers
// config's own settings (swf.RunSetup.Ignored).
func swfRun(t bench.Target) swf.RunSetup {
	return swf.RunSetup{Newline: t.Newline, MemFail: t.MemFail != mocksrv.MemFailOff}
}

package shard

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// Merged is a whole sweep rebuilt from its pieces.
type Merged struct {
	Fingerprint Fingerprint
	Results     []bench.Result // in Runs order
	Elapsed     time.Duration
	Shards      int
	Note        string // what the report's reader should know, or ""
}

// Merge reads the pieces of one sweep and puts their runs back in
// Runs order. It refuses pieces of different sweeps, a shard given twice,
// missing shards (naming them) and pieces whose runs are not their shard's.
func Merge(files []string) (Merged, error) {
	var m Merged
	if len(files) == 0 {
		return m, fmt.Errorf("no piece given (dsbench merge PIECE.json...)")
	}
	from := map[int]string{}          // shard number → file
	timeouts := map[string][]string{} // --timeout → files
	var first string
	var all []pieceRun
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return m, err
		}
		p, err := ParsePiece(f, data)
		if err != nil {
			return m, err
		}
		sh, err := bench.ParseShard(p.Shard)
		if err != nil {
			return m, fmt.Errorf("%s: %v", f, err)
		}
		if first == "" {
			first, m.Fingerprint, m.Shards = f, p.Sweep, sh.N
		} else if err := SameSweep(first, m.Fingerprint, f, p.Sweep); err != nil {
			return m, err
		}
		if sh.N != m.Shards {
			return m, fmt.Errorf("%s is shard %s but %s is one of %d shards: pieces of different splits", f, sh, first, m.Shards)
		}
		if prev, dup := from[sh.I]; dup {
			return m, fmt.Errorf("shard %s given twice: %s and %s", sh, prev, f)
		}
		from[sh.I] = f
		if err := checkPieceRuns(f, sh, m.Fingerprint, p.Runs); err != nil {
			return m, err
		}
		m.Elapsed += p.Elapsed
		timeouts[p.Sweep.Target.Timeout] = append(timeouts[p.Sweep.Target.Timeout], f)
		all = append(all, p.Runs...)
	}
	var missing []string
	for i := 1; i <= m.Shards; i++ {
		if _, ok := from[i]; !ok {
			missing = append(missing, bench.Shard{I: i, N: m.Shards}.String())
		}
	}
	if len(missing) > 0 {
		word := "shard"
		if len(missing) > 1 {
			word = "shards"
		}
		return m, fmt.Errorf("missing %s %s of the sweep (have %d of %d pieces)", word, strings.Join(missing, ", "), len(from), m.Shards)
	}
	m.Note = timeoutNote(timeouts)
	m.Results = make([]bench.Result, len(m.Fingerprint.Configs)*len(m.Fingerprint.Columns))
	for _, pr := range all {
		m.Results[pr.Index] = pr.Result
	}
	return m, nil
}

// checkPieceRuns checks that a piece holds exactly its shard's runs, each
// the config and column the run order puts at its index.
func checkPieceRuns(file string, sh bench.Shard, sw Fingerprint, runs []pieceRun) error {
	cols := len(sw.Columns)
	total := len(sw.Configs) * cols
	want := 0
	for k := 0; k < total; k++ {
		if sh.Has(k, cols) {
			want++
		}
	}
	if len(runs) != want {
		return fmt.Errorf("%s: shard %s of this sweep has %d runs, the file holds %d", file, sh, want, len(runs))
	}
	seen := map[int]bool{}
	for _, pr := range runs {
		k := pr.Index
		if k < 0 || k >= total || !sh.Has(k, cols) || seen[k] {
			return fmt.Errorf("%s: run index %d is not one of shard %s's runs (or given twice)", file, k, sh)
		}
		seen[k] = true
		cfg, col := sw.Configs[k/cols].Name, sw.Columns[k%cols]
		if pr.Config != cfg || pr.Variant != col {
			return fmt.Errorf("%s: run %d is %s on %s, the sweep has %s on %s there", file, k, pr.Variant, pr.Config, col, cfg)
		}
	}
	return nil
}

// SameSweep names the first part of the fingerprint where two pieces
// differ. The timeout is not compared: it changes no finished run's
// result, only whether a run finished, and a run that timed out is a run
// without a result in either piece (its reason names its timeout), so a
// straggler shard can be run again with a longer one.
func SameSweep(fa string, a Fingerprint, fb string, b Fingerprint) error {
	a.Target.Timeout, b.Target.Timeout = "", ""
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) == string(jb) {
		return nil
	}
	var ma, mb map[string]json.RawMessage
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	what := "the sweep differs"
	va, vb := "", ""
	for _, k := range []string{"dsbench_version", "strategies", "target", "objective", "baselines", "configs"} {
		if string(ma[k]) != string(mb[k]) {
			what, va, vb = k+map[bool]string{true: " differ", false: " differs"}[strings.HasSuffix(k, "s")], string(ma[k]), string(mb[k])
			break
		}
	}
	if strings.HasPrefix(what, "configs") {
		if err := configSetDiff(fa, a.Configs, fb, b.Configs); err != nil {
			return err
		}
		what, va, vb = configDiff(a.Configs, b.Configs)
	}
	return fmt.Errorf("%s and %s are pieces of different sweeps: %s (%s in %s, %s in %s)",
		fa, fb, what, clip(va), fa, clip(vb), fb)
}

// configSetDiff refuses pieces whose configs are not the same set, saying
// which are in one only, or the same set in another order: the run list,
// and so each shard's slice of it, follows the order of the configs, so
// pieces of two orders hold some runs twice and miss others.
func configSetDiff(fa string, a []FingerprintConfig, fb string, b []FingerprintConfig) error {
	names := func(cs []FingerprintConfig) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	na, nb := names(a), names(b)
	onlyA, onlyB := missingFrom(na, nb), missingFrom(nb, na)
	if len(onlyA)+len(onlyB) > 0 {
		return fmt.Errorf("%s and %s are pieces of different sweeps: the sets of configs differ (only in %s: %s; only in %s: %s)",
			fa, fb, fa, clip(orNone(onlyA)), fb, clip(orNone(onlyB)))
	}
	for i := range na {
		if na[i] != nb[i] {
			return fmt.Errorf("%s and %s: the shards were given the configs in different orders (config %d is %s in %s, %s in %s); give them in the same order: each shard's runs follow it",
				fa, fb, i+1, na[i], fa, nb[i], fb)
		}
	}
	return nil
}

// missingFrom lists the names of a that b lacks, in a's order.
func missingFrom(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// configDiff describes the first config that differs (the pieces have
// the same configs in the same order: configSetDiff).
func configDiff(a, b []FingerprintConfig) (string, string, string) {
	for i := range max(len(a), len(b)) {
		switch {
		case i >= len(a):
			return "configs differ", "no config " + fmt.Sprint(i+1), b[i].Name
		case i >= len(b):
			return "configs differ", a[i].Name, "no config " + fmt.Sprint(i+1)
		case a[i].SHA256 != b[i].SHA256:
			return "the files of config " + a[i].Name + " differ", "sha256 " + prefix(a[i].SHA256, 12), "sha256 " + prefix(b[i].SHA256, 12)
		}
	}
	return "config transforms differ", "", ""
}

// timeoutNote says, when the pieces ran with different --timeout values,
// which, so that the merged report's runs that timed out are read with it.
func timeoutNote(timeouts map[string][]string) string {
	if len(timeouts) < 2 {
		return ""
	}
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(timeouts)) {
		parts = append(parts, t+" in "+strings.Join(timeouts[t], ", "))
	}
	return "the pieces ran with different --timeout values (" + strings.Join(parts, "; ") + "); a run that timed out is a run without a result, its reason naming its timeout"
}

func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}

// TimelineRun rebuilds the single run a timeline plot draws from the
// sweep, when its config can be found again unchanged; else why not.
func (sw Fingerprint) TimelineRun() (*bench.Run, error) {
	if len(sw.Configs) != 1 || len(sw.Columns) != 1 || sw.Target.Client != "" {
		return nil, nil
	}
	sc := sw.Configs[0]
	src := sources.Source{Name: sc.Name, Path: sc.Path, Base: sc.Base}
	if sc.Embedded {
		i := slices.IndexFunc(sources.Suite(), func(s sources.Source) bool { return s.Name == sc.Name && s.Path == sc.Path })
		if i < 0 {
			return nil, fmt.Errorf("config %s is not in the embedded suite", sc.Name)
		}
		src = sources.Suite()[i]
	}
	if sc.ArrivalFactor != nil || sc.Inaccuracy != nil {
		src.Base = sc.Base
		src.Transform = sources.Transform{HasArrival: sc.ArrivalFactor != nil, HasInaccuracy: sc.Inaccuracy != nil}
		if sc.ArrivalFactor != nil {
			src.Transform.ArrivalFactor = *sc.ArrivalFactor
		}
		if sc.Inaccuracy != nil {
			src.Transform.Inaccuracy = *sc.Inaccuracy
		}
	}
	if sourceDigest(src) != sc.SHA256 {
		return nil, fmt.Errorf("config %s (%s) is not here as it was in the sweep", sc.Name, sc.Path)
	}
	vs, err := columns.ParseVariants([]string{sw.Columns[0]})
	if err != nil || len(vs) != 1 {
		return nil, fmt.Errorf("strategy %s: %v", sw.Columns[0], err)
	}
	return &bench.Run{Source: src, Variant: &vs[0]}, nil
}

package corpus_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/corpus"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	_ "github.com/dssim-go/dssim-go/strategies/baselines"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

func generate(t *testing.T, spec string) []corpus.Config {
	t.Helper()
	cs, err := corpus.Generate(spec)
	require.NoError(t, err, spec)
	return cs
}

// digest is the SHA-256 of every file of the configs, in order.
func digest(cs []corpus.Config) string {
	h := sha256.New()
	for _, c := range cs {
		fmt.Fprintf(h, "%s\n%s\n%s\n%s\n", c.Name, c.XML, c.JobFile, c.Jobs)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// The same spec gives the same files, byte for byte; another seed other
// files; and a config does not depend on what else the spec asks for.
func TestSameSeedSameConfigs(t *testing.T) {
	a := generate(t, "seed=5,all*2")
	b := generate(t, "seed=5,all*2")
	require.Equal(t, len(a), len(b))
	for i := range a {
		assert.Equal(t, a[i].Name, b[i].Name)
		assert.True(t, bytes.Equal(a[i].XML, b[i].XML), a[i].Name)
		assert.True(t, bytes.Equal(a[i].Jobs, b[i].Jobs), a[i].Name)
	}
	other := generate(t, "seed=6,all*2")
	for i := range a {
		assert.NotEqual(t, string(a[i].XML), string(other[i].XML), a[i].Name)
	}
	alone := generate(t, "seed=5,tiny*2")
	require.Len(t, alone, 2)
	i := slices.IndexFunc(a, func(c corpus.Config) bool { return c.Name == "tiny-002" })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, string(a[i].XML), string(alone[1].XML), "tiny-002 alone and among every class")
}

// The files of a fixed spec, pinned: the generator's output must not
// change with the Go version or the machine (it draws from PCG's raw
// output and computes in whole numbers). A change to the generator that
// is meant changes this digest, and docs/corpus.md's figures with it.
func TestFilesPinned(t *testing.T) {
	assert.Equal(t, "b67651e46e02d69a46e6b438c33755ede28026f44784036828a64b9e31a38ac6",
		digest(generate(t, "seed=1,all:jobs=20-300")))
}

// Every class is produced, in the canonical order, named CLASS-NNN, and
// each config shows what its class is about.
func TestEveryClassProduced(t *testing.T) {
	cs := generate(t, "seed=3,all*4:jobs=20-400")
	var names []string
	for _, c := range corpus.Classes() {
		for i := 1; i <= 4; i++ {
			names = append(names, fmt.Sprintf("%s-%03d", c.Name, i))
		}
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Name)
	}
	require.Equal(t, names, got)
	for _, c := range cs {
		p := c.Params
		assert.Equal(t, p.Class, strings.Split(c.Name, "-")[0])
		assert.GreaterOrEqual(t, len(p.Types), 2, c.Name)
		factors := make([]int, len(p.Types))
		for i, ty := range p.Types {
			factors[i] = ty.Permille
		}
		switch p.Class {
		case "uniform", "slowboot", "estimate", "failure":
			assert.Equal(t, "uniform", p.Price, c.Name)
			for _, f := range factors {
				assert.Equal(t, 1000, f, c.Name)
			}
		case "scale":
			assert.True(t, slices.IsSortedFunc(factors, func(a, b int) int { return b - a }), "%s: %v", c.Name, factors)
			assert.Less(t, factors[len(factors)-1], factors[0], c.Name)
		case "premium":
			assert.Greater(t, factors[0], 1000, c.Name)
			assert.Equal(t, 1000, factors[len(factors)-1], c.Name)
		case "discount":
			for _, f := range factors {
				assert.True(t, f >= 500 && f <= 1000, c.Name)
			}
		}
		for _, ty := range p.Types {
			switch p.Class {
			case "slowboot":
				assert.True(t, ty.Boot >= 150 && ty.Boot <= 300, c.Name)
			case "tiny":
				assert.LessOrEqual(t, ty.Limit, 2, c.Name)
			}
		}
		assert.Equal(t, p.Class == "estimate", c.JobFile != "", c.Name)
		assert.Equal(t, p.Class == "failure", p.Failure != "none", c.Name)
		assert.Equal(t, p.Failure != "none", strings.Contains(string(c.XML), `failureModel="`+p.Failure+`"`), c.Name)
		if p.Class == "tiny" {
			assert.GreaterOrEqual(t, p.MinLoad, 70, c.Name)
		}
	}
	big := generate(t, "large*2")
	for _, c := range big {
		assert.True(t, c.Params.Jobs >= 5000 && c.Params.Jobs <= 20000, c.Name)
	}
}

// A setting narrows a dimension for every config of the class; load 100
// is ds-sim's 99–100 (minLoad at most 99).
func TestSettingsNarrow(t *testing.T) {
	cs := generate(t, "seed=4,tiny*6:jobs=30:load=100:boot=7:limit=3:types=4:price=premium:runs=mixed,estimate*3:estimate=exact:failure=pl05")
	for _, c := range cs {
		p := c.Params
		if p.Class == "tiny" {
			assert.Equal(t, 30, p.Jobs)
			assert.Equal(t, [2]int{99, 100}, [2]int{p.MinLoad, p.MaxLoad})
			assert.Equal(t, "premium", p.Price)
			assert.Equal(t, "mixed", p.Runs)
			require.Len(t, p.Types, 4)
			sum := 0
			for _, j := range p.JobTypes {
				sum += j.Population
				assert.Positive(t, j.Population)
			}
			assert.Equal(t, 100, sum)
			for _, ty := range p.Types {
				assert.Equal(t, [2]int{7, 3}, [2]int{ty.Boot, ty.Limit})
			}
			continue
		}
		assert.Equal(t, "exact", p.Estimate)
		assert.Equal(t, "pl05", p.Failure)
	}
}

// The estimate models: each job's estimate against its actual runtime.
func TestEstimateModels(t *testing.T) {
	for _, tc := range []struct {
		model string
		ok    func(est, act int) bool
	}{
		{"exact", func(e, a int) bool { return e == a }},
		{"over", func(e, a int) bool { return e >= a && e <= 4*a }},
		{"noisy", func(e, a int) bool { return e >= max(1, a/4) && e <= 4*a }},
		{"dssim", func(e, a int) bool { return e >= 1 && e <= 2*a-1 }},
	} {
		cs := generate(t, "seed=8,estimate*2:jobs=300:estimate="+tc.model)
		for _, c := range cs {
			cfg := load(t, c)
			below, above := 0, 0
			for _, j := range cfg.Jobs {
				assert.True(t, tc.ok(j.EstRunTime, j.ActRunTime), "%s %s: est %d act %d", tc.model, c.Name, j.EstRunTime, j.ActRunTime)
				below += btoi(j.EstRunTime < j.ActRunTime)
				above += btoi(j.EstRunTime > j.ActRunTime)
			}
			n := len(cfg.Jobs)
			switch tc.model {
			case "noisy", "dssim": // both ways, about evenly
				assert.InDelta(t, 0.5, float64(below)/float64(n), 0.1, c.Name)
				assert.InDelta(t, 0.5, float64(above)/float64(n), 0.1, c.Name)
			case "over":
				assert.Greater(t, above, n*9/10, c.Name)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func load(t *testing.T, c corpus.Config) *simconfig.Config {
	t.Helper()
	cfg, err := simconfig.ParseConfig(c.Path(), c.XML, simconfig.LoadOptions{FS: corpus.FS([]corpus.Config{c})})
	require.NoError(t, err, c.Name)
	return cfg
}

// Written to a folder, every config loads from the disk as a user's
// simulator would find it (the job file beside it, in jobs/), with as
// many jobs as the config asks for (or fewer, when the 30 days of
// ds-server's end time stop the generation first), and runs to the end
// (every job run) in-process with a baseline: ffq, the reference client's queue variant,
// which completes runs with failures too. Job counts are kept small;
// large is run with 5,000 jobs unless -short.
func TestConfigsLoadAndRun(t *testing.T) {
	spec := "seed=9,all*2:jobs=20-400,large*1:jobs=5000"
	if testing.Short() {
		spec = "seed=9,all:jobs=20-200"
	}
	cs := generate(t, spec)
	dir := t.TempDir()
	require.NoError(t, corpus.WriteDir(dir, cs))
	for _, c := range cs {
		path := filepath.Join(dir, c.Path())
		cfg, err := simconfig.LoadConfig(path, simconfig.LoadOptions{BaseDir: dir})
		require.NoError(t, err, c.Name)
		require.NotEmpty(t, cfg.Jobs, c.Name)
		assert.LessOrEqual(t, len(cfg.Jobs), c.Params.Jobs, c.Name)
		m, err := strattest.RunNamed(path, "ffq", nil)
		require.NoError(t, err, c.Name)
		assert.Zero(t, m.Unscheduled, "%s: every job ran", c.Name)
		// The report counts the jobs of the servers it counts (a server
		// whose jobs all failed and left is not: ds-server.md §6.2).
		assert.True(t, m.Jobs > 0 && m.Jobs <= len(cfg.Jobs), "%s: %d jobs reported of %d", c.Name, m.Jobs, len(cfg.Jobs))
	}
	files, err := fs.Glob(corpus.FS(cs), "jobs/*.xml")
	require.NoError(t, err)
	assert.NotEmpty(t, files)
}

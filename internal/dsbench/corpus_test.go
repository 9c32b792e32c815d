package dsbench

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/corpus"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/shard"
	"github.com/dssim-go/dssim-go/harness/sources"
)

// A small corpus with a job file (estimate-001's estimates are not
// ds-sim's own): three tiny clusters and an estimate config of 30 jobs.
const smallCorpus = "seed=3,tiny*3,estimate:jobs=30"

// TestMainCorpus: --corpus runs a generated corpus, each config a row
// named as writecorpus names its file, with the configs named beside it;
// a bad spec is refused before any run (exit 2, nothing on stdout), naming
// --corpus and the item.
func TestMainCorpus(t *testing.T) {
	written := t.TempDir()
	cs, err := corpus.Generate("seed=3,small*1")
	require.NoError(t, err)
	require.NoError(t, corpus.WriteDir(written, cs))
	for _, tc := range []struct {
		name string
		args []string
		code int
		rows []string // config column of the CSV, in order (a good run)
		msg  string   // stderr (a refusal)
	}{
		{name: "good spec", args: []string{"--corpus", smallCorpus},
			rows: []string{"tiny-001", "tiny-002", "tiny-003", "estimate-001"}},
		{name: "with a config folder", args: []string{"--corpus", "seed=3,tiny*1", written},
			rows: []string{"tiny-001", "small-001"}},
		{name: "bad count", args: []string{"--corpus", "seed=3,tiny*0"}, code: ExitUsage,
			msg: `dsbench: --corpus: corpus spec item 2 "tiny*0": count "0" of class tiny: want a whole number 1 … 1000`},
		{name: "bad setting", args: []string{"--corpus", "tiny*3:jobs=0"}, code: ExitUsage,
			msg: `dsbench: --corpus: corpus spec item 1 "tiny*3:jobs=0": jobs=0: want a whole number or a range LO-HI within 1 … 1000000`},
		{name: "unknown class", args: []string{"--corpus", "seed=1,huge*2"}, code: ExitUsage,
			msg: `dsbench: --corpus: corpus spec item 2 "huge*2": unknown class "huge"`},
		{name: "empty spec", args: []string{"--corpus", ""}, code: ExitUsage,
			msg: `dsbench: --corpus: corpus spec item 1 is empty`},
		{name: "a row twice", args: []string{"--corpus", "seed=3,small*1", written}, code: ExitUsage,
			msg: `two configs are both named "small-001" (--corpus and ` + filepath.Join(written, "small-001.xml") + `): rename one`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report.csv")
			code, stdout, stderr := runMain(append([]string{"-a", "ff,ffq", "-b", "ff", "--progress", "never", "--out", out}, tc.args...)...)
			require.Equal(t, tc.code, code, stderr)
			if tc.code != ExitOK {
				assert.Contains(t, stderr, tc.msg)
				assert.Empty(t, stdout)
				assert.NoFileExists(t, out, "refused before any run: no report")
				return
			}
			var rows []string
			for _, line := range strings.Split(strings.TrimSpace(mustRead(t, out)), "\n")[1:] {
				cells := strings.Split(line, ",")
				require.Equal(t, "ok", cells[2], line)
				if cells[1] == "ff" {
					rows = append(rows, cells[0])
				}
			}
			assert.Equal(t, tc.rows, rows)
		})
	}
}

// The corpus in memory is the files writecorpus writes: the same report,
// byte for byte (wall times fixed), job file included, when the files are
// named in the corpus's order (class by class, as writecorpus lists them;
// a folder's configs are sorted by name).
func TestCorpusEqualsWrittenFolder(t *testing.T) {
	fixedWall(t)
	dir := t.TempDir()
	cs, err := corpus.Generate(smallCorpus)
	require.NoError(t, err)
	require.NoError(t, corpus.WriteDir(dir, cs))
	args := []string{"-a", "ff,cost-reduce", "-b", "ff", "-f", "json", "--progress", "never"}
	files := args
	for _, c := range cs {
		files = append(files, filepath.Join(dir, c.Path()))
	}
	code, fromFiles, stderr := runMain(files...)
	require.Equal(t, ExitOK, code, stderr)
	code, inMemory, stderr := runMain(append(args, "--corpus", smallCorpus)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, fromFiles, inMemory)
}

// --shard and merge work with --corpus: the merge of 3 shards is the
// unsharded run, byte for byte in JSON; pieces of another seed (configs
// of the same names, other files) are refused.
func TestCorpusShardMergeEqualsUnsharded(t *testing.T) {
	fixedWall(t)
	args := []string{"-a", "ff,bf,cost-reduce", "-b", "ff", "--corpus", smallCorpus}
	pieces := writeShards(t, 3, args...)
	code, want, stderr := runMain(append(args, "-f", "json", "--progress", "never")...)
	require.Equal(t, ExitOK, code, stderr)
	code, got, stderr := runMain(append([]string{"merge", "-f", "json"}, pieces...)...)
	require.Equal(t, ExitOK, code, stderr)
	assert.Equal(t, want, got)

	other := writeShards(t, 3, "-a", "ff,bf,cost-reduce", "-b", "ff", "--corpus", strings.Replace(smallCorpus, "seed=3", "seed=4", 1))
	code, _, stderr = runMain("merge", pieces[0], pieces[1], other[2])
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "the files of config tiny-001")
}

// The sweep's fingerprint hashes a corpus config's job file: the same
// config with other estimates in jobs/NAME.xml is another sweep.
func TestCorpusFingerprintCoversJobFile(t *testing.T) {
	srcs, err := sources.Corpus("seed=3,estimate:jobs=30")
	require.NoError(t, err)
	require.Len(t, srcs, 1)
	cfg, err := srcs[0].Load()
	require.NoError(t, err)
	require.Equal(t, "jobs/estimate-001.xml", cfg.JobFile, "the estimate class writes a job file")

	mem, ok := srcs[0].FS.(fstest.MapFS)
	require.True(t, ok, "corpus.FS is a MapFS")
	changed := maps.Clone(mem)
	jobs := string(changed[cfg.JobFile].Data)
	i := strings.Index(jobs, `estRunTime="`) + len(`estRunTime="`)
	require.Greater(t, i, len(`estRunTime="`), "a job with an estimate")
	changed[cfg.JobFile] = &fstest.MapFile{Data: []byte(jobs[:i] + "1" + jobs[i:])} // another estimate
	other := srcs[0]
	other.FS = changed
	_, err = other.Load()
	require.NoError(t, err)

	digest := func(s sources.Source) string {
		return shard.FingerprintOf(&bench.Bench{Sources: []sources.Source{s}}, report.Measure(0), nil).Configs[0].SHA256
	}
	assert.NotEqual(t, digest(srcs[0]), digest(other))
	assert.Equal(t, digest(srcs[0]), digest(srcs[0]))
}

// A --server binary is given a corpus config's job file: the run over TCP
// against dsmock's binary has the in-process run's summary.
func TestCorpusServerBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dsmock")
	}
	bin := buildCmd(t, "cmd/dsmock")
	args := []string{"-a", "ff", "-b", "ff", "-f", "csv", "--progress", "never", "--corpus", "seed=3,estimate:jobs=30"}
	code, inProcess, stderr := runMain(args...)
	require.Equal(t, ExitOK, code, stderr)
	code, overTCP, stderr := runMain(append(args, "--server", bin)...)
	require.Equal(t, ExitOK, code, stderr)
	summary := func(csv string) []string {
		lines := strings.Split(strings.TrimSpace(csv), "\n")
		require.Len(t, lines, 2, csv)
		return strings.Split(lines[1], ",")[:10] // config … total_cost
	}
	assert.Equal(t, summary(inProcess), summary(overTCP))
	assert.Equal(t, []string{"estimate-001", "ff", "ok"}, summary(overTCP)[:3])
}

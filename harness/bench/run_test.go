package bench

import (
	"bufio"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// reference reads ../shared/dssim/reference-results.tsv: the reference
// server and client's numbers per (config, algorithm).
func reference(t *testing.T) map[[2]string]Summary {
	f, err := os.Open(filepath.Join(fixtures.Dir(t), "reference-results.tsv"))
	require.NoError(t, err)
	defer f.Close()
	out := map[[2]string]Summary{}
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		require.Len(t, c, 12, sc.Text())
		n := func(i int) int { v, err := strconv.Atoi(c[i]); require.NoError(t, err); return v }
		x := func(i int) float64 { v, err := strconv.ParseFloat(c[i], 64); require.NoError(t, err); return v }
		out[[2]string{c[0], c[1]}] = Summary{EndTime: n(2), Jobs: n(3), Failed: n(4), ServersUsed: n(5),
			AvgUtil: x(6), EfUsage: x(7), TotalCost: x(8), AvgWait: n(9), AvgExec: n(10), AvgTurnaround: n(11)}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out)
	return out
}

func checkAgainstReference(t *testing.T, ref map[[2]string]Summary, results []Result, algoOf func(Result) string) {
	t.Helper()
	for _, r := range results {
		want, ok := ref[[2]string{r.Config, algoOf(r)}]
		require.True(t, ok, "no reference for %s %s", r.Config, algoOf(r))
		if assert.Equal(t, StatusOK, r.Status, "%s %s: %s", r.Config, r.Variant, r.Err) {
			assert.Equal(t, want, r.Summary, "%s %s", r.Config, r.Variant)
		}
	}
}

// In-process, every shared fixture with the 2024/25 baselines reproduces
// the reference numbers (the queue variants on the failure fixture, where
// only they finish).
func TestInProcessReproducesReference(t *testing.T) {
	ref := reference(t)
	srcs := fixtureSources(t)
	require.Len(t, srcs, 29)
	var plain, failures []sources.Source
	for _, s := range srcs {
		if s.Name == "ds-sample-config05-failures" {
			failures = append(failures, s)
		} else {
			plain = append(plain, s)
		}
	}
	vs, err := columns.ParseVariants([]string{"atl,ff,bf,fc,fafc"})
	require.NoError(t, err)
	b := &Bench{Sources: plain, Variants: vs}
	res := b.Run(context.Background())
	require.Len(t, res, len(plain)*5)
	checkAgainstReference(t, ref, res, func(r Result) string { return r.Variant })

	vs, err = columns.ParseVariants([]string{"ffq,bfq,wfq"})
	require.NoError(t, err)
	b = &Bench{Sources: failures, Variants: vs}
	checkAgainstReference(t, ref, b.Run(context.Background()), func(r Result) string { return r.Variant })
}

// The course-harness path: an external client process (the project's own
// dsclient running ffq) on every shared fixture, against the built-in
// simulator over TCP, reproduces the reference numbers.
func TestExternalClientReproducesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dsclient and runs 29 TCP simulations")
	}
	ref := reference(t)
	dsclient := buildCmd(t, "cmd/dsclient")
	b := &Bench{
		Sources: fixtureSources(t),
		Target:  Target{Client: dsclient + " -a ffq -p {port} --user root", ClientLabel: "ffq-process", ClientDir: t.TempDir(), Timeout: 2 * time.Minute},
	}
	res := b.Run(context.Background())
	require.Len(t, res, 29)
	checkAgainstReference(t, ref, res, func(Result) string { return "ffq" })

	// A client that cannot be told its port connects to ds-server's default,
	// 50000: the runs then take turns on it.
	b = &Bench{
		Sources: fixtureSources(t, "sample-config01", "ds-sample-config02"),
		Target:  Target{Client: dsclient + " -a fafc --user root", ClientDir: t.TempDir(), Timeout: time.Minute},
	}
	checkAgainstReference(t, ref, b.Run(context.Background()), func(Result) string { return "fafc" })
}

// The project's strategies over TCP: the built-in simulator served as
// dsmock serves it, and the dsmock binary launched per run in newline mode.
func TestTCPTargetsReproduceReference(t *testing.T) {
	ref := reference(t)
	srcs := fixtureSources(t, "sample-config01", "ds-sample-config02", "config20-med-med")
	vs, err := columns.ParseVariants([]string{"ff,bf,fafc"})
	require.NoError(t, err)
	var wrapped atomic.Int32 // both ends of every run go through WrapConn
	wrap := func(c net.Conn) net.Conn { wrapped.Add(1); return c }
	b := &Bench{Sources: srcs, Variants: vs, Target: Target{Server: ServerDsmock, WrapConn: wrap}}
	checkAgainstReference(t, ref, b.Run(context.Background()), func(r Result) string { return r.Variant })
	assert.Equal(t, int32(2*len(srcs)*len(vs)), wrapped.Load())

	if testing.Short() {
		return
	}
	dsmock := buildCmd(t, "cmd/dsmock")
	b.Target = Target{Server: dsmock, Newline: true, Timeout: time.Minute}
	res := b.Run(context.Background())
	checkAgainstReference(t, ref, res, func(r Result) string { return r.Variant })
	for _, r := range res {
		assert.Equal(t, "2-Apr, 2026 @ MQ", r.ServerVersion, "the binary's year, from its log")
	}
	// A server binary of the other year: dsmock as the 2025 ds-server,
	// whose GETS records carry no rate; the same results.
	script := filepath.Join(t.TempDir(), "ds-server-2025")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexec "+dsmock+" --year 2025 \"$@\"\n"), 0o755))
	b.Target = Target{Server: script, Timeout: time.Minute}
	res = b.Run(context.Background())
	checkAgainstReference(t, ref, res, func(r Result) string { return r.Variant })
	for _, r := range res {
		assert.Equal(t, "4-Apr, 2025 @ MQ - client-server", r.ServerVersion)
	}
}

// A client that never answers is killed after the timeout and reported;
// a config that fails validation is reported in its row; the other runs
// go on.
func TestBadRunsAreReportedAndOthersGoOn(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xml")
	require.NoError(t, os.WriteFile(bad, []byte(`<config><servers>`+
		`<server type="a" limit="1" bootupTime="0" hourlyRate="0.1" cores="0" memory="1000" disk="1000" />`+
		`</servers></config>`), 0o644))
	srcs := append(fixtureSources(t, "sample-config01"), sources.Source{Name: "bad", Path: bad})

	vs, err := columns.ParseVariants([]string{"ff"})
	require.NoError(t, err)
	b := &Bench{Sources: srcs, Variants: vs, Target: Target{Client: "sleep 30", ClientLabel: "sleeper", ClientDir: t.TempDir(), Timeout: time.Second}}
	start := time.Now()
	res := b.Run(context.Background())
	assert.Less(t, time.Since(start), 20*time.Second, "the sleeping client must be killed at its timeout")
	byKey := map[string]Result{}
	for _, r := range res {
		byKey[r.Config+"/"+r.Variant] = r
	}
	assert.Equal(t, StatusOK, byKey["sample-config01/ff"].Status)
	assert.Equal(t, StatusTimeout, byKey["sample-config01/sleeper"].Status)
	assert.Contains(t, byKey["sample-config01/sleeper"].Err, "no result within 1s")
	for _, col := range []string{"ff", "sleeper"} {
		r := byKey["bad/"+col]
		assert.Equal(t, StatusInvalidConfig, r.Status)
		assert.Contains(t, r.Err, "cores")
		assert.Contains(t, r.Err, "Out of bound! (1 - 1024)")
	}

	// A client that exits at once without connecting is an error naming it.
	b.Target = Target{Client: "false", ClientLabel: "quitter", ClientDir: t.TempDir(), Timeout: 10 * time.Second}
	res = b.Run(context.Background())
	for _, r := range res {
		if r.Config == "sample-config01" && r.Variant == "quitter" {
			assert.Equal(t, StatusError, r.Status)
			assert.Contains(t, r.Err, "client false")
		}
	}
}

type pusher struct{ strategies.IgnoreEvents }

func (pusher) Job(strategies.View, protocol.Job) ([]protocol.Action, error) {
	return []protocol.Action{protocol.Push{}}, nil
}

// A strategy that pushes every job back forever is stopped at its timeout
// in-process too.
func TestInProcessTimeout(t *testing.T) {
	cfg, err := fixtureSources(t, "sample-config01")[0].Load()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	out := runInProcess(ctx, cfg, func() (strategies.Strategy, error) { return pusher{}, nil }, Target{}, nil)
	assert.ErrorIs(t, out.err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
	var r Result
	r.fill(out, 300*time.Millisecond)
	assert.Equal(t, StatusTimeout, r.Status)
}

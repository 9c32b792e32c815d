package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

func init() {
	strategies.Register(strategies.Info{Name: "test-hop", Summary: "test: profits from ds-server.md §6.2 once",
		New: func(strategies.Params) (strategies.Strategy, error) { return &hop{}, nil }})
}

// hop profits from ds-server's accounting once: the first job it finds
// running alone on a server moves (MIGJ, a restart) to an off server of the
// same type, the source is TERMinated, and no job goes there again, so
// ds-server never bills the source (§6.2). Every job goes to the first
// capable server other than the source.
type hop struct {
	strategies.IgnoreEvents
	src *protocol.ServerRef
}

func (h *hop) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	var acts []protocol.Action
	if h.src == nil {
		all, err := v.GetsAll()
		if err != nil {
			return nil, err
		}
		for _, s := range all {
			if s.State != protocol.Active || s.Running != 1 || s.Waiting != 0 || h.src != nil {
				continue
			}
			recs, err := v.ListJobs(s.Ref())
			if err != nil {
				return nil, err
			}
			for _, to := range all {
				if to.Type == s.Type && to.State == protocol.Inactive {
					src := s.Ref()
					h.src = &src
					acts = append(acts, protocol.Migrate{JobID: recs[0].ID, From: src, To: to.Ref()}, protocol.Terminate{Server: src})
					break
				}
			}
		}
	}
	recs, err := v.GetsCapable(j.Req())
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if (h.src == nil || r.Ref() != *h.src) && !slices.Contains(v.Excluded(), r.Ref()) {
			return append(acts, protocol.Schedule{JobID: j.ID, Server: r.Ref()}), nil
		}
	}
	return nil, strategies.ErrNoServer
}

// The cost ds-server's report leaves out reaches dsbench's outputs from
// dsmock, in-process and over TCP: a run that profits from §6.2 shows it
// (table section, CSV column, JSON), one that does not shows 0 in the CSV
// and no section.
func TestUnbilledReported(t *testing.T) {
	srcs := fixtureSources(t, "config20-short-low")
	vs, err := columns.ParseVariants([]string{"test-hop,ff"})
	require.NoError(t, err)
	for _, target := range []bench.Target{{}, {Server: bench.ServerDsmock}} {
		b := &bench.Bench{Sources: srcs, Variants: vs, Target: target}
		res := b.Run(context.Background())
		require.Len(t, res, 2)
		byCol := map[string]bench.Result{}
		for _, r := range res {
			require.Equal(t, bench.StatusOK, r.Status, "%s: %s", r.Variant, r.Err)
			byCol[r.Variant] = r
		}
		hopped, ff := byCol["test-hop"], byCol["ff"]
		require.NotNil(t, hopped.Unbilled, "server %q", target.Server)
		assert.Equal(t, 1, hopped.Unbilled.Servers)
		assert.Positive(t, hopped.Unbilled.Seconds)
		assert.Greater(t, hopped.Unbilled.Cost, 0.0)
		require.NotNil(t, ff.Unbilled)
		assert.Equal(t, mocksrv.Unbilled{}, *ff.Unbilled, "ff neither migrates nor kills")

		out := Output{Results: res, Comparison: Compare(res, []string{"config20-short-low"}, []string{"test-hop", "ff"}, nil, Cost)}
		var tb bytes.Buffer
		require.NoError(t, out.Write(&tb, FormatTable))
		assert.Contains(t, tb.String(), "Cost ds-server's report leaves out")
		assert.Regexp(t, `config20-short-low\s+test-hop\s+1\s+\d+\s+\$\d+\.\d\d\s+\d+\.\d\d%`, tb.String())
		assert.NotRegexp(t, `config20-short-low\s+ff\s+\d+\s+\d+\s+\$`, tb.String())

		var cb bytes.Buffer
		require.NoError(t, out.Write(&cb, FormatCSV))
		recs, err := csv.NewReader(&cb).ReadAll()
		require.NoError(t, err)
		col := slices.Index(recs[0], "unbilled_cost")
		require.Positive(t, col)
		for _, rec := range recs[1:] {
			if rec[1] == "ff" {
				assert.Equal(t, "0.0000", rec[col])
			} else {
				assert.NotEqual(t, "0.0000", rec[col])
			}
		}
	}
	// Another server says nothing of it: no figure, an empty CSV cell.
	r := bench.Result{Status: bench.StatusOK}
	assert.Equal(t, "", unbilledCell(r))
}

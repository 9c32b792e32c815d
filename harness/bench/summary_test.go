package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/columns"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/strategies"
)

// printed gives the value of the "%.2f" text, as ParseSummary reads it:
// exact ties round to even as in C, float32 residue does not leak, and
// NaN (printed "-nan", unparsable) reads as 0.
func TestPrinted(t *testing.T) {
	for _, c := range []struct {
		in   float32
		want float64
	}{
		{0, 0}, {0.125, 0.12}, {0.375, 0.38}, {2.675, 2.67}, {12.345, 12.35}, {0.005, 0},
		{99.995, 100}, {-1.5, -1.5}, {float32(math.Inf(1)), math.Inf(1)}, {float32(math.NaN()), 0},
	} {
		assert.Equal(t, c.want, printed(c.in), "%v", c.in)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		v := math.Float32frombits(r.Uint32())
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			continue
		}
		want, err := strconv.ParseFloat(fmt.Sprintf("%.2f", v), 64)
		require.NoError(t, err)
		require.Equal(t, want, printed(v), "%v", v)
		small := float32(r.Float64() * 100000)
		want, _ = strconv.ParseFloat(fmt.Sprintf("%.2f", small), 64)
		require.Equal(t, want, printed(small), "%v", small)
	}
}

// quitAfter schedules like its inner strategy, then fails at job n: the
// loop sends QUIT with jobs left unscheduled.
type quitAfter struct {
	strategies.Strategy
	n int
}

func (q *quitAfter) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	if q.n--; q.n < 0 {
		return nil, errors.New("enough")
	}
	return q.Strategy.Job(v, j)
}

// The typed numbers of an in-process run are those of the report's text
// and of the stderr line, which a server process leaves: on every fixture,
// for a run to the end and for one that quits with jobs left.
func TestSummaryOfMatchesTheText(t *testing.T) {
	vs, err := columns.ParseVariants([]string{"ff,bf,wf,ffq"})
	require.NoError(t, err)
	sawUnscheduled := false
	for _, src := range fixtureSources(t) {
		cfg, err := src.Load()
		require.NoError(t, err)
		for _, v := range vs {
			for _, quit := range []int{-1, 7} {
				s, err := v.New()
				require.NoError(t, err)
				if quit >= 0 {
					s = &quitAfter{s, quit}
				}
				var stderr bytes.Buffer
				sess, _ := Simulate(context.Background(), cfg, s, mocksrv.Options{Stderr: &stderr}, "root")
				require.NotNil(t, sess)
				rep := sess.Report()
				require.NotNil(t, rep, "%s %s", src.Name, v.Label())
				text, err := ParseSummary(rep.Text)
				require.NoError(t, err)
				assert.Equal(t, text, SummaryOf(rep), "%s %s quit %d", src.Name, v.Label(), quit)
				assert.Equal(t, Unscheduled(stderr.String()), rep.Unscheduled, "%s %s quit %d", src.Name, v.Label(), quit)
				sawUnscheduled = sawUnscheduled || rep.Unscheduled > 0
			}
		}
	}
	assert.True(t, sawUnscheduled, "no run left jobs unscheduled: the count was not checked")
}

// An in-process run that never reaches QUIT has no summary and says why.
func TestInProcessWithoutQuit(t *testing.T) {
	var r Result
	r.fill(runOutput{typed: &typedOutput{summaryErr: errNoQuit}}, 0)
	assert.Equal(t, StatusNoResult, r.Status)
	assert.Equal(t, errNoQuit.Error(), r.Err)
}

func TestParseSummary(t *testing.T) {
	out := "# ds-sim server ...\n" +
		"# ==================================== [ Summary ] ====================================\n" +
		"# actual simulation end time: 1778, #jobs: 10 (failed 0 times)\n" +
		"# total #servers used: 5, avg util: 100.00% (ef. usage: 99.50%), total cost: $0.69\n" +
		"# avg waiting time: 35, avg exec time: 728, avg turnaround time: 763\n"
	s, err := ParseSummary(out)
	require.NoError(t, err)
	assert.Equal(t, Summary{EndTime: 1778, Jobs: 10, ServersUsed: 5, AvgUtil: 100, EfUsage: 99.5,
		TotalCost: 0.69, AvgWait: 35, AvgExec: 728, AvgTurnaround: 763}, s)

	_, err = ParseSummary(strings.Replace(out, "avg util", "util", 1))
	assert.ErrorContains(t, err, "is not a ds-server summary line")
	_, err = ParseSummary("one line\n")
	assert.ErrorContains(t, err, "no summary")

	assert.Equal(t, 3, Unscheduled("3 jobs not scheduled!\n"))
	assert.Equal(t, 0, Unscheduled("something else\n"))
}

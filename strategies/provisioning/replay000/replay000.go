// Package replay000 generates the provisioning thesis's replay
// (docs/provisioning.md) as ds-sim inputs: one homogeneous server type (1 core, limit p_max, boot
// 25 s, 1 $/h) and a job file of 1-core jobs drawn from the thesis's
// arrival generator (§5.1.1) with Exp(1,200 s) service times, the
// estimate either the mean (as in the thesis) or the actual runtime (an
// oracle). Every job shares the 7 am deadline, 82,800 s after 8 am.
//
// The random numbers come from math/rand/v2's PCG seeded with the stream
// seed: the streams are reproducible here, not the thesis's own.
package replay000

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The thesis's constants (A.1.4, D.1).
const (
	Deadline    = 82800 // completion deadline d = 92 × 900 s (7 am)
	SubmitEnd   = 57600 // submission deadline u = 64 × 900 s (midnight)
	MeanService = 1200  // Exp mean service time (s)
	BaseMean    = 480   // the generator's base inter-arrival mean at p_max = 5
	BootupTime  = 25    // r1 of the TIO/Condor prototype
)

// Options are one replay's knobs: the arrival stream's seed, p_max (the
// server limit; the load scales as BaseMean × 5/p_max, D.1) and the
// estimate: the mean (false) or the actual runtime (true).
type Options struct {
	Seed   uint64
	PMax   int
	Oracle bool
	// Limit is the number of servers when it differs from p_max (0 = p_max):
	// a static pool of p servers under the p_max = 5 load is PMax 5, Limit p.
	Limit int
}

// servers is the server limit of the replay.
func (o Options) servers() int {
	if o.Limit > 0 {
		return o.Limit
	}
	return o.PMax
}

// Job is one generated job.
type Job struct {
	Submit, Act, Est int
}

// scale is a(x) = 2.0 − 1.04167·10⁻⁴·x + 1.80845·10⁻⁹·x².
func scale(x float64) float64 { return 2.0 - 1.04167e-4*x + 1.80845e-9*x*x }

// Arrivals is the §5.1.1 generator: x ← 0; repeat { z ~ Exp(mean);
// x ← x + z·a(x); stop (discarding the draw) once x > 57,600 }.
func Arrivals(r *rand.Rand, mean float64) []float64 {
	var out []float64
	for x := 0.0; ; {
		x += r.ExpFloat64() * mean * scale(x)
		if x > SubmitEnd {
			return out
		}
		out = append(out, x)
	}
}

// Generate draws one replay's jobs: arrivals first, then one service time
// per job in order (actRunTime = max(1, round(Exp(1200)))).
func Generate(o Options) ([]Job, error) {
	if o.PMax < 1 {
		return nil, fmt.Errorf("replay000: pmax=%d: want an integer ≥ 1", o.PMax)
	}
	if o.Limit < 0 {
		return nil, fmt.Errorf("replay000: limit=%d: want an integer ≥ 0", o.Limit)
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x000000c0ffee000))
	xs := Arrivals(r, BaseMean*5/float64(o.PMax))
	jobs := make([]Job, len(xs))
	for i, x := range xs {
		act := max(1, int(math.Round(r.ExpFloat64()*MeanService)))
		est := MeanService
		if o.Oracle {
			est = act
		}
		jobs[i] = Job{Submit: int(math.Floor(x)), Act: act, Est: est}
	}
	return jobs, nil
}

// Files returns the replay as ds-sim inputs: "config.xml" naming
// "jobs.xml" beside it.
func Files(o Options) (config, jobs []byte, err error) {
	js, err := Generate(o)
	if err != nil {
		return nil, nil, err
	}
	var c strings.Builder
	fmt.Fprintf(&c, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- the provisioning thesis's replay: %s -->\n", o)
	fmt.Fprintf(&c, "<config randomSeed=\"%d\">\n  <servers>\n", o.Seed%1000000+1)
	fmt.Fprintf(&c, "    <server type=\"node\" limit=\"%d\" bootupTime=\"%d\" hourlyRate=\"1\" cores=\"1\" memory=\"1000\" disk=\"1000\" />\n", o.servers(), BootupTime)
	c.WriteString("  </servers>\n  <jobs file=\"jobs.xml\" />\n</config>\n")
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<jobs>\n")
	b.WriteString("  <type name=\"exp\" minRunTime=\"1\" maxRunTime=\"100000\" populationRate=\"100\" />\n")
	for i, j := range js {
		b.WriteString("  <job id=\"" + strconv.Itoa(i) + "\" type=\"exp\" submitTime=\"" + strconv.Itoa(j.Submit) +
			"\" estRunTime=\"" + strconv.Itoa(j.Est) + "\" actRunTime=\"" + strconv.Itoa(j.Act) +
			"\" cores=\"1\" memory=\"100\" disk=\"100\" />\n")
	}
	b.WriteString("</jobs>\n")
	return []byte(c.String()), b.Bytes(), nil
}

// String names the replay: "replay000-s<seed>-p<pmax>-<mean|oracle>[-l<limit>]".
func (o Options) String() string {
	est := "mean"
	if o.Oracle {
		est = "oracle"
	}
	name := fmt.Sprintf("replay000-s%d-p%d-%s", o.Seed, o.PMax, est)
	if o.Limit > 0 {
		name += "-l" + strconv.Itoa(o.Limit)
	}
	return name
}

// StaticLate is D.1's static-p check: p servers, each arrival in order to
// the server free first (lowest index on ties), FCFS; whether the last job
// ends after the deadline.
func StaticLate(jobs []Job, p int) bool {
	free := make([]int, p)
	last := 0
	for _, j := range jobs {
		i := 0
		for k := range free {
			if free[k] < free[i] {
				i = k
			}
		}
		start := max(j.Submit, free[i])
		free[i] = start + j.Act
		last = max(last, free[i])
	}
	return last > Deadline
}

package memwork

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Point is one run of a sweep: a workload and the small type's fraction.
type Point struct {
	Params Params
	F      float64
}

// String names the point: memwork-s<seed>-f<fraction> (a/b kept as a_b).
func (pt Point) String() string {
	return "memwork-s" + strconv.FormatUint(pt.Params.Seed, 10) + "-f" + fracName(pt.F)
}

// fracName writes f as 1_32 when it is 1/2^k (the study's values), else %g.
func fracName(f float64) string {
	for k := 0; k <= 20; k++ {
		if f == 1/math.Pow(2, float64(k)) {
			return "1_" + strconv.Itoa(1<<k)
		}
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Files are the point's configuration and job file (named jobs.xml beside
// it), each with the parameters in a comment (Part F).
func Files(pt Point) (config, jobs []byte, err error) {
	w, err := Generate(pt.Params)
	if err != nil {
		return nil, nil, err
	}
	note := pt.Params.String() + " f=" + strconv.FormatFloat(pt.F, 'g', -1, 64) +
		" small=" + itoa(pt.Params.Cluster.SmallMemory(pt.F))
	return ClusterXML(pt.Params.Cluster, pt.F, "jobs.xml", len(w.Jobs), note), JobsXML(w.Jobs, pt.Params.String()), nil
}

// DefaultFractions are the study's f: 1/32, 1/16, …, 1 (Part E item 3).
var DefaultFractions = []float64{1.0 / 32, 1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1}

// ParseSweep reads a sweep spec: comma-separated key=value over Defaults,
// e.g. "seeds=1-3,f=1/32|1/8|1,jobs=500,jitter=0.2". Keys: seeds (a or
// a-b), f (fractions in (0, 1], a/b or decimal, |-separated; default
// 1/32 … 1), and the Params keys of Params.String (jobs apps zipf over
// maxratio jitter collide load runmin runmax count cores M disk boot rate).
// Points come seed by seed, f ascending within a seed.
func ParseSweep(spec string) ([]Point, error) {
	p := Defaults()
	lo, hi := p.Seed, p.Seed
	fs := DefaultFractions
	for _, kv := range strings.Split(spec, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("memwork sweep %q: %q: want key=value", spec, kv)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		var err error
		switch k {
		case "seeds":
			lo, hi, err = seedRange(v)
		case "f":
			fs, err = fractions(v)
		default:
			err = p.set(k, v)
		}
		if err != nil {
			return nil, fmt.Errorf("memwork sweep %q: %s: %w", spec, k, err)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("memwork sweep %q: %w", spec, err)
	}
	if hi-lo >= 10000 || len(fs)*int(hi-lo+1) > 10000 {
		return nil, fmt.Errorf("memwork sweep %q: more than 10000 points", spec)
	}
	var out []Point
	for s := lo; ; s++ {
		q := p
		q.Seed = s
		for _, f := range fs {
			out = append(out, Point{Params: q, F: f})
		}
		if s == hi {
			break
		}
	}
	return out, nil
}

// set sets one Params key from its text.
func (p *Params) set(k, v string) error {
	ints := map[string]*int{"jobs": &p.Jobs, "apps": &p.Apps, "runmin": &p.RunMin, "runmax": &p.RunMax,
		"count": &p.Cluster.Count, "cores": &p.Cluster.Cores, "M": &p.Cluster.BigMemory, "disk": &p.Cluster.Disk,
		"boot": &p.Cluster.BootupTime}
	floats := map[string]*float64{"zipf": &p.Zipf, "over": &p.OverFrac, "maxratio": &p.MaxRatio, "jitter": &p.Jitter,
		"collide": &p.Collide, "load": &p.Load, "rate": &p.Cluster.HourlyRate}
	if ip, ok := ints[k]; ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%q: want a whole number", v)
		}
		*ip = n
		return nil
	}
	if fp, ok := floats[k]; ok {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%q: want a number", v)
		}
		*fp = x
		return nil
	}
	return fmt.Errorf("unknown key (want seeds, f, jobs, apps, zipf, over, maxratio, jitter, collide, load, runmin, runmax, count, cores, M, disk, boot or rate)")
}

// seedRange reads "a" or "a-b".
func seedRange(v string) (lo, hi uint64, err error) {
	a, b, isRange := strings.Cut(v, "-")
	lo, err = strconv.ParseUint(strings.TrimSpace(a), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("%q: want a seed or a range a-b", v)
	}
	hi = lo
	if isRange {
		if hi, err = strconv.ParseUint(strings.TrimSpace(b), 10, 64); err != nil || hi < lo {
			return 0, 0, fmt.Errorf("%q: want a range a-b with a ≤ b", v)
		}
	}
	return lo, hi, nil
}

// fractions reads "1/32|0.25|1": each in (0, 1].
func fractions(v string) ([]float64, error) {
	var out []float64
	for _, s := range strings.Split(v, "|") {
		s = strings.TrimSpace(s)
		var x float64
		var err error
		if a, b, ok := strings.Cut(s, "/"); ok {
			var n, d float64
			n, err = strconv.ParseFloat(a, 64)
			if err == nil {
				d, err = strconv.ParseFloat(b, 64)
			}
			x = n / d
		} else {
			x, err = strconv.ParseFloat(s, 64)
		}
		if err != nil || !(x > 0 && x <= 1) {
			return nil, fmt.Errorf("%q: want fractions in (0, 1] such as 1/32|0.25|1", s)
		}
		out = append(out, x)
	}
	return out, nil
}

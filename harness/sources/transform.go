package sources

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv"
)

// Workload transforms (libra.md Part E): the thesis's two workload knobs,
// applied by dsbench to a config's job list before the run, so the server
// (the built-in simulator) runs a derived workload. Both rules are project
// choices (the thesis states neither):
//
//   - arrival delay factor f: submit' = round(f·submit), halves away from
//     zero; the order is kept; lower f = heavier load;
//   - % inaccuracy x (0 = exact estimates, 100 = the file's own):
//     est' = max(1, round(act + (x/100)·(est − act))).
//
// A run with a transform needs the built-in simulator (in-process or
// --server dsmock): a server binary reads the config's own files.

// Transform is one point of the sweep. Zero value: no change.
type Transform struct {
	ArrivalFactor float64 // > 0; 0 means unset (1)
	Inaccuracy    float64 // percent in [0, 100]; used when HasInaccuracy
	HasArrival    bool
	HasInaccuracy bool
}

// Label is the transform's part of a row name, e.g. "af=0.5 inacc=25".
func (t Transform) Label() string {
	var parts []string
	if t.HasArrival {
		parts = append(parts, "af="+strconv.FormatFloat(t.ArrivalFactor, 'g', -1, 64))
	}
	if t.HasInaccuracy {
		parts = append(parts, "inacc="+strconv.FormatFloat(t.Inaccuracy, 'g', -1, 64))
	}
	return strings.Join(parts, " ")
}

// apply returns a copy of cfg with the derived job list (cfg is shared by
// concurrent runs and never changed).
func (t Transform) apply(cfg *mocksrv.Config) *mocksrv.Config {
	if !t.HasArrival && !t.HasInaccuracy {
		return cfg
	}
	out := *cfg
	out.Jobs = slices.Clone(cfg.Jobs)
	for i, j := range out.Jobs {
		if t.HasArrival {
			j.Submit = int(math.Round(t.ArrivalFactor * float64(j.Submit)))
		}
		if t.HasInaccuracy {
			est := float64(j.ActRunTime) + t.Inaccuracy/100*float64(j.EstRunTime-j.ActRunTime)
			j.EstRunTime = max(1, int(math.Round(est)))
		}
		out.Jobs[i] = j
	}
	return &out
}

// ParseSweep reads a comma-separated list of sweep values for flag; check
// says what is out of range.
func ParseSweep(flag string, values []string, check func(float64) error) ([]float64, error) {
	var out []float64
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%s %q: want a number", flag, s)
			}
			if err := check(x); err != nil {
				return nil, fmt.Errorf("%s %v: %v", flag, x, err)
			}
			out = append(out, x)
		}
	}
	return out, nil
}

// CheckArrivalFactor: the factor scales submit times, so it must be > 0
// (0 would release every job at once); 100 is a generous upper bound.
func CheckArrivalFactor(x float64) error {
	if x <= 0 || x > 100 {
		return fmt.Errorf("out of range: want an arrival delay factor in (0, 100]")
	}
	return nil
}

// CheckInaccuracy: 0 % is exact estimates, 100 % the file's own.
func CheckInaccuracy(x float64) error {
	if x < 0 || x > 100 {
		return fmt.Errorf("out of range: want a percentage in [0, 100]")
	}
	return nil
}

// Expand makes one source per config × arrival factor × inaccuracy (the
// cartesian product; an empty list is not a dimension). Row names get the
// transform's label: "config20-med-high af=0.5 inacc=25".
func Expand(sources []Source, arrival, inaccuracy []float64) []Source {
	if len(arrival) == 0 && len(inaccuracy) == 0 {
		return sources
	}
	afs, incs := []float64{math.NaN()}, []float64{math.NaN()}
	if len(arrival) > 0 {
		afs = arrival
	}
	if len(inaccuracy) > 0 {
		incs = inaccuracy
	}
	var out []Source
	for _, s := range sources {
		for _, af := range afs {
			for _, inc := range incs {
				t := Transform{ArrivalFactor: af, HasArrival: !math.IsNaN(af), Inaccuracy: inc, HasInaccuracy: !math.IsNaN(inc)}
				d := s
				d.Base, d.Transform = s.Name, t
				d.Name = s.Name + " " + t.Label()
				out = append(out, d)
			}
		}
	}
	return out
}

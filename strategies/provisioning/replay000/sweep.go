package replay000

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSweep reads a sweep of replays, "seeds=A-B,pmax=P,estimate=E":
// seeds a range (inclusive) or one number, pmax and estimate a
// '|'-separated list each (e.g. "seeds=0-499,pmax=5,estimate=mean|oracle").
// "limit=L" (a '|' list too) sets the server limit apart from p_max (static
// pools). Defaults: seeds=0-499, pmax=5, estimate=mean, limit = p_max. The
// result is every combination, seeds innermost.
func ParseSweep(spec string) ([]Options, error) {
	lo, hi := uint64(0), uint64(499)
	pmaxes, oracles, limits := []int{5}, []bool{false}, []int{0}
	for _, kv := range strings.Split(spec, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("replay000 sweep %q: %q: want key=value (seeds, pmax, limit, estimate)", spec, kv)
		}
		var err error
		switch strings.TrimSpace(k) {
		case "seeds":
			lo, hi, err = seedRange(v)
		case "pmax":
			pmaxes, err = intList(v)
		case "limit":
			limits, err = intList(v)
		case "estimate":
			oracles, err = estimates(v)
		default:
			err = fmt.Errorf("unknown key (want seeds, pmax, limit or estimate)")
		}
		if err != nil {
			return nil, fmt.Errorf("replay000 sweep %q: %s: %v", spec, strings.TrimSpace(k), err)
		}
	}
	if hi-lo >= 100000 {
		return nil, fmt.Errorf("replay000 sweep %q: seeds: at most 100000 replays", spec)
	}
	var out []Options
	for _, p := range pmaxes {
		for _, l := range limits {
			for _, o := range oracles {
				for s := lo; s <= hi; s++ {
					out = append(out, Options{Seed: s, PMax: p, Oracle: o, Limit: l})
				}
			}
		}
	}
	return out, nil
}

func seedRange(v string) (lo, hi uint64, err error) {
	a, b, isRange := strings.Cut(strings.TrimSpace(v), "-")
	if lo, err = strconv.ParseUint(strings.TrimSpace(a), 10, 64); err != nil {
		return 0, 0, fmt.Errorf("%q: want N or A-B", v)
	}
	hi = lo
	if isRange {
		if hi, err = strconv.ParseUint(strings.TrimSpace(b), 10, 64); err != nil || hi < lo {
			return 0, 0, fmt.Errorf("%q: want A-B with A ≤ B", v)
		}
	}
	return lo, hi, nil
}

func intList(v string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(v, "|") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 1000 {
			return nil, fmt.Errorf("%q: want integers in 1..1000 separated by |", v)
		}
		out = append(out, n)
	}
	return out, nil
}

func estimates(v string) ([]bool, error) {
	var out []bool
	for _, s := range strings.Split(v, "|") {
		switch strings.TrimSpace(s) {
		case "mean":
			out = append(out, false)
		case "oracle":
			out = append(out, true)
		default:
			return nil, fmt.Errorf("%q: want mean, oracle or mean|oracle", v)
		}
	}
	return out, nil
}

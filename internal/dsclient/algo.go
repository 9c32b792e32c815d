package dsclient

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dssim-go/dssim-go/strategies"
)

// strategySpec reads -a and --param into the strategy's name and settings.
// -a takes one spec of dsbench's grammar, read by the same tokeniser
// (strategies.ParseSweeps), "NAME" or "NAME:KEY=VALUE,KEY=VALUE", so that
// a spec copied from a dsbench command line runs the same strategy here:
// "-a NAME:k=v,k2=v2" means "-a NAME --param k=v --param k2=v2". What only
// dsbench can do, a sweep (several values for a key) or several
// strategies, is refused by name rather than reported as an unknown
// strategy or a malformed setting; so is a key given both in -a and with
// --param, which would leave one value unused.
func strategySpec(algo string, params []string) (string, map[string]string, error) {
	settings, err := strategies.ParseSettings(params)
	if err != nil {
		return "", nil, fmt.Errorf("--param: %v", err)
	}
	specs, err := strategies.ParseSweeps("-a", []string{algo})
	switch {
	case err != nil:
		return "", nil, err
	case len(specs) == 0: // -a "": strategies.New says it is no strategy
		return algo, settings, nil
	case len(specs) > 1:
		var names []string
		for _, s := range specs {
			names = append(names, s.Name)
		}
		return "", nil, fmt.Errorf("-a %q: dsclient runs one strategy, here %s (a list of strategies is for dsbench -a)", algo, strings.Join(names, " and "))
	}
	spec := specs[0]
	for _, k := range spec.Keys {
		if vs := spec.Vals[k]; len(vs) > 1 {
			return "", nil, fmt.Errorf("-a %q: %s has several values (%s), a sweep: dsclient runs one strategy with one value per parameter (sweeps are for dsbench -a)",
				algo, k, strings.Join(vs, ", "))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Vals)) {
		if v, dup := settings[k]; dup {
			return "", nil, fmt.Errorf("parameter %s given twice, in -a %q and as --param %s=%s: give it once", k, algo, k, v)
		}
		settings[k] = spec.Vals[k][0]
	}
	return spec.Name, settings, nil
}

package dsclient

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dssim-go/dssim-go/strategies"
)

// strategySpec reads -a and --param into the strategy's name and settings.
// -a takes one spec of dsbench's grammar (strategies.Spec), "NAME" or
// "NAME:KEY=VALUE,KEY=VALUE", so that a spec copied from a dsbench command
// line runs the same strategy here: "-a NAME:k=v,k2=v2" means "-a NAME
// --param k=v --param k2=v2". What only dsbench can do, a sweep (several
// values for a key) or several strategies, is refused by name rather than
// reported as an unknown strategy or a malformed setting; so is a key
// given both in -a and with --param, which would leave one value unused.
func strategySpec(algo string, params []string) (string, map[string]string, error) {
	settings, err := strategies.ParseSettings(params)
	if err != nil {
		return "", nil, fmt.Errorf("--param: %v", err)
	}
	spec, err := parseAlgo(algo)
	if err != nil {
		return "", nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Settings)) {
		if v, dup := settings[k]; dup {
			return "", nil, fmt.Errorf("parameter %s given twice, in -a %q and as --param %s=%s: give it once", k, algo, k, v)
		}
		settings[k] = spec.Settings[k]
	}
	return spec.Name, settings, nil
}

// parseAlgo parses -a's value (see strategySpec).
func parseAlgo(algo string) (strategies.Spec, error) {
	name, rest, hasColon := strategies.CutTop(algo, ':')
	if !hasColon {
		if parts, err := strategies.SplitTop(algo, ','); err == nil && len(parts) > 1 {
			return strategies.Spec{}, fmt.Errorf("-a %q: dsclient runs one strategy (a list of strategies is for dsbench -a)", algo)
		}
		// As written: strategies.New names an unknown one and the nearest.
		return strategies.Spec{Name: algo}, nil
	}
	// Unbalanced brackets are left to ParseSpec, which names their column.
	if toks, err := strategies.SplitTop(rest, ','); err == nil {
		if err := refuseSweep(algo, strings.TrimSpace(name), toks); err != nil {
			return strategies.Spec{}, err
		}
	}
	spec, err := strategies.ParseSpec(algo)
	if err != nil {
		return strategies.Spec{}, fmt.Errorf("-a: %v", err)
	}
	return spec, nil
}

// refuseSweep refuses the settings toks of -a when, read as dsbench reads
// them, they are a sweep (a bare value after "key=value" is another value
// of key) or start another strategy (a bare registered name).
func refuseSweep(algo, name string, toks []string) error {
	key := ""
	values := map[string][]string{}
	for _, tok := range toks {
		tok = strings.TrimSpace(tok)
		k, v, hasEq := strategies.CutTop(tok, '=')
		_, isName := strategies.Lookup(tok)
		switch {
		case tok == "" || (key == "" && !hasEq):
			continue // ParseSpec says what is wrong, with its column
		case hasEq:
			key = strings.TrimSpace(k)
			values[key] = append(values[key], strings.TrimSpace(v))
		case isName:
			return fmt.Errorf("-a %q: dsclient runs one strategy, here %s and %s (a list of strategies is for dsbench -a)", algo, name, tok)
		default:
			values[key] = append(values[key], tok)
			if len(values[key]) == 2 {
				return fmt.Errorf("-a %q: %s has several values (%s), a sweep: dsclient runs one strategy with one value per parameter (sweeps are for dsbench -a)",
					algo, key, strings.Join(values[key], ", "))
			}
		}
	}
	return nil
}

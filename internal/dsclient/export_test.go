package dsclient

import "github.com/spf13/pflag"

// StrategySpec is strategySpec, for the fuzz target.
var StrategySpec = strategySpec

// FlagSet is dsclient's flags, for the tests that check the usage line
// and README name every one.
func FlagSet() *pflag.FlagSet {
	var cfg config
	return flags(&cfg)
}

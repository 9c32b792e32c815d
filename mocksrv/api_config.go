package mocksrv

import (
	"github.com/dssim-go/dssim-go/mocksrv/model"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// The configuration layer lives in package simconfig, which knows nothing
// of the engine; these names keep the command lines and harness that load a
// config and hand it to this package on one import.
type (
	// Config is a loaded configuration (simconfig.Config).
	Config = simconfig.Config
	// LoadOptions are the loading flags (simconfig.LoadOptions).
	LoadOptions = simconfig.LoadOptions
	// ConfigError is a refused configuration (simconfig.ConfigError).
	ConfigError = simconfig.ConfigError
)

// Year is the ds-server release a simulation reproduces (model.Year):
// 2026, the default, sends the hourly rate in every GETS record; 2025 does
// not. Everything else is the same.
type Year = model.Year

// The years; the zero Year is DefaultYear (2026).
const (
	Year2025    = model.Year2025
	Year2026    = model.Year2026
	DefaultYear = model.DefaultYear
)

// ParseYear reads 2025 or 2026, refusing anything else with the accepted
// values (model.ParseYear).
func ParseYear(s string) (Year, error) { return model.ParseYear(s) }

// LoadConfig reads a configuration file (simconfig.LoadConfig).
func LoadConfig(path string, opt LoadOptions) (*Config, error) {
	return simconfig.LoadConfig(path, opt)
}

// RandomConfig is ds-server's no-configuration mode: a random system and
// workload from the -r seed, -l, -j and -d (simconfig.RandomConfig).
func RandomConfig(opt LoadOptions) (*Config, error) { return simconfig.RandomConfig(opt) }

// ParseConfig parses a configuration held in memory (simconfig.ParseConfig).
func ParseConfig(path string, data []byte, opt LoadOptions) (*Config, error) {
	return simconfig.ParseConfig(path, data, opt)
}

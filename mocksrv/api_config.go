package mocksrv

import "github.com/dssim-go/dssim-go/mocksrv/simconfig"

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

// Version is the ds-server version this package reproduces.
const Version = simconfig.Version

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

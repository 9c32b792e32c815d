package sources

import (
	"github.com/dssim-go/dssim-go/strategies/provisioning/replay000"
)

// Replay000 returns the seed-000 replays of a sweep spec (see
// replay000.ParseSweep), one Source each, generated in memory: dsbench
// --replay000 "seeds=0-499,pmax=5,estimate=mean|oracle".
func Replay000(spec string) ([]Source, error) {
	opts, err := replay000.ParseSweep(spec)
	if err != nil {
		return nil, err
	}
	return generated(opts, replay000.Files)
}

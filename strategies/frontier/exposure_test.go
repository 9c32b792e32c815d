package frontier

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/servertypes"
)

// exposed counts the exposure per type; its answer must be the walk's,
// which added every open kept server's hold cost in the order kept, also
// for a net within a few units in the last place of that sum, where the
// two sums can be on either side of it. Rates whose hold costs are not
// exact binary fractions, hundreds of servers interleaved across the
// types, some being powered off.
func TestExposedMatchesTheWalk(t *testing.T) {
	f, v := clusterOf(t, map[string]string{"weight": "10", "warm": "on"},
		servertypes.Type{Name: "a", Limit: 300, BootupTime: 67, HourlyRate: 0.37, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "b", Limit: 300, BootupTime: 113, HourlyRate: 1.13, Cores: 4, Memory: 16000, Disk: 64000},
		servertypes.Type{Name: "c", Limit: 300, BootupTime: 211, HourlyRate: 0.071, Cores: 1, Memory: 64000, Disk: 256000})
	f.perCoreSecond = 0.071 / 3600
	f.warm.offered(jb(0, 0, 3, 100))
	rng := rand.New(rand.NewPCG(3, 4))
	const now = 5000
	for trial := range 200 {
		f.warm.kept = newKeptSet()
		for _, typ := range []string{"a", "b", "c"} {
			for id := range 300 {
				if rng.IntN(3) == 0 {
					f.noteKept(mustMachine(t, v, ref(typ, id)), rng.IntN(now))
				}
			}
		}
		exposure, lost := 0.0, 0.0
		for _, k := range f.warm.kept.inOrder() { // the walk keep did (the ids drawn shuffle the types)
			if trial%2 == 1 && rng.IntN(10) == 0 {
				f.warm.kept.markOff(k)
				lost += k.idleUntil(now)
				continue
			}
			exposure += float64(f.hold(k.m)) * k.m.Type.HourlyRate / 3600
		}
		for _, net := range []float64{exposure, math.Nextafter(exposure, 0), math.Nextafter(exposure, 1e9),
			exposure * (1 - 1e-14), exposure * (1 + 1e-14), exposure * rng.Float64() * 2} {
			f.warm.net = net + lost // some of the nets with servers off: near the edge, not on it
			walkNet := f.warm.net
			for _, k := range f.warm.kept.inOrder() {
				if k.off {
					walkNet -= k.idleUntil(now)
				}
			}
			require.Equal(t, walkNet < exposure, f.exposed(now), "trial %d, net %v, exposure %v", trial, walkNet, exposure)
		}
	}
}

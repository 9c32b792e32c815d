package frontier

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// better's order, one rule a row: each row's winner loses on every rule
// after the one that decides, so a rule out of place shows.
func TestBetterOrder(t *testing.T) {
	typ := func(name string, cores int, rate float64) servertypes.Type {
		return servertypes.Type{Name: name, Limit: 2, Cores: cores, HourlyRate: rate, Memory: 1000 * cores, Disk: 1000 * cores}
	}
	small, big := typ("small", 2, 0.2), typ("big", 8, 1.6)
	on := func(ty servertypes.Type, id int, score float64) choice {
		return choice{m: &strategies.Machine{Ref: ref(ty.Name, id), Type: ty, State: protocol.Active}, score: score}
	}
	off := func(ty servertypes.Type, id int, score float64) choice {
		c := on(ty, id, score)
		c.m.State = protocol.Inactive
		return c
	}
	for _, tc := range []struct {
		what         string
		better, than choice
	}{
		{"the lower score, off against powered", off(big, 1, 1), on(small, 0, 2)},
		{"a tie: powered before off (no boot to pay)", on(big, 1, 3), off(small, 0, 3)},
		{"then cheaper per core", on(typ("cheapbig", 8, 0.4), 1, 3), on(typ("alpha", 2, 0.2), 0, 3)},
		{"then the smaller (the larger stays free for larger jobs)", on(typ("zeta", 2, 0.2), 1, 3), on(typ("mid", 4, 0.4), 0, 3)},
		{"then the type's name", on(typ("alpha", 2, 0.2), 1, 3), on(small, 0, 3)},
		{"then the lower id", on(small, 0, 3), on(small, 1, 3)},
	} {
		assert.True(t, better(tc.better, tc.than), tc.what)
		assert.False(t, better(tc.than, tc.better), "%s: the other way round", tc.what)
	}
}

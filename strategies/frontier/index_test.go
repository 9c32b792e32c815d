package frontier

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// firstInactive: one server per type, the first one off; a server passed
// over (refused, or booted by a move the ledger has not seen) lets the
// next one off stand in, and leaves the hint where the first one off is.
func TestFirstInactive(t *testing.T) {
	sys := strattest.System(
		servertypes.Type{Name: "small", Limit: 3, BootupTime: 60, HourlyRate: 0.2, Cores: 2, Memory: 4000, Disk: 16000},
		servertypes.Type{Name: "big", Limit: 1, BootupTime: 60, HourlyRate: 0.8, Cores: 8, Memory: 32000, Disk: 64000},
	)
	for _, tc := range []struct {
		what     string
		pass     []protocol.ServerRef
		want     []protocol.ServerRef
		wantHint int // small's
	}{
		{"nothing passed over", nil, []protocol.ServerRef{ref("small", 0), ref("big", 0)}, 0},
		{"the first small passed over", []protocol.ServerRef{ref("small", 0)}, []protocol.ServerRef{ref("small", 1), ref("big", 0)}, 0},
		{"two smalls passed over", []protocol.ServerRef{ref("small", 0), ref("small", 1)}, []protocol.ServerRef{ref("small", 2), ref("big", 0)}, 0},
		{"every server of a type passed over: none of it", []protocol.ServerRef{ref("small", 0), ref("small", 1), ref("small", 2), ref("big", 0)}, nil, 0},
	} {
		l := strategies.NewLedger(sys)
		hint := map[string]int{}
		var got []protocol.ServerRef
		firstInactive(l, hint, func(m *strategies.Machine) { got = append(got, m.Ref) }, nil,
			func(m *strategies.Machine) bool { return slices.Contains(tc.pass, m.Ref) })
		assert.Equal(t, tc.want, got, tc.what)
		assert.Equal(t, tc.wantHint, hint["small"], tc.what)
	}
}

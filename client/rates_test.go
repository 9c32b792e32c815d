package client_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/protocol"
	"github.com/dssim-go/dssim-go/servertypes"
	"github.com/dssim-go/dssim-go/strategies"
)

// rateBackend answers every GETS with recs.
type rateBackend struct {
	fakeBackend
	recs []protocol.Server
}

func (b *rateBackend) GetsAll() ([]protocol.Server, error) { b.call("GETS All"); return b.recs, nil }
func (b *rateBackend) GetsCapable(r protocol.Requirement) ([]protocol.Server, error) {
	b.call("GETS Capable " + r.String())
	return b.recs, nil
}

// askRates is a ledger user that sends GETS Capable for each job, takes
// the first record, and notes what the ledger says of the rates then.
type askRates struct {
	strategies.WithLedger
	strategies.IgnoreEvents
	sent map[string][]float64 // per type, SentRate at each job (-1: none)
}

func (s *askRates) Job(v strategies.View, j protocol.Job) ([]protocol.Action, error) {
	recs, err := v.GetsCapable(j.Req())
	if err != nil {
		return nil, err
	}
	for _, typ := range []string{"a", "b"} {
		r, ok := v.Ledger().SentRate(typ)
		if !ok {
			r = -1
		}
		s.sent[typ] = append(s.sent[typ], r)
	}
	return strategies.Sched(j, recs[0].Ref()), nil
}

// TestRatesFromRecords: a 2026 server's records carry each type's rate;
// the ledger hands it on (SentRate) from the first record of the type;
// a rate that differs from ds-system.xml's is warned about once per type
// (however many GETS repeat it), and the strategies keep the file's; a
// 2025 server's records carry none.
func TestRatesFromRecords(t *testing.T) {
	rec := func(typ string, id int, rate float64, hasRate bool) protocol.Server {
		return protocol.Server{Type: typ, ID: id, Rate: rate, HasRate: hasRate, State: protocol.Inactive, CurStartTime: -1, Cores: 4, Memory: 16000, Disk: 64000}
	}
	sys := func(client.Backend) (*servertypes.System, error) {
		return servertypes.New("ds-system.xml", []servertypes.Type{
			{Name: "a", Limit: 1, HourlyRate: 0.4, Cores: 4, Memory: 16000, Disk: 64000},
			{Name: "b", Limit: 1, HourlyRate: 0.8, Cores: 4, Memory: 16000, Disk: 64000}})
	}
	events := []string{"JOBN 0 1 1 100 100 10", "JOBN 1 2 1 100 100 10", "JOBN 2 3 1 100 100 10", "NONE"}
	for _, tc := range []struct {
		name       string
		recs       []protocol.Server
		mismatches int
		a, b       float64 // SentRate after the first GETS (-1: none)
	}{
		{"2026, agreeing", []protocol.Server{rec("a", 0, 0.4, true), rec("b", 0, 0.8, true)}, 0, 0.4, 0.8},
		{"2026, b differs", []protocol.Server{rec("a", 0, 0.4, true), rec("b", 0, 0.5, true)}, 1, 0.4, 0.5},
		{"2025", []protocol.Server{rec("a", 0, 0, false), rec("b", 0, 0, false)}, 0, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.WarnLevel)
			b := &rateBackend{fakeBackend: fakeBackend{events: events}, recs: tc.recs}
			s := &askRates{sent: map[string][]float64{}}
			res, err := client.Run(s, b, client.Options{User: "u", System: sys, Log: zap.New(core)})
			require.NoError(t, err)
			assert.Equal(t, tc.mismatches, res.RateMismatches)
			assert.Equal(t, []float64{tc.a, tc.a, tc.a}, s.sent["a"])
			assert.Equal(t, []float64{tc.b, tc.b, tc.b}, s.sent["b"])
			require.Len(t, logs.All(), tc.mismatches)
			if tc.mismatches > 0 {
				assert.Contains(t, logs.All()[0].ContextMap()["error"],
					`server type "b": ds-system.xml gives the hourly rate 0.80, the server's GETS records 0.50: that file is not this server's (strategies price with the file's)`)
			}
		})
	}
}

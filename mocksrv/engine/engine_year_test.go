package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// TestGetsRecordsOfEachYear: the 2026 server writes each type's rate third
// in every GETS record, with C's %.2f of the 32-bit rate (ds-server-2026
// §1's measured roundings, and NaN and infinities as C spells them), and
// announces record length 135; the 2025 server writes no rate and 124.
// The typed record (RecordRate) carries the value a client reads back.
func TestGetsRecordsOfEachYear(t *testing.T) {
	nan32 := float32(math.NaN())
	types := []model.ServerType{
		{Name: "a", Limit: 1, HourlyRate: 0.125, Cores: 1, Memory: 1000, Disk: 1000},
		{Name: "b", Limit: 1, HourlyRate: 1.005, Cores: 2, Memory: 1000, Disk: 1000},
		{Name: "c", Limit: 1, HourlyRate: 0.375, Cores: 3, Memory: 1000, Disk: 1000},
		{Name: "d", Limit: 1, HourlyRate: 123.456789, Cores: 4, Memory: 1000, Disk: 1000},
		{Name: "e", Limit: 1, HourlyRate: -2, Cores: 5, Memory: 1000, Disk: 1000},
		{Name: "f", Limit: 1, HourlyRate: float32(math.Inf(1)), Cores: 6, Memory: 1000, Disk: 1000},
		{Name: "g", Limit: 1, HourlyRate: nan32, Cores: 7, Memory: 1000, Disk: 1000},
	}
	rates := []string{"0.12", "1.00", "0.38", "123.46", "-2.00", "inf", "nan"}
	values := []float64{0.12, 1, 0.38, 123.46, -2, math.Inf(1), math.NaN()}
	for _, tc := range []struct {
		year   model.Year
		recLen int
	}{{model.Year2025, 124}, {model.Year2026, 135}, {0, 135}} {
		cfg := &model.Config{EndTime: 1000, Types: types,
			Jobs: []model.Job{{ID: 0, Submit: 5, EstRunTime: 20, ActRunTime: 15, Cores: 1, Memory: 100, Disk: 100}}}
		e, err := NewEngine(cfg, Options{NoHeader: true, Year: tc.year})
		require.NoError(t, err)
		exec(e, Command{Op: OpREDY})
		r := exec(e, Command{Op: OpGETS, Query: QueryAll})
		require.Equal(t, tc.recLen, r.RecLen, "year %v", tc.year)
		want := ""
		for i, ty := range types {
			if i > 0 {
				want += "\n" + "          " // 5 + len("t 5: ")
			}
			want += ty.Name + " 0 "
			if tc.recLen == 135 {
				want += rates[i] + " "
			}
			want += "inactive -1 " + string(rune('1'+i)) + " 1000 1000 0 0"
			rate, ok := e.RecordRate(e.GetsMachine(&r, i))
			assert.Equal(t, tc.recLen == 135, ok, "year %v", tc.year)
			if ok && !(math.IsNaN(rate) && math.IsNaN(values[i])) {
				assert.Equal(t, values[i], rate, "type %s", ty.Name)
			}
		}
		assert.Equal(t, want, string(e.AppendData(nil, &r)), "year %v", tc.year)
		assert.Equal(t, tc.year.Resolve(), e.Year())
	}
}

// TestGetsRecordLengthWithFailures: with failures simulated the record
// length is 166 (2025) or 177 (2026).
func TestGetsRecordLengthWithFailures(t *testing.T) {
	for year, want := range map[model.Year]int{model.Year2025: 166, model.Year2026: 177} {
		cfg := &model.Config{EndTime: 1000, FailureFile: "f.txt",
			Types: []model.ServerType{{Name: "a", Limit: 1, HourlyRate: 0.2, Cores: 1, Memory: 1000, Disk: 1000}},
			Jobs:  []model.Job{{ID: 0, Submit: 5, EstRunTime: 20, ActRunTime: 15, Cores: 1, Memory: 100, Disk: 100}}}
		e, err := NewEngine(cfg, Options{NoHeader: true, Year: year})
		require.NoError(t, err)
		exec(e, Command{Op: OpREDY})
		r := exec(e, Command{Op: OpGETS, Query: QueryAll})
		assert.Equal(t, want, r.RecLen, "year %v", year)
		rec := string(e.AppendData(nil, &r))
		assert.Equal(t, 9+6+map[bool]int{false: 0, true: 1}[year == model.Year2026], len(strings.Fields(rec)), "%q", rec)
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two classes, a focus with a family member, a strategy that failed once.
const runs = `config,strategy,status,turnaround_ratio,cost_ratio
tiny-001,frontier:preset=balanced,ok,1.10,1.50
tiny-001,frontier:preset=turnaround,ok,1.00,2.00
tiny-001,ff,ok,1.20,1.40
tiny-001,sgme,ok,1.05,2.00
tiny-002,frontier:preset=balanced,ok,1.00,1.50
tiny-002,frontier:preset=turnaround,ok,1.10,2.00
tiny-002,ff,ok,1.00,1.60
tiny-002,sgme,error,,
scale-001,frontier:preset=balanced,ok,1.02,1.30
scale-001,frontier:preset=turnaround,ok,1.01,1.90
scale-001,ff,ok,1.02,1.80
scale-001,sgme,ok,1.03,1.90
`

func write(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "runs.csv")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestClassTable(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-fast", "frontier:preset=turnaround", write(t, runs)}, &out, &errs), errs.String())
	got := out.String()
	// Means: tiny balanced (1.05, 1.50); sgme completed 1 of 2 tiny configs.
	assert.Contains(t, got, "| frontier:preset=balanced | 1.0200 / 1.3000 | 1.0500 / 1.5000 |")
	assert.Contains(t, got, "| sgme | 1.0300 / 1.9000 | 1.0500 / 2.0000 (1 of 2) |")
	// sgme, incomplete, is listed last.
	assert.Less(t, strings.Index(got, "| ff |"), strings.Index(got, "| sgme |"))
	// tiny: balanced 1.05 + 0.18·1.5 = 1.32, ff 1.10 + 0.18·1.5 = 1.37; sgme left out (1 of 2).
	// Per config: tiny-001 balanced 1.37 against ff 1.452 and sgme 1.41: best;
	// tiny-002 balanced 1.27 against ff 1.288: best. Turnaround's TAT: 1.00 ≤ 1.05 on
	// tiny-001, 1.10 > 1.00 on tiny-002.
	// The oracle of the others: tiny-001 sgme 1.41, tiny-002 ff 1.288 (sgme failed): 1.349;
	// their TAT, 1.05 and 1.00: 1.025, against turnaround's 1.05.
	assert.Contains(t, got, "| tiny | 1.3200 (frontier:preset=balanced) | 1.3200 | 1 of 2 | 2 of 2 | 1.3490 | 1 of 2 | 1.0500 | 1.0250 |")
	// scale: balanced 1.02 + 0.234 = 1.254, ff 1.344, sgme 1.372; turnaround 1.01 < 1.02.
	// Oracle: ff's 1.344; the others' TAT, ff's 1.02.
	assert.Contains(t, got, "| scale | 1.2540 (frontier:preset=balanced) | 1.2540 | 1 of 3 | 1 of 1 | 1.3440 | 1 of 1 | 1.0100 | 1.0200 |")
}

func TestClassTableRefusesBadInput(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"config,strategy,status\n", "no turnaround_ratio column"},
		{runs + "tiny-001,ff,ok,1.2,1.4\n", "line 14: config tiny-001, strategy ff: a second run"},
		{runs + "tiny-003,ff,ok,fast,1.4\n", "line 14: config tiny-003, strategy ff: strconv.ParseFloat"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 1, run([]string{write(t, tc.text)}, &out, &errs), tc.want)
		assert.Contains(t, errs.String(), tc.want)
	}
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run(nil, &out, &errs))
	assert.Contains(t, errs.String(), "usage: classtable")
}

package report

import (
	"fmt"
	"strconv"

	"github.com/dssim-go/dssim-go/harness/bench"
)

// The cost ds-server's report leaves out (Result.Unbilled): a section of
// the table output, only when some run has any, and the CSV column
// unbilled_cost. The cost tables stay ds-server's (a conformance tool must
// not change the figures the course compares); this says where they
// flatter a strategy, so that ds-server's accounting is not mistaken for a
// cheap schedule.

// unbilledHeading and unbilledNotes name the rules (ds-server.md §6.1,
// §6.2; mocksrv.Unbilled).
const unbilledHeading = "Cost ds-server's report leaves out (docs/simulator.md, billing)"

var unbilledNotes = []string{
	"Against a meter of every powered second after a boot, up to the switch-off or, for a server left on, to the end of the last job that ran there:",
	"a server whose jobs all left by MIGJ is not billed at all; a server left on is billed only to its last running, completed or failed job,",
	"not to a killed or migrated one, and from an earlier powered period's when its current one has none; a recovery without a failure resets a server unbilled.",
	"The tables above are ds-server's figures; add the cost left out to compare what a strategy would pay.",
}

func (r Output) writeUnbilled(tw *tableWriter) {
	first := true
	for _, res := range r.Results {
		u := res.Unbilled
		if u == nil || u.Servers == 0 || !res.OK() {
			continue
		}
		if first {
			tw.heading(unbilledHeading, 2, false)
			tw.row("Config", "Strategy", "Servers", "Server-seconds", "Cost left out", "Of the report's cost")
			first = false
		}
		share := "-"
		if res.Summary.TotalCost > 0 {
			share = fmt.Sprintf("%.2f%%", 100*u.Cost/res.Summary.TotalCost)
		}
		tw.row(res.Config, res.Variant, strconv.Itoa(u.Servers), strconv.FormatInt(u.Seconds, 10), fmt.Sprintf("$%.2f", u.Cost), share)
	}
	if !first {
		tw.notes = unbilledNotes
		tw.end()
	}
}

// unbilledCell is the CSV cell: the cost left out (0 when none), empty
// without a result or when the server was not dsmock.
func unbilledCell(res bench.Result) string {
	if !res.OK() || res.Unbilled == nil {
		return ""
	}
	return strconv.FormatFloat(res.Unbilled.Cost, 'f', 4, 64)
}

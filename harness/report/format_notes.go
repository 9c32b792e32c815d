package report

import (
	"github.com/dssim-go/dssim-go/harness/bench"
)

// writeNotes lists the runs with a result whose reason still says
// something (a client that exited unsuccessfully after QUIT, logs that
// could not be kept): their numbers are in the tables, the note here.
func (r Output) writeNotes(tw *tableWriter) {
	var noted []bench.Result
	for _, res := range r.Results {
		if res.OK() && res.Err != "" {
			noted = append(noted, res)
		}
	}
	if len(noted) == 0 {
		return
	}
	tw.heading("Runs with a note", 2, true)
	tw.row("Config", "Strategy", "Note")
	for _, res := range noted {
		tw.row(res.Config, res.Variant, res.Err)
	}
	tw.end()
}

package harness

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot/plotter"
)

// plotLabel is a point's label.
type plotLabel struct {
	at   plotter.XY
	name string
}

// joinNames lists the names a label or a title names: the first five and
// a count beyond six (the tables beside the plot name them all).
func joinNames(names []string) string {
	if len(names) > 6 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" +%d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}

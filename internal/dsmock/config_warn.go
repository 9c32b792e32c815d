package dsmock

import (
	"fmt"
	"io"

	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// warnNumbers warns, on stderr, about each number of the config that has
// text after it (cores="2x"): ds-server reads it as 2 without a word and
// so does dsmock, but the user most likely meant something else.
func warnNumbers(path string, stderr io.Writer) {
	for _, w := range simconfig.TrailingGarbageFile(path) {
		fmt.Fprintln(stderr, "dsmock: warning:", w)
	}
}

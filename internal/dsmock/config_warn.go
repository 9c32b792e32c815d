package dsmock

import (
	"fmt"
	"io"
	"os"

	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// warnNumbers warns, on stderr, about each number of the config that has
// text after it (cores="2x"): ds-server reads it as 2 without a word and
// so does dsmock, but the user most likely meant something else.
func warnNumbers(path string, stderr io.Writer) {
	data, err := os.ReadFile(path)
	if err != nil {
		return // it loaded a moment ago; nothing to add
	}
	for _, w := range simconfig.TrailingGarbage(path, data) {
		fmt.Fprintln(stderr, "dsmock: warning:", w)
	}
}

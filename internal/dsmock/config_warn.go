package dsmock

import (
	"fmt"
	"io"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// warnNumbers warns, on stderr, about each number of the config that has
// text after it (cores="2x"): ds-server reads it as 2 without a word and
// so does dsmock, but the user most likely meant something else; about a
// rate that is NaN or infinite, which both run with but no client can
// price (simconfig.NumberWarnings); and about an attribute or element
// ds-server ignores because it does not know it (randomseed for
// randomSeed: simconfig.AttributeWarnings).
func warnNumbers(path string, stderr io.Writer) {
	for _, w := range simconfig.Warnings(path) {
		fmt.Fprintln(stderr, "dsmock: warning:", w)
	}
}

// warnLevel warns about a -v word ds-server does not know: ds-server runs
// as if -v were not given, and so does dsmock, but says so. A word that
// looks like an option (-v -n) was most likely meant as one, the level
// forgotten: -v took it as its value.
func warnLevel(word string, recognised bool, stderr io.Writer) {
	if word == "" || recognised {
		return
	}
	msg := "dsmock: warning: -v " + word + ": not a verbosity ds-server knows (all, brief, jobs or stats, + for more detail): ignored, as ds-server ignores it"
	if strings.HasPrefix(word, "-") && len(word) > 1 {
		msg += "; did you mean -v all " + word + "?"
	}
	fmt.Fprintln(stderr, msg)
}

// warnIgnored warns about each option the run leaves without effect: -r,
// -j, -d or -l that the config overrides, or --swf's trace (with what of
// the -c config --swf leaves behind), a -r after the first, -o without
// failures. ds-server, which behaves the same, says nothing.
func warnIgnored(st settings, cfg *mocksrv.Config, stderr io.Writer) {
	ignored := cfg.IgnoredOptions
	if st.swf != "" {
		ignored = swfIgnored(st)
	}
	ignored = append(ignored, laterSeedWarnings(st)...)
	if st.noFailMsgs && (!cfg.Simulated() || cfg.Random) {
		// Without -c, -f simulates failures that never come (failure-models.md §12.5).
		ignored = append(ignored, "-o has no effect: no failures are simulated, so there is no RESF or RESR to leave out")
	}
	for _, w := range ignored {
		fmt.Fprintln(stderr, "dsmock: warning:", w)
	}
}

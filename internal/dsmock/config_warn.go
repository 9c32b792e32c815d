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
// so does dsmock, but the user most likely meant something else.
func warnNumbers(path string, stderr io.Writer) {
	for _, w := range simconfig.TrailingGarbageFile(path) {
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

// warnIgnored warns about each of -r, -j and -d that the run leaves
// without effect (the config overrides it, or --swf's trace gives the
// jobs): ds-server, which behaves the same, says nothing.
func warnIgnored(st settings, cfg *mocksrv.Config, stderr io.Writer) {
	ignored := cfg.IgnoredOptions
	if st.swf != "" {
		ignored = nil
		for _, o := range []struct {
			name  string
			given bool
			v     int
		}{{"-r", st.load.SeedGiven, st.load.Seed}, {"-j", st.load.JobCountGiven, st.load.JobCount}, {"-d", st.load.EndTimeGiven, st.load.EndTime}} {
			if o.given {
				ignored = append(ignored, fmt.Sprintf("%s %d has no effect: --swf runs the trace's jobs", o.name, o.v))
			}
		}
	}
	for _, w := range ignored {
		fmt.Fprintln(stderr, "dsmock: warning:", w)
	}
}

package dsswf

import (
	"fmt"
	"slices"

	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// leftBehind lists the settings of the --servers config (swf.UnusedSettings)
// that config, the config dsswf wrote, lacks and that would change its
// runs, each with how to add it there: failures (its runs have none),
// randomSeed with a failureModel (it seeds the model's failures) and
// newline="true" (newline mode). dsswf writes a config to be run and
// edited, so these are warnings, not refusals as in dsmock --swf and
// dsbench, which run the trace at once. Not listed: the job file (config
// names the trace's, which is what dsswf is for) and a randomSeed without
// a failure model (config's jobs come from its job file: nothing is drawn
// but dsmock --mem-fail's draws, which dsmock warns about).
func leftBehind(servers, config string) []string {
	settings := swf.UnusedSettings(servers)
	model := slices.ContainsFunc(settings, func(s swf.Setting) bool { return s.Attr == "failureModel" })
	var out []string
	for _, s := range settings {
		attr := s.Attr + `="` + s.Value + `"`
		var how string
		switch {
		case s.Failures():
			how = "its runs have no failures; add " + attr + " to its <servers> element for them"
		case s.Attr == "randomSeed" && model:
			how = "it seeds the failure model; add " + attr + " to its <config> element with failureModel"
		case s.Attr == "newline":
			how = "run it with -n for newline mode, or add " + attr + " to its <config> element"
		default:
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s is not in %s (dsswf copies the <server> elements alone): %s", servers, s, config, how))
	}
	return out
}

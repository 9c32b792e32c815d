package dsswf

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// leftBehind lists the settings of the --servers config (swf.UnusedSettings)
// that config, the config dsswf wrote, lacks and that would change its
// runs, each with how to add it there: failures (its runs have no failures),
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
		attr := s.XMLAttr()
		var how string
		switch {
		case s.Attr == "failureFile":
			how = "its runs have no failures; " + failureFileAdvice(servers, config, s.Value)
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

// failureFileAdvice says what failureFile to add to config for the
// servers config's failure trace name. ds-server reads a relative
// failureFile from the folder it runs in (ds-server.md §2.3), and the
// written config is run from its own folder, where its job file is (dsmock
// and dsbench also look beside the config), so name as written is right
// only when the two configs share a folder: the trace is found as dsmock
// -c servers would find it (the working directory, then beside servers)
// and named from config's folder.
func failureFileAdvice(servers, config, name string) string {
	where, missing := name, ""
	switch {
	case filepath.IsAbs(name):
		if !isFile(name) {
			missing = "; " + name + " does not exist"
		}
	case !isFile(name):
		where = filepath.Join(filepath.Dir(servers), name)
		if !isFile(where) {
			missing = "; " + name + " is neither in the working directory nor beside " + servers + ", so the path assumes it beside " + servers
		}
	}
	path := where
	if !filepath.IsAbs(name) {
		path = pathFrom(filepath.Dir(config), where)
	}
	advice := "add " + swf.XMLAttr("failureFile", path) + " to its <servers> element for them"
	if path != name {
		advice += fmt.Sprintf(" (%s named from %s, the folder of its job file, which ds-server is run in)", where, filepath.Dir(config))
	}
	return advice + missing
}

// pathFrom is target named from dir: relative when it can be, else absolute.
func pathFrom(dir, target string) string {
	absDir, err1 := filepath.Abs(dir)
	absTarget, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return target
	}
	if rel, err := filepath.Rel(absDir, absTarget); err == nil {
		return rel
	}
	return absTarget
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

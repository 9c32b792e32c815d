package dsview

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dssim-go/dssim-go/harness/outputs"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

// loadConfig reads -c: a ds-sim config, or an SWF trace with its options
// (trace.swf[:key=value,…]) converted as dsmock --swf converts it, so a
// log of dsmock --swf is read against the jobs and servers it ran.
func loadConfig(spec string) (*mocksrv.Config, error) {
	if !swf.IsTrace(spec) {
		cfg, err := mocksrv.LoadConfig(spec, mocksrv.LoadOptions{})
		if err != nil && isSystemXML(spec) {
			// Its own error (a <jobs> of no types) would not say what is
			// wrong: the file is the server's summary for its client.
			return nil, fmt.Errorf("-c %s: this is a ds-system.xml (the servers ds-server or dsmock writes for its client, without the jobs); "+
				"dsview needs the configuration file the run used (the -c given to ds-server)", spec)
		}
		return cfg, err
	}
	w, err := swf.Load(spec)
	if err != nil {
		return nil, fmt.Errorf("-c %s: SWF trace: %w", spec, err)
	}
	// The converted config's path is its name in memory; the log's
	// errors should name what the user gave.
	w.Config.Path = spec
	return w.Config, nil
}

// configWarnings are what the config holds that ds-server reads other than
// the user most likely meant (simconfig.Warnings); none for an SWF trace.
func configWarnings(spec string) []string {
	if swf.IsTrace(spec) {
		return nil
	}
	return simconfig.Warnings(spec)
}

// isSystemXML says whether path's root element is <system>, as in the
// ds-system.xml ds-server writes (a config's is <config>).
func isSystemXML(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local == "system"
		}
	}
}

// configInputs are the files -c reads: the config, or the trace and the
// config its servers= option names.
func configInputs(spec string) []outputs.InputFile {
	if !swf.IsTrace(spec) {
		return []outputs.InputFile{{Path: spec, What: "the config"}}
	}
	path, o, err := swf.ParseSpec(spec)
	if err != nil { // refused when loaded
		return nil
	}
	in := []outputs.InputFile{{Path: path, What: "the SWF trace"}}
	if o.Servers != "" {
		in = append(in, outputs.InputFile{Path: o.Servers, What: "the trace's servers= config"})
	}
	return in
}

// loadedInputs are the files the loaded config named, where the loader
// read them: its job file and failure trace. A trace's converted config
// has neither on disk (its job file is in memory; servers= is read for
// its servers alone).
func loadedInputs(spec string, cfg *mocksrv.Config) []outputs.InputFile {
	if swf.IsTrace(spec) {
		return nil
	}
	var in []outputs.InputFile
	for _, f := range []outputs.InputFile{{Path: cfg.JobPath, What: "the config's job file"}, {Path: cfg.FailurePath, What: "the config's failure trace"}} {
		if f.Path != "" {
			in = append(in, f)
		}
	}
	return in
}

// checkOutNotInput refuses an -o that is one of the inputs (the same file
// by another name or a link too, found as dsbench finds its own): the
// page would replace the run it draws, and the shell's history makes
// that slip easy. An -o that does not exist yet is no input.
func checkOutNotInput(out string, inputs []outputs.InputFile) error {
	if out == "" {
		return nil
	}
	if in, ok := outputs.SameAsInput(out, inputs); ok {
		return usageError{fmt.Errorf("-o %s is %s %s: refusing to overwrite an input (name another output file)", out, in.What, in.Path)}
	}
	return nil
}

// pageName names the page and its runs' group after -c: a trace by its
// file name and options (as dsbench names a trace's row), a config by its
// file name, or for a fixture folder's NAME/config.xml by the folder's.
// The folder is taken from the absolute path, since "-c config.xml" run
// in the folder has "." for its folder.
func pageName(spec string) string {
	if swf.IsTrace(spec) {
		if path, _, err := swf.ParseSpec(spec); err == nil {
			return swf.Name(path) + spec[len(path):]
		}
	}
	name := strings.TrimSuffix(filepath.Base(spec), ".xml")
	if name != "config" {
		return name
	}
	dir := filepath.Dir(spec)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Base(dir)
}

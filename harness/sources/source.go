// Package sources reads the configs a bench runs, the rows of its tables
// (Source): config files, folders of them and fixture folders (Resolve),
// the embedded suite (Suite), SWF workload traces converted in memory
// (trace.swf:options), the generated workloads of --memwork and
// --replay000 (Memwork, Replay000), a generated corpus's configs
// (Corpus: --corpus), and the workload transforms that
// derive a config's jobs (Transform, Expand: --arrival-factor,
// --inaccuracy). A Source loads its config (Load) and reads the files it
// names as ds-server would (ReadBeside).
package sources

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// Source is one config: a row of the tables.
type Source struct {
	Name string // row label
	Path string // file path (slash-separated inside FS)
	FS   fs.FS  // nil: the operating system's files
	// Base is the untransformed config's row label and Transform the
	// workload transform applied to its jobs (Expand); zero for a plain
	// config.
	Base      string
	Transform Transform

	servers string      // an SWF trace's servers config, "" for none
	trace   string      // an SWF trace's file, "" for none
	swf     *conversion // an SWF trace's conversion, nil for a config (swf.go)
}

// ConfigWarnings lists what dsmock -c warns about in the configs' own
// files (a number with text after it, cores="2x", which ds-server reads
// as 2 without a word; a NaN or infinite rate; an attribute or element no
// ds-server reads, randomseed for randomSeed): a file says the same thing whichever tool reads
// it; for a trace's servers config, also what of it the trace's run
// (run) leaves without effect, as dsmock --swf says it. Each file once,
// in the order of the rows.
func ConfigWarnings(srcs []Source, run swf.RunSetup) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range srcs {
		switch {
		case s.FS == nil && !seen[s.Path]:
			out = append(out, simconfig.Warnings(s.Path)...)
			seen[s.Path] = true
		case s.servers != "" && !seen[s.servers]:
			out = append(out, swf.ServerWarnings(s.servers)...) // only its <server> elements are read
			out = append(out, run.Ignored(s.servers, "dsbench")...)
			seen[s.servers] = true
		}
	}
	return out
}

// Load reads and validates the config; files it names (job list, failure
// trace) are looked up beside it. The transform, if any, is applied to the
// loaded job list.
func (s Source) Load() (*mocksrv.Config, error) {
	var cfg *mocksrv.Config
	var err error
	if s.FS != nil {
		data, rerr := fs.ReadFile(s.FS, s.Path)
		if rerr != nil {
			return nil, rerr
		}
		cfg, err = mocksrv.ParseConfig(s.Path, data, mocksrv.LoadOptions{FS: s.FS})
	} else {
		cfg, err = mocksrv.LoadConfig(s.Path, mocksrv.LoadOptions{BaseDir: filepath.Dir(s.Path)})
	}
	if err != nil {
		return nil, err
	}
	return s.Transform.apply(cfg), nil
}

// Suite returns the embedded benchmark suite (package configs).
func Suite() []Source {
	var out []Source
	for _, f := range configs.Names() {
		out = append(out, Source{Name: configs.Name(f), Path: f, FS: configs.FS()})
	}
	return out
}

// Resolve resolves command-line inputs: config files; folders of config
// files; fixture folders (a folder holding config.xml, named after the
// folder, like ../shared/dssim/fixtures/NAME); and folders of fixture
// folders. No input means the embedded suite. Files in a folder are taken
// when their root element is <config> (job lists and ds-system.xml files
// sitting beside them are skipped). An SWF trace (trace.swf[:options],
// swf.go) is converted. Row names must be unique.
func Resolve(args []string) ([]Source, error) {
	if len(args) == 0 {
		return Suite(), nil
	}
	var out []Source
	for _, a := range args {
		if s, ok, err := traceSource(a); ok || err != nil { // an SWF trace (swf.go)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, inputError(a, err)
		}
		if !st.IsDir() {
			out = append(out, fileSource(a))
			continue
		}
		found, err := dirSources(a)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("config folder %s: no config file (an .xml file whose root element is <config>) and no fixture folder", a)
		}
		out = append(out, found...)
	}
	seen := map[string]string{}
	for _, s := range out {
		if prev, dup := seen[s.Name]; dup {
			return nil, fmt.Errorf("two configs are both named %q (%s and %s): rename one", s.Name, prev, s.Path)
		}
		seen[s.Name] = s.Path
	}
	return out, nil
}

func fileSource(p string) Source {
	name := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
	if filepath.Base(p) == "config.xml" {
		abs, err := filepath.Abs(p)
		if err == nil {
			name = filepath.Base(filepath.Dir(abs))
		}
	}
	return Source{Name: name, Path: p}
}

func dirSources(dir string) ([]Source, error) {
	if isConfigFile(filepath.Join(dir, "config.xml")) {
		return []Source{fileSource(filepath.Join(dir, "config.xml"))}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Source
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if isConfigFile(filepath.Join(p, "config.xml")) {
				out = append(out, fileSource(filepath.Join(p, "config.xml")))
			}
		case path.Ext(e.Name()) == ".xml" && isConfigFile(p):
			out = append(out, fileSource(p))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// isConfigFile reports whether the file's root element is <config>.
func isConfigFile(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := f.Read(head)
	head = head[:n]
	// Skip the declaration and comments: the first element that is not
	// <?…?> or <!--…--> decides.
	for {
		i := bytes.IndexByte(head, '<')
		if i < 0 || i+1 >= len(head) {
			return false
		}
		head = head[i+1:]
		switch {
		case head[0] == '?':
			continue
		case bytes.HasPrefix(head, []byte("!--")):
			end := bytes.Index(head, []byte("-->"))
			if end < 0 {
				return false
			}
			head = head[end+3:]
			continue
		}
		return bytes.HasPrefix(head, []byte("config")) && len(head) > 6 && !isNameByte(head[6])
	}
}

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || b == '.' || b == ':' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// ReadBeside reads a file the config names, resolved as ds-server does:
// relative to the config's folder (inside FS for an embedded config).
func (src Source) ReadBeside(name string) ([]byte, error) {
	if src.FS != nil {
		return fs.ReadFile(src.FS, path.Join(path.Dir(src.Path), filepath.ToSlash(name)))
	}
	if filepath.IsAbs(name) {
		return os.ReadFile(name)
	}
	return os.ReadFile(filepath.Join(filepath.Dir(src.Path), name))
}

// Names are the sources' row names, in order.
func Names(ss []Source) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

// inputError is the refusal of a command-line input os.Stat could not
// find: the path once (os.Stat's own error repeats it), and, when the
// folder exists, the nearest name in it (config20-short-med.xml for
// config20-short-med.xm). Another error (a permission) keeps its cause.
func inputError(a string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("config %s: %w", a, err)
	}
	dir, base := filepath.Split(a)
	entries, _ := os.ReadDir(filepath.Dir(a))
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	hint := ""
	if n := didyoumean.Nearest(base, names); n != "" && n != base {
		hint = "; did you mean " + dir + n + "?"
	}
	return fmt.Errorf("config %s: no such file or folder%s", a, hint)
}

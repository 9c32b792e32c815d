package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing/fstest"

	"github.com/dssim-go/dssim-go/mocksrv/model"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// Config is one generated config: its name (class and index, tiny-007),
// what was drawn for it, and its files.
type Config struct {
	Name   string
	Params Params
	XML    []byte // the config file, NAME.xml
	// Jobs is the job file the config names (JobFile, relative to the
	// config's folder), when its estimates are not ds-sim's own; nil when
	// ds-server generates the jobs from the config.
	Jobs    []byte
	JobFile string
}

// Path is the config file's name inside the corpus's folder.
func (c Config) Path() string { return c.Name + ".xml" }

// Generate parses spec and makes its configs (see Parse, Spec.Configs).
func Generate(spec string) ([]Config, error) {
	s, err := Parse(spec)
	if err != nil {
		return nil, err
	}
	return s.Configs()
}

// Configs makes the spec's configs, class by class in the canonical order
// (Classes), each class's numbered from 1. Each is loaded by the
// simulator's configuration loader before it is returned: an error names
// the config and what the loader refused (a bug of this package, not of
// the spec, which Parse has checked).
func (s Spec) Configs() ([]Config, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	var out []Config
	for _, p := range s.plan() {
		width := len(strconv.Itoa(p.Count))
		for i := 1; i <= p.Count; i++ {
			name := fmt.Sprintf("%s-%0*d", p.Class.Name, max(width, 3), i)
			c, err := makeConfig(s.Seed, name, p.Class, i)
			if err != nil {
				return nil, fmt.Errorf("corpus config %s: %w", name, err)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func makeConfig(seed uint64, name string, class Class, index int) (Config, error) {
	r := newRNG(seed, class.Name, index)
	p := draw(r, class.Name, index, class.Dims)
	c := Config{Name: name, Params: p, XML: configXML(p, seed, "")}
	cfg, err := simconfig.ParseConfig(c.Path(), c.XML, simconfig.LoadOptions{})
	if err != nil {
		return Config{}, err
	}
	if p.Estimate == "dssim" {
		return c, nil
	}
	// Estimates of another kind: ds-server's jobs, their estimates redrawn
	// from the actual runtimes, in a job file beside the config.
	for i := range cfg.Jobs {
		j := &cfg.Jobs[i]
		j.EstRunTime = estimate(r, p.Estimate, j.ActRunTime)
	}
	c.JobFile = "jobs/" + name + ".xml"
	c.Jobs = cfg.JobsXML(model.Year2025, true) // a fixed year: the files must not change with the simulator's default
	c.XML = configXML(p, seed, c.JobFile)
	if _, err := simconfig.ParseConfig(c.Path(), c.XML, simconfig.LoadOptions{FS: c.fs()}); err != nil {
		return Config{}, err
	}
	return c, nil
}

// estimate redraws a job's estimate from its actual runtime act.
func estimate(r rng, model string, act int) int {
	switch model {
	case "over": // act × U[1, 4]
		return act + act*r.intn(3001)/1000
	case "noisy": // act × or ÷ U[1, 4], even odds
		k := 1000 + 3*r.intn(1001)
		if r.intn(2) == 0 {
			return max(1, act*1000/k)
		}
		return act * k / 1000
	}
	return act // exact
}

// Files are the config's files by their path inside the corpus's folder.
func (c Config) Files() map[string][]byte {
	files := map[string][]byte{c.Path(): c.XML}
	if c.JobFile != "" {
		files[c.JobFile] = c.Jobs
	}
	return files
}

func (c Config) fs() fstest.MapFS { return FS([]Config{c}).(fstest.MapFS) }

// FS holds the configs' files in memory, as WriteDir would write them:
// NAME.xml for each config, jobs/NAME.xml for its job file if any.
func FS(cs []Config) fs.FS {
	m := fstest.MapFS{}
	for _, c := range cs {
		for p, data := range c.Files() {
			m[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		}
	}
	return m
}

// WriteDir writes the configs' files into dir (made if missing): NAME.xml
// for each config, jobs/NAME.xml for its job file if any. ds-server reads
// a job file relative to its working folder: run it from dir.
func WriteDir(dir string, cs []Config) error {
	for _, c := range cs {
		for p, data := range c.Files() {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(full, data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

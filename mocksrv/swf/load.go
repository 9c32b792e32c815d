package swf

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// Workload is a converted trace ready to run: the two files a ds-sim
// server reads, and the config loaded from them.
type Workload struct {
	*Result
	ConfigName string // the config's file name inside FS
	FS         fs.FS  // the config and the job file, in memory
	Config     *simconfig.Config
}

// ReadFile parses a trace file (gzip or not).
func ReadFile(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(path, f)
}

// Load reads a trace spec ("trace.swf:key=value,…", see ParseSpec),
// converts it and loads the result through the simulator's own config and
// job-file loader, so a trace runs exactly as its written files would.
func Load(spec string) (*Workload, error) {
	p, o, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return LoadFile(p, o)
}

// LoadFile is Load with the path and options apart.
func LoadFile(p string, o Options) (*Workload, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	t, err := ReadFile(p)
	if err != nil {
		return nil, err
	}
	var servers []Server
	if o.Servers != "" {
		if servers, err = ReadServers(o.Servers); err != nil {
			return nil, err
		}
	}
	r, err := Convert(t, o, servers)
	if err != nil {
		return nil, err
	}
	return r.Workload(Name(p) + ".xml")
}

// Name is a trace's row label: its file name without .swf or .swf.gz.
func Name(p string) string {
	base := filepath.Base(p)
	for _, ext := range []string{".gz", ".swf", ".SWF"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// Workload puts the config (under configName) and the job file in memory
// and loads them.
func (r *Result) Workload(configName string) (*Workload, error) {
	files := memFS{configName: r.ConfigXML(), r.Options.JobFile: r.JobsXML()}
	cfg, err := simconfig.ParseConfig(configName, files[configName], simconfig.LoadOptions{FS: files})
	if err != nil {
		return nil, fmt.Errorf("%s converted: %w", r.Trace, err)
	}
	return &Workload{Result: r, ConfigName: configName, FS: files, Config: cfg}, nil
}

// memFS is a flat read-only file system of whole files: what an fs.FS
// user (simconfig, dsbench's staging) needs of the two converted files.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	data, ok := m[path.Clean(name)]
	if !ok || !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{Reader: bytes.NewReader(data), name: path.Base(name), size: int64(len(data))}, nil
}

type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Name() string               { return f.name }
func (f *memFile) Size() int64                { return f.size }
func (f *memFile) Mode() fs.FileMode          { return 0o444 }
func (f *memFile) ModTime() time.Time         { return time.Time{} }
func (f *memFile) IsDir() bool                { return false }
func (f *memFile) Sys() any                   { return nil }

package swf

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// Options are the conversion's choices (see the package doc); the zero
// value of each field means its default.
type Options struct {
	ProcsPerCore int     // SWF processors per ds-sim core (default 1)
	TimeScale    float64 // factor on the gaps between submit times (default 1)
	Offset       int     // submit time of the earliest job (default 0)
	Disk         int     // every job's disk in MB (default 100)
	MemPerCore   int     // MB per core when the trace has no memory (default 100)
	MaxJobs      int     // keep the first MaxJobs jobs by submit time (default: all)
	// Servers is the path of a ds-sim config whose <server> elements are
	// used; "" derives the servers from the trace.
	Servers string
	// JobFile is the job file's name in the config (default "jobs.xml").
	JobFile string
}

// The defaults of Options.
const (
	DefaultDisk       = 100
	DefaultMemPerCore = 100
	DefaultJobFile    = "jobs.xml"
)

// maxJobs is ds-server's job-file limit (ds-server.md §2.7).
const maxJobs = 1000000

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.ProcsPerCore == 0 {
		o.ProcsPerCore = 1
	}
	if o.TimeScale == 0 {
		o.TimeScale = 1
	}
	if o.Disk == 0 {
		o.Disk = DefaultDisk
	}
	if o.MemPerCore == 0 {
		o.MemPerCore = DefaultMemPerCore
	}
	if o.JobFile == "" {
		o.JobFile = DefaultJobFile
	}
	return o
}

// Validate refuses values no conversion can use, naming the option.
func (o Options) Validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("swf option %s=%v: %s", name, v, want)
	}
	switch {
	case o.ProcsPerCore < 0:
		return bad("procs-per-core", o.ProcsPerCore, "want a positive integer")
	case o.TimeScale < 0 || math.IsNaN(o.TimeScale) || math.IsInf(o.TimeScale, 0):
		return bad("time-scale", o.TimeScale, "want a positive number")
	case o.Offset < 0 || o.Offset > math.MaxInt32:
		return bad("offset", o.Offset, "want seconds from 0 to 2147483647")
	case o.Disk < 0 || o.Disk > 0 && o.Disk < 100:
		return bad("disk", o.Disk, "want at least 100 MB (GETS refuses less)")
	case o.MemPerCore < 0:
		return bad("mem-per-core", o.MemPerCore, "want a positive number of MB")
	case o.MaxJobs < 0 || o.MaxJobs > maxJobs:
		return bad("max-jobs", o.MaxJobs, "want 1 to 1000000 (ds-server's job-file limit)")
	case strings.ContainsAny(o.JobFile, "\"<>&"):
		return bad("job-file", o.JobFile, "want a file name without \" < > &")
	case o.JobFile != "" && !filepath.IsLocal(o.JobFile):
		// It is written beside config.xml and read from there.
		return bad("job-file", o.JobFile, "want a path inside the config's folder (not absolute, no ..)")
	case filepath.Clean(o.JobFile) == "config.xml":
		return bad("job-file", o.JobFile, "is the config's own name")
	}
	return nil
}

// String is the options in the key=value form of a spec, defaults filled.
func (o Options) String() string {
	o = o.withDefaults()
	s := fmt.Sprintf("procs-per-core=%d,time-scale=%s,offset=%d,disk=%d,mem-per-core=%d",
		o.ProcsPerCore, strconv.FormatFloat(o.TimeScale, 'g', -1, 64), o.Offset, o.Disk, o.MemPerCore)
	if o.MaxJobs > 0 {
		s += fmt.Sprintf(",max-jobs=%d", o.MaxJobs)
	}
	if o.Servers != "" {
		s += ",servers=" + o.Servers
	}
	if o.JobFile != DefaultJobFile {
		s += ",job-file=" + o.JobFile
	}
	return s
}

// optionNames are the options Set knows, for its refusal.
var optionNames = []string{"procs-per-core", "time-scale", "offset", "disk", "mem-per-core", "max-jobs", "servers", "job-file"}

// Set sets one option by its spec/flag name.
func (o *Options) Set(key, val string) error {
	// Zero means "the default" in Options, so a 0 given by the user is
	// refused rather than silently read as the default (offset aside).
	atoi := func(dst *int) error {
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("swf option %s=%q: not an integer", key, val)
		}
		if n == 0 && key != "offset" {
			return fmt.Errorf("swf option %s=0: want a positive integer", key)
		}
		*dst = n
		return nil
	}
	switch key {
	case "procs-per-core":
		return atoi(&o.ProcsPerCore)
	case "time-scale":
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || f <= 0 {
			return fmt.Errorf("swf option time-scale=%q: want a positive number", val)
		}
		o.TimeScale = f
	case "offset":
		return atoi(&o.Offset)
	case "disk":
		return atoi(&o.Disk)
	case "mem-per-core":
		return atoi(&o.MemPerCore)
	case "max-jobs":
		return atoi(&o.MaxJobs)
	case "servers":
		o.Servers = val
	case "job-file":
		o.JobFile = val
	default:
		return fmt.Errorf("swf option %q unknown (known: %s)%s", key, strings.Join(optionNames, " "), didyoumean.Hint(key, optionNames))
	}
	return nil
}

// ParseSpec reads "TRACE[:key=value,key=value…]", the form dsbench and
// dsmock take: the trace path ends in .swf or .swf.gz and the options come
// after the colon that follows it.
func ParseSpec(spec string) (path string, o Options, err error) {
	path, rest := spec, ""
	for _, ext := range []string{".swf:", ".swf.gz:", ".SWF:", ".SWF.gz:"} {
		if i := strings.Index(spec, ext); i >= 0 {
			path, rest = spec[:i+len(ext)-1], spec[i+len(ext):]
			break
		}
	}
	if path == "" {
		return "", o, fmt.Errorf("swf spec %q: no trace path", spec)
	}
	if rest != "" {
		// An empty item (a trailing comma, two commas) is skipped, as
		// dsbench's -a skips one, rather than taken for a bare value.
		items := slices.DeleteFunc(strings.Split(rest, ","), func(kv string) bool { return strings.TrimSpace(kv) == "" })
		for i, kv := range items {
			k, v, ok := strings.Cut(kv, "=")
			if !ok && i > 0 {
				return "", o, oneValueError(spec, path, items, i)
			}
			if !ok {
				return "", o, fmt.Errorf("swf spec %q: %q is not key=value", spec, kv)
			}
			if err := o.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
				return "", o, fmt.Errorf("swf spec %q: %w", spec, err)
			}
		}
	}
	if err := o.Validate(); err != nil {
		return "", o, fmt.Errorf("swf spec %q: %w", spec, err)
	}
	return path, o, nil
}

// IsTrace reports whether a command-line argument names an SWF trace (by
// its extension, options after a colon allowed).
func IsTrace(arg string) bool {
	for _, ext := range []string{".swf", ".swf.gz", ".SWF", ".SWF.gz"} {
		if strings.HasSuffix(arg, ext) || strings.Contains(arg, ext+":") {
			return true
		}
	}
	return false
}

// OneValueError is a spec that gives an option a list of values
// ("t.swf:time-scale=0.5,1"), as dsbench's -a gives a strategy parameter
// one: the comma separates options here, so the list is refused.
// PerValue are the specs that hold one value each, one per value, the
// rest of the spec as given (t.swf:time-scale=0.5 and t.swf:time-scale=1).
type OneValueError struct {
	Spec, Value string
	PerValue    []string
}

func (e *OneValueError) Error() string {
	return fmt.Sprintf("swf spec %q: %q is not key=value: trace options take one value each", e.Spec, e.Value)
}

// oneValueError makes the error for items[i], the first bare value after
// the key=value items[i-1]: the list runs to the next key=value.
func oneValueError(spec, path string, items []string, i int) error {
	last := i
	for last+1 < len(items) && !strings.Contains(items[last+1], "=") {
		last++
	}
	key, v0, _ := strings.Cut(items[i-1], "=")
	e := &OneValueError{Spec: spec, Value: items[i]}
	for _, v := range append([]string{v0}, items[i:last+1]...) {
		one := append(slices.Clone(items[:i-1]), strings.TrimSpace(key)+"="+strings.TrimSpace(v))
		one = append(one, items[last+1:]...)
		e.PerValue = append(e.PerValue, path+":"+strings.Join(one, ","))
	}
	return e
}

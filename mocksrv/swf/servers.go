package swf

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

// Server is one <server> element of the config written beside the job
// file: its attributes as written (Attrs, in order) and the three sizes
// the conversion checks jobs against.
type Server struct {
	Attrs               []xml.Attr
	Cores, Memory, Disk int
}

// Derived servers' fixed choices (package doc): ds-sim's sample configs
// boot in 60 s and charge 0.1 $/h per core.
const (
	derivedBoot   = 60
	derivedLimit  = 1000 // ds-server's most servers of a type (§2.3)
	derivedMaxCPU = 1024 // ds-server's most cores of a type (§2.3)
)

// Machine is the machine a derived cluster is sized to: every type gets
// as many servers as make up its cores (package doc).
type Machine struct {
	Procs int64  // processors
	Cores int64  // Procs ÷ procs-per-core, rounded up
	From  string // where Procs comes from: MachineMaxProcs, MachineMaxNodes or MachineLargestJob
}

// The sources of Machine.Procs, in the order they are tried.
const (
	MachineMaxProcs   = "MaxProcs"
	MachineMaxNodes   = "MaxNodes"
	MachineLargestJob = "the largest job"
)

// machineOf is the header's MaxProcs, else its MaxNodes, else the largest
// job that a type can hold.
func machineOf(jobs []Converted, h Header, o Options) Machine {
	m := Machine{Procs: h.MaxProcs, From: MachineMaxProcs}
	if m.Procs <= 0 {
		m = Machine{Procs: h.MaxNodes, From: MachineMaxNodes}
	}
	if m.Procs <= 0 {
		m = Machine{From: MachineLargestJob}
		for _, j := range jobs {
			if j.Cores <= derivedMaxCPU { // a larger one no type holds: dropTooBig counts it
				m.Procs = max(m.Procs, int64(j.Cores)*int64(o.ProcsPerCore))
			}
		}
	}
	m.Cores = ceilDiv(m.Procs, int64(o.ProcsPerCore))
	return m
}

// deriveServers builds the ladder of types the package doc describes.
func deriveServers(jobs []Converted, m Machine) []Server {
	if len(jobs) == 0 {
		return nil
	}
	lo, hi := derivedMaxCPU, 1
	for _, j := range jobs {
		if j.Cores > derivedMaxCPU {
			continue // no type can hold it: dropTooBig counts it
		}
		lo, hi = min(lo, j.Cores), max(hi, j.Cores)
	}
	var out []Server
	for c := pow2ceil(min(lo, hi)); ; c *= 2 {
		mem, disk := max(1000, 200*c), max(1000, 200*c)
		for _, j := range jobs {
			if j.Cores <= c {
				mem, disk = max(mem, j.Memory), max(disk, j.Disk)
			}
		}
		limit := min(max(ceilDiv(m.Cores, int64(c)), 1), derivedLimit)
		out = append(out, Server{Cores: c, Memory: mem, Disk: disk, Attrs: []xml.Attr{
			attr("type", "c"+strconv.Itoa(c)), attr("limit", strconv.FormatInt(limit, 10)),
			attr("bootupTime", strconv.Itoa(derivedBoot)), attr("hourlyRate", rate(c)),
			attr("cores", strconv.Itoa(c)), attr("memory", strconv.Itoa(mem)), attr("disk", strconv.Itoa(disk)),
		}})
		if c >= hi || c >= derivedMaxCPU {
			return out
		}
	}
}

func attr(name, val string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: val} }

// rate is 0.1 $/h per core, written exactly (no float formatting).
func rate(cores int) string {
	return strconv.Itoa(cores/10) + "." + strconv.Itoa(cores%10)
}

func pow2ceil(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// largest is the type that bounds GETS: the most cores, the latest in the
// config among equals (ds-server.md §2.9).
func largest(servers []Server) Server {
	var big Server
	for _, s := range servers {
		if s.Cores >= big.Cores {
			big = s
		}
	}
	return big
}

// ReadServers takes the <server> elements of a ds-sim config, attributes
// as written; the config is otherwise not used (its job types, workload,
// termination and failure settings do not apply to a trace). The servers
// are held to the rules dsmock -c (ds-server) holds them to, through the
// simulator's own loader, and a bad one is named in that file: the config
// the conversion writes is made from them, but the user knows only this
// one. A number with text after it (cores="2x") is read as ds-server reads
// it (2); ServerWarnings says which.
func ReadServers(path string) ([]Server, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("servers config: %w", err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	var out []Server
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("servers config %s: %w", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "server" {
			out = append(out, Server{Attrs: se.Attr})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("servers config %s: no <server> element", path)
	}
	return out, checkServers(path, out)
}

// ServerWarnings lists what dsmock -c warns about in the numbers of the
// servers config's <server> elements (text after a number, cores="2x"; a
// NaN or infinite rate); the rest of that config is not read for a trace.
func ServerWarnings(path string) []string {
	var out []string
	for _, w := range simconfig.Warnings(path) {
		if strings.HasPrefix(w, path+": <server> ") {
			out = append(out, w)
		}
	}
	return out
}

// checkServers loads the servers alone (with one 1-core job, which every
// valid server holds) through the simulator's loader and takes their
// sizes from it. An error names path and the server, as dsmock -c path
// would: "cores0.xml: <server> 2 (micro): attribute cores: 0: Out of bound! …".
func checkServers(path string, servers []Server) error {
	const name, jobs = "servers.xml", "jobs.xml"
	r := &Result{Servers: servers, Options: Options{JobFile: jobs}}
	files := memFS{name: r.ConfigXML(), jobs: []byte(`<jobs><job id="0" type="swf" submitTime="0" estRunTime="1" cores="1" memory="1" disk="1" /></jobs>`)}
	cfg, err := simconfig.ParseConfig(name, files[name], simconfig.LoadOptions{FS: files})
	if ce, ok := err.(*simconfig.ConfigError); ok {
		e := *ce // named as the user's file, in ds-server's lines too
		e.File, e.Stderr = path, slices.Clone(ce.Stderr)
		for i, l := range e.Stderr {
			e.Stderr[i] = strings.ReplaceAll(l, "("+name+")", "("+path+")")
		}
		return &e
	}
	if err != nil {
		return fmt.Errorf("servers config %s: %w", path, err)
	}
	for i, t := range cfg.ConfigOrder {
		servers[i].Cores, servers[i].Memory, servers[i].Disk = t.Cores, t.Memory, t.Disk
	}
	return nil
}

// ConfigXML is the ds-sim config of a converted trace: the servers and
// <jobs file="…"/> naming the job file. ds-server resets the termination
// conditions for a job file (§2.7), so none is written.
func (r *Result) ConfigXML() []byte {
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&b, "%s%s (%s): %d jobs, %d lines skipped -->\n",
		configMark, comment(r.Trace), comment(r.Options.String()), len(r.Jobs), r.SkippedTotal())
	b.WriteString("<config>\n\t<servers>\n")
	for _, s := range r.Servers {
		b.WriteString("\t\t<server")
		for _, a := range s.Attrs {
			b.WriteString(" " + a.Name.Local + "=\"" + escape(a.Value) + "\"")
		}
		b.WriteString(" />\n")
	}
	b.WriteString("\t</servers>\n\t" + jobsElem(r.Options.JobFile) + "\n</config>\n")
	return b.Bytes()
}

// configMark begins the comment every ConfigXML starts with, after the
// XML declaration: what tells a converted config from a user's.
const configMark = "<!-- ds-sim config for the SWF trace "

func jobsElem(jobFile string) string { return `<jobs file="` + escape(jobFile) + `" />` }

// WrittenByConfigXML says whether config (a config file's bytes) was written by
// ConfigXML and, if so, whether it names jobFile as its job file: what
// dsswf may replace without losing a file of the user's.
func WrittenByConfigXML(config []byte, jobFile string) (converted, names bool) {
	head := config[:min(len(config), 200)]
	if !bytes.Contains(head, []byte(configMark)) {
		return false, false
	}
	return true, bytes.Contains(config, []byte(jobsElem(jobFile)))
}

// SameConfigXML says whether two configs are one conversion's ConfigXML
// but for the header comment: it names the trace as it was typed
// ("small.swf", "./small.swf", a path from another folder, the .gz), so
// a re-run of the same conversion differs there and nowhere else. The
// whole comment is left out, so an edit inside it does not count; any
// other difference does (a header whose mark was edited away is no
// longer left out).
func SameConfigXML(a, b []byte) bool {
	return bytes.Equal(withoutMark(a), withoutMark(b))
}

// withoutMark is config without the comment ConfigXML begins it with, as
// it is unchanged when there is none. comment keeps "--" out of what the
// comment holds, so the first "-->" after the mark ends it.
func withoutMark(config []byte) []byte {
	i := bytes.Index(config[:min(len(config), 200)], []byte(configMark))
	if i < 0 {
		return config
	}
	n := bytes.Index(config[i:], []byte("-->"))
	if n < 0 {
		return config
	}
	return slices.Concat(config[:i], config[i+n+len("-->"):])
}

// comment makes text safe inside an XML comment ("--" is not allowed).
func comment(s string) string {
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "- -")
	}
	return strings.TrimSuffix(s, "-")
}

func escape(s string) string {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}

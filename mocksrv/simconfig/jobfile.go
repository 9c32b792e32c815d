package simconfig

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
)

// jobfileAttr is one numeric attribute of a job-file <job> with ds-server's
// message when it is missing (ds-server.md §2.7).
type jobfileAttr struct {
	name    string
	missing string
}

var jobfileAttrs = [...]jobfileAttr{
	{"id", "Error: Invalid job ID"},
	{"submitTime", "Error: Invalid submit time"},
	{"estRunTime", "Error: Invalid estimated run time"},
	{"actRunTime", "Error: Invalid actual run time"},
	{"cores", "Error: Invalid core count"},
	{"memory", "Error: Invalid memory amount"},
	{"disk", "Error: Invalid disk amount"},
}

// jobfileParse reads a job file (ds-server.md §2.7): every element named
// "job" anywhere in the document is a job, in document order; other elements
// (e.g. the <type> lines of a ds-jobs.xml) are ignored. Attributes id, type,
// submitTime, estRunTime, cores, memory and disk are required; actRunTime is
// optional (absent: the estimate). Values are read like strtol and are not
// validated, as in ds-server. A value without digits prints strtol's "No
// digits were found!" followed by the attribute's "Error: Invalid …" line
// (our reading of §2.7, whose messages name invalid values; not verified).
//
// Three deliberate differences: ids must be 0, 1, 2, … in file order
// (ds-server accepts other ids and then checks capability against the wrong
// job, §2.7; we reject the file at load time, naming the element and the
// expected id), a negative submitTime is refused (ds-server's clock would
// run below 0), and more than 1,000,000 jobs is an error.
//
// The file is streamed through encoding/xml (not etree) because it can hold
// a million jobs. The returned error has only the rule's own stderr lines;
// the config loader completes it.
func jobfileParse(path string, data []byte) ([]Job, *ConfigError) {
	jobs, _, e := jobfileParseExt(path, data)
	return jobs, e
}

// jobfileParseExt is jobfileParse with the memory extension's attributes
// (jobfile_memext.go): how many jobs carry actMemory and the first invalid
// one, which does not refuse the file (ds-server ignores the attribute).
func jobfileParseExt(path string, data []byte) ([]Job, memAttrs, *ConfigError) {
	var ext memAttrs
	data = bytes.TrimPrefix(data, cfgBOM)
	d := cfgXMLDecoder(bytes.NewReader(data))
	jobs := make([]Job, 0, bytes.Count(data, []byte("<job ")))
	depth, roots := 0, 0
	bad := func(line int, ctx, msg string, lines ...string) *ConfigError {
		c := fmt.Sprintf("line %d", line)
		if ctx != "" {
			c += ": " + ctx
		}
		if len(lines) == 0 {
			lines = []string{path + ": " + c + ": " + msg}
		}
		return &ConfigError{File: path, Context: c, Msg: msg, Stderr: lines}
	}
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			l, m := cfgXMLErr(err, line)
			e := bad(l, "", m)
			e.Divergence = "ds-server aborts on an unparsable job file"
			return nil, ext, e
		}
		if _, m := cfgXMLTokenCheck(tok, depth, &roots); m != "" {
			e := bad(line, "", m)
			e.Divergence = "ds-server aborts on an unparsable job file"
			return nil, ext, e
		}
		switch t := tok.(type) {
		case xml.EndElement:
			depth--
		case xml.StartElement:
			depth++
			if t.Name.Local != "job" {
				continue
			}
			k := len(jobs)
			if k >= cfgMaxJobs {
				e := bad(line, fmt.Sprintf("<job> %d", k), fmt.Sprintf("more than %d jobs", cfgMaxJobs))
				e.Divergence = "ds-server's limit; its own message is not specified"
				return nil, ext, e
			}
			j, e := jobfileJob(t, k, line, bad)
			if e != nil {
				return nil, ext, e
			}
			ext.read(path, t, &j, line)
			jobs = append(jobs, j)
		}
	}
	if roots == 0 {
		e := bad(1, "", "malformed XML: no root element")
		e.Divergence = "ds-server aborts on an unparsable job file"
		return nil, ext, e
	}
	return jobs, ext, nil
}

// jobfileJob reads the k-th (0-based) <job> element of a job file.
func jobfileJob(t xml.StartElement, k, line int, bad func(int, string, string, ...string) *ConfigError) (Job, *ConfigError) {
	ctx := fmt.Sprintf("<job> %d", k)
	get := func(name string) (string, bool) {
		for _, a := range t.Attr {
			if a.Name.Space == "" && a.Name.Local == name {
				return a.Value, true
			}
		}
		return "", false
	}
	var vals [len(jobfileAttrs)]int
	var j Job
	for i, a := range jobfileAttrs {
		if i == 1 { // type comes right after id (§2.7)
			name, ok := get("type")
			if !ok {
				// k is 0-based here [NOT VERIFIED in ds-server.md].
				m := fmt.Sprintf(`no "type" attribute specified in "job" element %d!`, k)
				return j, bad(line, ctx+": attribute type", "missing", m)
			}
			j.Type = name
		}
		raw, ok := get(a.name)
		actx := ctx + ": attribute " + a.name
		if !ok {
			if a.name == "actRunTime" {
				vals[i] = vals[2] // absent: the estimate (§2.7)
				continue
			}
			return j, bad(line, actx, "missing", a.missing)
		}
		n, st := cfgStrtol(raw)
		switch st {
		case cfgNumNoDigits:
			return j, bad(line, actx, fmt.Sprintf("%q: %s", raw, cfgNoDigitsLine), cfgNoDigitsLine, a.missing)
		case cfgNumRange:
			return j, bad(line, actx, fmt.Sprintf("%q: %s", raw, cfgRangeLine("strtol")), cfgRangeLine("strtol"), a.missing)
		}
		vals[i] = cfgInt32(n)
	}
	j.ID, j.Submit, j.EstRunTime, j.ActRunTime = vals[0], vals[1], vals[2], vals[3]
	j.Cores, j.Memory, j.Disk = vals[4], vals[5], vals[6]
	if j.ID != k {
		m := fmt.Sprintf("job id %d where id %d was expected: ids must be 0, 1, 2, … in file order", j.ID, k)
		e := bad(line, ctx+": attribute id", m)
		e.Divergence = "ds-server loads the file, then checks capability against the job at position = id"
		return j, e
	}
	if j.Submit < 0 {
		// ds-server's clock starts at 0 and reads submit times unchecked
		// (§2.7); a job before 0 moves it backwards where nothing defines
		// what follows, and dsmock's results would differ without a word.
		m := fmt.Sprintf("submitTime %d is negative: the simulation starts at time 0 (a value past 2147483647 wraps to a negative one)", j.Submit)
		e := bad(line, ctx+": attribute submitTime", m)
		e.Divergence = "ds-server runs the file with its clock going below 0, with results dsmock does not reproduce"
		return j, e
	}
	return j, nil
}

package memwork

import (
	"strconv"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

func itoa(n int) string { return strconv.Itoa(n) }

// JobsXML is a job file (ds-server.md §2.7) of jobs with the extension's
// attributes actMemory and app after ds-server's own (which it ignores);
// comment, when not empty, goes in an XML comment at the top (the
// parameters, Part F). actRunTime is always written.
func JobsXML(jobs []model.Job, comment string) []byte {
	b := make([]byte, 0, 100+160*len(jobs))
	b = append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"...)
	if comment != "" {
		b = append(b, "<!-- "...)
		b = append(b, xmlComment(comment)...)
		b = append(b, " -->\n"...)
	}
	b = append(b, "<jobs>\n"...)
	for _, j := range jobs {
		b = append(b, "\t<job id=\""...)
		b = strconv.AppendInt(b, int64(j.ID), 10)
		b = append(b, "\" type=\""...)
		b = append(b, xmlAttr(j.Type)...)
		for _, kv := range [...]struct {
			k string
			v int
		}{{"submitTime", j.Submit}, {"estRunTime", j.EstRunTime}, {"actRunTime", j.ActRunTime},
			{"cores", j.Cores}, {"memory", j.Memory}, {"disk", j.Disk}, {"actMemory", j.ActMem()}} {
			b = append(b, "\" "...)
			b = append(b, kv.k...)
			b = append(b, "=\""...)
			b = strconv.AppendInt(b, int64(kv.v), 10)
		}
		if j.App != "" {
			b = append(b, "\" app=\""...)
			b = append(b, xmlAttr(j.App)...)
		}
		b = append(b, "\" />\n"...)
	}
	return append(b, "</jobs>\n"...)
}

// ClusterXML is a configuration of the cluster for fraction f (Part E
// item 3) using jobFile (a path relative to the configuration), with
// termination by job count jobs. Types are listed small first: ds-server
// sorts types of equal cores stably, and the last is the largest, which
// bounds GETS (ds-server.md §2.9, §5.3).
func ClusterXML(c Cluster, f float64, jobFile string, jobs int, comment string) []byte {
	var b []byte
	b = append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"...)
	if comment != "" {
		b = append(b, "<!-- "+xmlComment(comment)+" -->\n"...)
	}
	b = append(b, "<config randomSeed=\"1024\">\n  <servers>\n"...)
	rate := strconv.FormatFloat(c.HourlyRate, 'f', -1, 64)
	for _, t := range [...]struct {
		name string
		mem  int
	}{{"small", c.SmallMemory(f)}, {"big", c.BigMemory}} {
		b = append(b, "\t<server type=\""+t.name+"\" limit=\""+itoa(c.Count)+"\" bootupTime=\""+itoa(c.BootupTime)+
			"\" hourlyRate=\""+rate+"\" cores=\""+itoa(c.Cores)+"\" memory=\""+itoa(t.mem)+"\" disk=\""+itoa(c.Disk)+"\" />\n"...)
	}
	b = append(b, "  </servers>\n  <jobs file=\""+xmlAttr(jobFile)+"\" />\n"...)
	b = append(b, "  <termination>\n\t<condition type=\"endtime\" value=\"2592000\" />\n\t<condition type=\"jobcount\" value=\""+itoa(jobs)+"\" />\n  </termination>\n</config>\n"...)
	return b
}

// xmlAttr escapes an attribute value.
func xmlAttr(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			out = append(out, "&amp;"...)
		case '<':
			out = append(out, "&lt;"...)
		case '"':
			out = append(out, "&quot;"...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// xmlComment keeps "--" out of a comment.
func xmlComment(s string) string {
	out := []byte(s)
	for i := 1; i < len(out); i++ {
		if out[i] == '-' && out[i-1] == '-' {
			out[i] = '_'
		}
	}
	return string(out)
}

package swf

import (
	"strconv"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// JobsXML is the job file: ds-jobs.xml's layout (model.Config.JobsXML with
// actRunTime, ds-server.md §1.8; the version line of the default year's
// server, which reads it as any job file), no job types, and after disk the hidden
// attributes that are known, in this order: actMemory, swfJob, user, app.
// ds-server reads every <job> element and ignores attributes it does not
// know (§2.7); dsmock does the same.
func (r *Result) JobsXML() []byte {
	b := make([]byte, 0, 160+190*len(r.Jobs))
	b = append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- job list for ds-sim, "...)
	b = append(b, model.DefaultYear.Version()...)
	b = append(b, " -->\n<jobs>\n"...)
	for i := range r.Jobs {
		b = appendJob(b, &r.Jobs[i])
	}
	return append(b, "</jobs>\n"...)
}

func appendJob(b []byte, j *Converted) []byte {
	num := func(name string, v int64) {
		b = append(b, "\" "...)
		b = append(b, name...)
		b = append(b, "=\""...)
		b = strconv.AppendInt(b, v, 10)
	}
	b = append(b, "\t<job id=\""...)
	b = strconv.AppendInt(b, int64(j.ID), 10)
	b = append(b, "\" type=\""...)
	b = append(b, j.Type...)
	num("submitTime", int64(j.Submit))
	num("estRunTime", int64(j.EstRunTime))
	num("actRunTime", int64(j.ActRunTime))
	num("cores", int64(j.Cores))
	num("memory", int64(j.Memory))
	num("disk", int64(j.Disk))
	if j.ActMemory > 0 {
		num("actMemory", int64(j.ActMemory))
	}
	if j.SWFJob != Missing {
		num("swfJob", j.SWFJob)
	}
	if j.User != Missing {
		num("user", j.User)
	}
	if j.App != "" {
		b = append(b, "\" app=\""...)
		b = append(b, escape(j.App)...)
	}
	return append(b, "\" />\n"...)
}

package model

import "strconv"

// JobsXML returns the ds-jobs.xml ds-server writes at the end of a run with
// generated jobs (ds-server.md §1.8, job-generation.md §6), with the
// version of year's server on line 2: the job types in config order, then
// every job in id order. withActual inserts
// actRunTime="…" between estRunTime and cores, as the variant build that made
// the fixtures does. Names are written as the XML parser returned them,
// without re-escaping (§6).
func (c *Config) JobsXML(year Year, withActual bool) []byte {
	b := make([]byte, 0, 160+80*len(c.JobTypes)+130*len(c.Jobs))
	b = append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- job list for ds-sim, "...)
	b = append(b, year.Version()...)
	b = append(b, " -->\n<jobs>\n"...)
	for _, t := range c.JobTypes {
		b = append(b, "\t<type name=\""...)
		b = append(b, t.Name...)
		b = append(b, "\" minRunTime=\""...)
		b = strconv.AppendInt(b, int64(t.MinRunTime), 10)
		b = append(b, "\" maxRunTime=\""...)
		b = strconv.AppendInt(b, int64(t.MaxRunTime), 10)
		b = append(b, "\" populationRate=\""...)
		b = strconv.AppendInt(b, int64(t.PopulationRate), 10)
		b = append(b, "\" />\n"...)
	}
	for _, j := range c.Jobs {
		b = append(b, "\t<job id=\""...)
		b = strconv.AppendInt(b, int64(j.ID), 10)
		b = append(b, "\" type=\""...)
		b = append(b, j.Type...)
		b = append(b, "\" submitTime=\""...)
		b = strconv.AppendInt(b, int64(j.Submit), 10)
		b = append(b, "\" estRunTime=\""...)
		b = strconv.AppendInt(b, int64(j.EstRunTime), 10)
		if withActual {
			b = append(b, "\" actRunTime=\""...)
			b = strconv.AppendInt(b, int64(j.ActRunTime), 10)
		}
		b = append(b, "\" cores=\""...)
		b = strconv.AppendInt(b, int64(j.Cores), 10)
		b = append(b, "\" memory=\""...)
		b = strconv.AppendInt(b, int64(j.Memory), 10)
		b = append(b, "\" disk=\""...)
		b = strconv.AppendInt(b, int64(j.Disk), 10)
		b = append(b, "\" />\n"...)
	}
	return append(b, "</jobs>\n"...)
}

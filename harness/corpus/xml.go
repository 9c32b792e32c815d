package corpus

import (
	"fmt"
	"strconv"
	"strings"
)

// configXML writes p as a ds-sim config: the parameters in a comment, the
// server types smallest first, then the job types and workload, or the
// job file jobFile when it is not "". The failure model, if any, is the
// failureModel attribute of <servers> (docs/simulator.md, Failures).
func configXML(p Params, seed uint64, jobFile string) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&b, "<!-- dssim-go corpus: seed %d, class %s, config %d: %s -->\n", seed, p.Class, p.Index, p.summary())
	fmt.Fprintf(&b, "<config randomSeed=\"%d\">\n", p.Seed)
	if p.Failure != "none" {
		fmt.Fprintf(&b, "  <servers failureModel=\"%s\">\n", p.Failure)
	} else {
		b.WriteString("  <servers>\n")
	}
	for _, t := range p.Types {
		fmt.Fprintf(&b, "    <server type=\"%s\" limit=\"%d\" bootupTime=\"%d\" hourlyRate=\"%d.%02d\" cores=\"%d\" memory=\"%d\" disk=\"%d\" />\n",
			t.Name, t.Limit, t.Boot, t.Cents/100, t.Cents%100, t.Cores, t.Memory, t.Disk)
	}
	b.WriteString("  </servers>\n")
	if jobFile != "" {
		fmt.Fprintf(&b, "  <jobs file=\"%s\" />\n", jobFile)
	} else {
		b.WriteString("  <jobs>\n")
		for _, j := range p.JobTypes {
			fmt.Fprintf(&b, "    <job type=\"%s\" minRunTime=\"%d\" maxRunTime=\"%d\" populationRate=\"%d\" />\n", j.Name, j.Min, j.Max, j.Population)
		}
		b.WriteString("  </jobs>\n")
		fmt.Fprintf(&b, "  <workload type=\"corpus\" minLoad=\"%d\" maxLoad=\"%d\" />\n", p.MinLoad, p.MaxLoad)
	}
	b.WriteString("  <termination>\n    <condition type=\"endtime\" value=\"2592000\" />\n")
	fmt.Fprintf(&b, "    <condition type=\"jobcount\" value=\"%d\" />\n  </termination>\n</config>\n", p.Jobs)
	return []byte(b.String())
}

// summary is the drawn parameters in a line, for the file's comment.
func (p Params) summary() string {
	perCore := make([]string, len(p.Types))
	for i, t := range p.Types {
		perCore[i] = strconv.Itoa(t.Permille)
	}
	return fmt.Sprintf("price %s (base $0.%03d/h per core; per type, per mille of it: %s), runs %s, load %d-%d %%, jobs %d, estimates %s, failures %s",
		p.Price, p.Base, strings.Join(perCore, " "), p.Runs, p.MinLoad, p.MaxLoad, p.Jobs, p.Estimate, p.Failure)
}

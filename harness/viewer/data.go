package viewer

import "reflect"

// The page's data: columns of numbers rather than one object per job, so
// a 20,000-job run is a few hundred kilobytes of JSON and the script reads
// it into typed arrays without building 20,000 objects.

type pageData struct {
	Title  string      `json:"title"`
	Groups []groupData `json:"groups"`
}

type groupData struct {
	Title string    `json:"title"`
	Runs  []runData `json:"runs"`
	// Jobs are the runs' jobs when every run of the group has the same
	// (the strategies of one config): kept once, not once per run.
	Jobs *jobCols `json:"jobs,omitempty"`
}

type runData struct {
	Name      string     `json:"name"`
	Source    string     `json:"source"`
	Level     string     `json:"level"`
	End       int        `json:"end"`
	TotalCost float64    `json:"totalCost"`
	LogCost   string     `json:"logCost"`
	Notes     []string   `json:"notes"`
	Types     []typeData `json:"types"`
	// Servers: type index and id; Power: per server, flat triples
	// (boot start, boot end, off); Fails: flat pairs (from, to).
	SrvType []int    `json:"srvType"`
	SrvID   []int    `json:"srvId"`
	Power   [][]int  `json:"power"`
	Fails   [][]int  `json:"fails"`
	Jobs    *jobCols `json:"jobs,omitempty"` // nil when the group holds them
	Stays   stayCol  `json:"stays"`
	Queue   series   `json:"queue"`
	Powered series   `json:"powered"`
	Cost    series   `json:"cost"`
}

type typeData struct {
	Name  string  `json:"name"`
	Cores int     `json:"cores"`
	Boot  int     `json:"boot"`
	Rate  float32 `json:"rate"`
}

type jobCols struct {
	ID     []int `json:"id"`
	Submit []int `json:"submit"`
	Cores  []int `json:"cores"`
	Mem    []int `json:"mem"`
	Disk   []int `json:"disk"`
	Est    []int `json:"est"`
	Act    []int `json:"act"`
}

type stayCol struct {
	Job     []int `json:"job"`
	Server  []int `json:"server"`
	Ready   []int `json:"ready"`
	Placed  []int `json:"placed"`
	Start   []int `json:"start"`
	End     []int `json:"end"`
	Outcome []int `json:"outcome"`
}

type series struct {
	T []int     `json:"t"`
	V []float64 `json:"v"`
}

func seriesOf(ps []Point) series {
	var s series
	for _, p := range ps {
		s.T = append(s.T, p.T)
		s.V = append(s.V, p.V)
	}
	return s
}

func (r *Run) data() runData {
	d := runData{Name: r.Name, Source: r.Source, Level: r.Level, End: r.End, TotalCost: r.TotalCost,
		LogCost: r.LogCost, Notes: r.Notes, Queue: seriesOf(r.Queue), Powered: seriesOf(r.Powered), Cost: seriesOf(r.Cost)}
	for _, t := range r.Types {
		d.Types = append(d.Types, typeData{t.Name, t.Cores, t.Boot, t.Rate})
	}
	for _, s := range r.Servers {
		d.SrvType = append(d.SrvType, s.Type)
		d.SrvID = append(d.SrvID, s.ID)
		pw := []int{}
		for _, p := range s.Power {
			pw = append(pw, p.BootStart, p.BootEnd, p.Off)
		}
		fl := []int{}
		for _, f := range s.Fails {
			fl = append(fl, f.From, f.To)
		}
		d.Power = append(d.Power, pw)
		d.Fails = append(d.Fails, fl)
	}
	d.Jobs = &jobCols{}
	for _, j := range r.Jobs {
		c := d.Jobs
		c.ID, c.Submit, c.Cores = append(c.ID, j.ID), append(c.Submit, j.Submit), append(c.Cores, j.Cores)
		c.Mem, c.Disk = append(c.Mem, j.Memory), append(c.Disk, j.Disk)
		c.Est, c.Act = append(c.Est, j.Est), append(c.Act, j.Act)
	}
	for _, s := range r.Stays {
		c := &d.Stays
		c.Job, c.Server = append(c.Job, s.Job), append(c.Server, s.Server)
		c.Ready, c.Placed = append(c.Ready, s.Ready), append(c.Placed, s.Placed)
		c.Start, c.End, c.Outcome = append(c.Start, s.Start), append(c.End, s.End), append(c.Outcome, int(s.Outcome))
	}
	return d
}

// shareJobs moves the runs' jobs to the group when they are all the same.
func (g *groupData) shareJobs() {
	if len(g.Runs) < 2 {
		return
	}
	first := g.Runs[0].Jobs
	for _, r := range g.Runs[1:] {
		if !reflect.DeepEqual(r.Jobs, first) {
			return
		}
	}
	g.Jobs = first
	for i := range g.Runs {
		g.Runs[i].Jobs = nil
	}
}

package memwork

import (
	"fmt"
	"math"
	"strings"
)

// Cluster is the experiment's cluster (Part E item 3): Count servers of
// each of two types, "small" with f·BigMemory MB and "big" with BigMemory
// MB, otherwise equal.
type Cluster struct {
	Count      int     // servers per type
	Cores      int     // cores per server
	BigMemory  int     // M, MB
	Disk       int     // MB
	BootupTime int     // seconds
	HourlyRate float64 // dollars per hour, both types
}

// Params are the synthetic workload's knobs.
type Params struct {
	Seed     uint64
	Jobs     int
	Apps     int     // latent applications
	Zipf     float64 // popularity exponent: app k has weight 1/k^Zipf
	OverFrac float64 // share of apps over-requesting by ≥ 2×
	MaxRatio float64 // largest over-request ratio (tail)
	Jitter   float64 // similarity range s: usage varies by ±s within an app
	Collide  float64 // chance that an app reuses an earlier app's request triple
	Load     float64 // offered load: mean cores × run time demand ÷ cluster cores
	RunMin   int     // apps' run-time scales, log-uniform in [RunMin, RunMax] seconds
	RunMax   int
	Cluster  Cluster
}

// Defaults are the study's workload: 2,000 jobs of 40 apps on 2 × 16
// servers of 4 cores, M = 32,000 MB (the paper's 32 MB nodes × 1000; the
// smallest M for which M/32 meets ds-server's 1000 MB minimum), about a
// third of the apps over-requesting by 2× to 100×, ±10 % jitter.
func Defaults() Params {
	return Params{Seed: 1, Jobs: 2000, Apps: 40, Zipf: 1, OverFrac: 0.33, MaxRatio: 100, Jitter: 0.1,
		Collide: 0, Load: 0.8, RunMin: 60, RunMax: 3600,
		Cluster: Cluster{Count: 16, Cores: 4, BigMemory: 32000, Disk: 64000, BootupTime: 60, HourlyRate: 0.8}}
}

// Validate refuses parameters the generator or ds-server's limits cannot
// take, naming the parameter.
func (p Params) Validate() error {
	c := p.Cluster
	checks := []struct {
		bad  bool
		name string
		want string
	}{
		{p.Jobs < 1 || p.Jobs > 1000000, "jobs", "1 … 1000000 (ds-server's job count limit)"},
		{p.Apps < 1, "apps", "at least 1"},
		{!(p.Zipf >= 0 && p.Zipf <= 10), "zipf", "0 … 10"},
		{!(p.OverFrac >= 0 && p.OverFrac <= 1), "over", "0 … 1"},
		{!(p.MaxRatio >= 2 && p.MaxRatio <= 1e6), "maxratio", "2 … 1e6"},
		{!(p.Jitter >= 0 && p.Jitter < 1), "jitter", "0 ≤ jitter < 1"},
		{!(p.Collide >= 0 && p.Collide <= 1), "collide", "0 … 1"},
		{!(p.Load > 0 && p.Load <= 100), "load", "0 < load ≤ 100"},
		{p.RunMin < 1 || p.RunMax < p.RunMin || p.RunMax > 604800, "runmin/runmax", "1 ≤ runmin ≤ runmax ≤ 604800 (ds-server's run-time limit)"},
		{c.Count < 1 || c.Count > 1000, "count", "1 … 1000 servers per type"},
		{c.Cores < 1 || c.Cores > 1024, "cores", "1 … 1024"},
		{c.BigMemory < 1000 || c.BigMemory > math.MaxInt32, "M", "1000 … 2147483647 MB (ds-server's memory limit)"},
		{c.Disk < max(1000, 200*c.Cores) || c.Disk > math.MaxInt32, "disk", "max(1000, 200 per core) … 2147483647 MB (ds-server's limits)"},
		{c.BigMemory < 200*c.Cores, "M", "at least 200 MB per core (ds-server's limit)"},
		{c.BootupTime < 0 || c.BootupTime > 600, "boot", "0 … 600 seconds"},
		{!(c.HourlyRate > 0 && c.HourlyRate < 1e6), "rate", "a positive hourly rate"},
	}
	for _, k := range checks {
		if k.bad {
			return fmt.Errorf("memwork: parameter %s: want %s", k.name, k.want)
		}
	}
	return nil
}

// SmallMemory is the small type's memory for fraction f: ⌊f·M⌋ rounded
// down to a multiple of 100, at least ds-server's minimum, max(1000, 200
// per core) MB (ds-server.md §2.3).
func (c Cluster) SmallMemory(f float64) int {
	m := int(f*float64(c.BigMemory)) / 100 * 100
	return max(m, 1000, 200*c.Cores)
}

// String lists every parameter, to be printed with results (Part F).
func (p Params) String() string {
	c := p.Cluster
	var b strings.Builder
	fmt.Fprintf(&b, "memwork seed=%d jobs=%d apps=%d zipf=%g over=%g maxratio=%g jitter=%g collide=%g load=%g runmin=%d runmax=%d",
		p.Seed, p.Jobs, p.Apps, p.Zipf, p.OverFrac, p.MaxRatio, p.Jitter, p.Collide, p.Load, p.RunMin, p.RunMax)
	fmt.Fprintf(&b, " count=%d cores=%d M=%d disk=%d boot=%d rate=%g", c.Count, c.Cores, c.BigMemory, c.Disk, c.BootupTime, c.HourlyRate)
	return b.String()
}

package memwork

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dssim-go/dssim-go/mocksrv/engine"
	"github.com/dssim-go/dssim-go/mocksrv/simconfig"
)

func gen(t testing.TB, p Params) *Workload {
	t.Helper()
	w, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestDeterministic: the same parameters give the same jobs; another seed
// other jobs.
func TestDeterministic(t *testing.T) {
	p := Defaults()
	p.Jobs = 300
	a, b := gen(t, p), gen(t, p)
	if !reflect.DeepEqual(a.Jobs, b.Jobs) {
		t.Fatal("same parameters, different jobs")
	}
	p.Seed++
	if reflect.DeepEqual(a.Jobs, gen(t, p).Jobs) {
		t.Fatal("another seed, the same jobs")
	}
}

// TestKnobs: every job's use is in 1 … its request; about OverFrac of the
// jobs over-request by 2× or more when apps are equally popular; within an
// app the use varies by no more than ±Jitter (up to rounding and the cap
// at the request); ratios stay under MaxRatio×(1+Jitter)/(1−Jitter).
func TestKnobs(t *testing.T) {
	p := Defaults()
	p.Jobs, p.Apps, p.Zipf, p.Jitter = 20000, 1000, 0, 0.1
	w := gen(t, p)
	st := w.Stats(1.0 / 32)
	if math.Abs(st.Over2x-p.OverFrac) > 0.05 {
		t.Errorf("share over-requesting ≥ 2×: %.3f, want about %.2f", st.Over2x, p.OverFrac)
	}
	if lim := p.MaxRatio * (1 + p.Jitter) / (1 - p.Jitter) * 1.01; st.MaxRatio > lim || st.MaxRatio < p.MaxRatio/4 {
		t.Errorf("largest ratio %.1f, want a tail towards %g (at most %.1f)", st.MaxRatio, p.MaxRatio, lim)
	}
	lo, hi := map[string]float64{}, map[string]float64{}
	for _, j := range w.Jobs {
		if j.ActMemory < 1 || j.ActMemory > j.Memory {
			t.Fatalf("job %d: actMemory %d outside 1 … %d", j.ID, j.ActMemory, j.Memory)
		}
		r := float64(j.ActMemory) / float64(j.Memory)
		if _, ok := lo[j.App]; !ok {
			lo[j.App], hi[j.App] = r, r
		}
		lo[j.App], hi[j.App] = math.Min(lo[j.App], r), math.Max(hi[j.App], r)
	}
	for app := range lo {
		if lo[app]*float64(w.Jobs[0].Memory) > 50 && hi[app]/lo[app] > (1+p.Jitter)/(1-p.Jitter)+0.02 {
			t.Errorf("%s: use ratio varies %.3f … %.3f, beyond ±%g", app, lo[app], hi[app], p.Jitter)
		}
	}
}

// TestCollide: collide=1 gives every app the first app's request triple
// (one visible key); collide=0 many.
func TestCollide(t *testing.T) {
	keys := func(w *Workload) int {
		k := map[[3]int]bool{}
		for _, j := range w.Jobs {
			k[[3]int{j.Cores, j.Memory, j.Disk}] = true
		}
		return len(k)
	}
	p := Defaults()
	p.Jobs = 2000
	p.Collide = 1
	if n := keys(gen(t, p)); n != 1 {
		t.Errorf("collide=1: %d visible keys, want 1", n)
	}
	p.Collide = 0
	if n := keys(gen(t, p)); n < 10 {
		t.Errorf("collide=0: %d visible keys, want many", n)
	}
}

// TestLoad: twice the load, about half the span of submit times.
func TestLoad(t *testing.T) {
	p := Defaults()
	p.Jobs = 5000
	a := gen(t, p).Jobs
	p.Load *= 2
	b := gen(t, p).Jobs
	r := float64(b[len(b)-1].Submit) / float64(a[len(a)-1].Submit)
	if r < 0.4 || r > 0.6 {
		t.Errorf("span ratio %.2f at twice the load, want about 0.5", r)
	}
}

// TestValidate: each bad parameter is refused, naming it.
func TestValidate(t *testing.T) {
	for name, edit := range map[string]func(*Params){
		"jobs":          func(p *Params) { p.Jobs = 0 },
		"apps":          func(p *Params) { p.Apps = 0 },
		"over":          func(p *Params) { p.OverFrac = 2 },
		"maxratio":      func(p *Params) { p.MaxRatio = 1 },
		"jitter":        func(p *Params) { p.Jitter = 1 },
		"load":          func(p *Params) { p.Load = 0 },
		"runmin/runmax": func(p *Params) { p.RunMin, p.RunMax = 10, 5 },
		"M":             func(p *Params) { p.Cluster.BigMemory = 999 },
		"zipf":          func(p *Params) { p.Zipf = math.NaN() },
	} {
		p := Defaults()
		edit(&p)
		if _, err := Generate(p); err == nil || !strings.Contains(err.Error(), "parameter "+name+":") {
			t.Errorf("%s: err %v", name, err)
		}
	}
}

// TestFilesRun: a sweep point's files load in dsmock's loader (the small
// type first, memory f·M; every job with actMemory) and run in the engine
// with the extension on; ds-server's own reading ignores the attributes.
func TestFilesRun(t *testing.T) {
	pts, err := ParseSweep("jobs=200,f=1/32|1")
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[0].String() != "memwork-s1-f1_32" || pts[1].String() != "memwork-s1-f1_1" {
		t.Fatalf("points %v", pts)
	}
	cfgXML, jobsXML, err := Files(pts[0])
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"c/config.xml": {Data: cfgXML}, "c/jobs.xml": {Data: jobsXML}}
	cfg, err := simconfig.ParseConfig("c/config.xml", cfgXML, simconfig.LoadOptions{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Jobs) != 200 || cfg.ActMemoryJobs != 200 || cfg.ActMemoryErr != nil {
		t.Fatalf("jobs %d, with actMemory %d, err %v", len(cfg.Jobs), cfg.ActMemoryJobs, cfg.ActMemoryErr)
	}
	if cfg.Types[0].Name != "small" || cfg.Types[0].Memory != 1000 || cfg.Largest().Name != "big" || cfg.Largest().Memory != 32000 {
		t.Fatalf("types %+v", cfg.Types)
	}
	if !strings.Contains(string(jobsXML), "<!-- "+pts[0].Params.String()+" -->") {
		t.Error("the job file does not carry its parameters")
	}
	if _, err := engine.NewEngine(cfg, engine.Options{MemFail: engine.MemFailHard}); err != nil {
		t.Fatal(err)
	}
}

// TestParseSweepErrors: bad specs are refused, naming the key.
func TestParseSweepErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"f=0":          "f: \"0\": want fractions in (0, 1]",
		"f=1/0":        "f: \"1/0\"",
		"seeds=5-2":    "seeds: \"5-2\"",
		"jobs=x":       "jobs: \"x\": want a whole number",
		"colour=red":   "colour: unknown key",
		"jitter":       "want key=value",
		"jobs=0":       "parameter jobs",
		"seeds=0-9999": "more than 10000 points",
	} {
		if _, err := ParseSweep(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", spec, err, want)
		}
	}
}

// FuzzParseSweep: any spec is parsed or refused, never a panic; a parsed
// one gives valid points.
func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"", "seeds=1-3,f=1/32|1/8|1,jobs=500,jitter=0.2", "f=0.5", "M=64000,cores=8", "load=1e309"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		pts, err := ParseSweep(spec)
		if err != nil {
			return
		}
		for _, pt := range pts {
			if pt.Params.Validate() != nil || !(pt.F > 0 && pt.F <= 1) {
				t.Fatalf("%q: invalid point %+v", spec, pt)
			}
		}
	})
}

// BenchmarkGenerate: the default workload.
func BenchmarkGenerate(b *testing.B) {
	p := Defaults()
	b.ReportAllocs()
	for b.Loop() {
		gen(b, p)
	}
}

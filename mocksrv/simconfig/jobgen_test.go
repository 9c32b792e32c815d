package simconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// TestJobgenGran: the size-class table of job-generation.md §4.4.
func TestJobgenGran(t *testing.T) {
	type tl struct{ cores, limit int }
	cases := []struct {
		name  string
		types []tl
		want  []int
	}{
		{"ds-sample-config01", []tl{{2, 2}, {4, 2}, {16, 1}}, []int{56, 33, 11}},
		{"config100-*", []tl{{1, 20}, {2, 20}, {4, 20}, {8, 20}, {16, 20}}, []int{33, 27, 20, 13, 7}},
		{"config20-*", []tl{{1, 4}, {2, 4}, {4, 4}, {8, 4}, {16, 4}}, []int{33, 27, 20, 13, 7}},
		{"ds-sample-config03", []tl{{1, 20}, {2, 20}, {4, 30}, {8, 10}, {16, 10}}, []int{38, 29, 21, 8, 4}},
		{"ds-sample-config04", []tl{{1, 100}, {2, 100}, {4, 100}, {8, 40}, {16, 40}, {32, 20}, {64, 20}, {128, 20}, {256, 10}},
			[]int{31, 24, 17, 10, 7, 5, 3, 2, 1}},
		{"sample-config02", []tl{{1, 2}, {2, 2}, {4, 2}}, []int{50, 33, 17}},
		{"sample-config03", []tl{{1, 16}, {2, 16}, {4, 8}, {8, 4}, {16, 4}}, []int{44, 30, 15, 7, 4}},
		{"sample-config05 (sum 99)", []tl{{1, 100}, {2, 80}, {4, 40}, {8, 20}, {16, 20}, {32, 10}, {64, 10}, {128, 10}, {256, 10}},
			[]int{35, 23, 14, 9, 7, 5, 3, 2, 1}},
		{"s2-config05", []tl{{1, 1}, {2, 1}, {4, 1}, {8, 1}, {16, 1}, {32, 1}, {64, 1}, {128, 1}, {256, 1}},
			[]int{20, 18, 16, 13, 11, 9, 7, 4, 2}},
		{"e05 (equal cores)", []tl{{2, 5}, {2, 1}, {4, 2}, {8, 3}, {8, 2}, {8, 1}}, []int{26, 26, 15, 11, 11, 11}},
	}
	for _, tc := range cases {
		var types []ServerType
		for i, x := range tc.types {
			types = append(types, ServerType{Name: fmt.Sprint("t", i), Cores: x.cores, Limit: x.limit, Memory: 1 << 20, Disk: 1 << 20})
		}
		s := newJobgenSystem(types)
		if fmt.Sprint(s.gran) != fmt.Sprint(tc.want) {
			t.Errorf("%s: gran %v, want %v", tc.name, s.gran, tc.want)
		}
	}
}

// TestJobgenPct: pct of job-generation.md §4.6 (float32 arithmetic).
func TestJobgenPct(t *testing.T) {
	cases := []struct{ used, total, want int }{
		{29, 100, 29}, {53, 100, 52}, {57, 100, 57}, {58, 100, 58}, {59, 100, 58},
		{4, 28, 14}, {8, 28, 28}, {10, 28, 35}, {8, 511, 1}, {16, 511, 3}, {10, 20, 50},
		{0, 20, 0}, {40, 20, 200},
	}
	for _, tc := range cases {
		if got := jobgenPct(tc.used, tc.total); got != tc.want {
			t.Errorf("pct(%d, %d) = %d, want %d", tc.used, tc.total, got, tc.want)
		}
	}
}

// TestJobgenFitAndPrevSmaller: fit and prevSmaller of §4.6 on types with
// 1, 2, 4 and 8 cores (the largest class then gives 3 … 8, §5.5).
func TestJobgenFitAndPrevSmaller(t *testing.T) {
	s := newJobgenSystem([]ServerType{{Cores: 1, Limit: 1}, {Cores: 2, Limit: 1}, {Cores: 4, Limit: 1}, {Cores: 8, Limit: 1}})
	fits := map[int]int{1: 1, 2: 2, 3: 4, 4: 4, 5: 8, 8: 8}
	for c, want := range fits {
		if got := s.cores[s.fitIdx[c]]; got != want {
			t.Errorf("fit(%d) = %d, want %d", c, got, want)
		}
	}
	prev := []struct{ c, k, want int }{{8, 1, 2}, {8, 2, 4}, {4, 1, 2}, {2, 0, 1}, {1, 3, 0}, {2, -1, 0}, {8, -1, 0}}
	for _, p := range prev {
		if got := s.prevSmaller(p.c, p.k); got != p.want {
			t.Errorf("prevSmaller(%d, %d) = %d, want %d", p.c, p.k, got, p.want)
		}
	}
	if s.totalCores != 15 || s.usable[2] != 12 || s.usable[0] != 15 {
		t.Errorf("totalCores %d usable %v", s.totalCores, s.usable)
	}
}

// draw is one row of a worked example of job-generation.md §10.
type draw struct{ raw, mod int }

// recordDraws loads a shared config and generates its jobs while recording
// every draw.
func recordDraws(t *testing.T, name string) (*Config, []draw) {
	t.Helper()
	c, err := LoadConfig(filepath.Join(fixtures.Dir(t), "configs", name+".xml"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []draw
	g := newGlibcRand(uint32(c.Seed))
	g.onDraw = func(raw, m int) { got = append(got, draw{raw, m}) }
	jobs, e := jobgenRun(c, g)
	if e != nil {
		t.Fatal(e)
	}
	c.Jobs = jobs
	return c, got
}

func checkDraws(t *testing.T, got []draw, first int, want []draw) {
	t.Helper()
	for i, w := range want {
		k := first + i // 1-based draw number
		if k-1 >= len(got) {
			t.Fatalf("only %d draws, want draw #%d", len(got), k)
		}
		if got[k-1] != w {
			t.Errorf("draw #%d = %d %% %d, want %d %% %d", k, got[k-1].raw, got[k-1].mod, w.raw, w.mod)
		}
	}
}

func jobLine(j Job) string {
	return fmt.Sprintf(`<job id="%d" type="%s" submitTime="%d" estRunTime="%d" actRunTime="%d" cores="%d" memory="%d" disk="%d" />`,
		j.ID, j.Type, j.Submit, j.EstRunTime, j.ActRunTime, j.Cores, j.Memory, j.Disk)
}

// TestJobgenWorkedExampleDsSampleConfig01: §10.1 draw by draw (jobs 0–4,
// the transition of job 5, the repeated passes of job 9) and the ten
// reference lines.
func TestJobgenWorkedExampleDsSampleConfig01(t *testing.T) {
	c, got := recordDraws(t, "ds-sample-config01")
	checkDraws(t, got, 1, []draw{
		{2063425283, 100}, {2081142086, 1499}, {834218027, 1240}, {1646704646, 2}, {1978207673, 100},
		{208519552, 2}, {1410322150, 1000}, {1236869182, 2000}, {1708872217, 60},
		{1443641067, 100}, {348305436, 1499}, {1622717565, 1095}, {875182793, 2}, {1036950400, 100},
		{1881883527, 2}, {1360150666, 1000}, {2013305352, 2000}, {176143133, 55},
		{1854474286, 100}, {1521132920, 1499}, {146022731, 486}, {1235435226, 2}, {387006536, 100},
		{1058158727, 2}, {1461118683, 1000}, {690948973, 2000}, {1627309336, 50},
		{1692591287, 100}, {579894916, 1499}, {1752810001, 1071}, {1962265994, 2}, {495836551, 100},
		{1686468439, 2}, {649000373, 1000}, {2142541197, 2000}, {1517192465, 45},
		{857519925, 100}, {1405379699, 299}, {606577999, 166}, {418908494, 2}, {701537118, 100},
		{954883436, 2}, {2041626059, 1000}, {1576719912, 2000}, {1991833836, 40},
	})
	checkDraws(t, got, 54, []draw{{1618311349, 45}})
	// Job 9: three submit passes, intervals 55, 60, 65 (results 45, 8, 6).
	if len(got) != 92 {
		t.Fatalf("%d draws, want 92", len(got))
	}
	for i, w := range []struct{ mod, res int }{{55, 45}, {60, 8}, {65, 6}} {
		if d := got[89+i]; d.mod != w.mod || d.raw%d.mod != w.res {
			t.Errorf("draw #%d = %d %% %d, want %% %d = %d", 90+i, d.raw, d.mod, w.mod, w.res)
		}
	}
	want := []string{
		`<job id="0" type="medium" submitTime="37" estRunTime="653" actRunTime="1240" cores="3" memory="700" disk="3800" />`,
		`<job id="1" type="medium" submitTime="60" estRunTime="2025" actRunTime="1095" cores="2" memory="1500" disk="2900" />`,
		`<job id="2" type="medium" submitTime="96" estRunTime="343" actRunTime="486" cores="2" memory="1500" disk="2100" />`,
		`<job id="3" type="medium" submitTime="101" estRunTime="380" actRunTime="1071" cores="2" memory="900" disk="2500" />`,
		`<job id="4" type="short" submitTime="137" estRunTime="111" actRunTime="166" cores="1" memory="100" disk="2000" />`,
		`<job id="5" type="short" submitTime="156" estRunTime="8" actRunTime="21" cores="3" memory="2700" disk="2600" />`,
		`<job id="6" type="medium" submitTime="198" estRunTime="1074" actRunTime="560" cores="4" memory="4000" disk="7600" />`,
		`<job id="7" type="medium" submitTime="225" estRunTime="442" actRunTime="350" cores="2" memory="500" disk="2100" />`,
		`<job id="8" type="medium" submitTime="249" estRunTime="926" actRunTime="824" cores="1" memory="100" disk="800" />`,
		`<job id="9" type="medium" submitTime="308" estRunTime="2010" actRunTime="1470" cores="2" memory="600" disk="1500" />`,
	}
	checkJobLines(t, c.Jobs, want)
}

func checkJobLines(t *testing.T, jobs []Job, want []string) {
	t.Helper()
	for i, w := range want {
		if i >= len(jobs) {
			t.Fatalf("%d jobs, want at least %d", len(jobs), len(want))
		}
		if g := jobLine(jobs[i]); g != w {
			t.Errorf("job %d:\n got %s\nwant %s", i, g, w)
		}
	}
}

// TestJobgenWorkedExampleS2Config05: §10.2, jobs 0–4 draw by draw (with the
// %1 draws) and the tooLow burst of jobs 40–41.
func TestJobgenWorkedExampleS2Config05(t *testing.T) {
	c, got := recordDraws(t, "s2-config05")
	checkDraws(t, got, 1, []draw{
		{1591190403, 100}, {884181529, 59}, {501773720, 37}, {2098990912, 2}, {1230750258, 100}, {180789658, 4}, {53158197, 1000}, {2141940111, 2000}, {850227799, 60},
		{729931134, 100}, {617966657, 59}, {2121124738, 9}, {955385003, 2}, {1297366432, 100}, {1065257680, 1}, {1794515387, 1000}, {1747144014, 2000}, {1468947444, 55},
		{2043499146, 100}, {374528790, 59}, {328682592, 36}, {2045080440, 2}, {518716625, 100}, {957151531, 1}, {947747891, 1000}, {1647829283, 2000}, {303326987, 50},
		{1354730256, 100}, {434263169, 1740}, {954927476, 989}, {975552869, 2}, {2025453572, 100}, {1839109005, 8}, {1477326590, 2000}, {1976960837, 4000}, {922375616, 45},
		{1658116248, 100}, {2030119034, 59}, {916832079, 12}, {360860399, 2}, {612566520, 100}, {1534798736, 1}, {334501489, 1000}, {1567951524, 2000}, {684681521, 40},
	})
	checkDraws(t, got, 365, []draw{{299737692, 128}, {got[365].raw, 23000}, {got[366].raw, 46000}, {got[367].raw, 1}})
	checkJobLines(t, c.Jobs, []string{
		`<job id="0" type="normal" submitTime="19" estRunTime="4" actRunTime="37" cores="7" memory="2000" disk="1400" />`,
		`<job id="1" type="normal" submitTime="38" estRunTime="13" actRunTime="9" cores="2" memory="900" disk="200" />`,
		`<job id="2" type="normal" submitTime="75" estRunTime="36" actRunTime="36" cores="2" memory="1900" disk="2700" />`,
		`<job id="3" type="random" submitTime="116" estRunTime="1493" actRunTime="989" cores="14" memory="9600" disk="13100" />`,
		`<job id="4" type="normal" submitTime="117" estRunTime="15" actRunTime="12" cores="2" memory="1100" disk="3200" />`,
	})
	j40, j41 := c.Jobs[40], c.Jobs[41]
	if j40.Cores != 221 || j40.Submit != 207 || j41.Cores != 151 || j41.Submit != 207 {
		t.Errorf("tooLow burst: job 40 %d cores at %d, job 41 %d cores at %d; want 221 at 207, 151 at 207",
			j40.Cores, j40.Submit, j41.Cores, j41.Submit)
	}
}

// TestJobgenWorkedExampleS2Config01: §10.3, the last-class i−2 rule (draw
// #15 is %6, not %4) and the complete reference list.
func TestJobgenWorkedExampleS2Config01(t *testing.T) {
	c, got := recordDraws(t, "s2-config01")
	checkDraws(t, got, 1, []draw{
		{553316596, 100}, {1748907888, 3599}, {680492731, 2631}, {191440832, 2}, {1061163313, 100},
		{953167306, 2}, {1813102830, 1000}, {422412382, 2000}, {1037397080, 60}, {1493996466, 100},
		{1224393074, 3599}, {646898922, 2478}, {391646466, 2}, {1113278195, 100}, {2110331903, 6},
		{314342374, 1000}, {1343350356, 2000}, {410121885, 55}, {2120742151, 100}, {1220928026, 3599},
		{941746238, 3267}, {568434391, 2}, {1076897023, 100}, {835353172, 2}, {1836380318, 1000},
		{940803354, 2000}, {563955425, 50},
	})
	// The complete list of §10.3 (the ds-jobs.xml lines ds-server wrote).
	data, err := os.ReadFile(filepath.Join(fixtures.Tables(t), "s2-config01.jobs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(want) != 10 || len(c.Jobs) != 10 {
		t.Fatalf("%d reference lines, %d jobs; want 10 and 10", len(want), len(c.Jobs))
	}
	checkJobLines(t, c.Jobs, want)
}

// TestJobgenEqualCoresOrder: e05 (§11.3): stable sort, largest type = the
// last of the equal maxima (memory and disk caps 3000 / 5000).
func TestJobgenEqualCoresOrder(t *testing.T) {
	e := findEdge(t, "e05-equal-cores")
	c, err := ParseConfig("e05.xml", []byte(e.xml()), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ty := range c.Types {
		names = append(names, ty.Name)
	}
	if got := strings.Join(names, " "); got != "a2 d2 e4 b8 c8 f8" {
		t.Errorf("sorted %s", got)
	}
	if l := c.Largest(); l.Name != "f8" {
		t.Errorf("largest %s", l.Name)
	}
	for _, j := range c.Jobs {
		if j.Memory > 3000 || j.Disk > 5000 {
			t.Fatalf("job %d above the caps of f8: %+v", j.ID, j)
		}
	}
}

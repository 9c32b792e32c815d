package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFraction(t *testing.T) {
	for name, want := range map[string]float64{"memwork-s1-f1_32": 1.0 / 32, "memwork-s12-f1_1": 1, "memwork-s1-f0.3": 0.3} {
		if f, ok := fraction(name); !ok || f != want {
			t.Errorf("%s: %v %v, want %v", name, f, ok, want)
		}
	}
	for _, bad := range []string{"config20", "memwork-s1", "memwork-s1-f1_0", "memwork-s1-fx"} {
		if _, ok := fraction(bad); ok {
			t.Errorf("%s accepted", bad)
		}
	}
}

// A small dsbench report gives a line per column through the means per f,
// and a file per figure with data.
func TestWritePlots(t *testing.T) {
	js := `{"runs":[
	 {"config":"memwork-s1-f1_2","strategy":"a","status":"ok","summary":{"avg_util":50,"avg_turnaround":100},"metrics":[{"name":"memFailures","value":2}]},
	 {"config":"memwork-s2-f1_2","strategy":"a","status":"ok","summary":{"avg_util":70,"avg_turnaround":300},"metrics":[{"name":"memFailures","value":4}]},
	 {"config":"memwork-s1-f1_1","strategy":"a","status":"ok","summary":{"avg_util":60,"avg_turnaround":200}},
	 {"config":"memwork-s1-f1_1","strategy":"b","status":"failed","summary":{}},
	 {"config":"config20","strategy":"a","status":"ok","summary":{"avg_util":1,"avg_turnaround":1}}]}`
	dir := t.TempDir()
	in := filepath.Join(dir, "r.json")
	if err := os.WriteFile(in, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(in, dir, nil); err != nil {
		t.Fatal(err)
	}
	cols, pts := series(mustReport(t, js), "avg_turnaround")
	if len(cols) != 1 || cols[0] != "a" || len(pts["a"]) != 2 || pts["a"][0].X != -1 || pts["a"][0].Y != 200 || pts["a"][1].Y != 200 {
		t.Fatalf("series %v %v", cols, pts)
	}
	for _, f := range []string{"sgme-f-turnaround.svg", "sgme-f-utilisation.svg", "sgme-f-failures.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sgme-f-slowdown.svg")); err == nil {
		t.Error("a figure without data was written")
	}
	if err := run("", dir, strings.NewReader("not json")); err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("bad input: %v", err)
	}
}

func mustReport(t *testing.T, js string) report {
	t.Helper()
	var rep report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestTableAndParams(t *testing.T) {
	rep := mustReport(t, `{"runs":[
	 {"config":"memwork-s1-f1_2","strategy":"a","status":"ok","summary":{"avg_util":50,"avg_turnaround":100}},
	 {"config":"memwork-s2-f1_2","strategy":"a","status":"ok","summary":{"avg_util":70,"avg_turnaround":300}}]}`)
	var b strings.Builder
	printTable(&b, rep)
	if !strings.Contains(b.String(), "| 1/2 | a | 200.00 | 60.00 | – |") {
		t.Errorf("table:\n%s", b.String())
	}
	b.Reset()
	if err := printParams(&b, "seeds=1-2,f=1/2|1,jobs=100"); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "workload: memwork seed=") != 2 || !strings.Contains(b.String(), "jobs=100") || !strings.Contains(b.String(), "f: 0.5 (small ") {
		t.Errorf("params:\n%s", b.String())
	}
	if printParams(&b, "jobs=0") == nil {
		t.Error("a bad spec accepted")
	}
}

package dsswf

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/mocksrv/swf"
)

const trace = "../../mocksrv/swf/testdata/small.swf"

// TestWrite: the folder dsswf writes loads through the simulator's config
// loader (what dsmock -c does) with the jobs the conversion made, and the
// report lists every skip reason with its count.
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-o", dir, "--time-scale", "2", trace}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, s := range []string{
		trace + ": 5 jobs, 6 server types (procs-per-core=1,time-scale=2,offset=0,disk=100,mem-per-core=100)\n",
		"skipped 1: cancelled (status 5)\nskipped 1: partial execution line (status 2, 3 or 4)\nskipped 1: no submit time\nskipped 1: no run time\nskipped 1: no processor count\n",
		"actMemory capped at the request for 1 jobs",
		"\n2 jobs had no requested time: their estimate is their run time\n",
		"\nderived cluster: 112 cores (6 server types, each sized to the whole machine) against the trace's MaxProcs 16\n",
	} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, stdout.String())
		}
	}
	cfg, err := mocksrv.LoadConfig(filepath.Join(dir, "config.xml"), mocksrv.LoadOptions{BaseDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	w, err := swf.LoadFile(trace, swf.Options{TimeScale: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Jobs) != 5 || len(cfg.Types) != 6 || cfg.ActMemoryJobs != 2 {
		t.Fatalf("loaded %d jobs, %d types, %d with actMemory", len(cfg.Jobs), len(cfg.Types), cfg.ActMemoryJobs)
	}
	for i, j := range cfg.Jobs {
		if j != w.Jobs[i].Job {
			t.Errorf("job %d: file %+v, conversion %+v", i, j, w.Jobs[i].Job)
		}
	}
	if cfg.Jobs[2].Submit != 20 { // 2 × 10
		t.Errorf("time-scale not applied: job 2 at %d", cfg.Jobs[2].Submit)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "jobs.xml"))
	if !bytes.Equal(data, w.JobsXML()) {
		t.Error("jobs.xml differs from the conversion's JobsXML")
	}
}

// TestErrors: a bad command line is status 2, a bad trace status 1 with
// the file, line and field; nothing is written.
func TestErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.swf")
	if err := os.WriteFile(bad, []byte("; MaxProcs: 4\n1 0 5 100 -4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	cores0 := serversWith(t, `cores="8"`, `cores="0"`)
	cut := cutGzip(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, ExitUsage, "want one trace file, got 0 arguments"},
		{[]string{"a.swf", "b.swf"}, ExitUsage, "want one trace file, got 2 arguments"},
		{[]string{"--procs-per-core", "-3", trace}, ExitUsage, "procs-per-core=-3: want a positive integer"},
		{[]string{"--time-scale", "fast", trace}, ExitUsage, `time-scale="fast": want a positive number`},
		{[]string{"--bogus", trace}, ExitUsage, "unknown flag: --bogus"},
		{[]string{"-o", out, bad}, ExitInput, bad + `: line 2: field 5 (allocated processors): "-4": negative`},
		{[]string{"-o", out, "--servers", "/nonexistent.xml", trace}, ExitInput, "servers config: open /nonexistent.xml"},
		{[]string{"-o", out, cut}, ExitInput, "dsswf: " + cut + ": truncated gzip file: it ends before its compressed data does"},
		// A bad server is named in the file the user gave, as dsmock -c names it.
		{[]string{"-o", out, "--servers", cores0, trace}, ExitInput, "dsswf: " + cores0 + ": <server> 2 (big): attribute cores: 0: Out of bound! (1 - 1024); Core count limit\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(c.args, &stdout, &stderr)
		if code != c.code || !strings.HasPrefix(stderr.String(), "dsswf: ") || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output folder written after an error: %v", err)
	}
}

// cutGzip is the test trace gzipped and cut in the middle of the stream.
func cutGzip(t *testing.T) string {
	t.Helper()
	z := gzipped(t, trace)
	p := filepath.Join(t.TempDir(), "cut.swf.gz")
	if err := os.WriteFile(p, z[:len(z)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// gzipped is the file src compressed with gzip.
func gzipped(t *testing.T, src string) []byte {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	return z.Bytes()
}

// serversWith is the test servers config with old replaced by new.
func serversWith(t *testing.T, old, new string) string {
	t.Helper()
	data, err := os.ReadFile("../../mocksrv/swf/testdata/servers.xml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("servers.xml has no %s", old)
	}
	p := filepath.Join(t.TempDir(), "servers.xml")
	if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServersAsDsmockReadsThem: cores="8x" is read as 8 with a warning
// naming the file, as dsmock -c warns, not refused.
func TestServersAsDsmockReadsThem(t *testing.T) {
	p := serversWith(t, `cores="8"`, `cores="8x"`)
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-o", dir, "--servers", p, trace}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "dsswf: warning: " + p + `: <server> 2 (big): attribute cores: "8x" is read as 8, as ds-server does (it ignores "x")` + "\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	cfg, err := mocksrv.LoadConfig(filepath.Join(dir, "config.xml"), mocksrv.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.ConfigOrder[1].Cores; got != 8 {
		t.Errorf("big has %d cores, want 8", got)
	}
}

// TestOutputFolder: a config.xml (or job file) dsswf did not write is
// not replaced, and nothing is written then; one it wrote is when it holds
// what would be written (TestRerun has the rest); a job
// file in a subfolder gets its folder; a trace not named .swf gets
// NAME.dssim by default, not its own name.
func TestOutputFolder(t *testing.T) {
	run := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, &stdout, &stderr)
		return code, stderr.String()
	}
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "config.xml"), []byte("<config/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := run("-o", mine, trace); code != ExitInput || !strings.Contains(stderr, filepath.Join(mine, "config.xml")+" exists and was not written by dsswf") {
		t.Errorf("over a config of the user's: exit %d, %q", code, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(mine, "config.xml")); string(data) != "<config/>\n" {
		t.Errorf("the user's config.xml was replaced: %q", data)
	}
	if _, err := os.Stat(filepath.Join(mine, "jobs.xml")); !os.IsNotExist(err) {
		t.Errorf("a job file was written beside the refused config: %v", err)
	}
	if err := os.Remove(filepath.Join(mine, "config.xml")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "jobs.xml"), []byte("<jobs/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := run("-o", mine, trace); code != ExitInput || !strings.Contains(stderr, filepath.Join(mine, "jobs.xml")+" exists and was not written by dsswf") {
		t.Errorf("over a job file of the user's: exit %d, %q", code, stderr)
	}

	// A config of dsswf's that names another job file is another
	// conversion's: neither it nor the job file of the user's is replaced.
	if code, stderr := run("-o", mine, "--job-file", "data.xml", trace); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(mine, "mine.xml"), []byte("<jobs/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := run("-o", mine, "--job-file", "mine.xml", trace); code != ExitInput || !strings.Contains(stderr, filepath.Join(mine, "config.xml")+" exists and differs") {
		t.Errorf("over another conversion: exit %d, %q", code, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(mine, "mine.xml")); string(data) != "<jobs/>\n" {
		t.Errorf("the user's job file was replaced: %q", data)
	}
	for _, c := range []struct{ jobFile, want string }{
		{"config.xml", "job-file=config.xml: is the config's own name"},
		{"../x.xml", "job-file=../x.xml: want a path inside the config's folder"},
		{"/tmp/x.xml", "job-file=/tmp/x.xml: want a path inside the config's folder"},
	} {
		if code, stderr := run("-o", filepath.Join(dir, "never"), "--job-file", c.jobFile, trace); code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("--job-file %s: exit %d, %q", c.jobFile, code, stderr)
		}
	}
	folder := filepath.Join(dir, "folder")
	if err := os.MkdirAll(filepath.Join(folder, "config.xml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, stderr := run("-o", folder, trace); code != ExitInput || !strings.Contains(stderr, filepath.Join(folder, "config.xml")+" is a folder") {
		t.Errorf("config.xml a folder: exit %d, %q", code, stderr)
	}
	if entries, _ := os.ReadDir(folder); len(entries) != 1 {
		t.Errorf("written beside a refused config.xml: %v", entries)
	}

	out := filepath.Join(dir, "out")
	for range 2 { // the second run replaces the first one's files
		if code, stderr := run("-o", out, "--job-file", "sub/jobs.xml", trace); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	if _, err := mocksrv.LoadConfig(filepath.Join(out, "config.xml"), mocksrv.LoadOptions{}); err != nil {
		t.Error(err)
	}

	txt := filepath.Join(dir, "trace.txt")
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(txt, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if code, stderr := run("trace.txt"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "trace.txt.dssim", "config.xml")); err != nil {
		t.Error(err)
	}
	if err := os.WriteFile(".swf", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := run(".swf"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".swf.dssim", "config.xml")); err != nil {
		t.Error(err, "(a trace named .swf)")
	}
	if _, err := os.Stat(filepath.Join(dir, "config.xml")); err == nil {
		t.Error("a config written into the working folder")
	}
}

// TestRerun: a file dsswf wrote is replaced only when it already holds
// what the conversion writes, or with --force: a re-run with other options,
// or over a config edited since, is refused with nothing written, naming
// the file; a config or job file of the user's is replaced with --force.
// The trace typed another way (another path to it, its .gz) is the same
// conversion: only config.xml's header comment, which names the trace as
// typed, differs, and the re-run writes it as typed this time.
func TestRerun(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "out")
	gz := filepath.Join(tmp, "small.swf.gz")
	if err := os.WriteFile(gz, gzipped(t, trace), 0o644); err != nil {
		t.Fatal(err)
	}
	other := "../../mocksrv/swf/../swf/testdata/small.swf"
	config, jobs := filepath.Join(dir, "config.xml"), filepath.Join(dir, "jobs.xml")
	edit := func(path, old, new string) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s lacks %q: %v", path, old, err)
		}
		if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const differs = " exists and differs from what this conversion writes (edited since dsswf wrote it, or another conversion's): give --force to replace it"
	for _, c := range []struct {
		name    string
		before  func() // changes the folder the previous step left
		args    []string
		code    int
		want    string // in stderr
		changed bool   // the files are replaced by this run's conversion
		trace   string // "" for trace
	}{
		{"first", func() {}, nil, ExitOK, "", true, ""},
		{"same again", func() {}, nil, ExitOK, "", true, ""},
		{"same, typed another way", func() {}, nil, ExitOK, "", true, other},
		{"same, from its .gz", func() {}, nil, ExitOK, "", true, gz},
		{"same, typed as first", func() {}, nil, ExitOK, "", true, ""},
		{"edited config", func() { edit(config, `hourlyRate="0.1"`, `hourlyRate="0.5"`) }, nil, ExitInput, config + differs, false, ""},
		{"edited config, trace typed another way", func() {}, nil, ExitInput, config + differs, false, other},
		{"other options", func() {}, []string{"--time-scale", "2"}, ExitInput, config + differs, false, ""},
		{"forced", func() {}, []string{"--force"}, ExitOK, "", true, ""},
		{"other options, config alike", func() {}, []string{"--time-scale", "2"}, ExitInput, jobs + differs + ", another -o or --job-file", false, ""},
		{"edited jobs", func() { edit(jobs, `estRunTime="200"`, `estRunTime="300"`) }, nil, ExitInput, jobs + differs + ", another -o or --job-file", false, ""},
		{"forced jobs", func() {}, []string{"--force"}, ExitOK, "", true, ""},
		{"the user's config", func() { os.WriteFile(config, []byte("<config/>\n"), 0o644) }, nil, ExitInput, config + " exists and was not written by dsswf: give another -o, remove it, or give --force", false, ""},
		{"the user's config forced", func() {}, []string{"--force"}, ExitOK, "", true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.before()
			before := [2][]byte{}
			before[0], _ = os.ReadFile(config)
			before[1], _ = os.ReadFile(jobs)
			arg := cmp.Or(c.trace, trace)
			var stdout, stderr bytes.Buffer
			code := Main(append(append([]string{"-o", dir}, c.args...), arg), &stdout, &stderr)
			if code != c.code || !strings.Contains(stderr.String(), c.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), c.code, c.want)
			}
			w, err := swf.LoadFile(arg, swf.Options{})
			if err != nil {
				t.Fatal(err)
			}
			gotConfig, _ := os.ReadFile(config)
			gotJobs, _ := os.ReadFile(jobs)
			if c.changed && (!bytes.Equal(gotConfig, w.ConfigXML()) || !bytes.Equal(gotJobs, w.JobsXML())) {
				t.Error("the files are not this conversion's")
			}
			if !c.changed && (!bytes.Equal(gotConfig, before[0]) || !bytes.Equal(gotJobs, before[1])) {
				t.Error("a file was written after a refusal")
			}
		})
	}
}

// TestHelp: -h prints the usage with every option, status 0.
func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-h"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, f := range swfFlags {
		if !strings.Contains(stdout.String(), "--"+f.name) {
			t.Errorf("usage lacks --%s", f.name)
		}
	}
	// Each option's placeholder says what it takes (pflag's back-quoted
	// word), not "VALUE" or pflag's "value" and "string".
	for _, m := range regexp.MustCompile(`--([a-z-]+) (\S+) `).FindAllStringSubmatch(stdout.String(), -1) {
		if p := m[2]; p != strings.ToUpper(p) || p == "VALUE" || p == "STRING" {
			t.Errorf("--%s shows %s", m[1], p)
		}
	}
}

// TestServersLeftBehind: what of the --servers config the written config
// lacks and its runs would miss is warned about, naming the attribute and
// where to add it: failures, randomSeed with a failure model (it seeds
// it), newline="true"; the job file (the trace's replaces it) and a
// randomSeed alone (nothing draws with it) get no word. Following the
// advice gives the written config the config's failures, a failure trace
// named from the written config's folder, where it is run.
func TestServersLeftBehind(t *testing.T) {
	const w = "dsswf: warning: "
	for _, c := range []struct {
		name, old, new string
		warnings       func(servers, config string) string
	}{
		{"failure model", "<servers>", `<servers failureModel="teragrid">`, func(s, c string) string {
			return w + s + `: <config randomSeed="7"> is not in ` + c + ` (dsswf copies the <server> elements alone): it seeds the failure model; add randomSeed="7" to its <config> element with failureModel` + "\n" +
				w + s + `: <servers failureModel="teragrid"> is not in ` + c + ` (dsswf copies the <server> elements alone): its runs have no failures; add failureModel="teragrid" to its <servers> element for them` + "\n"
		}},
		{"failure trace", "<servers>", `<servers failureFile="f.txt">`, func(s, c string) string {
			f, dir := filepath.Join(filepath.Dir(s), "f.txt"), filepath.Dir(c)
			rel, err := filepath.Rel(dir, f)
			if err != nil {
				t.Fatal(err)
			}
			return w + s + `: <servers failureFile="f.txt"> is not in ` + c + ` (dsswf copies the <server> elements alone): its runs have no failures; add failureFile="` + rel + `" to its <servers> element for them (` +
				f + ` named from ` + dir + `, the folder of its job file, which ds-server is run in); f.txt is neither in the working directory nor beside ` + s + `, so the path assumes it beside ` + s + "\n"
		}},
		{"newline", `randomSeed="7"`, `randomSeed="7" newline="true"`, func(s, c string) string {
			return w + s + `: <config newline="true"> is not in ` + c + ` (dsswf copies the <server> elements alone): run it with -n for newline mode, or add newline="true" to its <config> element` + "\n"
		}},
		{"job file, randomSeed alone", "<jobs>", `<jobs file="j.xml">`, func(string, string) string { return "" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			servers := serversWith(t, c.old, c.new)
			dir := filepath.Join(t.TempDir(), "out")
			var stdout, stderr bytes.Buffer
			if code := Main([]string{"-o", dir, "--servers", servers, trace}, &stdout, &stderr); code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			config := filepath.Join(dir, "config.xml")
			if want := c.warnings(servers, config); stderr.String() != want {
				t.Errorf("stderr\n%s\nwant\n%s", stderr.String(), want)
			}
		})
	}
	t.Run("the advice for a failure trace in another folder", func(t *testing.T) {
		servers := serversWith(t, "<servers>", `<servers failureFile="f.txt">`)
		if err := os.WriteFile(filepath.Join(filepath.Dir(servers), "f.txt"), []byte("10 20 big 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "out")
		var stdout, stderr bytes.Buffer
		if code := Main([]string{"-o", dir, "--servers", servers, trace}, &stdout, &stderr); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		attr := regexp.MustCompile(`add (failureFile="[^"]*")`).FindStringSubmatch(stderr.String())
		if attr == nil || strings.Contains(stderr.String(), "assumes") {
			t.Fatalf("advice: %s", stderr.String())
		}
		config := filepath.Join(dir, "config.xml")
		data, err := os.ReadFile(config)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(config, bytes.Replace(data, []byte("<servers>"), []byte("<servers "+attr[1]+">"), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir) // where ds-server runs it
		cfg, err := mocksrv.LoadConfig("config.xml", mocksrv.LoadOptions{})
		if err != nil || len(cfg.Failures) != 1 {
			t.Fatalf("edited config with %s: %v", attr[1], err)
		}
	})
	t.Run("the advice", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		var stdout, stderr bytes.Buffer
		if code := Main([]string{"-o", dir, "--servers", serversWith(t, "<servers>", `<servers failureModel="teragrid">`), trace}, &stdout, &stderr); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		config := filepath.Join(dir, "config.xml")
		data, err := os.ReadFile(config)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "failureModel") || !strings.Contains(string(data), "<config>\n\t<servers>\n") {
			t.Fatalf("written config: %s", data)
		}
		edited := strings.Replace(strings.Replace(string(data), "<servers>", `<servers failureModel="teragrid">`, 1), "<config>", `<config randomSeed="7">`, 1)
		if err := os.WriteFile(config, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := mocksrv.LoadConfig(config, mocksrv.LoadOptions{BaseDir: dir})
		if err != nil || cfg.FailureModel != "teragrid" || cfg.Seed != 7 {
			t.Fatalf("edited config: %v, %+v", err, cfg)
		}
	})
}

// TestFailureFileAdvice: the failureFile dsswf advises adding names the
// servers config's trace from the written config's folder, where it is
// run: found as dsmock -c would find it (the working directory, then
// beside the servers config); kept as written when that is the same
// path (absolute, or the two configs share a folder); a trace found
// nowhere is assumed beside the servers config, and said to be missing.
func TestFailureFileAdvice(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	for _, f := range []string{"srv/f.txt", "cwd.txt"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("10 20 big 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := filepath.Join(root, "srv", "f.txt")
	const tail = ", the folder of its job file, which ds-server is run in)"
	for _, c := range []struct{ config, name, want string }{
		{"srv/config.xml", "f.txt", `add failureFile="f.txt" to its <servers> element for them`},
		{"out/config.xml", "f.txt", `add failureFile="../srv/f.txt" to its <servers> element for them (srv/f.txt named from out` + tail},
		{"out/deep/config.xml", "f.txt", `add failureFile="../../srv/f.txt" to its <servers> element for them (srv/f.txt named from out/deep` + tail},
		{"out/config.xml", "cwd.txt", `add failureFile="../cwd.txt" to its <servers> element for them (cwd.txt named from out` + tail},
		{"out/config.xml", abs, `add failureFile="` + abs + `" to its <servers> element for them`},
		{"out/config.xml", "gone.txt", `add failureFile="../srv/gone.txt" to its <servers> element for them (srv/gone.txt named from out` + tail +
			"; gone.txt is neither in the working directory nor beside srv/servers.xml, so the path assumes it beside srv/servers.xml"},
		{"out/config.xml", "/gone.txt", `add failureFile="/gone.txt" to its <servers> element for them; /gone.txt does not exist`},
		{"out/config.xml", `a"b.txt`, `add failureFile="../srv/a&#34;b.txt" to its <servers> element for them (srv/a"b.txt named from out` + tail +
			`; a"b.txt is neither in the working directory nor beside srv/servers.xml, so the path assumes it beside srv/servers.xml`},
	} {
		if got := failureFileAdvice("srv/servers.xml", c.config, c.name); got != c.want {
			t.Errorf("%s in %s:\n got %s\nwant %s", c.name, c.config, got, c.want)
		}
	}
}

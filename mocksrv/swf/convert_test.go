package swf

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/mocksrv/model"
)

// job builds the expected conversion of one line.
func job(id, submit, est, act, cores, mem, disk, actMem int, swfJob, user int64, app string, line int) Converted {
	return Converted{Job: model.Job{ID: id, Type: "swf", Submit: submit, EstRunTime: est, ActRunTime: act,
		Cores: cores, Memory: mem, Disk: disk, ActMemory: actMem, App: app}, SWFJob: swfJob, User: user, Line: line}
}

// TestConvertDefaults checks testdata/small.swf field by field with the
// default options; each expectation is worked out by hand from the package
// doc's rules (the comment says which rule the job exercises).
func TestConvertDefaults(t *testing.T) {
	tr, err := ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Convert(tr, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Converted{
		// requested procs and memory (100 MB/proc × 4), used 50 MB/proc × 4 → actMemory
		job(0, 0, 200, 100, 4, 400, 100, 200, 1, 7, "3", 9),
		// submitted before job 2 (ordered by submit time); failed (status 0)
		// jobs are kept; used 300000 KB > requested 200 MB: capped
		job(1, 5, 30, 30, 1, 200, 100, 200, 3, 7, "3", 11),
		// allocated procs (no request), 50.6 s rounds to 51, no memory → 2 × 100 MB
		job(2, 10, 51, 51, 2, 200, 100, 0, 2, 8, "4", 10),
		// 0.2 s run → 1 s; 7200.4 s request → 7200; requested 32 procs over 16 allocated
		job(3, 40, 7200, 1, 32, 1600, 100, 0, 8, 10, "6", 17),
		// unknown user and executable stay absent; 1 core × 100 MB
		job(4, 41, 20, 12, 1, 100, 100, 0, 10, Missing, "", 19),
	}
	if !reflect.DeepEqual(r.Jobs, want) {
		t.Errorf("jobs:\n got %+v\nwant %+v", r.Jobs, want)
	}
	wantSkip := []Count{{SkipCancelled, 1}, {SkipPartial, 1}, {SkipNoSubmit, 1}, {SkipNoRun, 1}, {SkipNoProcs, 1}}
	if !reflect.DeepEqual(r.Skipped, wantSkip) || r.SkippedTotal() != 5 {
		t.Errorf("skipped %v, want %v", r.Skipped, wantSkip)
	}
	if r.CappedMemory != 1 {
		t.Errorf("capped memory %d, want 1", r.CappedMemory)
	}
	if tr.Header.MaxProcs != 16 || tr.Header.UnixStartTime != 1000000000 || tr.Header.MaxNodes != 0 {
		t.Errorf("header %+v", tr.Header)
	}
}

// TestDerivedServers: a power-of-two ladder from 1 to 32 cores (the largest
// job), MaxProcs 16 cores of servers per type, memory and disk at least
// 1000 and 200 per core, 0.1 $/h per core, 60 s boots.
func TestDerivedServers(t *testing.T) {
	w, err := LoadFile("testdata/small.swf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `<config>
	<servers>
		<server type="c1" limit="16" bootupTime="60" hourlyRate="0.1" cores="1" memory="1000" disk="1000" />
		<server type="c2" limit="8" bootupTime="60" hourlyRate="0.2" cores="2" memory="1000" disk="1000" />
		<server type="c4" limit="4" bootupTime="60" hourlyRate="0.4" cores="4" memory="1000" disk="1000" />
		<server type="c8" limit="2" bootupTime="60" hourlyRate="0.8" cores="8" memory="1600" disk="1600" />
		<server type="c16" limit="1" bootupTime="60" hourlyRate="1.6" cores="16" memory="3200" disk="3200" />
		<server type="c32" limit="1" bootupTime="60" hourlyRate="3.2" cores="32" memory="6400" disk="6400" />
	</servers>
	<jobs file="jobs.xml" />
</config>
`
	got := string(w.ConfigXML())
	if !strings.HasSuffix(got, want) {
		t.Errorf("config:\n%s\nwant it to end with\n%s", got, want)
	}
	if !strings.Contains(got, "<!-- ds-sim config for the SWF trace testdata/small.swf (procs-per-core=1,time-scale=1,offset=0,disk=100,mem-per-core=100): 5 jobs, 5 lines skipped -->") {
		t.Errorf("config comment missing:\n%s", got)
	}
	if len(w.Config.Types) != 6 || len(w.Config.Jobs) != 5 || w.Config.JobFile != "jobs.xml" {
		t.Errorf("loaded config: %d types, %d jobs, job file %q", len(w.Config.Types), len(w.Config.Jobs), w.Config.JobFile)
	}
}

// TestConvertOptions: every option changes what the package doc says.
func TestConvertOptions(t *testing.T) {
	w, err := Load("testdata/small.swf:procs-per-core=2,time-scale=0.5,offset=100,disk=500,mem-per-core=300,servers=testdata/servers.xml,job-file=trace-jobs.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Converted{
		job(0, 100, 200, 100, 2, 400, 500, 200, 1, 7, "3", 9),
		job(1, 103, 30, 30, 1, 200, 500, 200, 3, 7, "3", 11), // 100 + round(0.5 × 5)
		job(2, 105, 51, 51, 1, 300, 500, 0, 2, 8, "4", 10),   // ⌈2/2⌉ core × 300 MB
		// job 8 (32 procs = 16 cores) does not fit the given 8-core largest type
		job(3, 121, 20, 12, 1, 300, 500, 0, 10, Missing, "", 19), // 100 + round(20.5)
	}
	if !reflect.DeepEqual(w.Jobs, want) {
		t.Errorf("jobs:\n got %+v\nwant %+v", w.Jobs, want)
	}
	if c := w.Skipped[len(w.Skipped)-1]; c != (Count{SkipTooBig, 1}) {
		t.Errorf("last skip count %v, want one too big", c)
	}
	cfg := string(w.ConfigXML())
	for _, s := range []string{
		`<server type="small" limit="4" bootupTime="30" hourlyRate="0.25" cores="2" memory="4000" disk="8000" />`,
		`<server type="big" limit="2" bootupTime="90" hourlyRate="1.125" cores="8" memory="32000" disk="64000" />`,
		`<jobs file="trace-jobs.xml" />`,
	} {
		if !strings.Contains(cfg, s) {
			t.Errorf("config lacks %s:\n%s", s, cfg)
		}
	}
	if len(w.Config.Jobs) != 4 || w.Config.Jobs[3].Submit != 121 || w.Config.Types[1].Name != "big" {
		t.Errorf("loaded config: %+v", w.Config.Jobs)
	}
}

// TestJobsXML: the job file has ds-jobs.xml's layout (the model's writer,
// byte for byte, when no hidden value is known) and the hidden attributes
// after disk; the simulator's job-file loader reads it back.
func TestJobsXML(t *testing.T) {
	w, err := LoadFile("testdata/small.swf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := string(w.JobsXML())
	for _, line := range []string{
		"\t<job id=\"0\" type=\"swf\" submitTime=\"0\" estRunTime=\"200\" actRunTime=\"100\" cores=\"4\" memory=\"400\" disk=\"100\" actMemory=\"200\" swfJob=\"1\" user=\"7\" app=\"3\" />\n",
		"\t<job id=\"4\" type=\"swf\" submitTime=\"41\" estRunTime=\"20\" actRunTime=\"12\" cores=\"1\" memory=\"100\" disk=\"100\" swfJob=\"10\" />\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("job file lacks %q:\n%s", line, got)
		}
	}
	for i, j := range w.Config.Jobs {
		if j != w.Jobs[i].Job {
			t.Errorf("job %d loaded as %+v, converted %+v", i, j, w.Jobs[i].Job)
		}
	}
	plain := &Result{Jobs: append([]Converted(nil), w.Jobs...)}
	m := &model.Config{}
	for i := range plain.Jobs {
		plain.Jobs[i].ActMemory, plain.Jobs[i].SWFJob, plain.Jobs[i].User, plain.Jobs[i].App = 0, Missing, Missing, ""
		m.Jobs = append(m.Jobs, plain.Jobs[i].Job)
	}
	if a, b := plain.JobsXML(), m.JobsXML(model.DefaultYear, true); !bytes.Equal(a, b) {
		t.Errorf("without hidden attributes the job file differs from model.JobsXML:\n%s\n%s", a, b)
	}
}

// TestGzip: a .swf.gz reads as its plain text.
func TestGzip(t *testing.T) {
	data, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	a, err := Parse("small.swf.gz", &z)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Parse("small.swf.gz", bytes.NewReader(data))
	if !reflect.DeepEqual(a, b) || len(a.Jobs) != 10 {
		t.Errorf("gzip trace read differently: %d jobs vs %d", len(a.Jobs), len(b.Jobs))
	}
}

// TestGzipBroken: a .swf.gz cut short is reported as that, with the file's
// name, wherever the cut falls (in the header, in a line, at a line's
// end, in the trailer), not as the partial line it ends in; a corrupt
// checksum is gzip's own error, said to be the file's.
func TestGzipBroken(t *testing.T) {
	var lines bytes.Buffer
	for i := range 3000 { // several of the scanner's buffers
		fmt.Fprintf(&lines, "%d %d 0 100 4 90 51200 4 200 102400 1 7 1 3 1 1 -1 -1\n", i+1, i)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(lines.Bytes())
	zw.Close()
	whole := z.Bytes()
	const cutShort = "t.swf.gz: truncated gzip file: it ends before its compressed data does (a partial download or copy?)"
	badSum := bytes.Clone(whole)
	badSum[len(badSum)-8] ^= 1 // the CRC-32 in the trailer
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"cut in the middle", whole[:len(whole)/2], cutShort},
		{"cut near the start", whole[:40], cutShort},
		{"trailer cut", whole[:len(whole)-4], cutShort},
		{"header cut", whole[:5], cutShort},
		{"bad checksum", badSum, "t.swf.gz: invalid gzip file: gzip: invalid checksum"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.swf.gz", bytes.NewReader(c.data))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	if _, err := Parse("t.swf.gz", bytes.NewReader(whole)); err != nil {
		t.Fatalf("the whole file: %v", err)
	}
}

package swf

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics or hangs; a refusal is a one-line
// ParseError naming the file and a line; a trace it accepts converts
// without panicking and, when it converts, the written files load through
// the simulator's loader with the same jobs, ids 0, 1, 2, … and submit
// times in order.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(okLine + "\n"))
	f.Add([]byte("; MaxProcs: 8\n; MaxNodes: 2\n1 0.5 -1 1e3 -1 -1 -1 2048 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"))
	f.Add([]byte("1 2 3 4 5 6 7 8 9 10 0 12 13 14 15 16 17 18\n2 1 3 4 5 6 7 8 9 10 0 12 13 14 15 16 17 18.5\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse("f.swf", strings.NewReader(string(data)))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) && !strings.HasPrefix(err.Error(), "f.swf: ") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		r, err := Convert(tr, Options{}, nil)
		if err != nil {
			return
		}
		if r.MemoryAtLimit > len(r.Jobs) || r.MemoryAtFloor > len(r.Jobs) {
			t.Fatalf("%d jobs, %d memories capped, %d raised", len(r.Jobs), r.MemoryAtLimit, r.MemoryAtFloor)
		}
		for _, j := range r.Jobs {
			if j.Memory < 100 || j.Memory > math.MaxInt32 || j.ActMemory > j.Memory {
				t.Fatalf("job %d: memory %d, actMemory %d", j.ID, j.Memory, j.ActMemory)
			}
		}
		w, err := r.Workload("f.xml")
		if err != nil {
			t.Fatalf("converted trace does not load: %v", err)
		}
		for i, j := range w.Config.Jobs {
			if j != r.Jobs[i].Job || j.ID != i || i > 0 && j.Submit < w.Config.Jobs[i-1].Submit {
				t.Fatalf("job %d loaded as %+v, converted %+v", i, j, r.Jobs[i].Job)
			}
		}
	})
}

// FuzzParseSpec: ParseSpec never panics; a spec it accepts names a trace
// path and, written back in canonical form (Options.String), reads back as
// the same options.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"t.swf", "a/b.swf.gz:procs-per-core=4,time-scale=0.5", "t.swf:disk=200,max-jobs=3,servers=c.xml",
		"t.swf:offset=10,mem-per-core=300,job-file=j.xml", "t.swf:", "t.swf:x", ".swf:time-scale=1e300"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, o, err := ParseSpec(spec)
		if err != nil {
			if !strings.Contains(err.Error(), "swf ") {
				t.Fatalf("error without context: %v", err)
			}
			return
		}
		if !strings.HasSuffix(p, ".swf") && !strings.HasSuffix(p, ".swf.gz") && !strings.HasSuffix(p, ".SWF") && !strings.HasSuffix(p, ".SWF.gz") {
			return // not a trace name: the whole spec is the path, options are not read
		}
		if strings.ContainsAny(o.Servers, ",") || strings.ContainsAny(o.JobFile, ",") {
			return // a comma inside a value cannot be written back
		}
		p2, o2, err := ParseSpec(p + ":" + o.String())
		if err != nil || p2 != p || o2.withDefaults() != o.withDefaults() {
			t.Fatalf("%q: %q %+v; written back %q: %q %+v %v", spec, p, o, o.String(), p2, o2, err)
		}
	})
}

// FuzzReadServers: a servers config never panics or hangs the reader; a
// refusal names the file; servers it accepts have the sizes the simulator
// read, and a trace converts onto them into a config that loads.
func FuzzReadServers(f *testing.F) {
	data, err := os.ReadFile("testdata/servers.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(strings.Replace(string(data), `cores="8"`, `cores="8x"`, 1)))
	f.Add([]byte(strings.Replace(string(data), `cores="8"`, `cores="0"`, 1)))
	f.Add([]byte(`<config><servers><server type="a b" limit="1" bootupTime="1" hourlyRate="1" cores="1" memory="1" disk="1"/></servers></config>`))
	tr, err := ReadFile("testdata/small.swf")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := t.TempDir() + "/s.xml"
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		servers, err := ReadServers(p)
		if err != nil {
			if !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q does not name %s on one line", err, p)
			}
			return
		}
		for _, s := range servers {
			if s.Cores < 1 || s.Memory < 0 || s.Disk < 0 {
				t.Fatalf("accepted a server of %d cores, %d memory, %d disk", s.Cores, s.Memory, s.Disk)
			}
		}
		r, err := Convert(tr, Options{}, servers)
		if err != nil {
			return // e.g. no job fits
		}
		if _, err := r.Workload("c.xml"); err != nil {
			t.Fatalf("accepted servers, but the converted config does not load: %v", err)
		}
	})
}

package simconfig

import (
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
)

// TestJobFileMemAttrs: actMemory and app are read from <job> (estimation.md
// Part E item 2); an absent actMemory is the request; an invalid one is
// remembered with file, line, job and attribute, and does not refuse the
// file (ds-server ignores the attribute).
func TestJobFileMemAttrs(t *testing.T) {
	jobs := `<jobs>
<job id="0" type="a" submitTime="0" estRunTime="5" cores="1" memory="800" disk="100" actMemory="120" app="lu" />
<job id="1" type="a" submitTime="1" estRunTime="5" cores="1" memory="800" disk="100" />
</jobs>`
	c, err := jobFileConfig(t, jobs, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.ActMemoryJobs != 1 || c.ActMemoryErr != nil {
		t.Fatalf("ActMemoryJobs %d, err %v; want 1, nil", c.ActMemoryJobs, c.ActMemoryErr)
	}
	if j := c.Jobs[0]; j.ActMemory != 120 || j.App != "lu" {
		t.Errorf("job 0: actMemory %d app %q; want 120 lu", j.ActMemory, j.App)
	}
	if j := c.Jobs[1]; j.ActMemory != 0 || j.ActMem() != 800 || j.App != "" {
		t.Errorf("job 1 (no attribute): actMemory %d (ActMem %d) app %q; want 0 (absent), the request 800, no app", j.ActMemory, j.ActMem(), j.App)
	}
}

// TestJobFileBadActMemory: each invalid actMemory is remembered, naming the
// job file, the line, the job and the attribute.
func TestJobFileBadActMemory(t *testing.T) {
	for _, tc := range []struct{ val, want string }{
		{"900", "900 is above the job's memory 800"},
		{"-5", "-5: below 1"},
		{"0", "0: below 1"},
		{"12MB", `"12MB": not a whole number`},
		{"", `"": not a whole number`},
		{"99999999999", `"99999999999": out of range`},
	} {
		jobs := `<jobs>
<job id="0" type="a" submitTime="0" estRunTime="5" cores="1" memory="800" disk="100" actMemory="100" />
<job id="1" type="a" submitTime="0" estRunTime="5" cores="1" memory="800" disk="100" actMemory="` + tc.val + `" />
</jobs>`
		c, err := jobFileConfig(t, jobs, LoadOptions{})
		if err != nil {
			t.Fatalf("%q: the file must load (ds-server ignores actMemory): %v", tc.val, err)
		}
		if c.ActMemoryErr == nil {
			t.Fatalf("%q: no error remembered", tc.val)
		}
		msg := c.ActMemoryErr.Error()
		for _, part := range []string{"jobs.xml", "line 3", "(id 1)", "attribute actMemory", tc.want} {
			if !strings.Contains(msg, part) {
				t.Errorf("%q: error %q lacks %q", tc.val, msg, part)
			}
		}
	}
}

// FuzzJobFileMemAttrs: the extension's attributes never panic the loader,
// never refuse a file ds-server would read, and a value kept is within
// 1 … memory; a value not kept is reported.
func FuzzJobFileMemAttrs(f *testing.F) {
	f.Add("120", "lu", 800)
	f.Add("900", "", 800)
	f.Add(" 7 ", "a&amp;b", 100)
	f.Add("0x10", "x", 64)
	f.Fuzz(func(t *testing.T, act, app string, memory int) {
		esc := func(s string) string {
			var b strings.Builder
			if err := xml.EscapeText(&b, []byte(s)); err != nil {
				t.Skip()
			}
			return strings.ReplaceAll(b.String(), `"`, "&#34;")
		}
		doc := `<jobs><job id="0" type="a" submitTime="0" estRunTime="5" cores="1" memory="` +
			strconv.Itoa(memory) + `" disk="1" actMemory="` + esc(act) + `" app="` + esc(app) + `" /></jobs>`
		_, e1 := jobfileParse("j.xml", []byte(strings.Replace(doc, ` actMemory="`+esc(act)+`"`, "", 1)))
		jobs, ext, e2 := jobfileParseExt("j.xml", []byte(doc))
		if (e1 == nil) != (e2 == nil) {
			t.Fatalf("the attribute changed acceptance: %v vs %v", e1, e2)
		}
		if e2 != nil {
			return
		}
		j := jobs[0]
		if ext.count != 1 {
			t.Fatalf("count %d, want 1", ext.count)
		}
		if (ext.err == nil) == (j.ActMemory == 0) {
			t.Fatalf("actMemory %d kept with error %v", j.ActMemory, ext.err)
		}
		if j.ActMemory != 0 && (j.ActMemory < 1 || j.ActMemory > j.Memory) {
			t.Fatalf("actMemory %d kept outside 1…%d", j.ActMemory, j.Memory)
		}
	})
}

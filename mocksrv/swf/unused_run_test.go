package swf

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunLeftBehind: the rule dsmock and dsbench share for a trace run on
// a servers config: failures are refused, each setting named as written
// (both when the config has a model and a file); the job file is always
// warned about, newline="true" only without -n and
// randomSeed only with --mem-fail; a config with none of them, or none
// at all, gives nothing.
func TestRunLeftBehind(t *testing.T) {
	dir := t.TempDir()
	const servers = `<servers><server type="s" limit="1" bootupTime="0" hourlyRate="1" cores="1" memory="1000" disk="1000" /></servers>`
	const alone = ": run runs the trace on its <server> elements alone"
	all := `<config randomSeed="7" newline="true">` + strings.Replace(servers, "<servers>", `<servers failureFile="f.txt" failureModel="g5k06">`, 1) + `<jobs file="j.xml" /></config>`
	for _, c := range []struct {
		name, xml string
		setup     RunSetup
		refusal   string
		warnings  []string
	}{
		{"servers alone", `<config>` + servers + `</config>`, RunSetup{Newline: true, MemFail: true}, "", nil},
		{"everything, plain run", all, RunSetup{}, `<servers failureFile="f.txt" failureModel="g5k06">: the trace runs on the config's <server> elements alone, without its failures; write the files with dsswf --servers `,
			[]string{`<config newline="true"> has no effect` + alone + "; give -n for newline mode", `<jobs file="j.xml"> has no effect` + alone + ", with the trace's jobs"}},
		{"everything, -n --mem-fail", all, RunSetup{Newline: true, MemFail: true}, `<servers failureFile="f.txt" failureModel="g5k06">`,
			[]string{`<config randomSeed="7"> has no effect` + alone + "; --mem-fail's draws are seeded with 1024", `<jobs file="j.xml"> has no effect` + alone + ", with the trace's jobs"}},
		{"a failure model", `<config>` + strings.Replace(servers, "<servers>", `<servers failureModel="teragrid">`, 1) + `</config>`, RunSetup{},
			`<servers failureModel="teragrid">: the trace runs`, nil},
		{"a failure file", `<config>` + strings.Replace(servers, "<servers>", `<servers failureFile="a b.txt">`, 1) + `</config>`, RunSetup{},
			`<servers failureFile="a b.txt">: the trace runs on the config's <server> elements alone, without its failures; write the files with dsswf --servers `, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, "c.xml")
			if err := os.WriteFile(p, []byte(c.xml), 0o644); err != nil {
				t.Fatal(err)
			}
			err := FailuresLeftBehind(p)
			if c.refusal == "" && err != nil || c.refusal != "" && (err == nil || !strings.HasPrefix(err.Error(), p+": "+c.refusal)) {
				t.Errorf("refusal %v, want %q", err, c.refusal)
			}
			var want []string
			for _, w := range c.warnings {
				want = append(want, p+": "+w)
			}
			if got := c.setup.Ignored(p, "run"); !slices.Equal(got, want) {
				t.Errorf("warnings\n%q\nwant\n%q", got, want)
			}
		})
	}
	if err, got := FailuresLeftBehind(filepath.Join(dir, "none.xml")), (RunSetup{}).Ignored(filepath.Join(dir, "none.xml"), "run"); err != nil || got != nil {
		t.Errorf("a missing file: %v, %v", err, got)
	}
}

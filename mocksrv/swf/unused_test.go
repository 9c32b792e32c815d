package swf

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUnusedSettings: what of a servers config a conversion leaves behind
// is listed in document order (a job file, failures, the seed, newline
// framing when "true"), and nothing else; an unreadable file gives
// nothing, a broken one what came before the fault.
func TestUnusedSettings(t *testing.T) {
	const servers = `<servers><server type="s" limit="1" bootupTime="0" hourlyRate="1" cores="1" memory="1000" disk="1000" /></servers>`
	dir := t.TempDir()
	for _, c := range []struct {
		name, xml string
		want      []Setting
	}{
		{"servers alone", `<config>` + servers + `<jobs><job type="a" minRunTime="1" maxRunTime="2" populationRate="100" /></jobs></config>`, nil},
		{"all of them", `<config randomSeed="7" newline="true"><servers failureModel="g5k06" failureFile="f.txt" failureTimeGrain="600">` +
			`<server type="s" /></servers><jobs file="j.xml" /></config>`, []Setting{
			{"config", "randomSeed", "7"}, {"config", "newline", "true"},
			{"servers", "failureModel", "g5k06"}, {"servers", "failureFile", "f.txt"}, {"jobs", "file", "j.xml"}}},
		{"newline other than true", `<config newline="false">` + servers + `</config>`, nil},
		{"a namespaced attribute", `<config xmlns:x="u" x:randomSeed="7">` + servers + `</config>`, nil},
		{"broken after the seed", `<config randomSeed="7">` + servers + `<jobs file="j.xml"`, []Setting{{"config", "randomSeed", "7"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, "c.xml")
			if err := os.WriteFile(p, []byte(c.xml), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := UnusedSettings(p); !slices.Equal(got, c.want) {
				t.Errorf("got  %v\nwant %v", got, c.want)
			}
		})
	}
	if got := UnusedSettings(filepath.Join(dir, "none.xml")); got != nil {
		t.Errorf("a missing file: %v", got)
	}
	s := Setting{"jobs", "file", "j.xml"}
	if s.String() != `<jobs file="j.xml">` || s.Failures() || !(Setting{"servers", "failureFile", "f"}).Failures() {
		t.Errorf("%s: String or Failures wrong", s)
	}
}

// TestSettingString: a setting shows as the XML it came from, its value
// escaped as XML escapes text, so a quote, a newline or markup in it
// leaves one attribute on one line, which reads back as the value.
func TestSettingString(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"j.xml", `<jobs file="j.xml">`},
		{`a"b.xml`, `<jobs file="a&#34;b.xml">`},
		{"a\nb.xml", `<jobs file="a&#xA;b.xml">`},
		{"<&>'\t\r", `<jobs file="&lt;&amp;&gt;&#39;&#x9;&#xD;">`},
	} {
		got := Setting{"jobs", "file", c.value}.String()
		if got != c.want {
			t.Errorf("value %q: %s, want %s", c.value, got, c.want)
			continue
		}
		var back struct {
			File string `xml:"file,attr"`
		}
		if err := xml.Unmarshal([]byte(strings.TrimSuffix(got, ">")+"/>"), &back); err != nil || back.File != c.value {
			t.Errorf("value %q: %s reads back as %q, %v", c.value, got, back.File, err)
		}
	}
}

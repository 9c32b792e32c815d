package servertypes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/servertypes"
)

const version = "4-Apr, 2025 @ MQ - client-server"

// FuzzSystemXML: Parse never panics; a description it accepts renders
// (XML) to a file that parses back to the same rendering, so dsclient reads
// every ds-system.xml the project writes. Seeded with every shared config
// (their <server> elements have the same attributes), the ds-system.xml
// ds-server would write for each, and broken variants.
func FuzzSystemXML(f *testing.F) {
	configs, err := filepath.Glob(filepath.Join(fixtures.Dir(f), "configs", "*.xml"))
	if err != nil || len(configs) == 0 {
		f.Fatalf("no shared configs: %v", err)
	}
	for _, c := range configs {
		data, err := os.ReadFile(c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		if sys, err := servertypes.Parse(c, data); err == nil {
			sorted, err := servertypes.New(c, sys.Sorted())
			if err != nil {
				f.Fatal(err)
			}
			out := sorted.XML(version)
			f.Add(out)
			f.Add(out[:len(out)/2])
			f.Add([]byte(strings.Replace(string(out), `limit="`, `limit="x`, 1)))
			f.Add([]byte(strings.Replace(string(out), ` cores=`, ` kores=`, 1)))
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("<system/>"))
	f.Add([]byte(`<server type="a" limit="1" bootupTime="0" hourlyRate="NaN" cores="1" memory="0" disk="0"/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sys, err := servertypes.Parse("fuzz.xml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.xml: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(sys.Types()) == 0 || len(sys.Sorted()) != len(sys.Types()) {
			t.Fatalf("accepted %d types, %d sorted", len(sys.Types()), len(sys.Sorted()))
		}
		for _, ty := range sys.Types() {
			// ds-server writes names raw (ds-server.md §1.7); a name that
			// needs XML escaping cannot round-trip, there or here.
			if strings.ContainsAny(ty.Name, "<>&\"'\r\n\t") || strings.ContainsFunc(ty.Name, func(r rune) bool { return r < 0x20 || r == 0xFFFD }) {
				return
			}
		}
		out := sys.XML(version)
		again, err := servertypes.Parse("again.xml", out)
		if err != nil {
			t.Fatalf("rendering does not parse: %v\n%s", err, out)
		}
		if out2 := again.XML(version); string(out2) != string(out) {
			t.Fatalf("round trip differs:\n%s\n---\n%s", out, out2)
		}
	})
}

package simconfig

import (
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dssim-go/dssim-go/configs"
	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// TestAttributeWarnings: a misspelt attribute (which ds-server ignores, so
// the run silently differs) is named with the element and the nearest
// attribute ds-server reads; an unknown one far from every known one is
// named too; a misspelt element gets the element it looks like; an
// element that is nobody's typo is not the loader's business.
func TestAttributeWarnings(t *testing.T) {
	cfg := `<config randomseed="7" colour="red">
  <servers><sever type="a"/><server type="a" limit="1" bootupTime="0" hourlyRate="1" cores="2" memory="1000" disk="1000" bootTime="5"/></servers>
  <jobs><job type="j" minRunTime="1" maxRuntime="10" populationRate="100"/></jobs>
  <note>mine</note>
  <termination><condition type="jobcount" value="5"/></termination>
</config>`
	assert.Equal(t, []string{
		`c.xml: <config>: attribute randomseed is not one ds-server reads: it is ignored; did you mean randomSeed?`,
		`c.xml: <config>: attribute colour is not one ds-server reads: it is ignored`,
		`c.xml: element <sever> is not one ds-server reads: it is ignored, with what it holds; did you mean <server>?`,
		`c.xml: <server> 1 (a): attribute bootTime is not one ds-server reads: it is ignored; did you mean bootupTime?`,
		`c.xml: <job> 1 (j): attribute maxRuntime is not one ds-server reads: it is ignored; did you mean maxRunTime?`,
	}, AttributeWarnings("c.xml", []byte(cfg)))
	assert.Empty(t, AttributeWarnings("bad.xml", []byte("<config")), "loading says what is wrong")
	assert.Empty(t, AttributeWarnings("jobs.xml", []byte(`<jobs><job id="0" submitTime="1"/></jobs>`)), "a job file is not a configuration")
}

// TestNoAttributeWarningsOnRealConfigs: every public ds-sim config and
// every pinned fixture reads without a warning: the known attributes are
// all the ones in use.
func TestNoAttributeWarningsOnRealConfigs(t *testing.T) {
	paths := append(fixtures.Glob(t, "configs/*.xml"), fixtures.Glob(t, "fixtures/*/config.xml")...)
	paths = append(paths, fixtures.Glob(t, "failure-models/*/*.xml")...)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if w := AttributeWarnings(p, data); len(w) > 0 {
			t.Errorf("%s: %d warnings, the first: %s", p, len(w), w[0])
		}
	}
	for _, name := range configs.Names() { // the project's own suite
		data, err := fs.ReadFile(configs.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		assert.Empty(t, AttributeWarnings(name, data))
	}
}

package simconfig

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// With LoadOptions.FS, the files a config names are read from that file
// system, relative to the config's folder in it (dsbench's embedded suite).
func TestLoadConfigFromFS(t *testing.T) {
	cfgXML := []byte(`<config randomSeed="1"><servers failureFile="tr.txt">` +
		`<server type="a" limit="2" bootupTime="10" hourlyRate="0.1" cores="2" memory="2000" disk="2000" /></servers>` +
		`<jobs file="j.xml" /></config>`)
	fsys := fstest.MapFS{
		"suite/c.xml":  {Data: cfgXML},
		"suite/j.xml":  {Data: []byte(`<jobs><job id="0" type="x" submitTime="5" estRunTime="9" cores="1" memory="100" disk="100" /></jobs>`)},
		"suite/tr.txt": {Data: []byte("10 20 a 1\n")},
	}
	cfg, err := ParseConfig("suite/c.xml", cfgXML, LoadOptions{FS: fsys})
	require.NoError(t, err)
	require.Len(t, cfg.Jobs, 1)
	require.Equal(t, 5, cfg.Jobs[0].Submit)
	require.Equal(t, []FailureRecord{{Start: 10, End: 20, Type: "a", ID: 1}}, cfg.Failures)

	delete(fsys, "suite/j.xml")
	_, err = ParseConfig("suite/c.xml", cfgXML, LoadOptions{FS: fsys})
	require.ErrorContains(t, err, "j.xml")
}

package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSWFSourceErrors: a bad trace or option is refused before any run,
// naming the file and line or the option.
func TestSWFSourceErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.swf")
	require.NoError(t, os.WriteFile(bad, []byte("1 0 5 100 4 90 51200 4 200 102400 1 7 1 3 1 1 -1\n"), 0o644))
	for arg, want := range map[string]string{
		bad:                       bad + ": line 1: 17 fields, want 18",
		swfTrace + ":disk=5":      "disk=5: want at least 100 MB",
		"missing.swf":             "missing.swf: no such file",
		swfTrace + ":unknown=1":   `swf option "unknown" unknown`,
		swfTrace + ":max-jobs=-1": "max-jobs=-1",
		// A trace's option is not swept as a strategy's parameter is.
		swfTrace + ":time-scale=0.5,1": `"1" is not key=value: trace options take one value each; give the trace once per value (` +
			swfTrace + ":time-scale=0.5 " + swfTrace + ":time-scale=1)",
		swfTrace + ":job-file=j.xml": "job-file= names the job file dsswf writes; dsbench writes none",
	} {
		_, err := Resolve([]string{arg})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", arg, err, want)
		}
	}
}

const swfTrace = "../../mocksrv/swf/testdata/small.swf"

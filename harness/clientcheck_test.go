package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A client command naming a file of the client's that is not in the
// client's folder is refused before any run, naming both.
func TestCheckClientFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client.py"), nil, 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	for cmd, want := range map[string]string{
		"python3 client.py -p {port}":               "",
		"python3 " + abs + "/client.py":             "",
		"java -cp bin:lib/x.jar MyClient":           "",
		"java -jar Client.jar -p {port}":            "no Client.jar in " + abs + ", the folder the client runs in (run dsbench there, or give it with --client-dir)",
		"python3 src/client.py":                     "no src/client.py in " + abs,
		"bash ./run.sh {port}":                      "no ./run.sh in " + abs,
		"java MyClient.class":                       "no MyClient.class in " + abs,
		"python3 " + abs + "/nope.py":               abs + "/nope.py does not exist",
		"python3 -u --log=out/x.py client.py":       "",
		"python3 client.py --out ./results/run.txt": "no ./results/run.txt in " + abs,
	} {
		err := Target{Client: cmd, ClientDir: dir}.checkClient()
		if want == "" {
			assert.NoError(t, err, cmd)
			continue
		}
		if assert.Error(t, err, cmd) {
			assert.Contains(t, err.Error(), want, cmd)
			assert.Contains(t, err.Error(), "--client "+`"`+cmd+`"`, cmd)
		}
	}
}

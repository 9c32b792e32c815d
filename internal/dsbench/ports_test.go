package dsbench

import (
	"net"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/ports"
)

// DSSIM_PORTS picks the tests' and dsbench's ports; a bad value is an error
// naming the variable.
func TestEnvPortsAndListen(t *testing.T) {
	lo := freeBlock(t)
	t.Setenv(ports.Env, strconv.Itoa(lo)+"-"+strconv.Itoa(lo+1))
	seen := map[int]bool{}
	var open []net.Listener
	for range 2 {
		l, err := ports.TestListen()
		require.NoError(t, err)
		open = append(open, l)
		seen[l.Addr().(*net.TCPAddr).Port] = true
	}
	assert.Equal(t, map[int]bool{lo: true, lo + 1: true}, seen)
	_, err := ports.TestListen()
	assert.ErrorContains(t, err, "no free TCP port in "+strconv.Itoa(lo)+"-"+strconv.Itoa(lo+1))
	for _, l := range open {
		l.Close()
	}

	// dsbench takes its runs' ports there too (and --ports wins over it).
	cmd := script(t, "exit 0\n")
	code, out, _ := runMain("-a", "", "--client", cmd, fixtureConfig(t, "sample-config01"))
	assert.Equal(t, ExitFailure, code)
	assert.Regexp(t, regexp.MustCompile(`without connecting to port (`+strconv.Itoa(lo)+`|`+strconv.Itoa(lo+1)+`)\b`), out)
	code, out, _ = runMain("-a", "", "--ports", strconv.Itoa(lo+1)+"-"+strconv.Itoa(lo+1), "--client", cmd, fixtureConfig(t, "sample-config01"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, out, "without connecting to port "+strconv.Itoa(lo+1)+"\n")

	t.Setenv(ports.Env, "nonsense")
	_, err = ports.TestListen()
	assert.ErrorContains(t, err, `DSSIM_PORTS "nonsense": want LO-HI`)
	code, _, stderr := runMain("-a", "ff", fixtureConfig(t, "sample-config01"))
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "DSSIM_PORTS")
}

// freeBlock finds two free consecutive ports.
func freeBlock(t *testing.T) int {
	t.Helper()
	for p := 61000; p < 64000; p += 2 {
		a, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		b, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p+1))
		a.Close()
		if err == nil {
			b.Close()
			return p
		}
	}
	t.Fatal("no two free ports")
	return 0
}

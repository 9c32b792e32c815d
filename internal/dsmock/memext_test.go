package dsmock

import (
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The memory extension (--mem-fail, estimation.md Part E) on the command
// line and over TCP.

const memConfig = `<?xml version="1.0" encoding="UTF-8"?>
<config randomSeed="1024">
  <servers>
	<server type="small" limit="1" bootupTime="0" hourlyRate="0.1" cores="4" memory="1000" disk="4000" />
  </servers>
  <jobs file="jobs.xml" />
  <termination><condition type="endtime" value="604800" /><condition type="jobcount" value="1" /></termination>
</config>
`

// memWorkdir writes memConfig and a one-job file whose job carries act
// (no actMemory attribute when act is "") into a fresh working directory.
func memWorkdir(t *testing.T, act string) {
	t.Helper()
	t.Chdir(t.TempDir())
	attr := ""
	if act != "" {
		attr = ` actMemory="` + act + `"`
	}
	jobs := `<jobs><job id="0" type="a" submitTime="0" estRunTime="100" cores="1" memory="800" disk="100"` + attr + ` /></jobs>`
	require.NoError(t, os.WriteFile("config.xml", []byte(memConfig), 0o644))
	require.NoError(t, os.WriteFile("jobs.xml", []byte(jobs), 0o644))
}

// exchange sends each message and returns the replies.
func exchange(t *testing.T, addr string, msgs ...string) []string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	buf := make([]byte, 4096)
	var out []string
	for _, m := range msgs {
		_, err := c.Write([]byte(m))
		require.NoError(t, err)
		n, err := c.Read(buf)
		require.NoError(t, err, "reply to %s", m)
		out = append(out, string(buf[:n]))
	}
	return out
}

// TestMemFailOverTCP: with --mem-fail hard, SCHM with too little memory
// makes the job fail and come back as JOBP; the full retry completes and
// the report counts the failure. Without the flag SCHM is ds-server's
// invalid command.
func TestMemFailOverTCP(t *testing.T) {
	memWorkdir(t, "500")
	addr, stdout, _, code := startOn(t, "-c", "config.xml", "-p", "0", "--mem-fail", "hard")
	r := exchange(t, addr.String(), "HELO", "AUTH x", "REDY", "SCHM 0 small 0 200", "REDY", "SCHD 0 small 0", "REDY", "REDY", "QUIT")
	assert.Equal(t, "JOBN 0 0 1 800 100 100", r[2])
	assert.Equal(t, "OK", r[3])
	assert.Regexp(t, `^JOBP 0 \d+ 1 800 100 100$`, r[4])
	assert.Equal(t, "OK", r[5])
	assert.Regexp(t, `^JCPL \d+ 0 small 0$`, r[6])
	assert.Equal(t, "NONE", r[7])
	assert.Equal(t, 0, <-code)
	assert.Contains(t, stdout.String(), "(failed 1 times)")
	assert.Regexp(t, `# memory failures: 1, wasted core-seconds: \d+ \(failure model: hard\)\n# =+ \[ Summary \]`, stdout.String())

	addr, stdout, _, code = startOn(t, "-c", "config.xml", "-p", "0")
	r = exchange(t, addr.String(), "HELO", "AUTH x", "REDY", "SCHM 0 small 0 200", "SCHD 0 small 0", "REDY", "QUIT")
	assert.Equal(t, "ERR: invalid command (SCHM 0 small 0 200)", r[3])
	assert.Equal(t, "OK", r[4])
	assert.Equal(t, 0, <-code)
	assert.NotContains(t, stdout.String(), "memory failures")
}

// TestMemFailRefusedBeforeTheRun: a bad model, a job file without
// actMemory, and an actMemory above the request are refused before
// listening, with a message naming what is wrong.
func TestMemFailRefusedBeforeTheRun(t *testing.T) {
	for _, tc := range []struct {
		act, model string
		want       []string
	}{
		{"500", "soft", []string{"dsmock: --mem-fail: memory failure model \"soft\": want hard, machine or contention"}},
		{"", "hard", []string{"dsmock: --mem-fail:", "needs a job file whose <job> elements carry actMemory", "job file jobs.xml"}},
		{"900", "machine", []string{"dsmock: --mem-fail: jobs.xml: line 1: <job> 0 (id 0): attribute actMemory: 900 is above the job's memory 800"}},
	} {
		memWorkdir(t, tc.act)
		var out, errb syncBuffer
		status := run([]string{"dsmock", "-c", "config.xml", "-p", "0", "--mem-fail", tc.model}, &out, &errb, func(net.Addr) {
			t.Errorf("%s/%q: dsmock listened", tc.model, tc.act)
		}, false)
		assert.Equal(t, 1, status)
		for _, w := range tc.want {
			assert.Contains(t, errb.String(), w, "%s/%q", tc.model, tc.act)
		}
		assert.False(t, strings.Contains(out.String(), "Waiting for connection"))
	}
	// Without the flag ds-server's behaviour holds: the attribute is ignored.
	memWorkdir(t, "900")
	addr, _, _, code := startOn(t, "-c", "config.xml", "-p", "0")
	shortSession(t, addr.String())
	assert.Equal(t, 0, <-code)
}

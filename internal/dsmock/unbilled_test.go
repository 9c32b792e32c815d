package dsmock

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/mocksrv"
)

const unbilledConfig = `<?xml version="1.0" encoding="UTF-8"?>
<config randomSeed="1024">
  <servers>
	<server type="small" limit="2" bootupTime="0" hourlyRate="3.6" cores="4" memory="4000" disk="4000" />
  </servers>
  <jobs file="jobs.xml" />
  <termination><condition type="endtime" value="604800" /><condition type="jobcount" value="2" /></termination>
</config>
`

// --unbilled says on stderr what the report's cost leaves out: job 0 runs
// 50 s on small 0 and then moves to small 1 (MIGJ), so small 0, all of
// whose jobs left by MIGJ, is not billed at all (§6.2): 50 s at $3.60/h,
// half of the $0.10 the report bills (small 1, 100 s).
// stdout, the report, is ds-server's either way; without the flag, or
// when nothing is left out, there is no such line or a line saying so.
func TestUnbilledOption(t *testing.T) {
	t.Chdir(t.TempDir())
	jobs := `<jobs><job id="0" type="a" submitTime="0" estRunTime="100" actRunTime="100" cores="1" memory="100" disk="100" />` +
		`<job id="1" type="a" submitTime="50" estRunTime="100" actRunTime="100" cores="1" memory="100" disk="100" /></jobs>`
	require.NoError(t, os.WriteFile("config.xml", []byte(unbilledConfig), 0o644))
	require.NoError(t, os.WriteFile("jobs.xml", []byte(jobs), 0o644))
	hop := []string{"HELO", "AUTH x", "REDY", "SCHD 0 small 0", "REDY", "MIGJ 0 small 0 small 1", "SCHD 1 small 1", "REDY", "REDY", "REDY", "QUIT"}
	stay := []string{"HELO", "AUTH x", "REDY", "SCHD 0 small 0", "REDY", "SCHD 1 small 1", "REDY", "REDY", "REDY", "QUIT"}

	var reports [2]string
	for i, flag := range []bool{true, false} {
		args := []string{"-c", "config.xml", "-p", "0"}
		if flag {
			args = append(args, "--unbilled")
		}
		addr, stdout, stderr, code := startOn(t, args...)
		r := exchange(t, addr.String(), hop...)
		assert.Equal(t, "JOBN 1 50 1 100 100 100", r[4])
		assert.Equal(t, "OK", r[5], "MIGJ")
		assert.Equal(t, 0, <-code)
		out := stdout.String()
		require.Contains(t, out, "# Welcome")
		reports[i] = out[strings.Index(out, "# Welcome"):] // the lines before echo the command line and port
		if flag {
			assert.Equal(t, "dsmock: the report's cost leaves out $0.05 (1 server, 50 server-seconds, 50.00% of $0.10)\n", stderr.String())
		} else {
			assert.NotContains(t, stderr.String(), "leaves")
		}
	}
	assert.Equal(t, reports[0], reports[1], "the report is ds-server's with or without --unbilled")

	addr, _, stderr, code := startOn(t, "-c", "config.xml", "-p", "0", "--unbilled")
	exchange(t, addr.String(), stay...)
	assert.Equal(t, 0, <-code)
	assert.Equal(t, "dsmock: the report's cost leaves nothing out\n", stderr.String())
}

// With --serve the line names its session, as the session's other
// messages on stderr do; servers are counted in the plural.
func TestUnbilledLine(t *testing.T) {
	rep := &mocksrv.Report{TotalCost: 2}
	rep.Unbilled = mocksrv.Unbilled{Servers: 3, Seconds: 7200, Cost: 0.5}
	assert.Equal(t, "dsmock: session 2 (client 127.0.0.1:40000): the report's cost leaves out $0.50 (3 servers, 7200 server-seconds, 25.00% of $2.00)",
		unbilledLine("session 2 (client 127.0.0.1:40000)", rep))
	rep.TotalCost = 0
	assert.Equal(t, "dsmock: the report's cost leaves out $0.50 (3 servers, 7200 server-seconds)", unbilledLine("", rep))
	assert.Equal(t, "dsmock: session 1 (client x): the report's cost leaves nothing out",
		unbilledLine("session 1 (client x)", &mocksrv.Report{}))
}

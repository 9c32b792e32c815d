package transcript_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/internal/transcript"
	"github.com/dssim-go/dssim-go/protocol"
)

// TestAllTranscripts parses every shared -v all log and checks the
// structure of the dialogue it yields: strict alternation, the handshake
// and QUIT, every DATA n followed by exactly n records of the right kind
// whose padding is what ds-server.md §5.3 predicts, and every reply to REDY
// a parsable event.
//
// The 2026 server's logs (v2026/) too: the same structure, GETS records
// with the rate third and record lengths 135 and 177.
func TestAllTranscripts(t *testing.T) {
	files := fixtures.Glob(t, "transcripts/*.vall.log.gz")
	require.Len(t, files, 21)
	files = append(files, fixtures.Glob(t, "v2026/transcripts/*.vall.log.gz")...)
	require.Len(t, files, 21+22)
	for _, f := range files {
		name := filepath.Base(filepath.Dir(filepath.Dir(f))) + "/" + strings.TrimSuffix(filepath.Base(f), ".vall.log.gz")
		t.Run(name, func(t *testing.T) {
			tr, err := transcript.ParseBytes(fixtures.ReadGz(t, f))
			require.NoError(t, err)
			checkDialogue(t, tr)
		})
	}
}

func checkDialogue(t *testing.T, tr *transcript.Transcript) {
	t.Helper()
	require.Len(t, tr.Header, 3, "header lines")
	assert.Contains(t, tr.Header[1], "-v all")
	ms := tr.Messages
	require.GreaterOrEqual(t, len(ms), 6)
	want := []string{"RCVD HELO", "SENT OK", "RCVD AUTH root", "SENT OK"}
	for i, w := range want {
		assert.Equal(t, w, ms[i].String())
	}
	assert.Equal(t, "root", tr.User())
	assert.Equal(t, "RCVD QUIT", ms[len(ms)-2].String())
	assert.Equal(t, "SENT QUIT", ms[len(ms)-1].String())
	require.NotEmpty(t, tr.Report)
	assert.Contains(t, strings.Join(tr.Report, "\n"), "[ Summary ]")

	batches, records, events := 0, 0, 0
	for i, m := range ms {
		if i > 0 && ms[i-1].Dir == m.Dir {
			t.Fatalf("line %d: two %s messages in a row", m.Line, m.Dir)
		}
		if m.Dir == transcript.Sent && ms[i-1].Text == "REDY" {
			_, err := protocol.ParseEvent(m.Text)
			require.NoError(t, err, "line %d", m.Line)
			events++
		}
		if m.Dir != transcript.Sent || !strings.HasPrefix(m.Text, "DATA ") {
			continue
		}
		f := strings.Fields(m.Text)
		require.Len(t, f, 3, "line %d", m.Line)
		n, _ := strconv.Atoi(f[1])
		recLen, _ := strconv.Atoi(f[2])
		require.Equal(t, "OK", ms[i+1].Text, "line %d: client's OK after DATA", m.Line)
		if n == 0 {
			assert.Equal(t, ".", ms[i+2].Text, "line %d: DATA 0 is followed by '.'", m.Line)
			continue
		}
		batch := ms[i+2]
		require.Equal(t, transcript.Sent, batch.Dir)
		lines := batch.Lines()
		require.Len(t, lines, n, "line %d: DATA %d has %d records", m.Line, n, len(lines))
		assert.Equal(t, "OK", ms[i+3].Text)
		assert.Equal(t, ".", ms[i+4].Text)
		batches++
		records += n
		cmd := ms[i-1].Text
		for k, rec := range lines {
			switch {
			case strings.HasPrefix(cmd, "GETS"):
				s, err := protocol.ParseServer(rec)
				require.NoError(t, err, "line %d", batch.Line+k)
				wantFields, withRate := map[int]int{protocol.RecLenGets: 9, protocol.RecLenGetsFailures: 15,
					protocol.RecLenGets2026: 10, protocol.RecLenGetsFailures2026: 16}[recLen], recLen == protocol.RecLenGets2026 || recLen == protocol.RecLenGetsFailures2026
				assert.Len(t, strings.Fields(rec), wantFields, "line %d: record length %d", batch.Line+k, recLen)
				assert.Equal(t, withRate, s.HasRate, "line %d", batch.Line+k)
				// §5.3: records after the first carry 5 + len(prefix)
				// spaces; the SENT line's own pad is len(prefix).
				pad := 0
				if k > 0 {
					pad = batch.Pad + 5
				}
				require.Equal(t, strings.Repeat(" ", pad)+s.String(), rec, "line %d: padding or round trip", batch.Line+k)
			case strings.HasPrefix(cmd, "LSTJ"):
				assert.Equal(t, protocol.RecLenJobs, recLen)
				j, err := protocol.ParseJobRecord(rec)
				require.NoError(t, err, "line %d", batch.Line+k)
				require.Equal(t, j.String(), rec, "LSTJ records are never padded")
			case strings.HasPrefix(cmd, "LSTQ"):
				assert.Equal(t, protocol.RecLenQueue, recLen)
				q, err := protocol.ParseQueuedJob(rec)
				require.NoError(t, err, "line %d", batch.Line+k)
				require.Equal(t, q.String(), rec)
			default:
				t.Fatalf("line %d: DATA after %q", m.Line, cmd)
			}
		}
	}
	assert.Positive(t, batches)
	assert.Positive(t, events)
	t.Logf("%d messages, %d events, %d DATA batches with %d records, %d log lines", len(ms), events, batches, records, tr.Lines)
}

func TestParseSmall(t *testing.T) {
	log := strings.Join([]string{
		"# ds-sim server 4-Apr, 2025 @ MQ - client-server",
		"# Server-side simulator started with 'ds-server -c c.xml -v all'",
		"# Waiting for connection to port 50000 of IP address 127.0.0.1",
		"RCVD HELO",
		"SENT OK",
		"RCVD AUTH bob",
		"# Welcome  bob!",
		"SENT OK",
		"RCVD GETS All",
		"SENT DATA 2 124",
		"RCVD OK",
		"SENT tiny 0 inactive -1 1 4000 16000 0 0",
		"     tiny 1 inactive -1 1 4000 16000 0 0",
		"RCVD OK",
		"SENT .",
		"RCVD REDY",
		"t 10: job 0 -- CPU: 1, Mem: 100, Disk: 100, Est Runtime: 5 SUBMITTED",
		"      SENT JOBN 0 10 1 100 100 5",
		"      RCVD LSTQ GQ 0",
		"      SENT 3 0 1 2 3 1 100 100",
		"",
		"      RCVD LSTJ tiny 0",
		"      SENT DATA 2 59",
		"      RCVD OK",
		"      SENT 1 2 0 1 5 1 100 100",
		"2 1 0 -1 5 1 100 100",
		"      RCVD OK",
		"      SENT .",
		"      RCVD OK",
		"      SENT .",
		"",
		"",
		"t 11: job 4 on tiny 0 failed",
		"",
		"       SENT RESF tiny 0 11",
		"       RCVD QUIT",
		"       SENT QUIT",
		"# ---------",
		"# avg waiting time: 1",
		"",
	}, "\n")
	tr, err := transcript.ParseBytes([]byte(log))
	require.NoError(t, err)
	assert.Len(t, tr.Header, 3)
	assert.Equal(t, []string{"# ---------", "# avg waiting time: 1"}, tr.Report)
	assert.Equal(t, "bob", tr.User())
	var got []string
	for _, m := range tr.Messages {
		got = append(got, m.String())
	}
	assert.Equal(t, []string{
		"RCVD HELO", "SENT OK", "RCVD AUTH bob", "SENT OK",
		"RCVD GETS All", "SENT DATA 2 124", "RCVD OK",
		"SENT tiny 0 inactive -1 1 4000 16000 0 0\n     tiny 1 inactive -1 1 4000 16000 0 0",
		"RCVD OK", "SENT .", "RCVD REDY", "SENT JOBN 0 10 1 100 100 5",
		"RCVD LSTQ GQ 0", "SENT 3 0 1 2 3 1 100 100\n",
		"RCVD LSTJ tiny 0", "SENT DATA 2 59", "RCVD OK",
		"SENT 1 2 0 1 5 1 100 100\n2 1 0 -1 5 1 100 100",
		"RCVD OK", "SENT .",
		"RCVD OK", "SENT .\n\n", // -n newline accumulation on a re-sent "." (§1.4)
		"SENT RESF tiny 0 11", "RCVD QUIT", "SENT QUIT",
	}, got)
	assert.Equal(t, 6, tr.Messages[11].Pad)
	assert.Equal(t, 18, tr.Messages[11].Line)
	assert.Len(t, tr.Filter(transcript.Rcvd), 12)
}

func TestParseErrors(t *testing.T) {
	for name, tc := range map[string]struct{ log, msg string }{
		"unknown line":  {"RCVD HELO\nSENT OK\nhello there\n", `line 3: not a protocol, event or comment line: "hello there"`},
		"short batch":   {"RCVD GETS All\nSENT DATA 3 124\nRCVD OK\nSENT a 0 idle 0 1 1 1 0 0\n     a 1 idle 0 1 1 1 0 0\n", "inside the DATA batch of line 4: 1 more record line(s) expected"},
		"indented junk": {"   SENTX\n", "not a protocol"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := transcript.ParseBytes([]byte(tc.log))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

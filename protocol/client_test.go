package protocol_test

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/client"
	"github.com/dssim-go/dssim-go/internal/heldport"
	"github.com/dssim-go/dssim-go/protocol"
)

// The wire client is a backend of the scheduling loop.
var _ client.Backend = (*protocol.Client)(nil)

func dial(t *testing.T, addr string, nl bool, timeout time.Duration) *protocol.Client {
	t.Helper()
	f := protocol.Plain
	if nl {
		f = protocol.Newline
	}
	c, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{
		ConnOptions: protocol.ConnOptions{Framing: f, ReadTimeout: timeout},
	})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// TestFullDialogue runs every command of the client against a scripted
// server, in both framings, with the GETS batch split over several writes.
func TestFullDialogue(t *testing.T) {
	for _, nl := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "newline"}[nl], func(t *testing.T) {
			addr := fakeServer(t, nl, func(p *peer) error {
				steps := []func() error{
					func() error { return p.reply("HELO", "OK") },
					func() error { return p.reply("AUTH alice", "OK") },
					func() error { return p.reply("GETS All", "DATA 3 124") },
					func() error {
						return p.reply("OK", "juju 0 booting 120 0 2500 13100 1 0\n     juju 1 ina",
							"ctive -1 2 4000 16000 0 0\n     joon 0 active 97 1 15300 60200 0 1")
					},
					func() error { return p.reply("OK", ".") },
					func() error { return p.reply("REDY", "JOBN 0 37 3 700 3800 653") },
					func() error { return p.reply("GETS Avail 3 700 3800", "DATA 0 124") },
					func() error { return p.reply("OK", ".") },
					func() error { return p.reply("GETS Capable 3 700 3800", "DATA 1 166") },
					func() error { return p.reply("OK", "tiny 0 inactive -1 1 1000 4000 0 0 26 8811 2538 338 2199 74808") },
					func() error { return p.reply("OK", ".") },
					func() error { return p.reply("SCHD 0 joon 0", "OK") },
					func() error { return p.reply("LSTJ juju 0", "DATA 2 59") },
					func() error { return p.reply("OK", "1 2 60 120 2025 2 1500 2900\n2 1 60 -1 20 2 1500 2900") },
					func() error { return p.reply("OK", ".") },
					func() error { return p.reply("CNTJ juju 0 1", "1") },
					func() error { return p.reply("EJWT juju 0", "230") },
					func() error { return p.reply("LSTQ GQ #", "2") },
					func() error { return p.reply("LSTQ GQ *", "DATA 2 55") },
					func() error { return p.reply("OK", "3 0 1 2 3 1 100 100\n4 1 2 2 3 1 100 100") },
					func() error { return p.reply("OK", ".") },
					func() error { return p.reply("LSTQ GQ 0", "3 0 1 2 3 1 100 100\n") },
					func() error { return p.reply("LSTQ GQ 1", "No such queue ID (1) exists!") },
					func() error { return p.reply("TERM juju 0", "2 jobs killed") },
					func() error { return p.reply("REDY", "NONE") },
					func() error { return p.reply("QUIT", "QUIT") },
				}
				for _, s := range steps {
					if err := s(); err != nil {
						return err
					}
				}
				return nil
			})
			c := dial(t, addr, nl, 5*time.Second)
			require.NoError(t, c.Handshake("alice"))
			all, err := c.GetsAll()
			require.NoError(t, err)
			require.Len(t, all, 3)
			assert.Equal(t, protocol.Server{Type: "juju", ID: 1, State: protocol.Inactive, CurStartTime: -1, Cores: 2, Memory: 4000, Disk: 16000}, all[1])
			assert.Equal(t, protocol.Active, all[2].State)
			ev, err := c.Ready()
			require.NoError(t, err)
			job := ev.(*protocol.JobOffer).Job
			avail, err := c.GetsAvail(job.Req())
			require.NoError(t, err)
			assert.Empty(t, avail)
			capable, err := c.GetsCapable(job.Req())
			require.NoError(t, err)
			require.Len(t, capable, 1)
			assert.Equal(t, &protocol.Failure{Failures: 26, TotalFailTime: 8811, MTTF: 2538, MTTR: 338, MADF: 2199, LastStartTime: 74808}, capable[0].Failure)
			reply, err := c.Do(protocol.Schedule{JobID: 0, Server: protocol.ServerRef{Type: "joon", ID: 0}})
			require.NoError(t, err)
			assert.Equal(t, "OK", reply)
			juju0 := protocol.ServerRef{Type: "juju", ID: 0}
			jobs, err := c.ListJobs(juju0)
			require.NoError(t, err)
			assert.Equal(t, []protocol.JobRecord{{1, protocol.JobStateRunning, 60, 120, 2025, 2, 1500, 2900}, {2, protocol.JobStateWaiting, 60, -1, 20, 2, 1500, 2900}}, jobs)
			n, err := c.CountJobs(juju0, protocol.JobStateWaiting)
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			n, err = c.EstWait(juju0)
			require.NoError(t, err)
			assert.Equal(t, 230, n)
			n, err = c.QueueLen()
			require.NoError(t, err)
			assert.Equal(t, 2, n)
			q, err := c.ListQueue()
			require.NoError(t, err)
			assert.Equal(t, []protocol.QueuedJob{{3, 0, 1, 2, 3, 1, 100, 100}, {4, 1, 2, 2, 3, 1, 100, 100}}, q)
			e, ok, err := c.QueueEntry(0)
			require.NoError(t, err)
			assert.True(t, ok)
			assert.Equal(t, q[0], e)
			_, ok, err = c.QueueEntry(1)
			require.NoError(t, err)
			assert.False(t, ok)
			killed, err := c.Terminate(juju0)
			require.NoError(t, err)
			assert.Equal(t, 2, killed)
			ev, err = c.Ready()
			require.NoError(t, err)
			assert.IsType(t, &protocol.NoMoreJobs{}, ev)
			require.NoError(t, c.Quit())
		})
	}
}

func TestServerRefusal(t *testing.T) {
	addr := fakeServer(t, false, func(p *peer) error {
		for _, s := range [][2]string{{"SCHD 3 tiny 0", "ERR: No such waiting job exists"}, {"REDY", "CHKQ"}, {"QUIT", "QUIT"}} {
			if err := p.reply(s[0], s[1]); err != nil {
				return err
			}
		}
		return nil
	})
	c := dial(t, addr, false, 5*time.Second)
	_, err := c.Do(protocol.Schedule{JobID: 3, Server: protocol.ServerRef{Type: "tiny", ID: 0}})
	var se *protocol.ServerError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, "SCHD 3 tiny 0", se.Command)
	assert.Equal(t, "ERR: No such waiting job exists", se.Text)
	// The dialogue goes on after an ERR (ds-server.md §5.1).
	ev, err := c.Ready()
	require.NoError(t, err)
	assert.IsType(t, &protocol.CheckQueue{}, ev)
	require.NoError(t, c.Quit())
}

// TestBadServers: every misbehaviour ends in an error that names the
// command, what was expected and what arrived, within the read timeout.
// The cases of a server that stops answering run with a short read
// timeout (silent) and a script that holds the connection until the
// client gives up; the others with a long one (prompt), which a script
// slowed down by a loaded machine cannot run into. silent still bounds
// each of the script's replies before it stops answering: 2 s, where
// stalls of 1 s were seen with the machine loaded ten times over (and
// 300 ms was too short). A case that takes longer than bound hangs: it
// is well under the prompt cases' read timeout, and a silent script gives
// up at holdUntilClosed's 30 s.
func TestBadServers(t *testing.T) {
	const silent, prompt, bound = 2 * time.Second, 30 * time.Second, 15 * time.Second
	tests := []struct {
		name   string
		script func(p *peer) error
		call   func(c *protocol.Client) error
		is     error
		msg    string
	}{
		{"unknown message", func(p *peer) error { return p.reply("REDY", "HELLO WORLD") },
			func(c *protocol.Client) error { _, err := c.Ready(); return err },
			protocol.ErrUnexpected, `unexpected server message "HELLO WORLD" during "REDY"`},
		{"malformed event", func(p *peer) error { return p.reply("REDY", "JOBN 1 2 x 4 5 6") },
			func(c *protocol.Client) error { _, err := c.Ready(); return err },
			protocol.ErrUnexpected, `unexpected server message "JOBN 1 2 x 4 5 6" during "REDY"`},
		{"dropped at once", func(p *peer) error { return p.expect("HELO") },
			func(c *protocol.Client) error { return c.Handshake("bob") },
			protocol.ErrClosed, `the server closed the connection during "HELO" (waiting for OK; got nothing)`},
		{"closed mid-message", func(p *peer) error { return p.reply("REDY", "JOBN 0 37") },
			func(c *protocol.Client) error { _, err := c.Ready(); return err },
			protocol.ErrClosed, `got only "JOBN 0 37"`},
		{"closed mid-batch", func(p *peer) error {
			if err := p.reply("GETS All", "DATA 2 124"); err != nil {
				return err
			}
			return p.reply("OK", "a 0 idle 0 1 1 1 0 0\n")
		}, func(c *protocol.Client) error { _, err := c.GetsAll(); return err },
			protocol.ErrClosed, `the server closed the connection during "GETS All" (waiting for 2 GETS record(s); got only "a 0 idle 0 1 1 1 0 0\n")`},
		{"stops answering", func(p *peer) error { return p.expect("REDY") },
			func(c *protocol.Client) error { _, err := c.Ready(); return err },
			nil, ``}, // filled below: the script must hold the connection open
		{"fewer records than announced", func(p *peer) error {
			if err := p.reply("GETS All", "DATA 3 124"); err != nil {
				return err
			}
			if err := p.reply("OK", "a 0 idle 0 1 1 1 0 0\n     a 1 idle 0 1 1 1 0 0"); err != nil {
				return err
			}
			return p.holdUntilClosed()
		}, func(c *protocol.Client) error { _, err := c.GetsAll(); return err },
			protocol.ErrTimeout, `no complete reply within 2s during "GETS All" (waiting for 3 GETS record(s); got only "a 0 idle 0 1 1 1 0 0\n     a 1 idle 0 1 1 1 0 0")`},
		{"garbage header", func(p *peer) error { return p.reply("GETS All", "DATA three 124") },
			func(c *protocol.Client) error { _, err := c.GetsAll(); return err },
			protocol.ErrUnexpected, `unexpected server message "DATA three 124" during "GETS All" (want "DATA nRecs recLen")`},
		{"truncated record", func(p *peer) error {
			if err := p.reply("LSTJ a 0", "DATA 1 59"); err != nil {
				return err
			}
			return p.reply("OK", "1 2 60 120")
		}, func(c *protocol.Client) error { _, err := c.ListJobs(protocol.ServerRef{Type: "a"}); return err },
			protocol.ErrClosed, `got only "1 2 60 120"`},
		{"newline server, plain client", func(p *peer) error { return p.reply("HELO", "OK\n") },
			func(c *protocol.Client) error { return c.Handshake("bob") },
			protocol.ErrUnexpected, `unexpected server message "OK\n" during "HELO"`},
	}
	tests[5].script = func(p *peer) error {
		if err := p.expect("REDY"); err != nil {
			return err
		}
		return p.holdUntilClosed()
	}
	tests[5].is = protocol.ErrTimeout
	tests[5].msg = `the server stopped answering: no complete reply within 2s during "REDY"`
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := fakeServer(t, false, tc.script)
			timeout := prompt
			if tc.is == protocol.ErrTimeout {
				timeout = silent
			}
			c := dial(t, addr, false, timeout)
			start := time.Now()
			err := tc.call(c)
			require.ErrorIs(t, err, tc.is)
			assert.Contains(t, err.Error(), tc.msg)
			assert.Less(t, time.Since(start), bound, "bounded by the read timeout (%v), not waiting it out or for ever", timeout)
			// After a broken exchange QUIT is not sent and returns at once:
			// the error says no exchange was tried, and a silent script
			// fails on anything the client sends (the bound only says it
			// does not hang).
			start = time.Now()
			assert.ErrorContains(t, c.Quit(), "QUIT not sent")
			assert.Less(t, time.Since(start), bound)
		})
	}
}

// heldPort is a loopback port that refuses connections until p.Listen,
// and that no other test can take meanwhile (heldport).
func heldPort(t *testing.T) *heldport.Port {
	t.Helper()
	p, err := heldport.Hold()
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

func TestDialRetriesRefused(t *testing.T) {
	p := heldPort(t)
	addr := p.Addr()

	// Nobody listens yet: the error says how long it tried (a second:
	// long enough for a second attempt, which the message needs, however
	// late a loaded machine runs the first; stalls of 0.4 s were seen).
	start := time.Now()
	_, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{ConnectTimeout: time.Second, RetryInterval: 50 * time.Millisecond})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot connect to "+addr+" after")
	assert.Contains(t, err.Error(), "connection refused")
	assert.GreaterOrEqual(t, time.Since(start), 900*time.Millisecond)
	assert.Less(t, time.Since(start), 5*time.Second)

	// The server comes up while the client retries.
	served := make(chan error, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		l2, err := p.Listen()
		if err != nil {
			served <- err
			return
		}
		defer l2.Close()
		c, err := l2.Accept()
		if err == nil {
			c.Close()
		}
		served <- err
	}()
	c, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{ConnectTimeout: 5 * time.Second, RetryInterval: 50 * time.Millisecond})
	require.NoError(t, err)
	c.Close()
	require.NoError(t, <-served)
}

// The pauses between attempts start at a millisecond and double up to
// RetryInterval: a client started with its server connects soon after the
// server listens, without hammering a server that is slow to come.
func TestDialBacksOff(t *testing.T) {
	// Pauses of 1+2+…+64 = 127 ms, then 100 ms each (never past
	// RetryInterval): attempts at 0, 1, 3, …, 127, 227, …, 927 ms, 16 in
	// all, and no more, as a pause is never shorter. A fixed 100 ms
	// interval would allow 10. A stall of the machine costs attempts (two
	// in a second were seen, with it loaded ten times over): the best of
	// three tries counts, which a fixed interval fails every time.
	best := 0
	for try := 0; try < 3 && best < 12; try++ {
		addr := heldPort(t).Addr()
		_, err := protocol.Dial(context.Background(), addr, protocol.DialOptions{ConnectTimeout: time.Second, RetryInterval: 100 * time.Millisecond})
		require.Error(t, err)
		m := regexp.MustCompile(`after (\d+) attempts`).FindStringSubmatch(err.Error())
		require.NotNil(t, m, err.Error())
		attempts, _ := strconv.Atoi(m[1])
		require.LessOrEqual(t, attempts, 16, err.Error())
		best = max(best, attempts)
	}
	assert.GreaterOrEqual(t, best, 12, "attempts in 1 s, the best of three tries")
}

func TestCountJobsRefusesCrashStates(t *testing.T) {
	c := protocol.NewClient(nil, nil, protocol.ConnOptions{})
	for _, st := range []protocol.JobState{0, 8} {
		_, err := c.CountJobs(protocol.ServerRef{Type: "a"}, st)
		require.Error(t, err)
		assert.True(t, strings.Contains(err.Error(), "crash"))
	}
}

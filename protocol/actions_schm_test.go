package protocol_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
)

// TestScheduleMemWire: SCHM's exact text, that it disposes of the offered
// job as SCHD does, and that ds-server's refusal of an unknown command
// reaches the caller as a ServerError the dialogue survives (estimation.md
// B.5: the first SCHM detects the dsmock extension).
func TestScheduleMemWire(t *testing.T) {
	a := protocol.ScheduleMem{JobID: 7, Server: protocol.ServerRef{Type: "small", ID: 2}, AllocMem: 1200}
	assert.Equal(t, "SCHM 7 small 2 1200", a.String())
	assert.True(t, protocol.DisposesJob(a))
	addr := fakeServer(t, false, func(p *peer) error {
		for _, s := range [][2]string{{"SCHM 7 small 2 1200", "OK"},
			{"SCHM 8 small 2 100", "ERR: invalid command (SCHM 8 small 2 100)"}, {"QUIT", "QUIT"}} {
			if err := p.reply(s[0], s[1]); err != nil {
				return err
			}
		}
		return nil
	})
	c := dial(t, addr, false, 5*time.Second)
	reply, err := c.Do(a)
	require.NoError(t, err)
	assert.Equal(t, "OK", reply)
	_, err = c.Do(protocol.ScheduleMem{JobID: 8, Server: a.Server, AllocMem: 100})
	var se *protocol.ServerError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, "SCHM 8 small 2 100", se.Command)
	assert.Equal(t, "invalid command (SCHM 8 small 2 100)", se.Reason())
	require.NoError(t, c.Quit())
}

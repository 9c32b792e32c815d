package dsclient_test

import (
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/ports"
	"github.com/dssim-go/dssim-go/internal/dsclient"
	"github.com/dssim-go/dssim-go/strategies"
	"github.com/dssim-go/dssim-go/strategies/strattest"
)

// listMembers records the members the test-list strategy was made with.
var listMembers []strategies.Spec

func init() {
	strategies.Register(strategies.Info{
		Name:    "test-list",
		Summary: "test only: a List parameter (as a composite strategy has)",
		Params:  []strategies.Param{{Name: "members", Kind: strategies.List, Default: "[]"}},
		New: func(p strategies.Params) (strategies.Strategy, error) {
			listMembers = p.List("members")
			return strattest.FirstCapable{}, nil
		},
	})
}

// TestListParam: --param members=[…] takes the whole bracketed list, commas
// and colons included; a bad element is a usage error naming its column.
func TestListParam(t *testing.T) {
	closed := closedPort(t)

	// Accepted: the strategy is made, then the connection fails.
	r := runMain("-a", "test-list", "--param", "members=[atl; cost-reduce:multiplier=2; fc]",
		"-p", closed, "--connect-timeout", "0")
	assert.Equal(t, dsclient.ExitConnect, r.code, r.stderr)
	assert.Equal(t, []strategies.Spec{{Name: "atl"}, {Name: "cost-reduce", Settings: map[string]string{"multiplier": "2"}},
		{Name: "fc"}}, listMembers)

	for _, tc := range []struct{ members, want string }{
		{"[atl; nosuch]", `dsclient: strategy test-list: parameter members: "[atl; nosuch]", column 7: element 2: unknown strategy "nosuch"`},
		{"[atl; cost-reduce:multiplier=x]", `column 7: element 2: strategy cost-reduce: parameter multiplier="x": want a number`},
		{"[atl; cost-reduce:multiplier=2", `"[atl; cost-reduce:multiplier=2", column 1: "[" is not closed`},
		{"[atl;; fc]", `"[atl;; fc]", column 6: empty list element`},
		{"atl", `want [spec; spec; …]: "atl", column 1: a list starts with "["`},
	} {
		r := runMain("-a", "test-list", "--param", "members="+tc.members)
		assert.Equal(t, dsclient.ExitUsage, r.code, tc.members)
		assert.Contains(t, r.stderr, tc.want, tc.members)
	}
}

// closedPort is a port nothing listens on (from DSSIM_PORTS when set): a
// client made with good flags then fails to connect, exit status 3.
func closedPort(t *testing.T) string {
	l, err := ports.TestListen()
	require.NoError(t, err)
	closed := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	require.NoError(t, l.Close())
	return closed
}

package dsmock

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
)

// positionalClient is the client a student writes for one ds-server year:
// newline framing (-n), first capable server, and GETS records read by
// position with a parse that fails loudly (Integer.parseInt, int(), atoi
// with a check), 9 fields for 2025 or 10 with the rate third for 2026. It
// returns nil when the run ends with QUIT.
func positionalClient(addr string, year int) error {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	ask := func(msg string) (string, error) {
		if _, err := fmt.Fprintf(c, "%s\n", msg); err != nil {
			return "", err
		}
		line, err := r.ReadString('\n')
		return strings.TrimSuffix(line, "\n"), err
	}
	for _, m := range []string{"HELO", "AUTH student"} {
		if _, err := ask(m); err != nil {
			return err
		}
	}
	for {
		ev, err := ask("REDY")
		if err != nil {
			return err
		}
		f := strings.Fields(ev)
		switch {
		case ev == "NONE":
			_, err := ask("QUIT")
			return err
		case len(f) < 7 || f[0] != "JOBN" && f[0] != "JOBP":
			continue // JCPL and the like: nothing to do
		}
		hdr, err := ask("GETS Capable " + f[3] + " " + f[4] + " " + f[5])
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(strings.Fields(hdr)[1])
		first, err := ask("OK")
		if err != nil {
			return err
		}
		for k := 1; k < n; k++ {
			if _, err := r.ReadString('\n'); err != nil {
				return err
			}
		}
		if _, err := ask("OK"); err != nil { // the "."
			return err
		}
		rec := strings.Fields(first)
		cores := 4 // the field after the state and curStartTime
		if year == 2026 {
			if _, err := strconv.ParseFloat(rec[2], 64); err != nil {
				return fmt.Errorf("record %q: the rate %q is not a number", first, rec[2])
			}
			cores = 5
		}
		if _, err := strconv.Atoi(rec[cores-1]); err != nil {
			return fmt.Errorf("record %q: curStartTime %q is not a number", first, rec[cores-1])
		}
		if reply, err := ask("SCHD " + f[1] + " " + rec[0] + " " + rec[1]); err != nil || reply != "OK" {
			return fmt.Errorf("SCHD: %q %v", reply, err)
		}
	}
}

// TestCompatibility is README's compatibility table for dsmock, measured:
// a client written for 2025 and one written for 2026 (positionalClient),
// and the project's client, against dsmock speaking each year. A client
// runs only against the year it was written for; dsclient against both.
func TestCompatibility(t *testing.T) {
	cfg := filepath.Join(fixtureDir(t, "sample-config01"), "config.xml")
	for _, server := range []int{2025, 2026} {
		for _, client := range []string{"2025", "2026", "dsclient"} {
			t.Run(fmt.Sprintf("dsmock %d, client %s", server, client), func(t *testing.T) {
				t.Chdir(t.TempDir())
				addr, _, _, code := startDsmock(t, "--year", strconv.Itoa(server), "-c", cfg, "-n")
				var err error
				if client == "dsclient" {
					err = runClient(t, addr, "ff", protocol.Newline)
				} else {
					year, _ := strconv.Atoi(client)
					err = positionalClient(addr, year)
				}
				works := client == "dsclient" || client == strconv.Itoa(server)
				if works {
					require.NoError(t, err)
					assert.Equal(t, 0, <-code)
					_, statErr := os.Stat("ds-system.xml")
					assert.NoError(t, statErr)
					return
				}
				require.Error(t, err, "a client of the other year must fail")
				assert.Contains(t, err.Error(), "is not a number")
				<-code
			})
		}
	}
}

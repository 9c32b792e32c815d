//go:build linux

package dsmock

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/internal/fixtures"
	"github.com/dssim-go/dssim-go/protocol"
)

// The load test's figures (docs/dsmock.md quotes them with its command).
const (
	loadSessions  = 200       // clients at once, each a whole run
	loadLogMax    = 128 << 20 // --session-log-max: where the flood's session is ended
	loadRSSBound  = 64 << 20  // dsmock's peak resident memory must stay below it
	loadFloodSize = 1000      // bytes of junk per flooding message
)

// TestServeUnderLoad: dsmock --serve -v all with 200 clients running whole
// simulations at once and one client flooding junk (each junk message
// logs its 1000 bytes twice): the process's peak resident memory stays
// under 64 MiB while the flood's log grows past it to 128 MiB, where its
// session is ended with a message, and every other session's report is
// the reference one. Before, a session's log was held in memory until it
// ended: the flood alone grew dsmock by its log's size.
func TestServeUnderLoad(t *testing.T) {
	bin := buildDsmock(t)
	algos := []string{"atl", "lrr", "ff", "bf", "wf", "fc", "fafc", "ffq", "bfq", "wfq"}
	work := t.TempDir()
	for _, f := range []string{"config.xml", "jobs.xml"} {
		data, err := os.ReadFile(filepath.Join(fixtureDir(t, "sample-config01"), f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(work, f), data, 0o644))
	}
	t.Chdir(work) // the clients read ds-system.xml here
	port := freeTestPort(t)
	var stderr syncBuffer
	cmd := exec.Command(bin, "-c", "config.xml", "-v", "all", "-p", port, "--serve", "--timeout", "60s",
		"--session-log-max", strconv.Itoa(loadLogMax))
	stdout, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	require.NoError(t, err)
	defer stdout.Close()
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var status error
	ended := false
	t.Cleanup(func() {
		if !ended {
			cmd.Process.Kill()
			<-exited
		}
	})
	addr := "127.0.0.1:" + port
	waitDial(t, addr)

	var over atomic.Bool // the memory bound was passed: stop at once
	peak := watchRSS(cmd.Process.Pid, &over)
	start := time.Now()
	flooded := make(chan int64, 1)
	go func() { flooded <- flood(addr, &over) }()
	var wg sync.WaitGroup
	errs := make(chan error, loadSessions)
	for i := range loadSessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if over.Load() {
				return
			}
			if err := runClient(t, addr, algos[i%len(algos)], protocol.Plain); err != nil {
				errs <- fmt.Errorf("%s: %w", algos[i%len(algos)], err)
			}
		}()
	}
	wg.Wait()
	floodBytes := <-flooded
	elapsed := time.Since(start)
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	status, ended = <-exited, true
	require.NoError(t, status, stderr.String())
	out, err := os.ReadFile(stdout.Name())
	require.NoError(t, err)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	hwm := peak()
	t.Logf("%d sessions and a flood of %d bytes (%d messages) in %v: peak resident memory %.1f MiB (bound %d MiB), stdout %.1f MiB",
		loadSessions, floodBytes, floodBytes/loadFloodSize, elapsed.Round(time.Millisecond), float64(hwm)/(1<<20), loadRSSBound>>20, float64(len(out))/(1<<20))
	require.False(t, over.Load(), "dsmock's resident memory passed %d MiB", loadRSSBound>>20)
	assert.Less(t, hwm, int64(loadRSSBound))
	assert.Regexp(t, `dsmock: session \d+ \(client [^)]+\) ended: the session's log passed its limit of 134217728 bytes \(dsmock --session-log-max\)`, stderr.String())
	checkLoadReports(t, string(out), algos)
}

// flood is the flooding client: after the handshake, junk as fast as
// dsmock answers it (an ERR each), until dsmock ends the session or stop
// is set; it returns the junk bytes sent.
func flood(addr string, stop *atomic.Bool) int64 {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return 0
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Minute))
	buf := make([]byte, 4096)
	for _, m := range []string{"HELO", "AUTH flood"} {
		if _, err := c.Write([]byte(m)); err != nil {
			return 0
		}
		if _, err := c.Read(buf); err != nil {
			return 0
		}
	}
	junk := []byte(strings.Repeat("j", loadFloodSize))
	var sent int64
	for !stop.Load() {
		if _, err := c.Write(junk); err != nil {
			break
		}
		if _, err := c.Read(buf); err != nil {
			break
		}
		sent += loadFloodSize
	}
	return sent
}

// watchRSS samples the process's resident memory every 10 ms, setting
// over when it passes loadRSSBound; peak stops it and returns the kernel's
// high-water mark (VmHWM), the largest resident size the process had.
func watchRSS(pid int, over *atomic.Bool) (peak func() int64) {
	done := make(chan struct{})
	var hwm atomic.Int64
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if rss, h := procMemory(pid); h > 0 {
				hwm.Store(h)
				if rss > loadRSSBound {
					over.Store(true)
				}
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 { close(done); return hwm.Load() }
}

// procMemory reads VmRSS and VmHWM (bytes) from /proc/pid/status.
func procMemory(pid int) (rss, hwm int64) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if k == "VmRSS" {
			rss = kb << 10
		} else {
			hwm = kb << 10
		}
	}
	return rss, hwm
}

// checkLoadReports splits dsmock's stdout at its "# session N" lines and
// checks that the sessions with a report are the 200 clients', each
// ending with the reference summary of its algorithm, as many of each as
// were run.
func checkLoadReports(t *testing.T, out string, algos []string) {
	t.Helper()
	want := map[string]int{}
	for _, a := range algos {
		data, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "expected", "sample-config01."+a+".summary"))
		require.NoError(t, err)
		want[string(data)] += loadSessions / len(algos)
	}
	got := map[string]int{}
	reports := 0
	for _, part := range regexp.MustCompile(`(?m)^# session \d+ \(client [^)]+\)\n`).Split(out, -1)[1:] {
		if !strings.Contains(part, "[ Summary ]") {
			continue
		}
		reports++
		for w := range want {
			if strings.HasSuffix(part, w) {
				got[w]++
			}
		}
	}
	assert.Equal(t, loadSessions, reports, "sessions with a report")
	for w, n := range want {
		assert.Equal(t, n, got[w], "sessions ending with\n%s", w)
	}
}

package dsmock

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// burnEnv, when set in this test binary's environment, makes the process a
// CPU burner (see init): the loaded variants of the pair benchmark start
// two such processes to keep both cores of the measuring machine busy, as
// two other programs of a user would.
const burnEnv = "DSSIM_BENCH_BURN_CPU"

// burnLimit bounds a burner's life even if the benchmark that started it
// dies without killing it.
const burnLimit = 5 * time.Minute

func init() {
	if os.Getenv(burnEnv) == "" {
		return
	}
	runtime.GOMAXPROCS(1)
	start := time.Now()
	x := 0
	for time.Since(start) < burnLimit {
		for i := 0; i < 1_000_000; i++ {
			x += i ^ x
		}
	}
	os.Exit(x & 0)
}

// startBurners starts n processes that each keep one CPU busy (this test
// binary re-run with burnEnv) and returns the function that kills them.
func startBurners(b *testing.B, n int) (stop func()) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var procs []*exec.Cmd
	stop = func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}
	for i := 0; i < n; i++ {
		p := exec.Command(self, "-test.run=^$")
		p.Env = append(os.Environ(), burnEnv+"=1")
		if err := p.Start(); err != nil {
			stop()
			b.Fatal(err)
		}
		procs = append(procs, p)
	}
	time.Sleep(50 * time.Millisecond) // let them reach the loop
	return stop
}

// BenchmarkPairConfig100LongHighFF is the user's view of speed over TCP:
// the dsmock and dsclient binaries, two processes on loopback, running
// config100-long-high (the shared configs/ file: dsmock generates its 2,000
// jobs, as ds-server does) with ff exactly as a harness would (dsmock -c …
// -v brief -p PORT; dsclient -a ff -p PORT), from dsmock's start until
// both have exited. The real ds-server with its client takes 0.50 s for it
// on the machine the issue was measured on. Besides the mean (ns/op) it
// reports the median run (median-ms), which the host's noise moves less.
//
// "nospin" turns the reads' busy-polling off on both sides. The "loaded"
// variants run the pair while two burner processes (startBurners) keep
// both CPUs busy, started before the first run and killed after the last:
// the condition in which busy polling competes for the CPU with the peer.
func BenchmarkPairConfig100LongHighFF(b *testing.B) {
	config := filepath.Join(fixtures.Dir(b), "configs", "config100-long-high.xml")
	want, err := os.ReadFile(filepath.Join(fixtures.Dir(b), "expected", "config100-long-high.ff.summary"))
	if err != nil {
		b.Fatal(err)
	}
	// DSSIM_PAIR_BIN names a folder with prebuilt dsmock and dsclient
	// binaries, to compare two builds in one sitting.
	bin := os.Getenv("DSSIM_PAIR_BIN")
	for _, cmd := range []string{"dsmock", "dsclient"} {
		if os.Getenv("DSSIM_PAIR_BIN") != "" {
			break
		}
		if bin == "" {
			bin = b.TempDir()
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(bin, cmd), "github.com/dssim-go/dssim-go/cmd/"+cmd).CombinedOutput()
		if err != nil {
			b.Fatalf("build %s: %v\n%s", cmd, err, out)
		}
	}
	dir := b.TempDir()
	data, err := os.ReadFile(config)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.xml"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	p := pairRun{bin: bin, dir: dir, want: string(want)}
	for _, v := range []struct {
		name    string
		spin    string
		burners int
	}{{"spin", "100us", 0}, {"nospin", "0", 0}, {"spin-loaded", "100us", 2}, {"nospin-loaded", "0", 2}} {
		b.Run(v.name, func(b *testing.B) {
			if v.burners > 0 {
				defer startBurners(b, v.burners)()
			}
			var runs []time.Duration
			for i := 0; i < b.N; i++ {
				runs = append(runs, p.run(b, v.spin, i))
			}
			slices.Sort(runs)
			b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "median-ms")
		})
	}
}

// pairRun runs the two binaries of bin in dir and checks the summary.
type pairRun struct {
	bin, dir, want string
}

// run is one timed run (the summary check is outside the timer).
func (p pairRun) run(b *testing.B, spin string, i int) time.Duration {
	// Output goes to files, as a harness script's would: a pipe to
	// this process would add its wake-ups to the run.
	srvOut, cliOut := filepath.Join(p.dir, "dsmock.out"), filepath.Join(p.dir, "dsclient.out")
	srvFile, cliFile := mustCreate(b, srvOut), mustCreate(b, cliOut)
	defer srvFile.Close()
	defer cliFile.Close()
	start := time.Now()
	port := 61000 + (os.Getpid()*7+i)%4500 // above the ephemeral range
	srv := exec.Command(filepath.Join(p.bin, "dsmock"), "-c", "config.xml", "-v", "brief", "-p", strconv.Itoa(port), "--spin", spin)
	srv.Dir = p.dir
	srv.Stdout = srvFile
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	// The client starts at once: dsclient retries a refused
	// connection after 1, 2, 4, … ms (probing the port from here
	// could take it from dsmock for an instant).
	cli := exec.Command(filepath.Join(p.bin, "dsclient"), "-a", "ff", "-p", strconv.Itoa(port), "--spin", spin)
	cli.Dir = p.dir
	cli.Stdout, cli.Stderr = cliFile, cliFile
	if err := cli.Run(); err != nil {
		srv.Process.Kill()
		msg, _ := os.ReadFile(cliOut)
		b.Fatalf("dsclient: %v\n%s", err, msg)
	}
	if err := srv.Wait(); err != nil {
		b.Fatalf("dsmock: %v", err)
	}
	took := time.Since(start)
	b.StopTimer()
	defer b.StartTimer()
	out, err := os.ReadFile(srvOut)
	if err != nil {
		b.Fatal(err)
	}
	if !strings.HasSuffix(string(out), p.want) {
		b.Fatalf("wrong summary:\n%s", out)
	}
	return took
}

func mustCreate(b *testing.B, path string) *os.File {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

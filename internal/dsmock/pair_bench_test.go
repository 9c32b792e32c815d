package dsmock

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// BenchmarkPairConfig100LongHighFF is the user's view of speed over TCP:
// the dsmock and dsclient binaries, two processes on loopback, running
// config100-long-high (the shared configs/ file: dsmock generates its 2,000
// jobs, as ds-server does) with ff exactly as a harness would (dsmock -c …
// -v brief -p PORT; dsclient -a ff -p PORT), from dsmock's start until
// both have exited. The real ds-server with its client takes 0.50 s for it
// on the machine the issue was measured on. Besides the mean (ns/op) it
// reports the median run (median-ms), which the host's noise moves less.
// "nospin" turns the reads' busy-polling off on both sides.
func BenchmarkPairConfig100LongHighFF(b *testing.B) {
	config := filepath.Join(fixtures.Dir(b), "configs", "config100-long-high.xml")
	want, err := os.ReadFile(filepath.Join(fixtures.Dir(b), "expected", "config100-long-high.ff.summary"))
	if err != nil {
		b.Fatal(err)
	}
	bin := b.TempDir()
	for _, cmd := range []string{"dsmock", "dsclient"} {
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
	for _, spin := range []string{"100us", "0"} {
		name := "spin"
		if spin == "0" {
			name = "nospin"
		}
		b.Run(name, func(b *testing.B) {
			// Output goes to files, as a harness script's would: a pipe to
			// this process would add its wake-ups to the run.
			srvOut, cliOut := filepath.Join(dir, "dsmock.out"), filepath.Join(dir, "dsclient.out")
			var runs []time.Duration
			for i := 0; i < b.N; i++ {
				srvFile, cliFile := mustCreate(b, srvOut), mustCreate(b, cliOut)
				start := time.Now()
				port := 61000 + (os.Getpid()*7+i)%4500 // above the ephemeral range
				srv := exec.Command(filepath.Join(bin, "dsmock"), "-c", "config.xml", "-v", "brief", "-p", strconv.Itoa(port), "--spin", spin)
				srv.Dir = dir
				srv.Stdout = srvFile
				if err := srv.Start(); err != nil {
					b.Fatal(err)
				}
				// The client starts at once: dsclient retries a refused
				// connection after 1, 2, 4, … ms (probing the port from here
				// could take it from dsmock for an instant).
				cli := exec.Command(filepath.Join(bin, "dsclient"), "-a", "ff", "-p", strconv.Itoa(port), "--spin", spin)
				cli.Dir = dir
				cli.Stdout, cli.Stderr = cliFile, cliFile
				if err := cli.Run(); err != nil {
					srv.Process.Kill()
					msg, _ := os.ReadFile(cliOut)
					b.Fatalf("dsclient: %v\n%s", err, msg)
				}
				if err := srv.Wait(); err != nil {
					b.Fatalf("dsmock: %v", err)
				}
				runs = append(runs, time.Since(start))
				srvFile.Close()
				cliFile.Close()
				b.StopTimer()
				out, err := os.ReadFile(srvOut)
				if err != nil {
					b.Fatal(err)
				}
				if !strings.HasSuffix(string(out), string(want)) {
					b.Fatalf("wrong summary:\n%s", out)
				}
				b.StartTimer()
			}
			slices.Sort(runs)
			b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "median-ms")
		})
	}
}

func mustCreate(b *testing.B, path string) *os.File {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

package dsmock

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dssim-go/dssim-go/internal/fixtures"
)

// BenchmarkPairConfig100LongHighFF is the user's view of speed over TCP:
// the dsmock and dsclient binaries, two processes on loopback, running
// config100-long-high with ff exactly as a harness would (dsmock -c … -v
// brief -p PORT; dsclient -a ff -p PORT). The real ds-server with its
// client takes 0.50 s for it on the machine the issue was measured on.
// "nospin" turns the reads' busy-polling off on both sides.
func BenchmarkPairConfig100LongHighFF(b *testing.B) {
	src := filepath.Join(fixtures.Dir(b), "fixtures", "config100-long-high")
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
	for _, f := range []string{"config.xml", "jobs.xml"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, spin := range []string{"100us", "0"} {
		name := "spin"
		if spin == "0" {
			name = "nospin"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				port := 61000 + (os.Getpid()*7+i)%4500 // above the ephemeral range
				// Output goes to files, as a harness script's would: a pipe
				// to this process would add its wake-ups to the run.
				srvOut, cliOut := filepath.Join(dir, "dsmock.out"), filepath.Join(dir, "dsclient.out")
				srv := exec.Command(filepath.Join(bin, "dsmock"), "-c", "config.xml", "-v", "brief", "-p", strconv.Itoa(port), "--spin", spin)
				srv.Dir = dir
				srv.Stdout = mustCreate(b, srvOut)
				if err := srv.Start(); err != nil {
					b.Fatal(err)
				}
				if err := waitBound(port); err != nil {
					srv.Process.Kill()
					b.Fatal(err)
				}
				cli := exec.Command(filepath.Join(bin, "dsclient"), "-a", "ff", "-p", strconv.Itoa(port), "--spin", spin)
				cli.Dir = dir
				cli.Stdout = mustCreate(b, cliOut)
				cli.Stderr = cli.Stdout
				if err := cli.Run(); err != nil {
					srv.Process.Kill()
					msg, _ := os.ReadFile(cliOut)
					b.Fatalf("dsclient: %v\n%s", err, msg)
				}
				if err := srv.Wait(); err != nil {
					b.Fatalf("dsmock: %v", err)
				}
				srv.Stdout.(*os.File).Close()
				cli.Stdout.(*os.File).Close()
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

// waitBound waits until something is bound to the port, without connecting
// (dsmock, like ds-server, serves exactly one connection). It looks every
// 200 µs: dsmock is ready about 10 ms after it starts.
func waitBound(port int) error {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return nil
			}
			return err
		}
		l.Close()
	}
	return fmt.Errorf("nothing bound to port %d", port)
}

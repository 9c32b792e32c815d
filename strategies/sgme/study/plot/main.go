// Command plot draws the sgme study's figures from dsbench's JSON: each
// metric against the small type's memory fraction f (the shape of the
// paper's Fig. 8), one line per dsbench column, each point the mean over
// the seeds of the memwork sweep. The study's dsbench command and this
// one are in docs/sgme.md ("The study").
//
//	go run ./strategies/sgme/study/plot -in results.json -out strategies/sgme/study
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	in := flag.String("in", "", "dsbench --format json output (default: standard input)")
	out := flag.String("out", ".", "folder for the SVG files")
	png := flag.Bool("png", false, "also write PNG files")
	spec := flag.String("memwork", "", "the dsbench --memwork spec of the runs: its workload parameters are printed with the table (Part F)")
	flag.Parse()
	if *spec != "" {
		if err := printParams(os.Stdout, *spec); err != nil {
			fmt.Fprintln(os.Stderr, "plot:", err)
			os.Exit(2)
		}
	}
	var exts []string
	if *png {
		exts = append(exts, ".png")
	}
	if err := run(*in, *out, os.Stdin, exts...); err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
}

func run(in, out string, stdin io.Reader, exts ...string) error {
	r := stdin
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	var rep report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return fmt.Errorf("%s: not dsbench's JSON: %w", nameOr(in), err)
	}
	printTable(os.Stdout, rep)
	files, err := writePlots(out, rep, exts...)
	for _, f := range files {
		fmt.Println("wrote", f)
	}
	return err
}

func nameOr(in string) string {
	if in == "" {
		return "standard input"
	}
	return in
}

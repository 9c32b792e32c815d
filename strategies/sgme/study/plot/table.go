package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/dssim-go/dssim-go/mocksrv/memwork"
)

// printParams prints the workload parameters of every seed of a memwork
// sweep spec: results are meaningless without them (estimation.md Part F).
func printParams(w io.Writer, spec string) error {
	pts, err := memwork.ParseSweep(spec)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, pt := range pts {
		if s := pt.Params.String(); !seen[s] {
			seen[s] = true
			fmt.Fprintln(w, "workload:", s)
		}
	}
	fs := make([]string, 0)
	for _, pt := range pts[:len(pts)/len(seen)] {
		fs = append(fs, fmt.Sprintf("%g (small %d MB)", pt.F, pt.Params.Cluster.SmallMemory(pt.F)))
	}
	fmt.Fprintln(w, "f:", strings.Join(fs, ", "))
	return nil
}

// printTable prints, per f and column, the mean over seeds of each
// figure's metric, as a Markdown table.
func printTable(w io.Writer, rep report) {
	var cols []string
	vals := map[string]map[string]map[float64]float64{} // metric → column → log2 f → mean
	var xs []float64
	for _, fg := range figures {
		cs, pts := series(rep, fg.key)
		vals[fg.key] = map[string]map[float64]float64{}
		for _, c := range cs {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
			vals[fg.key][c] = map[float64]float64{}
			for _, p := range pts[c] {
				vals[fg.key][c][p.X] = p.Y
				if !slices.Contains(xs, p.X) {
					xs = append(xs, p.X)
				}
			}
		}
	}
	fmt.Fprint(w, "| f | column |")
	for _, fg := range figures {
		fmt.Fprintf(w, " %s |", fg.key)
	}
	fmt.Fprint(w, "\n|---|---|"+strings.Repeat("---:|", len(figures))+"\n")
	slices.Sort(xs)
	for _, x := range xs {
		for _, c := range cols {
			fmt.Fprintf(w, "| %s | %s |", fracLabel(x), c)
			for _, fg := range figures {
				if v, ok := vals[fg.key][c][x]; ok {
					fmt.Fprintf(w, " %.2f |", v)
				} else {
					fmt.Fprint(w, " – |")
				}
			}
			fmt.Fprintln(w)
		}
	}
}

func fracLabel(log2f float64) string {
	if log2f >= 0 {
		return fmt.Sprintf("%g", math.Exp2(log2f))
	}
	return fmt.Sprintf("1/%g", math.Exp2(-log2f))
}

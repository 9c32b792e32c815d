// Package shard takes a sweep beyond one machine: each of n shards
// (bench.Shard, dsbench --shard i/n) writes its runs as a JSON Piece with
// the sweep's Fingerprint (the configs' contents, the columns, the target, the
// objective, dsbench's version), and Merge puts the n pieces back into
// the run list of the whole sweep, refusing pieces of another sweep, a
// shard given twice or missing, and pieces whose runs are not their
// shard's. The report of the merge is the unsharded run's, byte for byte
// but for the wall times.
package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dssim-go/dssim-go/harness/bench"
	"github.com/dssim-go/dssim-go/harness/report"
	"github.com/dssim-go/dssim-go/harness/sources"
	"github.com/dssim-go/dssim-go/mocksrv"
	"github.com/dssim-go/dssim-go/strategies"
)

// pieceFormat names the layout of a shard's JSON piece; merge refuses any
// other document (a report written with -f json, say).
const pieceFormat = "dsbench-shard-piece/1"

// Fingerprint is a sweep's fingerprint: everything that decides which runs
// it has and what they compute. Pieces merge only when their fingerprints
// are equal.
type Fingerprint struct {
	Version   string              `json:"dsbench_version"`
	Configs   []FingerprintConfig `json:"configs"`
	Columns   []string            `json:"strategies"` // column labels, parameters included
	Target    FingerprintTarget   `json:"target"`
	Objective string              `json:"objective"`
	Baselines []string            `json:"baselines"`
}

// FingerprintConfig is one row: its name, the SHA-256 of its files (config, job
// list and failure trace: the same name on two machines must hold the same
// workload) and its workload transform.
type FingerprintConfig struct {
	Name          string   `json:"name"`
	SHA256        string   `json:"sha256"`
	Path          string   `json:"path"`
	Embedded      bool     `json:"embedded,omitempty"` // in an in-memory file system (the suite, --replay000)
	Base          string   `json:"base,omitempty"`
	ArrivalFactor *float64 `json:"arrival_factor,omitempty"`
	Inaccuracy    *float64 `json:"inaccuracy,omitempty"`
}

// FingerprintTarget is where the runs happened.
type FingerprintTarget struct {
	Server      string `json:"server,omitempty"`
	Client      string `json:"client,omitempty"`
	ClientLabel string `json:"client_label,omitempty"`
	Newline     bool   `json:"newline,omitempty"`
	Timeout     string `json:"timeout,omitempty"`  // informative: not compared (SameSweep)
	MemFail     string `json:"mem_fail,omitempty"` // --mem-fail: the memory extension's failure model
}

// Piece is what dsbench --shard writes.
type Piece struct {
	Format  string        `json:"format"`
	Shard   string        `json:"shard"`
	Sweep   Fingerprint   `json:"sweep"`
	Elapsed time.Duration `json:"elapsed_ns"`
	Runs    []pieceRun    `json:"runs"`
}

// pieceRun is one run's full record and its index in the run list. Its
// metrics keep non-finite values as text (JSON has no NaN), so that the
// merged report shows exactly what the unsharded one would.
type pieceRun struct {
	Index int `json:"index"`
	bench.Result
	Metrics []pieceMetric `json:"metrics,omitempty"` // shadows Result.Metrics
}

type pieceMetric struct {
	Name   string `json:"name"`
	Value  string `json:"value"` // strconv 'g' -1: exact, and NaN, +Inf, -Inf
	Unit   string `json:"unit,omitempty"`
	Approx bool   `json:"approx,omitempty"`
	Help   string `json:"help,omitempty"`
}

// Version is dsbench's version as the build records it: the module
// version, and the commit with "+dirty" when the build has one.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v
}

// FingerprintOf fingerprints a bench with the report's objective and baselines.
func FingerprintOf(b *bench.Bench, objective report.Measure, baselines []string) Fingerprint {
	sw := Fingerprint{Version: Version(), Columns: b.Columns(), Objective: objective.Objective(), Baselines: baselines,
		Target: FingerprintTarget{Server: b.Target.Server, Client: b.Target.Client, Newline: b.Target.Newline,
			Timeout: b.Timeout().String()}}
	if b.Target.Client != "" {
		sw.Target.ClientLabel = b.ClientLabel()
	}
	if b.Target.MemFail != mocksrv.MemFailOff {
		sw.Target.MemFail = b.Target.MemFail.String()
	}
	for _, s := range b.Sources {
		sc := FingerprintConfig{Name: s.Name, SHA256: sourceDigest(s), Path: s.Path, Embedded: s.FS != nil, Base: s.Base}
		if s.FS == nil {
			if abs, err := filepath.Abs(s.Path); err == nil {
				sc.Path = abs
			}
		}
		var r bench.Result
		r.SetTransform(s)
		sc.ArrivalFactor, sc.Inaccuracy = r.ArrivalFactor, r.Inaccuracy
		sw.Configs = append(sw.Configs, sc)
	}
	return sw
}

// sourceDigest hashes the config file and the job list and failure trace
// it names (each with its name and length). A config that does not load is
// hashed by its own bytes, or by the error when it cannot be read.
func sourceDigest(s sources.Source) string {
	h := sha256.New()
	add := func(name string) {
		data, err := s.ReadBeside(name)
		if err != nil {
			data = []byte("unreadable: " + err.Error())
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	add(filepath.Base(s.Path))
	if cfg, err := s.Load(); err == nil {
		for _, name := range []string{cfg.JobFile, cfg.FailureFile} {
			if name != "" {
				add(name)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// reportKind names the dsbench report data is ("" for none): given to
// merge by mistake (a merge's own --out among pieces/*.json), it would
// otherwise be refused for a field that does not fit or a byte that is not
// JSON.
func reportKind(data []byte) string {
	data = bytes.TrimLeft(data, " \t\r\n")
	switch {
	case bytes.HasPrefix(data, []byte("dsbench: ")):
		return "a dsbench report (-f table or markdown)"
	case bytes.HasPrefix(data, []byte(strings.Join(report.CSVHeader[:3], ",")+",")):
		return "a dsbench CSV report (-f csv)"
	case bytes.HasPrefix(data, []byte("{")):
		var head struct {
			Format                  *string
			Runs, Tables, Objective json.RawMessage
		}
		if json.Unmarshal(data, &head) == nil && head.Format == nil && head.Runs != nil && head.Tables != nil && head.Objective != nil {
			return "a dsbench report (-f json)"
		}
	}
	return ""
}

// WritePiece writes a shard's piece as indented JSON.
func WritePiece(w io.Writer, sh bench.Shard, sw Fingerprint, elapsed time.Duration, idx []int, results []bench.Result) error {
	p := Piece{Format: pieceFormat, Shard: sh.String(), Sweep: sw, Elapsed: elapsed, Runs: []pieceRun{}}
	for i, r := range results {
		pr := pieceRun{Index: idx[i], Result: r}
		for _, m := range r.Metrics {
			pr.Metrics = append(pr.Metrics, pieceMetric{Name: m.Name, Value: strconv.FormatFloat(m.Value, 'g', -1, 64),
				Unit: m.Unit, Approx: m.Approx, Help: m.Help})
		}
		p.Runs = append(p.Runs, pr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(p)
}

// writePieces is how a piece is made, for the errors about a file that
// is not one.
const writePieces = "write pieces with dsbench --shard i/n --out FILE"

// ParsePiece reads a piece; name is the file, for the errors.
func ParsePiece(name string, data []byte) (Piece, error) {
	var p Piece
	if kind := reportKind(data); kind != "" {
		return p, fmt.Errorf("%s is %s, not a --shard piece (%s)", name, kind, writePieces)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&p)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	first, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte("\n"))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return p, fmt.Errorf("%s: the JSON is cut short after %d bytes (a truncated piece: run its shard again)", name, len(data))
	case errors.As(err, &syn) && len(first) > 0 && first[0] != '{' && first[0] != '[':
		return p, fmt.Errorf("%s is not a --shard piece: not JSON (its first line is %q; %s)", name, clip(string(first)), writePieces)
	case errors.As(err, &syn):
		return p, fmt.Errorf("%s: not valid JSON at byte %d: %v", name, syn.Offset, err)
	case errors.As(err, &typ):
		return p, fmt.Errorf("%s: not a dsbench --shard piece: field %s at byte %d: %v", name, typ.Field, typ.Offset, err)
	case err != nil:
		return p, fmt.Errorf("%s: not a dsbench --shard piece: %v", name, err)
	case dec.More():
		return p, fmt.Errorf("%s: more than one JSON document", name)
	case p.Format != pieceFormat:
		return p, fmt.Errorf("%s: not a dsbench --shard piece (format %q, want %q)", name, p.Format, pieceFormat)
	}
	for i := range p.Runs {
		pr := &p.Runs[i]
		pr.Result.Metrics = nil
		for _, m := range pr.Metrics {
			v, err := strconv.ParseFloat(m.Value, 64)
			if err != nil {
				return p, fmt.Errorf("%s: run %d: metric %s: value %q is not a number", name, pr.Index, m.Name, m.Value)
			}
			pr.Result.Metrics = append(pr.Result.Metrics, strategies.Metric{Name: m.Name, Value: v, Unit: m.Unit, Approx: m.Approx, Help: m.Help})
		}
		if err := checkPieceRun(pr); err != nil {
			return p, fmt.Errorf("%s: run %d: %v: not what dsbench --shard writes (run its shard again)", name, pr.Index, err)
		}
	}
	if p.Elapsed < 0 {
		return p, fmt.Errorf("%s: elapsed_ns %d is negative", name, p.Elapsed)
	}
	return p, nil
}

// knownStatuses are the statuses a run can have.
var knownStatuses = []bench.Status{bench.StatusOK, bench.StatusUnscheduled, bench.StatusNoResult, bench.StatusTimeout, bench.StatusInvalidConfig, bench.StatusError}

// checkPieceRun refuses values no run can have, which a merge would put
// in the report as if measured: a status dsbench does not know, negative
// counts and times, and a utilisation or cost beyond the 32-bit floats
// ds-server keeps them in (a cost of 1e308). Each error names the field as
// the piece's JSON does.
func checkPieceRun(r *pieceRun) error {
	if !slices.Contains(knownStatuses, r.Status) {
		return fmt.Errorf("status %q is none of dsbench's (%s)", r.Status, statusList())
	}
	s := r.Summary
	for _, f := range []struct {
		name string
		v    int
	}{{"summary.end_time", s.EndTime}, {"summary.jobs", s.Jobs}, {"summary.failed", s.Failed}, {"summary.servers_used", s.ServersUsed},
		{"summary.avg_wait", s.AvgWait}, {"summary.avg_exec", s.AvgExec}, {"summary.avg_turnaround", s.AvgTurnaround},
		{"unscheduled", r.Unscheduled}, {"wall_ns", int(r.Wall)}} {
		if f.v < 0 {
			return fmt.Errorf("%s %d is negative", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"summary.avg_util", s.AvgUtil}, {"summary.ef_usage", s.EfUsage}, {"summary.total_cost", s.TotalCost}} {
		if math.Abs(f.v) > math.MaxFloat32 {
			return fmt.Errorf("%s %g is beyond what ds-server's 32-bit floats hold (%g)", f.name, f.v, math.MaxFloat32)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"bounds.mean_actual_runtime", r.Bounds.MeanActualRuntime}, {"bounds.packing_cost", r.Bounds.PackingCost}} {
		if f.v < 0 || f.v > math.MaxFloat32 {
			return fmt.Errorf("%s %g is no bound of a run", f.name, f.v)
		}
	}
	return nil
}

func statusList() string {
	var names []string
	for _, s := range knownStatuses {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

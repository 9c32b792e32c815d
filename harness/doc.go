// Package harness runs strategies × configs and compares them the way the
// COMP3100 course harnesses do (../shared/docs/harness.md): per-metric tables
// with Average and Normalised rows against chosen baselines and the configs
// where a strategy beats every baseline, plus what no course tool shows: the
// ratio of each result to a physical bound (no schedule can beat the mean
// actual runtime on turnaround, nor perfect packing on cost).
//
// cmd/dsbench is a thin command over this package.
package harness

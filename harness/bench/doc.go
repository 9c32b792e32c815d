// Package bench runs a bench: strategy columns (package harness/columns) ×
// configs (package harness/sources), each run in-process, over TCP against
// the built-in simulator, against a ds-server binary, or with an external
// client command (Target), a Result per run in a fixed order (Bench.Runs),
// or one slice of them (Shard). A run that fails is a Result with its
// status and the reason in words (what the server said, the client's
// stderr), never an error that stops the others.
//
// The numbers of a Result are ds-server's summary as printed (Summary),
// the workload's physical bounds (Bounds) and what the strategy reported
// of its own (Reported). Simulate runs one strategy in-process; the
// timelines and the run viewer use it too.
package bench

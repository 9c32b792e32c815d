// Package libra holds the Libra family of Yeo's thesis (Utility-based
// Resource Management for Cluster Computing) as ds-sim strategies —
// libra, libraplus (betaAuto: Libra+$Auto), librasla, librariskd — and the
// thesis's comparison policies fcfs, sjf and edf, with the thesis's
// metrics (docs/libra.md). Where each part of the specification the
// project was written from (libra.md) lives:
//
//	B.3 QoS synthesis (bit-exact)      qos.go
//	B.4 timelines (ledger, LSTJ, EJWT)  evaluate.go
//	B.5 RESMax, RESFree; B.6 measures   candidate.go (price, return, DDY and σ)
//	B.6 the four rules; B.8 fallbacks   decide.go, strategy.go (Job, Event)
//	B.9 parameters and presets          params.go, register.go
//	A.5.5 comparison policies           queue.go
//	Part C metrics                      book.go (per-job records), metrics.go
//
// Tests: D.1 and D.2 in qos_test.go, D.3 and D.4 in d3_test.go, Part F in
// partf_test.go, whole runs in run_test.go, benchmarks in bench_test.go.
package libra

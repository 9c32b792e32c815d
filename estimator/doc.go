// Package estimator is similarity-group estimation of a job's actual memory
// (Yom-Tov and Aridor, "Improving Resource Matching Through Estimation of
// Actual Job Requirements"; docs/sgme.md). Comments cite the specification
// the project was written from as Part B, Part D. It is pure: no I/O, no protocol, no clock. The
// sgme strategy (strategies/sgme) feeds it the jobs it dispatches and the
// outcomes it sees; tests feed it the golden vectors of Part D.
//
// The pieces:
//   - Key and the key functions K1–K4 (B.4): which past jobs count as
//     similar to a new one;
//   - Rounder: levels (the distinct memory capacities of the server types,
//     paper or clamped reading) or granularity g with a floor (B.2);
//   - Paper: the corrected Algorithm 1 (B.1), sequential, kept for the
//     paper-mode vectors of D.1 (with switches that reproduce the printed
//     errata, so the tests show why they are errata);
//   - Online: the event-driven variant (B.2), the one sgme uses: a bracket
//     per group between the lowest level known to succeed and the highest
//     known to fail, records per dispatch, escalation on a heterogeneous
//     group;
//   - Classifier: tells a memory failure from an invalidated job when a
//     JOBP arrives (B.5);
//   - Config: the parameters of the decision list, with the recommended
//     defaults (α = 2, β = 0, K1, granularity 100 MB, floor 100 MB, retry
//     with the full request).
package estimator

// Package swf reads workload traces in the Standard Workload Format of the
// Parallel Workloads Archive and converts them to a ds-sim workload: a job
// file that both ds-server and dsmock load (ds-server.md §2.7) and a server
// configuration, derived from the trace or taken from a given config.
//
// # The format (swf.go)
//
// The definition is the archive's page, version 2.2
// (https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): one job per
// line, 18 whitespace-separated fields, -1 where a field is unknown, lines
// starting with ';' are comments, the header comments ("; MaxProcs: 128")
// describing the machine. The fields:
//
//	1 job number          7 used memory (KB/proc)     13 group id
//	2 submit time (s)     8 requested processors     14 executable number
//	3 wait time (s)       9 requested time (s)       15 queue
//	4 run time (s)       10 requested memory (KB/proc) 16 partition
//	5 allocated procs    11 status                   17 preceding job
//	6 average CPU time   12 user id                  18 think time (s)
//
// Status is 1 completed, 0 failed, 5 cancelled, and 2, 3, 4 for the lines
// of partial executions (checkpointed or swapped-out jobs) that follow a
// job's summary line. The page allows floating-point values in time fields
// (2, 3, 4, 6, 9, 18); every other field must be an integer. A value below
// -1, a value that is not a number, or a line without exactly 18 fields is
// an error naming the file, the line and the field (ParseError). A trace
// compressed with gzip (the archive ships .swf.gz) is read as is.
//
// # The mapping (convert.go, Options)
//
//   - Jobs: lines with status 5 (cancelled) and 2, 3, 4 (partial executions,
//     already summed in the job's own line) are skipped, as are lines without
//     a submit time, a run time or any processor count; each skip is counted
//     per reason (Result.Skipped). Failed jobs (status 0) are kept: they
//     occupied the machine.
//   - Cores: the requested processors (field 8) when known, else the
//     allocated ones (5), divided by ProcsPerCore and rounded up.
//   - Memory (MB): the requested memory (10) × processors ÷ 1024, rounded up;
//     when the trace has no request, the used memory (7) instead; when it has
//     neither, MemPerCore × cores. At least 100 MB (GETS refuses less,
//     ds-server.md §5.3) and at most 2147483647 MB (a ds-sim attribute is
//     a C int); the jobs raised or capped are counted and said
//     (Result.MemoryAtFloor, MemoryAtLimit). The used memory, when known, becomes the hidden
//     actMemory attribute of estimation.md Part E (model.Job.ActMemory),
//     capped at the job's memory (Part E assumes actMemory ≤ memory; a job
//     using more than it asked for would fail on every retry) and the
//     capping counted (Result.CappedMemory); a used memory of 0 KB is
//     left out, as unknown (the extension reads actMemory 0 as absent).
//   - Disk (MB): SWF has none: Disk for every job (default 100, the least a
//     GETS accepts, so disk never limits a placement).
//   - Times: the run time (4) is the actual run time (actRunTime) and the
//     requested time (9) the estimate (estRunTime); without a request the
//     estimate is the run time. Both are rounded to the nearest second and
//     at least 1 (SWF's 0 means under half a second; ds-sim jobs run for a
//     second or more). Submit times are moved so that the earliest kept job
//     arrives at Offset, and the gaps multiplied by TimeScale (< 1 packs
//     arrivals closer, raising the load), then rounded.
//   - Ids: jobs are ordered by submit time (stable, so trace order breaks
//     ties) and numbered 0, 1, 2, … as ds-server requires (§2.7); the SWF
//     job number is kept as the hidden attribute swfJob, the user (12) as
//     user and the executable (14) as app (estimation.md Part E's label).
//     ds-server and dsmock ignore attributes they do not know.
//
// # The servers (servers.go)
//
// Given a ds-sim config (Options.Servers), its <server> elements are copied
// as written. Otherwise a ladder of types is derived: one type per power of
// two from the smallest to the largest job's core count (rounded up to a
// power of two, at most 1024, ds-server's core limit), named c1, c2, c4, …;
// each with a boot time of 60 s and 0.1 $/h per core (ds-sim's sample
// configs), memory the largest of 1000 MB, 200 MB per core and every job
// memory it must host, disk likewise; and as many servers as the machine
// has cores (the MaxProcs header, else MaxNodes, else the largest job)
// divided by the type's cores, between 1 and 1000. Jobs that fit no type
// (more cores, memory or disk than the largest) are skipped and counted.
//
// # Using it
//
// dsbench takes a trace as a config argument (trace.swf, with options after
// a colon: trace.swf:procs-per-core=4,time-scale=0.5; one value each), dsmock
// with --swf, and the dsswf command writes the job file and config to disk
// (Spec). All three say what the conversion left out in the same words
// (Result.Summary and Result.Notes): the skips, the estimates that are run
// times, and a derived cluster's cores against the machine's.
package swf

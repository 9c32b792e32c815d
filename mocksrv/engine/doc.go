// Package engine is ds-server's simulation (docs/simulator.md): machine states, the REDY decision procedure, placement without
// backfilling, every client command with its exact replies and refusals,
// failures from trace files, the metrics and report in float32 and the
// stdout log at every -v level.
//
// It has one entry point for client commands, Engine.Exec(*Command) Reply,
// called by both fronts of package mocksrv (the text front and the
// in-process Session), like etcd raft's Step: the front parses or maps its
// input to a Command, logs the dialogue, and renders the Reply (bytes,
// typed records, or a refusal's exact text).
//
// It does no I/O and imports nothing that does (no net, no os, not even
// fmt): the log is written to the io.Writer of Options, files are returned
// as bytes. It does not import package protocol either, whose client does
// network I/O: Ref, Req, JobRecord and QueuedJob have the protocol's
// shapes, and the fronts convert. The file map of ds-server.md is in the
// doc of package mocksrv.
//
// engine_memext.go is the optional memory extension of
// ../shared/docs/estimation.md Part E (SCHM, hidden actual memory, memory
// failures), off unless Options.MemFail is set; its choices are listed
// there and in package mocksrv's doc.
package engine

// Package mocksrv re-implements ds-server, the ds-sim simulator, byte for
// byte (../shared/docs/ds-server.md is the contract; section numbers in
// comments cite it).
//
// One engine, two front doors:
//
//   - Engine (engine*.go, cmd_*.go, report.go, log.go) is the simulation
//     core: server states, the REDY decision procedure (§3), placement
//     without backfilling (§4), every command with its exact replies and
//     ERR texts (§5), failures from trace files (Appendix C), the metrics
//     and report in float32 (§6) and the stdout log at every -v level (§7).
//     It does no I/O: the log goes to the io.Writer it is given, files are
//     returned as bytes (SystemXML, Engine.FailuresTxt, Config.JobsXML).
//   - Text (cmd_text.go) takes one client message and returns the reply
//     bytes exactly as ds-server sends them, in plain or newline mode, with
//     the DATA/OK state machine, prefix dispatch, re-sending of the previous
//     message and the pre-simulation ERR loop. ServeConn and Server
//     (serve.go) put it on TCP; cmd/dsmock (logic in internal/dsmock) is the ds-server command line.
//   - Session (session.go) is the in-process door: it implements
//     client.Backend with typed values and no text round trip, and gives
//     the same log and report as Text for the same dialogue.
//
// Loading configurations, job files, failure traces and job generation
// is package simconfig (mocksrv/simconfig); config.go re-exports what the
// commands need.
//
// Choices where ds-server.md leaves one open (its decisions 1-10):
//   - reading (1): plain mode reads one chunk of at most 1023 bytes per
//     message, newline mode one line (bounded to 64 KiB);
//   - [CRASH] cases (2): a bad handshake gets ERR and ends the connection
//     with a *Fatal (status 1); CNTJ states 0 and 8, GETS One with a bad id
//     and SCHD with missing or non-numeric fields get the command's own
//     error message (3); a client JCPL gets "ERR: invalid command (…)";
//     KILJ of the only known-start job of a booting server and a server
//     whose only jobs were killed go on (Appendix D: L = curStartTime);
//     PSHJ when the job on offer is not SQ's head takes it out wherever it
//     is;
//   - a client that disconnects or stays silent for the read timeout ends
//     its simulation with no report and no files (4);
//   - failure models are refused (ErrFailureModel; 5);
//   - RESC (optional, §5.15) follows the section; a bad RESC query gets
//     GETS's error text (the reference's is not documented);
//   - job files whose ids are not 0,1,2,… in file order are rejected at
//     load with an error naming the element and the expected id (9: the
//     reference checks the wrong job and can abort; refusing the file is
//     the safe reading of the "rejected like ds-server");
//   - Engines share nothing: any number of simulations may run
//     concurrently (10); dsmock --serve does so over TCP.
//   - ds-res-failures.txt for a trace file: the reference prints garbage as
//     the first line; dsmock writes the same fields with the trace file's
//     name as base_trace and zero model parameters (Engine.FailuresTxt).
package mocksrv

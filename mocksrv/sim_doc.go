// Package mocksrv re-implements ds-server, the ds-sim simulator, byte for
// byte: docs/simulator.md and docs/protocol.md describe what it does; the
// section numbers in comments ("§5.3") cite the specification of ds-server
// the project was written from.
//
// Three layers, each a package:
//
//   - mocksrv/simconfig (with the data model in mocksrv/model) reads
//     configurations, job files and failure traces and generates jobs. It
//     knows nothing of the simulation.
//   - mocksrv/engine is the simulation: machine states, the REDY decision
//     procedure, every command with its exact replies and ERR texts, the
//     metrics and report, the stdout log. It does no I/O and depends on
//     nothing that does (no net, no os): the log goes to the io.Writer it
//     is given, files are returned as bytes. Clients' commands reach it
//     through one typed entry point, Engine.Exec(*Command) Reply.
//   - this package holds the fronts, which map a dialogue onto Exec: Text,
//     the text front (one client message in, ds-server's reply bytes out;
//     syntax, prefix dispatch, the DATA exchanges), Listener and ServeConn
//     which put Text on TCP, and Session, the in-process front (typed
//     values, no text round trip, the same log and report as Text for the
//     same dialogue). cmd/dsmock (logic in internal/dsmock) is the
//     ds-server command line.
//
// Where each part of ds-server.md lives (files of this package unless a
// package is named):
//
//	§1.1 socket                  front_tcp.go (Listener, ServeConn)
//	§1.2-§1.4 reading, framing   front_tcp.go (one read or one line per message);
//	                             front_text.go (newline check, re-sent messages)
//	§1.5 handshake               front_text.go (Text.handshake), front_session.go (Handshake);
//	                             engine/engine_end.go (the AUTH lines)
//	§1.6 end of simulation       engine/engine_exec.go (OpQUIT), engine/engine_end.go (Finish)
//	§1.7 ds-system.xml           front_files.go (SystemXML)
//	§1.8 ds-jobs.xml             model/jobsxml.go
//	§2 configuration             simconfig/config_*.go (§2.1 config_xml.go; §2.2-§2.6
//	                             config_elements.go, config_numbers.go, config_options.go;
//	                             §2.8, §2.9 config_load.go); §2.7 simconfig/jobfile.go;
//	                             model/model.go (the data)
//	§3.1 state                   engine/engine.go (Engine), engine/engine_state.go (Machine)
//	§3.2-§3.6 REDY, JCPL,        engine/engine.go (redy, completion, finishJCPL, advance,
//	  advance, main loop         startWaiting, offer)
//	§4 job execution             engine/cmd_actions.go (place), engine/engine_state.go
//	                             (reserve, release, powerDown)
//	§5.1 dispatch                front_text_dispatch.go (prefix match, parsers, re-send);
//	                             engine/engine_exec.go (Command, Exec, Reply)
//	§5.2 DATA exchanges          front_text.go (state machine), front_session_queries.go (log)
//	§5.3 GETS                    front_text_dispatch.go (parseGets); engine/engine_exec.go
//	                             (execGets); engine/cmd_query.go (selection, records)
//	§5.4-§5.6 SCHD, ENQJ, DEQJ   engine/cmd_actions.go
//	§5.7-§5.10 LSTQ, LSTJ,       engine/engine_exec.go (execLSTQ, execOnMachine),
//	  CNTJ, EJWT                 engine/cmd_query.go
//	§5.11-§5.14 MIGJ, KILJ,      engine/cmd_actions.go
//	  TERM, PSHJ
//	§5.15 RESC                   engine/engine_render.go (AppendRescRecord),
//	                             front_text_dispatch.go (rescReply)
//	§5.16, §5.17 refusals        engine/cmd_errors.go (every reply text of a refusal);
//	                             front_text_dispatch.go (malformed messages)
//	§6 metrics, report           engine/engine_report.go; engine/engine_state.go (leave)
//	§7.1-§7.4 log                engine/engine_log.go (levels, prefix, protocol lines);
//	                             engine/engine.go, engine/cmd_actions.go (event lines)
//	§7.6 unscheduled jobs        engine/engine_end.go (Report.Unscheduled holds the count)
//	§7.7 stderr                  engine (Engine.Stderr and its callers); the fronts
//	§8 command line              internal/dsmock (not a library package)
//	Appendix A, B                simconfig/jobgen.go, simconfig/glibcrand.go
//	Appendix C failures          C.1 simconfig/failtrace.go, model/model.go (FailureEvents),
//	                             C.2 models simconfig/failmodel*.go (failure-models.md),
//	                             engine/engine.go (loadFailures); C.3 engine/engine.go
//	                             (failureEvent, evict); C.4 engine/cmd_query.go,
//	                             engine/engine_render.go; C.5 engine/engine_files.go
//	Appendix D                   the choices below
//
// engine/engine_timeline.go (the servers' history for dsbench's plots) has
// no section: ds-server prints no such thing.
//
// Choices where ds-server.md leaves one open (its decisions 1-10):
//   - reading (1): plain mode reads one chunk of at most 1023 bytes per
//     message, newline mode one line (bounded to 64 KiB);
//   - [CRASH] cases (2): a bad handshake gets ERR and ends the connection
//     with a *Fatal (status 1) whose Hint quotes the message and names the
//     likely framing mismatch (front_hint.go); CNTJ states 0 and 8 (with a
//     stderr line of dsmock's that says why, not ds-server's "Out of
//     bound"), GETS One with a bad id and SCHD with missing or non-numeric
//     fields get the command's own error message (3); a client JCPL gets "ERR: invalid command (…)";
//     KILJ of the only known-start job of a booting server and a server
//     whose only jobs were killed go on (Appendix D: L = curStartTime);
//     PSHJ when the job on offer is not SQ's head takes it out wherever it
//     is;
//   - a client that disconnects or stays silent for the read timeout ends
//     its simulation with no report and no files (4);
//   - failure models (5) are implemented as ../shared/docs/failure-models.md
//     specifies them: simconfig/failmodel.go (§2, §5: derived values, every
//     glibc draw in order, the server-id wrap), simconfig/failmodel_lognormal.go
//     (§4 sampler, §5.3 tolerant sort); Go's math.Exp and math.Log, as its
//     decision 2 recommends; the generated failures feed the engine like a
//     trace without the phantom failure; engine.ModelLines prints the two
//     -v all lines of §8; a series no selected server uses is never computed
//     (its generator is private, so no draw changes) and only the prefix
//     of an order some server uses is kept. The work is the model's and
//     grows with servers × slots: 10 types of 1000 servers with g5k06 and
//     E = 86400 generate 2.7 million failures in 3.3 s
//     (BenchmarkFailureModelLarge, on a loaded 2-core machine); failureTimeGrain with neither a model nor a
//     trace (§9 [UNDEFINED]) writes ds-res-failures.txt with an empty model
//     name and zeros, and dsmock warns;
//   - the no-configuration mode (6) is implemented as failure-models.md §12
//     specifies it (simconfig/noconfig.go: RandomConfig), -l included; a
//     failure trace (dsmock's -f extension) needs a configuration;
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
//   - a server type whose name is not one protocol token (white space or a
//     control character in it) is refused when the simulation is built
//     (engine.NewEngine): no client could name it in a command.
//
// The memory extension (../shared/docs/estimation.md Part E; a project
// design, not ds-server behaviour) is off unless Options.MemFail (dsmock
// --mem-fail hard|machine|contention) says otherwise, and off it changes
// nothing: SCHM is ds-server's "ERR: invalid command (…)", every job books
// its request, the report is ds-server's (sim_memext_test.go checks
// fixture job files carrying the attributes byte for byte). Where it lives:
//
//	actMemory, app <job> attributes  simconfig/jobfile_memext.go (an invalid value is kept
//	                                 as Config.ActMemoryErr, refused only when the
//	                                 extension is on: ds-server ignores the attribute)
//	SCHM jobID type id allocMem      front_text_dispatch.go (parseSCHM, only when on);
//	                                 front_session.go (protocol.ScheduleMem);
//	                                 engine/engine_memext.go (schm), engine/cmd_actions.go
//	                                 (schdAt, place: the slot books allocMem)
//	failure models, failure times,   engine/engine_memext.go (setEnd, memFails, memFailed,
//	  re-offer as JOBP, report       afterMemFailure, memReport)
//	workloads and clusters           mocksrv/memwork
//
// Its choices where Part E leaves one open (also in /tmp/coord/ext-wire.md
// for the strategy side and in docs/memory-extension.md):
//   - SCHM checks the job first (SCHD's text), then allocMem (a plain decimal,
//     the fifth and last token, 100 ≤ allocMem ≤ the job's memory, else
//     "ERR: invalid allocation (<msg>)!"), then SCHD's checks with allocMem
//     as the memory, the capability check included;
//   - the booked memory shows in GETS availability and in LSTJ's memory
//     field (JOBN, JOBP, LSTQ carry the request); MIGJ keeps allocMem;
//   - hard: actMemory > allocMem; machine: actMemory > the type's memory;
//     contention: Σ actMemory of the jobs holding the server when a job
//     starts (itself included) > the type's memory, which fails that job;
//   - the failure time is start + ⌊r·actRunTime / 2^64⌋, r the next output
//     of splitmix64 seeded with randomSeed (1024 if absent), drawn only for
//     failing jobs, in the order start times are assigned;
//   - jobs failing at the same time return to SQ's head in failure order;
//     a re-offer is JOBP even at the job's submit time;
//   - the report's extra line "# memory failures: N, wasted core-seconds: W
//     (failure model: m)" comes before the Summary banner, so the last
//     three lines stay ds-server's; -v all logs "job N on type id MEMORY
//     FAILED" at the failure time;
//   - the extension needs a job file giving actMemory (a job without it
//     uses its request); NewEngine and dsmock refuse otherwise, before the
//     run.
package mocksrv

// Package simconfig is ds-server's input side: configuration files
// (ds-server.md §2, config_*.go), job files (jobfile.go), job generation
// with glibc's random() (job-generation.md; jobgen.go, glibcrand.go), the
// ds-jobs.xml writer (jobsxml.go) and failure trace files (Appendix C;
// failtrace.go). It knows nothing of the simulation: the engine
// (mocksrv/engine) takes the *Config it returns.
package simconfig

// Package simconfig is ds-server's input side: configuration files
// (ds-server.md §2, config_*.go), job files (jobfile.go), job generation
// with glibc's random() (job-generation.md; jobgen.go, glibcrand.go) and
// failure trace files (Appendix C; failtrace.go). What it loads is the data
// of package model (Config, Job, …; their names are kept here as aliases),
// which the engine (mocksrv/engine) runs; simconfig knows nothing of the
// engine.
package simconfig

// Package simconfig is ds-server's input side: configuration files
// (config_*.go), job files (jobfile.go), job generation with glibc's
// random() (jobgen.go, glibcrand.go), failure models and failure trace
// files (failtrace.go); docs/simulator.md describes them. What it loads is the data
// of package model (Config, Job, …; their names are kept here as aliases),
// which the engine (mocksrv/engine) runs; simconfig knows nothing of the
// engine.
package simconfig

// Package estimator will hold similarity-group estimation of jobs' actual
// requirements (../shared/docs/estimation.md). No issue has asked for it yet.
package estimator

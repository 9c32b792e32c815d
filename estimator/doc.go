// Package estimator will hold similarity-group estimation of jobs' actual
// requirements (../shared/docs/estimation.md, issue 11). Empty until then.
package estimator

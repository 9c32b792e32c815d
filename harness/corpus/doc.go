// Package corpus generates configurations for judging strategies away from
// the handful of configs they were designed on: seeded, reproducible
// ds-sim configuration files drawn from named classes (uniform prices,
// economies of scale, premium small servers, random discounts, slow boots,
// tiny overloaded clusters, few jobs, many jobs, estimates of another
// kind, failure models), each named by its class and index (tiny-007).
//
// A spec string says which classes, how many of each, the seed, and any
// dimension narrowed or widened (see Parse and docs/corpus.md):
//
//	seed=2,all*10,tiny*20:load=90-100,large*3:jobs=20000
//
// The same spec gives the same files, byte for byte, on every machine and
// Go version: draws come from PCG's raw 64-bit output (math/rand/v2's
// generator algorithm, not its helper methods), one stream per config
// (the seed, the class and the index), so a config does not change when
// other classes are added to the spec. Job lists are ds-server's own
// (job-generation rules, from the config's randomSeed) except where a
// class asks for estimates of another kind: then the generated jobs are
// written to a job file beside the config (jobs/NAME.xml) with their
// actual runtimes and the new estimates.
//
// The package depends on the simulator's configuration loader only (to
// check every file it writes and to generate the jobs a job file needs);
// it knows nothing of strategies or of the benchmark that runs them.
package corpus

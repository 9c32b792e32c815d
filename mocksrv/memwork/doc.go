// Package memwork writes workloads and clusters for the memory extension
// of dsmock (docs/memory-extension.md): job files
// whose <job> elements carry the hidden actMemory and app attributes
// (read by dsmock --mem-fail; ignored by ds-server, so both servers run
// them), and configurations of the experiment's cluster, two server types
// that differ only in memory (big M and small f·M, equal counts).
//
// The synthetic workload has latent applications (Part E item 2): apps
// are Zipf-popular; each has a fixed request triple (cores, memory, disk)
// drawn by ds-sim's rules (ds-server.md Appendix A), a run-time scale and
// a usage ratio u = used ÷ requested, drawn so that about OverFrac of the
// apps over-request by 2× or more, log-uniformly up to MaxRatio× (Fig. 1
// of the paper: 32.8 %, up to two orders of magnitude); within an app the
// usage varies by ±Jitter (the similarity range), capped at the request;
// Collide is the chance that an app reuses an earlier app's request
// triple, so that different apps share the visible key.
//
// Everything about the workload's link between visible fields and hidden
// usage is this package's assumption (Part F's first pitfall): print
// Params.String with every result. Trace-driven workloads (SWF, package
// mocksrv/swf) write the same attributes; ClusterXML takes any job file,
// so the same cluster sweep runs over either.
//
// The workload depends on the big memory M, never on f, so a sweep over f
// runs the same jobs on every cluster.
package memwork

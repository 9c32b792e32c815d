// Package configs embeds dssim-go's own benchmark suite: ds-sim
// configuration files written for this project (not copied from ds-sim),
// chosen to cover light and heavy load, short and long jobs, small and large
// systems, uniform and non-uniform price per core, slow and instant boots,
// and a failure trace. dsbench runs every registered strategy on this suite
// when it is given no config.
//
// | config             | servers | load    | jobs  | what it stresses                          |
// |--------------------|---------|---------|-------|-------------------------------------------|
// | light-short-small  | 13      | 10–40%  | short | packing a few small servers               |
// | heavy-short-small  | 13      | 70–100% | short | queueing on an overloaded small system    |
// | light-long-large   | 64      | 15–40%  | long  | cost of idle capacity on a large system   |
// | heavy-long-large   | 64      | 70–100% | long  | turnaround under sustained load           |
// | discount-mixed     | 30      | 40–80%  | mixed | big servers cheaper per core              |
// | premium-mixed      | 30      | 40–80%  | mixed | big servers dearer per core               |
// | slow-boot          | 18      | 30–70%  | short | 5–10 minute boots: booting is expensive   |
// | instant-boot       | 18      | 30–70%  | short | 0–10 s boots: booting is nearly free      |
// | large-bursty       | 64      | 20–95%  | mixed | alternating load periods, 3000 jobs       |
// | flaky-servers      | 18      | 30–70%  | mixed | a failure trace; jobs return via the queue|
package configs

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed *.xml *.txt
var files embed.FS

// FS returns the embedded files (configs and the failure traces they name).
func FS() fs.FS { return files }

// Names returns the suite's config file names (e.g. "heavy-long-large.xml"),
// sorted.
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil // cannot happen with an embedded FS
	}
	var out []string
	for _, e := range entries {
		if path.Ext(e.Name()) == ".xml" {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Name strips the extension: "heavy-long-large.xml" → "heavy-long-large".
func Name(file string) string { return strings.TrimSuffix(file, path.Ext(file)) }

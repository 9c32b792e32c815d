package simconfig

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/beevik/etree"

	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// cfgKnownAttrs are the attributes ds-server reads, per element (§2.2–§2.6).
// It ignores any other, silently: a misspelt optional attribute
// (randomseed for randomSeed) would change the run without a word, so the
// commands warn of it (AttributeWarnings).
var cfgKnownAttrs = map[string][]string{
	"config":      {"randomSeed", "newline"},
	"servers":     {"failureModel", "failureTimeGrain", "failureFile"},
	"server":      {"type", "limit", "bootupTime", "hourlyRate", "cores", "memory", "disk"},
	"jobs":        {"file"},
	"job":         {"type", "minRunTime", "maxRunTime", "populationRate"},
	"workload":    {"type", "minLoad", "maxLoad", "avgLowTime", "avgHighTime", "avgTransitTime"},
	"termination": {},
	"condition":   {"type", "value"},
}

// AttributeWarnings lists the attributes of a configuration (data, read
// from path) that ds-server ignores because it does not know them, on the
// elements it reads, each with the nearest known one when it looks like a
// typo; and the elements ds-server ignores whose name is a typo of one it
// reads (<sever>). Elements it ignores otherwise (a <note>) are the user's
// business. A document that does not parse, or whose root is not
// <config> (a job file), gives no warnings.
func AttributeWarnings(path string, data []byte) []string {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(bytes.TrimPrefix(data, cfgBOM)); err != nil {
		return nil
	}
	elements := make([]string, 0, len(cfgKnownAttrs))
	for tag := range cfgKnownAttrs {
		elements = append(elements, tag)
	}
	sort.Strings(elements)
	var out []string
	seen := map[string]int{}
	var visit func(e *etree.Element)
	visit = func(e *etree.Element) {
		known, ok := cfgKnownAttrs[e.Tag]
		switch {
		case e.Space != "":
		case ok:
			seen[e.Tag]++
			for _, a := range e.Attr {
				if a.Space == "" && !slices.Contains(known, a.Key) {
					out = append(out, fmt.Sprintf("%s: %s: attribute %s is not one ds-server reads: it is ignored%s",
						path, cfgElemName(e, seen[e.Tag]), a.Key, didyoumean.Hint(a.Key, known)))
				}
			}
		default:
			if near := didyoumean.Nearest(e.Tag, elements); near != "" {
				out = append(out, fmt.Sprintf("%s: element <%s> is not one ds-server reads: it is ignored, with what it holds; did you mean <%s>?",
					path, e.Tag, near))
			}
		}
		for _, c := range e.ChildElements() {
			visit(c)
		}
	}
	if root := doc.Root(); root != nil && root.Tag == "config" {
		visit(root) // a job file (root <jobs>) is not a configuration
	}
	return out
}

// Warnings is what every command that reads a configuration prints before
// the run: NumberWarnings and AttributeWarnings of the file at path. A file
// that cannot be read gives none (its loading says why).
func Warnings(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return append(NumberWarnings(path, data), AttributeWarnings(path, data)...)
}

package simconfig

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The memory extension's job-file attributes (estimation.md Part E item 2,
// decision 11): actMemory, the memory a job really uses (1 ≤ actMemory ≤
// memory), and app, an optional application label. ds-server ignores
// unknown attributes (ds-server.md §2.7), so a file carrying them is read
// by both servers; here they are read always but judged only when the
// extension is on (a bad value is remembered, not refused, so that with
// the extension off dsmock accepts exactly what ds-server accepts).

// memAttrs is what a job file says about the extension.
type memAttrs struct {
	count int          // <job> elements carrying actMemory
	err   *ConfigError // the first invalid actMemory, nil if none
}

// read fills j.ActMemory (0, meaning the request, when the attribute is
// absent or invalid) and j.App from element t, the <job> on line line.
func (m *memAttrs) read(path string, t xml.StartElement, j *Job, line int) {
	var raw string
	have := false
	for _, a := range t.Attr {
		if a.Name.Space != "" {
			continue
		}
		switch a.Name.Local {
		case "actMemory":
			raw, have = a.Value, true
		case "app":
			j.App = a.Value
		}
	}
	if !have {
		return
	}
	m.count++
	v, msg := actMemoryValue(raw, j.Memory)
	if msg != "" {
		if m.err == nil {
			ctx := fmt.Sprintf("line %d: <job> %d (id %d): attribute actMemory", line, j.ID, j.ID)
			m.err = &ConfigError{File: path, Context: ctx, Msg: msg,
				Stderr: []string{path + ": " + ctx + ": " + msg}, Status: 1}
		}
		return
	}
	j.ActMemory = v
}

// actMemoryValue reads an actMemory value: a whole decimal number with
// nothing else around it but spaces (stricter than ds-server's strtol
// reading of its own attributes: no reference behaviour binds this one,
// and "12MB" read as 12 would be a silent error) between 0 and the job's
// requested memory.
func actMemoryValue(raw string, memory int) (int, string) {
	n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 32)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("%q: out of range", raw)
	case err != nil:
		return 0, fmt.Sprintf("%q: not a whole number", raw)
	case n < 1:
		// 0 stands for "absent" in model.Job; no job runs in no memory.
		return 0, fmt.Sprintf("%d: below 1", n)
	case int(n) > memory:
		return 0, fmt.Sprintf("%d is above the job's memory %d (the actual usage cannot exceed the request)", n, memory)
	}
	return int(n), ""
}

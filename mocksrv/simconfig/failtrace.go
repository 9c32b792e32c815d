package simconfig

import (
	"fmt"
	"strconv"
)

// failtraceParse reads a failure trace: leading
// white space and lines starting with '#' at the top of the file are skipped
// (comments are allowed only before the first record); then come white-space
// separated records of four fields, failStart failEnd serverTypeName serverId.
//
// ds-server's behaviour on a malformed record is undefined (C.1); we reject
// the file with an error naming the record (1-based) and its line: integers
// must be plain decimal numbers (an optional sign), start >= 0 and end >=
// start. Type names and ids are checked by failtraceCheck once the server
// types are known. The returned error has only its own stderr line.
//
// lines[k] is the line on which record k starts.
func failtraceParse(path string, data []byte) (recs []FailureRecord, lines []int, err *ConfigError) {
	i, line := 0, 1
	// Leading comments and white space.
	for i < len(data) {
		c := data[i]
		switch {
		case c == '\n':
			line++
			i++
		case cfgIsSpace(c):
			i++
		case c == '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		default:
			goto records
		}
	}
records:
	var r FailureRecord
	var recLine int
	n := 0 // fields of the current record read so far
	for i < len(data) {
		c := data[i]
		if c == '\n' {
			line++
			i++
			continue
		}
		if cfgIsSpace(c) {
			i++
			continue
		}
		start := i
		for i < len(data) && !cfgIsSpace(data[i]) {
			i++
		}
		if n == 0 {
			recLine = line
		}
		if e := failtraceField(path, len(recs)+1, recLine, n, string(data[start:i]), &r); e != nil {
			return nil, nil, e
		}
		if n++; n < 4 {
			continue
		}
		n = 0
		recs = append(recs, r)
		lines = append(lines, recLine)
	}
	if n != 0 {
		return nil, nil, failtraceErr(path, len(recs)+1, recLine, fmt.Sprintf("incomplete record: %d of 4 fields (failStart failEnd serverType serverId)", n))
	}
	return recs, lines, nil
}

func failtraceErr(path string, rec, line int, msg string) *ConfigError {
	ctx := fmt.Sprintf("line %d: record %d", line, rec)
	return &ConfigError{File: path, Context: ctx, Msg: msg, Stderr: []string{path + ": " + ctx + ": " + msg},
		Divergence: "ds-server's behaviour on a bad failure trace is undefined"}
}

// failtraceField stores field n (0-based) of record rec into r, checking
// it; the last field also checks the record as a whole.
func failtraceField(path string, rec, line, n int, f string, r *FailureRecord) *ConfigError {
	if n == 2 {
		r.Type = f
		return nil
	}
	what := [4]string{"failStart", "failEnd", "", "serverId"}[n]
	v, err := strconv.ParseInt(f, 10, 32)
	if err != nil {
		return failtraceErr(path, rec, line, fmt.Sprintf("%s %q is not an integer", what, f))
	}
	switch n {
	case 0:
		r.Start = int(v)
		if r.Start < 0 {
			return failtraceErr(path, rec, line, fmt.Sprintf("failStart %d is negative", r.Start))
		}
	case 1:
		r.End = int(v)
		if r.End < r.Start {
			return failtraceErr(path, rec, line, fmt.Sprintf("failEnd %d is before failStart %d", r.End, r.Start))
		}
		if r.End == 1<<31-1 {
			// The recovery comes at failEnd+1, which must still be an int.
			return failtraceErr(path, rec, line, fmt.Sprintf("failEnd %d is too large", r.End))
		}
	case 3:
		r.ID = int(v)
	}
	return nil
}

// failtraceCheck checks every record's server against the types: the type
// must exist and the id must be below its limit.
func failtraceCheck(path string, recs []FailureRecord, lines []int, types []ServerType) *ConfigError {
	limit := make(map[string]int, len(types))
	for _, t := range types {
		if _, dup := limit[t.Name]; !dup {
			limit[t.Name] = t.Limit
		}
	}
	for k, r := range recs {
		lim, ok := limit[r.Type]
		if !ok {
			return failtraceErr(path, k+1, lines[k], fmt.Sprintf("unknown server type %q", r.Type))
		}
		if r.ID < 0 || r.ID >= lim {
			return failtraceErr(path, k+1, lines[k], fmt.Sprintf("server id %d of type %s is outside 0..%d", r.ID, r.Type, lim-1))
		}
	}
	return nil
}

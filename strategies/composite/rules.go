package composite

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dssim-go/dssim-go/protocol"
)

// The rule syntax (parameter rules), one line on a command line:
//
//	rules = rule { "|" rule }
//	rule  = [ cond "->" ] member
//	cond  = test { "&" test }
//	test  = field op integer
//	field = est | cores | memory | disk      (the job)
//	      | queue | powered | time           (the cluster)
//	op    = "<" | "<=" | ">" | ">=" | "=" | "!="
//	member = 1-based position in members, or a member's strategy name
//	         (only when exactly one member has that name)
//
// Rules are tried in order; the first whose tests all hold names the member
// that decides the job (a job a member dequeued is that member's: see
// composite.Job). A rule without a condition always holds: it is the
// default and must come last. Without one, member 1 is the default. queue
// is the global queue's length, powered the cores of servers booting, idle
// or active, time the simulation time; all three come from the client's
// ledger, so no rule costs a message. Blanks are ignored. Neither "," nor
// ";" nor brackets appear, so a rule set fits in dsbench's -a
// (composite:members=[ff; bf],rules=cores>8->2|1) as well as in dsclient's
// --param; quote it: < > | & mean something to the shell.

// field is what a test reads.
type field int

const (
	fEst field = iota
	fCores
	fMemory
	fDisk
	fQueue
	fPowered
	fTime
)

var fieldNames = map[string]field{"est": fEst, "cores": fCores, "memory": fMemory, "disk": fDisk,
	"queue": fQueue, "powered": fPowered, "time": fTime}

// ops in the order the parser tries them: two-character operators first.
var ops = []string{"<=", ">=", "!=", "<", ">", "="}

type test struct {
	f  field
	op string
	n  int
}

// Rule is one parsed rule; Member is a 0-based index into the members.
type Rule struct {
	tests  []test
	Member int
}

// RuleError is a rule set that does not parse: Msg at byte offset Col
// (1-based, as an editor counts) of the rules text.
type RuleError struct {
	Col int
	Msg string
}

func (e *RuleError) Error() string { return fmt.Sprintf("rules: column %d: %s", e.Col, e.Msg) }

// ParseRules parses a rule set. names are the members' strategy names, in
// order, for resolving a member written by name or position.
func ParseRules(text string, names []string) ([]Rule, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	if err := misspelt(text); err != nil {
		return nil, err
	}
	var rules []Rule
	off := 0
	for _, part := range strings.Split(text, "|") {
		r, err := parseRule(part, off, names)
		if err != nil {
			return nil, err
		}
		if n := len(rules); n > 0 && len(rules[n-1].tests) == 0 {
			return nil, &RuleError{off + 1, "a rule after the default (a rule without a condition must be last)"}
		}
		rules = append(rules, r)
		off += len(part) + 1
	}
	return rules, nil
}

// misspelt finds what the grammar has no place for but users write from
// other languages, before the rules are split where it would mislead:
// quotes (a harness without a shell passes them on as text), "||" and
// "&&" (split at "|" and "&" they read as an empty rule or test).
func misspelt(text string) error {
	if i := strings.IndexAny(text, "\"'"); i >= 0 {
		return &RuleError{i + 1, fmt.Sprintf("a quote (%c) is no part of the rules: quotes reached the strategy as text (a harness passed them literally, with no shell to remove them); write rules=est>5->2|1", text[i])}
	}
	if i := strings.Index(text, "||"); i >= 0 {
		return &RuleError{i + 1, `"||": rules are separated by a single "|" (cores>8->2|1)`}
	}
	if i := strings.Index(text, "&&"); i >= 0 {
		return &RuleError{i + 1, `"&&": tests are joined by a single "&" (est>600&cores>8->2)`}
	}
	return nil
}

// parseRule parses one rule starting at byte offset off of the whole text.
func parseRule(part string, off int, names []string) (Rule, error) {
	cond, member, hasCond := strings.Cut(part, "->")
	if !hasCond {
		cond, member = "", part
	}
	m, err := parseMember(member, off+len(part)-len(member), names)
	if err != nil {
		return Rule{}, err
	}
	r := Rule{Member: m}
	if !hasCond {
		return r, nil
	}
	toff := off
	for _, t := range strings.Split(cond, "&") {
		tt, err := parseTest(t, toff)
		if err != nil {
			return Rule{}, err
		}
		r.tests = append(r.tests, tt)
		toff += len(t) + 1
	}
	return r, nil
}

func parseMember(s string, off int, names []string) (int, error) {
	word, col := trimmed(s, off)
	if word == "" {
		return 0, &RuleError{col, "missing member (a position 1…" + strconv.Itoa(len(names)) + " or a member's name)"}
	}
	if n, err := strconv.Atoi(word); err == nil {
		if n < 1 || n > len(names) {
			return 0, &RuleError{col, fmt.Sprintf("member %d: %s", n, thereAre(len(names)))}
		}
		return n - 1, nil
	}
	found := -1
	for i, name := range names {
		if name == word {
			if found >= 0 {
				return 0, &RuleError{col, fmt.Sprintf("member %q is ambiguous (members %d and %d): use its position", word, found+1, i+1)}
			}
			found = i
		}
	}
	if found < 0 {
		if err := noArrow(word, col); err != nil {
			return 0, err
		}
		return 0, &RuleError{col, fmt.Sprintf("no member named %q (members: %s)", word, strings.Join(names, ", "))}
	}
	return found, nil
}

func thereAre(n int) string {
	if n == 1 {
		return "there is 1 member"
	}
	return fmt.Sprintf("there are %d members", n)
}

// noArrow explains a member that is no member's name but a condition
// whose arrow is missing or misspelt (cores>2=>2, cores>2:2), which would
// otherwise read as "no member named cores>2=>2". col is word's column.
func noArrow(word string, col int) error {
	for _, wrong := range []string{"=>", ":"} {
		if i := strings.Index(word, wrong); i >= 0 {
			return &RuleError{col + i, fmt.Sprintf(`%q where a rule wants the arrow "->" (cond->member, e.g. cores>8->2)`, wrong)}
		}
	}
	if strings.ContainsAny(word, "<>=!") {
		return &RuleError{col, fmt.Sprintf(`%q looks like a test without "->" and a member (cond->member, e.g. cores>8->2)`, word)}
	}
	return nil
}

func parseTest(s string, off int) (test, error) {
	word, col := trimmed(s, off)
	if word == "" {
		return test{}, &RuleError{col, "empty test (want field op number, e.g. cores>8)"}
	}
	i := strings.IndexAny(word, "<>=!")
	if i < 0 {
		return test{}, &RuleError{col, fmt.Sprintf("%q has no comparison (< <= > >= = !=)", word)}
	}
	name := strings.TrimSpace(word[:i])
	f, ok := fieldNames[name]
	if !ok {
		return test{}, &RuleError{col, fmt.Sprintf("unknown field %q (est, cores, memory, disk, queue, powered, time)", name)}
	}
	rest := word[i:]
	op := ""
	for _, o := range ops {
		if strings.HasPrefix(rest, o) {
			op = o
			break
		}
	}
	if op == "" {
		return test{}, &RuleError{col + i, fmt.Sprintf("unknown comparison in %q", rest)}
	}
	if op == "=" && strings.HasPrefix(rest, "==") {
		return test{}, &RuleError{col + i, fmt.Sprintf(`"==": equality is a single "=" (%s=5)`, name)}
	}
	numText := strings.TrimSpace(rest[len(op):])
	n, err := strconv.Atoi(numText)
	if errors.Is(err, strconv.ErrRange) {
		return test{}, &RuleError{col + i + len(op), fmt.Sprintf("%s after %s is out of range (%d to %d)", numText, op, math.MinInt, math.MaxInt)}
	}
	if err != nil {
		return test{}, &RuleError{col + i + len(op), fmt.Sprintf("want an integer after %s, got %q", op, numText)}
	}
	return test{f, op, n}, nil
}

// trimmed strips blanks and returns the 1-based column of what is left.
func trimmed(s string, off int) (string, int) {
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	return strings.TrimSpace(s), off + lead + 1
}

// cluster is what the cluster fields read.
type cluster struct{ queue, powered, time int }

func (t test) value(job protocol.Job, c cluster) int {
	switch t.f {
	case fEst:
		return job.EstRunTime
	case fCores:
		return job.Cores
	case fMemory:
		return job.Memory
	case fDisk:
		return job.Disk
	case fQueue:
		return c.queue
	case fPowered:
		return c.powered
	}
	return c.time
}

func (t test) holds(job protocol.Job, c cluster) bool {
	v := t.value(job, c)
	switch t.op {
	case "<":
		return v < t.n
	case "<=":
		return v <= t.n
	case ">":
		return v > t.n
	case ">=":
		return v >= t.n
	case "=":
		return v == t.n
	}
	return v != t.n
}

// pick returns the member of the first rule that holds, or member 0.
func pick(rules []Rule, job protocol.Job, c cluster) int {
	for _, r := range rules {
		ok := true
		for _, t := range r.tests {
			if !t.holds(job, c) {
				ok = false
				break
			}
		}
		if ok {
			return r.Member
		}
	}
	return 0
}

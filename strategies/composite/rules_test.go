package composite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/protocol"
)

var names = []string{"ff", "cost-reduce", "bf", "ff"}

func TestParseRulesErrors(t *testing.T) {
	for _, tc := range []struct {
		text string
		col  int
		msg  string
	}{
		{"cores>8->5", 10, "member 5: there are 4 members"},
		{"cores>8->wf", 10, `no member named "wf"`},
		{"cores>8->ff", 10, `member "ff" is ambiguous`},
		{"cpus>8->1", 1, `unknown field "cpus"`},
		{"cores=>8->1", 7, "want an integer after =, got \">8\""},
		{"est<60 & cores 4->1", 10, "has no comparison"},
		{"est<x->1", 5, `want an integer after <, got "x"`},
		{"2|cores>1->1", 3, "a rule after the default"},
		{"cores>1->", 10, "missing member"},
		{"est<5&->1", 7, "empty test"},
		{"est!8->1", 4, "unknown comparison"},
		// What users write from other languages gets a message that says so,
		// at its column.
		{"cores>2=>2|1", 8, `"=>" where a rule wants the arrow "->" (cond->member, e.g. cores>8->2)`},
		{"cores>2:2|1", 8, `":" where a rule wants the arrow "->"`},
		{"cores>2|1", 1, `"cores>2" looks like a test without "->" and a member`},
		{"est==5->2", 4, `"==": equality is a single "=" (est=5)`},
		{"cores>2&&est>5->2", 8, `"&&": tests are joined by a single "&"`},
		{"cores>2->2||1", 11, `"||": rules are separated by a single "|"`},
		{"est>99999999999999999999->2", 5, "99999999999999999999 after > is out of range (-9223372036854775808 to 9223372036854775807)"},
		{`"est>5->2|1"`, 1, `a quote (") is no part of the rules: quotes reached the strategy as text (a harness passed them literally`},
		{`est>5->2|'1'`, 10, "a quote (') is no part of the rules"},
	} {
		_, err := ParseRules(tc.text, names)
		if err == nil {
			t.Errorf("%q: accepted", tc.text)
			continue
		}
		var re *RuleError
		require.ErrorAs(t, err, &re, tc.text)
		assert.Equal(t, tc.col, re.Col, tc.text)
		assert.Contains(t, re.Msg, tc.msg, tc.text)
	}
}

// One member is one member, not "1 members".
func TestParseRulesGrammar(t *testing.T) {
	_, err := ParseRules("cores>8->2", names[:1])
	assert.EqualError(t, err, "rules: column 10: member 2: there is 1 member")
	_, err = ParseRules("cores>8->3", names[:2])
	assert.EqualError(t, err, "rules: column 10: member 3: there are 2 members")
}

func job(cores, est int) protocol.Job {
	return protocol.Job{ID: 1, Cores: cores, Memory: 1000, Disk: 2000, EstRunTime: est}
}

// Each row: the rules, the job and cluster, the member (0-based) picked.
func TestPick(t *testing.T) {
	idle := cluster{queue: 0, powered: 16, time: 100}
	busy := cluster{queue: 3, powered: 64, time: 5000}
	for _, tc := range []struct {
		rules string
		job   protocol.Job
		c     cluster
		want  int
	}{
		{"", job(4, 100), idle, 0},
		{"cores>8->3|2", job(16, 100), idle, 2},
		{"cores>8->3|2", job(8, 100), idle, 1},
		{"cores>8->3", job(4, 100), idle, 0}, // no default: member 1
		{" est >= 600 & cores <= 4 -> cost-reduce | bf", job(4, 600), idle, 1},
		{"est>=600&cores<=4->cost-reduce|bf", job(4, 599), idle, 2},
		{"queue>0->3|1", job(1, 1), busy, 2},
		{"queue>0->3|1", job(1, 1), idle, 0},
		{"powered<32->2|3", job(1, 1), idle, 1},
		{"time>=5000->2|1", job(1, 1), busy, 1},
		{"memory=1000&disk!=2000->2|memory!=999->3", job(1, 1), idle, 2},
		{"est<100->2|est<=100->3|1", job(1, 100), idle, 2},
	} {
		rules, err := ParseRules(tc.rules, names[:3])
		require.NoError(t, err, tc.rules)
		assert.Equal(t, tc.want, pick(rules, tc.job, tc.c), tc.rules)
	}
}

// The parser never panics, and what it accepts it accepts whole: every
// rule names a member in range and only the last may be unconditional.
func FuzzParseRules(f *testing.F) {
	for _, s := range []string{"", "cores>8->2|1", "est<=600&queue>0->bf|ff", "1", "a->", "|", "&->", "time!=-5->2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rules, err := ParseRules(text, names[:3])
		if err != nil {
			var re *RuleError
			if !assert.ErrorAs(t, err, &re) || re.Col < 1 || re.Col > len(text)+1 {
				t.Fatalf("%q: %v", text, err)
			}
			return
		}
		for i, r := range rules {
			if r.Member < 0 || r.Member >= 3 || len(r.tests) == 0 && i != len(rules)-1 {
				t.Fatalf("%q: rule %d = %+v", text, i, r)
			}
		}
	})
}

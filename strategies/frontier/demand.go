package frontier

import (
	"math"

	"github.com/dssim-go/dssim-go/strategies"
)

// demand is warm=demand's forecast: which arriving jobs need a server of
// each type powered on, at what rate, and how far apart frontier's
// decisions are.
//
// Why not boot ahead: a boot is free (billing starts at its end, §6.1)
// and a booting server TERMinated costs nothing, so booting servers before
// the jobs that will want them would take the boot wait out of turnaround
// for the billed seconds between a boot's end and the decision that uses
// or TERMinates it. But ds-server boots a server only when a job is placed
// on it (SCHD or MIGJ, ds-server.md §4.1): there is no empty boot in the
// standard protocol, and a job carried onto a boot to start it waits for
// that boot itself. What a strategy can do without breaking the protocol
// is the "booted" half: keep a server a completion empties on, when the
// forecast says a job needing one comes before it costs more than that
// job's boot is worth. That is this rule, priced per decision: at every
// decision each kept server is weighed again over the expected gap to the
// next one. It works beside the bet (see warmth), not instead of it: a
// server the forecast does not want is still kept when the bet would be
// placed, and a server the forecast stops wanting is powered off when its
// hold is over. Measured on the 18 configs (the study, docs/frontier-study.md): the forecast alone
// at weight 100 gave 1.0184 / 1.3212 against the bet's 1.0159 / 1.4458,
// at the balanced weight 1.0356 / 1.2069 against 1.0395 / 1.1803 (a worse
// exchange than raising the weight); beside the bet, weight 1000 gave
// 1.0081 / 1.7469 (held-out 1.0090 / 1.7282), where the bet alone had
// stopped at 1.0146.
//
// An arrival "needs" a type when place sent it to a server of that type
// that was off or kept on for it (without the kept one it would have
// booted). Over the last demandJobs arrivals, the rate of those needing
// type t is λ_t = count_t / (now − the oldest arrival's time).
type demand struct {
	ring   []need
	next   int
	count  map[string]int // arrivals in ring needing each type
	cores  map[string]int // their cores
	gap    float64        // decaying mean of the positive gaps between decisions, s
	last   int            // the last decision's time, −1 before the first
	active bool
}

type need struct {
	at    int
	typ   string // "" when the job needed nothing powered on
	cores int
}

const demandJobs = 256

// demandLearned is how many uses of kept servers replace the boot's price
// by their measured gain.
const demandLearned = 8

func newDemand(active bool) demand {
	return demand{count: map[string]int{}, cores: map[string]int{}, last: -1, active: active}
}

// tick notes a decision at now, for the gap.
func (d *demand) tick(now int) {
	if d.last >= 0 && now > d.last {
		g := float64(now - d.last)
		if d.gap == 0 {
			d.gap = g
		} else {
			d.gap = 0.9*d.gap + 0.1*g
		}
	}
	d.last = max(d.last, now)
}

// placed records where an arriving job went: typ is the type it needed
// powered on ("" for none).
func (d *demand) placed(now int, typ string, cores int) {
	n := need{at: now, typ: typ, cores: cores}
	if len(d.ring) < demandJobs {
		d.ring = append(d.ring, n)
	} else {
		old := d.ring[d.next]
		d.count[old.typ]--
		d.cores[old.typ] -= old.cores
		d.ring[d.next] = n
	}
	d.next = (d.next + 1) % demandJobs
	d.count[typ]++
	d.cores[typ] += cores
}

// rate is λ_t (arrivals needing type t per second) and their mean cores.
// cool asks it once per type and decision (see holdsOver), keep once per
// emptied server: no memo needed.
func (d *demand) rate(t string, now int) (float64, float64) {
	n := d.count[t]
	if t == "" || n == 0 || len(d.ring) < 2 {
		return 0, 0
	}
	oldest := d.ring[0]
	if len(d.ring) == demandJobs {
		oldest = d.ring[d.next]
	}
	span := max(1, now-oldest.at)
	return float64(n) / float64(span), float64(d.cores[t]) / float64(n)
}

// wanted tells whether an empty server m, with ahead servers of its type
// already kept before it, is worth keeping on until the next decision:
// fewer are kept than the jobs needing its type expected within one boot
// (λ_t × boot), and the chance that one comes before the next decision
// times the boot it saves (see boot: at the mean cores of the jobs that
// needed the type, capped at its cores; once demandLearned jobs have taken
// kept servers, what they gained by place's score) exceeds m's billed
// cost over that gap.
func (f *frontier) wanted(m *strategies.Machine, ahead, now int) bool {
	limit, pays := f.demandFor(m, now)
	return wants(limit, pays, ahead)
}

// wants is the forecast's rule on demandFor's terms: keeping one more
// server of the type pays, and fewer than limit are kept (ahead of it).
func wants(limit float64, pays bool, ahead int) bool {
	return pays && float64(ahead) < limit
}

// demandFor is wanted's two terms for m's type, which do not depend on
// how many are kept (cool asks once per type): how many servers of the
// type may be kept (λ_t × boot), and whether keeping one until the next
// decision pays.
func (f *frontier) demandFor(m *strategies.Machine, now int) (limit float64, pays bool) {
	lambda, cores := f.dem.rate(m.Ref.Type, now)
	g := f.dem.gap
	if lambda == 0 || g <= 0 || !f.priced() {
		return 0, false
	}
	worth := f.boot(m, min(cores, float64(m.Type.Cores)))
	if f.warm.uses >= demandLearned { // what kept servers gained the jobs that took them, by place's score
		worth = f.warm.gain / float64(f.warm.uses)
	}
	p := 1 - math.Exp(-lambda*g)
	return lambda * float64(m.Type.BootupTime), p*worth >= m.Type.HourlyRate/3600*g
}

package estimator

import (
	"fmt"
	"math"
	"strings"
)

// Retry is what a job gets when it comes back after a memory failure
// (decision 6, erratum E7).
type Retry int

// Retry policies.
const (
	// RetryFull dispatches the full request: the project's safe choice
	// (actual use never exceeds the request, so the retry cannot fail for
	// memory again).
	RetryFull Retry = iota
	// RetryGroup dispatches the group's updated estimate, the paper's loop
	// taken literally.
	RetryGroup
)

// RetryNames are the parameter values of the retry policies.
var RetryNames = []string{"full", "group"}

func (r Retry) String() string {
	if r < RetryFull || r > RetryGroup {
		return fmt.Sprintf("Retry(%d)", int(r))
	}
	return RetryNames[r]
}

// ParseRetry reads "full" or "group" (any case).
func ParseRetry(s string) (Retry, error) {
	for i, n := range RetryNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Retry(i), nil
		}
	}
	return 0, fmt.Errorf("unknown retry policy %q (known: %s)", s, strings.Join(RetryNames, ", "))
}

// Config is the estimator's part of the decision list (estimation.md,
// decisions 3–7), with Default holding the recommended values.
type Config struct {
	Alpha float64 // > 1: the divisor on success (default 2)
	Beta  float64 // in [0, 1): α ← max(α^β, 1) on failure (default 0)
	Key   KeyKind // default K1
	Round Rounder // default Granularity{100, 100}
	Floor float64 // E' never below min(Floor, R) (default 100: GETS's lower bound)
	Retry Retry   // default RetryFull
}

// Default is the recommended configuration for mock "shared" mode: α = 2,
// β = 0 (the paper's experimental values), K1, granularity 100 MB with a
// 100 MB floor, retry with the full request.
func Default() Config {
	return Config{Alpha: 2, Beta: 0, Key: K1, Round: Granularity{G: 100, Floor: 100}, Floor: 100, Retry: RetryFull}
}

// Validate names the first bad parameter: α must be a finite number > 1
// (α ≤ 1 would raise the estimate on success), β in [0, 1) (β = 0 freezes
// a group after its first failure, the paper's choice; β ≥ 1 never shrinks
// α), the floor ≥ 0, a known key and retry policy, and a rounder.
func (c Config) Validate() error {
	switch {
	case !(c.Alpha > 1) || math.IsInf(c.Alpha, 0):
		return fmt.Errorf("alpha=%v: want a finite number > 1", c.Alpha)
	case !(c.Beta >= 0 && c.Beta < 1):
		return fmt.Errorf("beta=%v: want a number in [0, 1)", c.Beta)
	case c.Key < K1 || c.Key > K4:
		return fmt.Errorf("key=%v: want one of %s", c.Key, strings.Join(KeyNames, ", "))
	case c.Round == nil:
		return fmt.Errorf("rounding: none given")
	case !(c.Floor >= 0) || math.IsInf(c.Floor, 0):
		return fmt.Errorf("floor=%v: want a finite number ≥ 0", c.Floor)
	case c.Retry != RetryFull && c.Retry != RetryGroup:
		return fmt.Errorf("retry=%v: want one of %s", c.Retry, strings.Join(RetryNames, ", "))
	}
	if g, ok := c.Round.(Granularity); ok && (!(g.G > 0) || math.IsInf(g.G, 0) || !(g.Floor >= 0)) {
		return fmt.Errorf("granularity=%v, floor=%v: want a granularity > 0 and a floor ≥ 0", g.G, g.Floor)
	}
	return nil
}

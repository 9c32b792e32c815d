package estimator

import (
	"fmt"
	"math/bits"
	"strings"
)

// Request is what the client knows of a job when it is offered (JOBN/JOBP,
// estimation.md B.4): no user, application or job type, which ds-sim never
// sends.
type Request struct {
	ID         int
	Cores      int
	Memory     int // MB requested: R
	Disk       int
	EstRunTime int
}

// KeyKind selects which request fields make two jobs similar (B.4).
type KeyKind int

// The similarity keys of B.4.
const (
	K1 KeyKind = iota + 1 // (cores, memReq) exact: the default
	K2                    // (cores, memReq, diskReq) exact
	K3                    // (cores, log2 bucket of memReq, log2 bucket of estRunTime): R varies, estimate kept as a ratio of R
	K4                    // memReq only
)

// KeyNames are the parameter values of the keys, in order.
var KeyNames = []string{"k1", "k2", "k3", "k4"}

func (k KeyKind) String() string {
	if k < K1 || k > K4 {
		return fmt.Sprintf("KeyKind(%d)", int(k))
	}
	return KeyNames[k-1]
}

// ParseKeyKind reads "k1" … "k4" (any case).
func ParseKeyKind(s string) (KeyKind, error) {
	for i, n := range KeyNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return KeyKind(i + 1), nil
		}
	}
	return 0, fmt.Errorf("unknown similarity key %q (known: %s)", s, strings.Join(KeyNames, ", "))
}

// Key identifies a similarity group. Fields a key kind does not use are 0,
// so keys of one kind compare equal exactly when their fields do.
type Key struct {
	Kind    KeyKind
	A, B, C int
}

func (k Key) String() string { return fmt.Sprintf("%s(%d,%d,%d)", k.Kind, k.A, k.B, k.C) }

// Of returns the key of a request.
func (k KeyKind) Of(r Request) Key {
	switch k {
	case K2:
		return Key{Kind: K2, A: r.Cores, B: r.Memory, C: r.Disk}
	case K3:
		return Key{Kind: K3, A: r.Cores, B: log2Bucket(r.Memory), C: log2Bucket(r.EstRunTime)}
	case K4:
		return Key{Kind: K4, A: r.Memory}
	}
	return Key{Kind: K1, A: r.Cores, B: r.Memory}
}

// Ratio reports whether a key's groups hold requests of different sizes, so
// that the estimate is kept as a fraction of R (B.4, K3).
func (k KeyKind) Ratio() bool { return k == K3 }

// log2Bucket is ⌊log2 v⌋ + 1 for v ≥ 1 and 0 otherwise: 1 → 1, 2–3 → 2,
// 4–7 → 3, … (a request of 0 is its own bucket).
func log2Bucket(v int) int {
	if v <= 0 {
		return 0
	}
	return bits.Len(uint(v))
}

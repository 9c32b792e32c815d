package simconfig

// glibcRand reproduces glibc's rand()/srand() (the TYPE_3 additive
// lagged-Fibonacci generator), the only source of randomness ds-server uses
// for job generation (job-generation.md §2, ds-server.md Appendix B). Go's
// math/rand cannot reproduce it. The zero value is not ready: use
// newGlibcRand.
type glibcRand struct {
	r    [31]uint32
	f, b int
	// onDraw, when set, sees every draw (raw rand() value and modulus); the
	// tests use it to check the draw sequences of job-generation.md §10.
	onDraw func(raw, m int)
}

// newGlibcRand returns a generator seeded like srand(seed).
func newGlibcRand(seed uint32) *glibcRand {
	g := &glibcRand{}
	g.seed(seed)
	return g
}

// seed is srand(s) (job-generation.md §2.2): seed 0 acts as 1; the 31 words
// come from the minimal-standard Lehmer sequence computed with Schrage's
// method on the seed reinterpreted as a signed 32-bit value; then 310 outputs
// are thrown away.
func (g *glibcRand) seed(s uint32) {
	g.fill(s)
	for i := 0; i < 310; i++ {
		g.next()
	}
}

// fill stores the 31 seeded words and resets the indices (§2.2 steps 1-4).
func (g *glibcRand) fill(s uint32) {
	if s == 0 {
		s = 1
	}
	w := int64(int32(s))
	g.r[0] = uint32(int32(w))
	for i := 1; i < 31; i++ {
		hi := w / 127773 // truncating, like C
		lo := w - hi*127773
		w = int64(int32(16807*lo - 2836*hi)) // wrap to signed 32 bits
		if w < 0 {
			w += 2147483647
		}
		g.r[i] = uint32(w)
	}
	g.f, g.b = 3, 0
}

// next is one rand() call (job-generation.md §2.3): a value in 0 .. 2^31-1.
func (g *glibcRand) next() int {
	g.r[g.f] += g.r[g.b]
	v := g.r[g.f] >> 1
	g.f++
	g.b++
	if g.f == 31 {
		g.f = 0
	} else if g.b == 31 {
		g.b = 0
	}
	return int(v)
}

// draw is "rand() mod m" (job-generation.md §0): a draw is consumed even when
// m is 1. m must be positive; the caller checks the one case where ds-server
// divides by zero (§5.5 case 1).
func (g *glibcRand) draw(m int) int {
	v := g.next()
	if g.onDraw != nil {
		g.onDraw(v, m)
	}
	return v % m
}

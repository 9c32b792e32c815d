package simconfig

import "testing"

// TestGlibcRandVectors: job-generation.md §2.5, outputs 1–5 and 1000.
func TestGlibcRandVectors(t *testing.T) {
	cases := []struct {
		seed  uint32
		first [5]int
		at1k  int
	}{
		{1, [5]int{1804289383, 846930886, 1681692777, 1714636915, 1957747793}, 1143565421},
		{0, [5]int{1804289383, 846930886, 1681692777, 1714636915, 1957747793}, 1143565421},
		{1024, [5]int{2063425283, 2081142086, 834218027, 1646704646, 1978207673}, 975174951},
		{123456, [5]int{1303402199, 1406886723, 391888296, 1607856518, 940034812}, 212119434},
		{202102, [5]int{1591190403, 884181529, 501773720, 2098990912, 1230750258}, 1296532163},
		{2147483647, [5]int{1065668062, 2142264300, 1066566375, 1064012770, 2141034222}, 1698607095},
	}
	for _, tc := range cases {
		g := newGlibcRand(tc.seed)
		for i, w := range tc.first {
			if v := g.next(); v != w {
				t.Errorf("seed %d: output %d = %d, want %d", tc.seed, i+1, v, w)
			}
		}
		v := 0
		for i := 6; i <= 1000; i++ {
			v = g.next()
		}
		if v != tc.at1k {
			t.Errorf("seed %d: output 1000 = %d, want %d", tc.seed, v, tc.at1k)
		}
	}
}

// TestGlibcRandSeedWords: the seed-1024 words before the discarded outputs
// (§2.5).
func TestGlibcRandSeedWords(t *testing.T) {
	var g glibcRand
	g.fill(1024)
	want := []uint32{1024, 17210368, 1491846278, 1588815621, 1412475349, 1188956705}
	for i, w := range want {
		if g.r[i] != w {
			t.Errorf("r[%d] = %d, want %d", i, g.r[i], w)
		}
	}
	if g.r[30] != 41164494 {
		t.Errorf("r[30] = %d, want 41164494", g.r[30])
	}
}

// TestGlibcRandClosedForm: the step form agrees with the closed form of
// §2.3 for 2000 outputs, including seeds above 2^31 whose signed
// reinterpretation (§2.2) matters.
func TestGlibcRandClosedForm(t *testing.T) {
	for _, seed := range []uint32{0, 1, 1024, 2000, 12345, 65536, 123456, 202102, 1<<31 - 1, 3000000000, 1<<32 - 1} {
		var g glibcRand
		g.fill(seed)
		x := make([]uint32, 0, 2344+34)
		x = append(x, g.r[:]...)
		x = append(x, x[0], x[1], x[2])
		for i := 34; i < 2344+1; i++ {
			x = append(x, x[i-31]+x[i-3])
		}
		s := newGlibcRand(seed)
		for k := 0; k < 2000; k++ {
			if v, w := s.next(), int(x[k+344]>>1); v != w {
				t.Fatalf("seed %d output %d: step %d, closed form %d", seed, k, v, w)
			}
		}
	}
}

// TestGlibcRandDraw: a draw modulo 1 still consumes a value (job-generation.md §0).
func TestGlibcRandDraw(t *testing.T) {
	g := newGlibcRand(1)
	if v := g.draw(1); v != 0 {
		t.Errorf("draw(1) = %d", v)
	}
	if v := g.draw(1000); v != 846930886%1000 {
		t.Errorf("second draw = %d, want %d", v, 846930886%1000)
	}
}

func BenchmarkGlibcRand(b *testing.B) {
	b.ReportAllocs()
	g := newGlibcRand(1024)
	s := 0
	for i := 0; i < b.N; i++ {
		s += g.next()
	}
	_ = s
}

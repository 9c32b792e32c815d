package mocksrv

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

// ds-server reads a message as a C string: in plain framing a NUL byte
// ends it, whatever follows ("HELO\x00zz" is HELO), at every stage of the
// dialogue, and the log shows the message as ds-server saw it.
func TestNULEndsAMessage(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{Level: LevelAll})
	d.x("HELO\x00zz", "OK")
	d.x("AUTH me\x00\xff", "OK")
	d.x("REDY\x00\x00REDY", "JOBN 0 5 1 500 1000 50")
	d.x("SCHD 0 tiny 0\x00 1", "OK")
	d.x("QUIT\x00now", "QUIT")
	if strings.Contains(d.log.String(), "\x00") || !strings.Contains(d.log.String(), "RCVD QUIT\n") {
		t.Errorf("the log shows what follows a NUL:\n%q", d.log.String())
	}
	if !strings.Contains(d.log.String(), "# Welcome  me!") {
		t.Errorf("the user name runs up to the NUL: %q", d.log.String())
	}
}

// Numbers in commands are read as ds-server's sscanf("%d") reads them: a
// long, saturated at the 64-bit range, stored in a 32-bit int; beyond 32
// bits they wrap as in the config loader. Before, they were capped at
// 2147483647, a value ds-server never reads from "4294967296".
func TestCommandNumbersWrapAt32Bits(t *testing.T) {
	d := newDlg(t, tinyConfig(), Options{})
	d.start("JOBN 0 5 1 500 1000 50")
	d.x("SCHD 4294967296 tiny 4294967297", "OK") // job 0 on tiny 1
	d.x("REDY", "JOBN 1 10 2 1000 2000 100")
	d.x("GETS Capable 4294967298 4294968296 4294969296", "DATA 3 124") // 2 1000 2000
	d.x("OK", "small 0 inactive -1 2 4000 16000 0 0\n           small 1 inactive -1 2 4000 16000 0 0\n           big 0 inactive -1 4 16000 64000 0 0")
	d.x("OK", ".")
	d.x("CNTJ tiny 4294967297 4294967297", "1")                                                                 // tiny 1, state 1 (waiting): job 0 waits for the boot
	d.x("CNTJ tiny 1 99999999999999999999", "ERR: invalid job count query (CNTJ tiny 1 99999999999999999999)!") // past 64 bits: LONG_MAX, int -1
}

func TestCInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"0", 0, true}, {"12x", 12, true}, {"+7", 7, true}, {"-7", -7, true}, {" \t5", 5, true},
		{"2147483647", math.MaxInt32, true}, {"2147483648", math.MinInt32, true},
		{"4294967296", 0, true}, {"4294967297", 1, true}, {"-4294967297", -1, true},
		{"9223372036854775807", -1, true}, {"9223372036854775808", -1, true}, // LONG_MAX
		{"99999999999999999999999", -1, true}, {"-99999999999999999999999", 0, true}, // LONG_MIN
		{"", 0, false}, {"-", 0, false}, {"x1", 0, false}, {"- 1", 0, false},
	} {
		got, ok := CInt(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CInt(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzCInt: CInt agrees with C's conversion computed another way: the
// number's digits as a big integer, clamped to the 64-bit long (strtol),
// then its low 32 bits (the int). ok is whether any digit was read.
func FuzzCInt(f *testing.F) {
	for _, s := range []string{"0", "12x", "-7", " \t+5", "4294967297", "-2147483649", "9223372036854775808", "-99999999999999999999999", "", "-", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := CInt(s)
		rest := strings.TrimLeft(s, " \t\n\v\f\r")
		sign := ""
		if rest != "" && (rest[0] == '+' || rest[0] == '-') {
			sign, rest = rest[:1], rest[1:]
		}
		digits := rest[:len(rest)-len(strings.TrimLeft(rest, "0123456789"))]
		if ok != (digits != "") {
			t.Fatalf("CInt(%q): ok %v with digits %q", s, ok, digits)
		}
		if !ok {
			if got != 0 {
				t.Fatalf("CInt(%q) = %d without digits", s, got)
			}
			return
		}
		v, _ := new(big.Int).SetString(digits, 10)
		if sign == "-" {
			v.Neg(v)
		}
		if v.Cmp(big.NewInt(math.MaxInt64)) > 0 {
			v.SetInt64(math.MaxInt64)
		} else if v.Cmp(big.NewInt(math.MinInt64)) < 0 {
			v.SetInt64(math.MinInt64)
		}
		if want := int(int32(v.Int64())); got != want {
			t.Fatalf("CInt(%q) = %d, want %d", s, got, want)
		}
	})
}

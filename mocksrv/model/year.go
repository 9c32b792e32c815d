package model

import (
	"fmt"
	"strconv"

	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// Year is the ds-server release the simulator reproduces. The 2026 server
// (2-Apr-2026, what the course runs now) differs from the 2025 one
// (4-Apr-2025) in two things only: every GETS record carries the server
// type's hourly rate as its third field (so GETS announces record lengths
// 135 and 177 for 124 and 166), and its version strings. The simulation,
// every other message and the report are the same.
type Year int

// The years reproduced. The zero Year is DefaultYear.
const (
	Year2025 Year = 2025
	Year2026 Year = 2026
	// DefaultYear is what the course runs now, and what every command
	// and the in-process simulator speak unless told otherwise.
	DefaultYear = Year2026
)

// Years are the accepted years, oldest first.
var Years = []Year{Year2025, Year2026}

// Resolve is the year itself, or DefaultYear for the zero Year.
func (y Year) Resolve() Year {
	if y == 0 {
		return DefaultYear
	}
	return y
}

// Version is the version string the year's ds-server prints on its first
// log line, in -h, in ds-system.xml and in ds-jobs.xml.
func (y Year) Version() string {
	if y.Resolve() == Year2025 {
		return "4-Apr, 2025 @ MQ - client-server"
	}
	return "2-Apr, 2026 @ MQ"
}

// Rates reports whether GETS records carry the hourly rate.
func (y Year) Rates() bool { return y.Resolve() >= Year2026 }

// GetsRecLen is the record length a GETS DATA header announces
// (ds-server.md §5.2), with or without the failure fields.
func (y Year) GetsRecLen(failures bool) int {
	n := 124
	if failures {
		n = 166
	}
	if y.Rates() {
		n += 11 // the rate: "%.2f" and its separator, in ds-server's fixed widths
	}
	return n
}

// String is the year as a user writes it ("2026").
func (y Year) String() string { return strconv.Itoa(int(y.Resolve())) }

// ParseYear reads a year as a user gives it: 2025 or 2026. Anything else
// is refused with the accepted values.
func ParseYear(s string) (Year, error) {
	for _, y := range Years {
		if s == y.String() {
			return y, nil
		}
	}
	return 0, fmt.Errorf("unknown ds-server year %q: want 2025 (ds-server 4-Apr-2025) or 2026 (2-Apr-2026, GETS records carry the hourly rate)%s",
		s, didyoumean.Hint(s, []string{"2025", "2026"}))
}

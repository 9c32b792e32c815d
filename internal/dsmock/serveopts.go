package dsmock

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// --serve's bounds (ds-server serves one client and has neither).
const (
	// defaultMaxSessions is --max-sessions: enough for a class running
	// its clients at once (750 ran side by side in a test), few enough
	// that the file descriptors they take leave room for the files.
	defaultMaxSessions = 1000
	// defaultSessionLogMax is --session-log-max: far above any real run's
	// log (a million jobs at -v all), far below a disk's room.
	defaultSessionLogMax = 1 << 30
)

// serveLimits are --serve's bounds, and whether one was given (they mean
// nothing without --serve: refused then).
type serveLimits struct {
	maxSessions   int
	sessionLogMax int64
	given         string // the first of the options given, "" for none
}

// apply reads --max-sessions or --session-log-max; the error is the
// message dsmock exits with.
func (l *serveLimits) apply(name, value string) error {
	if l.given == "" {
		l.given = "--" + name
	}
	switch name {
	case "max-sessions":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return fmt.Errorf("--max-sessions %q: want a number of sessions, 1 or more", value)
		}
		l.maxSessions = n
	case "session-log-max":
		n, err := parseSize(value)
		if err != nil {
			return fmt.Errorf("--session-log-max %q: %v", value, err)
		}
		l.sessionLogMax = n
	}
	return nil
}

// sizeUnits are parseSize's suffixes, longest first.
var sizeUnits = []struct {
	suffix string
	factor int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}

// parseSize reads a size in bytes: a whole number with an optional unit
// (B, KB, MB, GB in powers of ten, KiB, MiB, GiB in powers of two), "0"
// for no limit.
func parseSize(s string) (int64, error) {
	num, factor := s, int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			num, factor = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	switch {
	case err != nil || n < 0 || num == "" || num[0] == '+':
		return 0, fmt.Errorf("want a size such as 512MiB, 1GiB or 100000000 (bytes), or 0 for no limit")
	case n > math.MaxInt64/factor:
		return 0, fmt.Errorf("more than %d bytes", int64(math.MaxInt64))
	}
	return n * factor, nil
}

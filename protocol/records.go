package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ServerState is a server's state as GETS reports it (ds-server.md §4.1).
type ServerState int

// The five server states, with ds-server's numeric codes.
const (
	Inactive    ServerState = 0
	Booting     ServerState = 1
	Idle        ServerState = 2
	Active      ServerState = 3
	Unavailable ServerState = 4
)

var stateNames = [...]string{"inactive", "booting", "idle", "active", "unavailable"}

// String returns the state's name as it appears in a GETS record.
func (s ServerState) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "ServerState(" + strconv.Itoa(int(s)) + ")"
}

// Powered reports whether the server is booting, idle or active.
func (s ServerState) Powered() bool { return s == Booting || s == Idle || s == Active }

// ParseServerState parses a state name of a GETS record.
func ParseServerState(name string) (ServerState, error) {
	for i, n := range stateNames {
		if n == name {
			return ServerState(i), nil
		}
	}
	return 0, fmt.Errorf("unknown server state %q", name)
}

// JobState is a job's state code (CNTJ, LSTJ; ds-server.md §0.3).
type JobState int

// Job states with ds-server's codes.
const (
	JobStateSubmitted JobState = 0
	JobStateWaiting   JobState = 1
	JobStateRunning   JobState = 2
	JobStateSuspended JobState = 3
	JobStateCompleted JobState = 4
	JobStatePreempted JobState = 5
	JobStateFailed    JobState = 6
	JobStateKilled    JobState = 7
)

// ServerRef names one server: its type name and its id (0 .. limit-1).
type ServerRef struct {
	Type string
	ID   int
}

// String returns "type id", the form used inside commands.
func (r ServerRef) String() string { return r.Type + " " + strconv.Itoa(r.ID) }

// Requirement is a job's resource need, the arguments of GETS Capable/Avail/Bounded.
type Requirement struct {
	Cores, Memory, Disk int
}

// String returns "cores memory disk".
func (r Requirement) String() string {
	return strconv.Itoa(r.Cores) + " " + strconv.Itoa(r.Memory) + " " + strconv.Itoa(r.Disk)
}

// Fits reports whether r fits in the given amounts (all three resources).
func (r Requirement) Fits(cores, memory, disk int) bool {
	return r.Cores <= cores && r.Memory <= memory && r.Disk <= disk
}

// Failure holds the six failure fields GETS appends when failures are
// simulated (ds-server.md Appendix C.4).
type Failure struct {
	Failures, TotalFailTime, MTTF, MTTR, MADF, LastStartTime int
}

// Server is one GETS record (ds-server.md §5.3). ds-server 2025 sends
// 9 fields (15 with failures); ds-server 2026 inserts the type's hourly
// rate as the third field, 10 fields (16). ParseServer reads both (see
// ParseServer for how it tells them apart) and String writes the shape the
// record was read in.
type Server struct {
	Type string
	ID   int
	// Rate is the type's hourly rate as the record gives it (C's %.2f of
	// ds-server's 32-bit rate, so 0.125 arrives as 0.12): only when
	// HasRate, that is, in a 2026 server's records. It equals the rate
	// ds-system.xml gives for the type, which is written the same way.
	Rate         float64
	HasRate      bool
	State        ServerState
	CurStartTime int // boot completion of the current powered period; -1 if off
	Cores        int // available now
	Memory       int
	Disk         int
	Waiting      int // #waiting jobs (including known-start jobs on a booting server)
	Running      int
	Failure      *Failure // nil unless the server simulates failures
}

// Ref returns the server's identity.
func (s Server) Ref() ServerRef { return ServerRef{s.Type, s.ID} }

// Fits reports whether r fits in the server's available resources.
func (s Server) Fits(r Requirement) bool { return r.Fits(s.Cores, s.Memory, s.Disk) }

// String formats the record without padding, as the first record of a batch.
func (s Server) String() string {
	var b strings.Builder
	b.Grow(64)
	s.AppendTo(&b)
	return b.String()
}

// AppendTo writes the record to b (no padding, no newline): with the rate
// third when HasRate, as ds-server 2026 writes it.
func (s Server) AppendTo(b *strings.Builder) {
	b.WriteString(s.Type)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(s.ID))
	b.WriteByte(' ')
	if s.HasRate {
		b.WriteString(FormatRate(s.Rate))
		b.WriteByte(' ')
	}
	b.WriteString(s.State.String())
	for _, v := range [...]int{s.CurStartTime, s.Cores, s.Memory, s.Disk, s.Waiting, s.Running} {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(v))
	}
	if f := s.Failure; f != nil {
		for _, v := range [...]int{f.Failures, f.TotalFailTime, f.MTTF, f.MTTR, f.MADF, f.LastStartTime} {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(v))
		}
	}
}

// ParseServer parses one GETS record of either ds-server year. Leading and
// repeated white space is ignored (ds-server pads every record after the
// first, ds-server.md §5.3).
//
// The shape is told by the record's own field count, which never overlaps
// between the years: 9 fields (15 with failures) is a 2025 record, 10
// (16) a 2026 record with the hourly rate third. The type name is always
// the first field, so a name that looks like a number, a rate or a state
// changes nothing. The field the shape puts the state in must be a state
// name, and a 2026 rate must be what C's %.2f prints (digits, a point, two
// digits, an optional '-'; or nan, inf); a record that fits neither shape
// is an error that quotes it. A Conn also holds every record of a batch to
// the shape its DATA header's record length announces (RecLenGets, …).
func ParseServer(rec string) (Server, error) {
	if s, ok := parseServerFast(rec); ok {
		return s, nil
	}
	return parseServerGeneral(rec)
}

// maxRecordFields is the most fields a GETS record has (2026, failures).
const maxRecordFields = 16

// recordShape is the layout of a GETS record of n fields: whether the rate
// is third and whether the six failure fields end it.
type recordShape struct {
	rate, failures bool
}

func shapeOf(n int) (recordShape, bool) {
	switch n {
	case 9:
		return recordShape{}, true
	case 15:
		return recordShape{failures: true}, true
	case 10:
		return recordShape{rate: true}, true
	case 16:
		return recordShape{rate: true, failures: true}, true
	}
	return recordShape{}, false
}

// stateAt is the index of the state field.
func (sh recordShape) stateAt() int {
	if sh.rate {
		return 3
	}
	return 2
}

// parseServerFast parses a record of the usual shape in one pass: ASCII,
// 9, 10, 15 or 16 fields, numbers of at most 18 digits with no sign but an
// optional '-'. For anything else it reports false and
// parseServerGeneral decides (and says what is wrong). Where both accept
// a record they give the same Server (FuzzParseServer holds them to it).
// Why: a client parses every record of every GETS, 200,000 in a
// 2,000-job run of a 100-server system; one pass is about a fifth faster
// than splitting into fields first.
func parseServerFast(rec string) (Server, bool) {
	var f [maxRecordFields]string
	k := 0 // fields seen
	for i := 0; ; {
		for i < len(rec) && asciiSpace[rec[i]] {
			i++
		}
		if i == len(rec) {
			break
		}
		j := i
		for j < len(rec) && !asciiSpace[rec[j]] {
			if rec[j] >= utf8.RuneSelf {
				return Server{}, false
			}
			j++
		}
		if k == maxRecordFields {
			return Server{}, false
		}
		f[k] = rec[i:j]
		k++
		i = j
	}
	sh, ok := shapeOf(k)
	if !ok {
		return Server{}, false
	}
	at := sh.stateAt()
	st, err := ParseServerState(f[at])
	if err != nil {
		return Server{}, false
	}
	var n [13]int // the id, then the numbers after the state
	var good bool
	if n[0], good = smallAtoi(f[1]); !good {
		return Server{}, false
	}
	for i, tok := range f[at+1 : k] {
		if n[i+1], good = smallAtoi(tok); !good {
			return Server{}, false
		}
	}
	s := newServer(f[0], st, &n, sh.failures)
	if sh.rate {
		if s.Rate, good = parseRate(f[2]); !good {
			return Server{}, false
		}
		s.HasRate = true
	}
	return s, true
}

// newServer builds a record from its type, state and numbers (the id, then
// the fields after the state; the failure fields when withFailures).
func newServer(typ string, st ServerState, n *[13]int, withFailures bool) Server {
	s := Server{Type: typ, ID: n[0], State: st, CurStartTime: n[1], Cores: n[2],
		Memory: n[3], Disk: n[4], Waiting: n[5], Running: n[6]}
	if withFailures {
		s.Failure = &Failure{n[7], n[8], n[9], n[10], n[11], n[12]}
	}
	return s
}

// smallAtoi is strconv.Atoi for an optional '-' and 1 to 18 decimal
// digits (which cannot overflow); it reports false for anything else.
func smallAtoi(s string) (int, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int(d)
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseServerGeneral is ParseServer for every input, with its errors.
func parseServerGeneral(rec string) (Server, error) {
	var buf [maxRecordFields + 1]string
	f := fields(rec, buf[:0])
	sh, ok := shapeOf(len(f))
	if !ok {
		return Server{}, fmt.Errorf("GETS record %q: %d fields, want 9 or 15 (ds-server 2025), or 10 or 16 with the hourly rate third (2026)", rec, len(f))
	}
	at := sh.stateAt()
	var rate float64
	if sh.rate {
		if rate, ok = parseRate(f[2]); !ok {
			if _, err := ParseServerState(f[2]); err == nil {
				return Server{}, fmt.Errorf("GETS record %q: %d fields with the state third: a 2025 record has %d, a 2026 record has the hourly rate before the state", rec, len(f), len(f)-1)
			}
			return Server{}, fmt.Errorf("GETS record %q: %d fields, so the third should be the hourly rate (as C's %%.2f prints it), but it is %q", rec, len(f), f[2])
		}
	}
	st, err := ParseServerState(f[at])
	if err != nil {
		if _, isRate := parseRate(f[2]); !sh.rate && isRate {
			return Server{}, fmt.Errorf("GETS record %q: %d fields with an hourly rate third: a 2026 record has %d, a 2025 record has no rate", rec, len(f), len(f)+1)
		}
		return Server{}, fmt.Errorf("GETS record %q: %w", rec, err)
	}
	var n [13]int
	if err := atoisInto(n[:1], f[1:2]); err != nil {
		return Server{}, fmt.Errorf("GETS record %q: %w", rec, err)
	}
	if err := atoisInto(n[1:len(f)-at], f[at+1:]); err != nil {
		return Server{}, fmt.Errorf("GETS record %q: %w", rec, err)
	}
	s := newServer(f[0], st, &n, sh.failures)
	s.Rate, s.HasRate = rate, sh.rate
	return s, nil
}

// JobRecord is one LSTJ record (ds-server.md §5.8).
type JobRecord struct {
	ID         int
	State      JobState // JobStateWaiting or JobStateRunning
	Submit     int      // original submit time
	Start      int      // -1 when not yet known
	EstRunTime int
	Cores      int
	Memory     int
	Disk       int
}

// String formats the record as LSTJ sends it.
func (j JobRecord) String() string {
	return joinInts(j.ID, int(j.State), j.Submit, j.Start, j.EstRunTime, j.Cores, j.Memory, j.Disk)
}

// ParseJobRecord parses one LSTJ record.
func ParseJobRecord(rec string) (JobRecord, error) {
	var buf [9]string
	f := fields(rec, buf[:0])
	if len(f) != 8 {
		return JobRecord{}, fmt.Errorf("LSTJ record %q: %d fields, want 8", rec, len(f))
	}
	var n [8]int
	if err := atoisInto(n[:], f); err != nil {
		return JobRecord{}, fmt.Errorf("LSTJ record %q: %w", rec, err)
	}
	return JobRecord{n[0], JobState(n[1]), n[2], n[3], n[4], n[5], n[6], n[7]}, nil
}

// QueuedJob is one LSTQ record (ds-server.md §5.7).
type QueuedJob struct {
	ID         int
	QID        int // 0-based position in the global queue
	Submit     int // original submit time
	Queued     int // time it entered the queue
	EstRunTime int
	Cores      int
	Memory     int
	Disk       int
}

// String formats the record as LSTQ sends it.
func (q QueuedJob) String() string {
	return joinInts(q.ID, q.QID, q.Submit, q.Queued, q.EstRunTime, q.Cores, q.Memory, q.Disk)
}

// ParseQueuedJob parses one LSTQ record.
func ParseQueuedJob(rec string) (QueuedJob, error) {
	var buf [9]string
	f := fields(rec, buf[:0])
	if len(f) != 8 {
		return QueuedJob{}, fmt.Errorf("LSTQ record %q: %d fields, want 8", rec, len(f))
	}
	var n [8]int
	if err := atoisInto(n[:], f); err != nil {
		return QueuedJob{}, fmt.Errorf("LSTQ record %q: %w", rec, err)
	}
	return QueuedJob{n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]}, nil
}

func joinInts(v ...int) string {
	b := make([]byte, 0, 8*len(v))
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// atois converts every field of every slice to an int, strictly (no
// trailing garbage): a record the client cannot read exactly is an error.
func atois(parts ...[]string) ([]int, error) {
	var out []int
	for _, p := range parts {
		for _, s := range p {
			v, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("field %q is not an integer", s)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// atoisInto is atois into a caller's array: the record parsers run once
// per record of every DATA batch, so they avoid allocating.
func atoisInto(dst []int, f []string) error {
	for i, s := range f {
		v, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("field %q is not an integer", s)
		}
		dst[i] = v
	}
	return nil
}

// fields is strings.Fields appending to dst (no allocation while dst has
// room). Records are ASCII; anything else takes strings.Fields' path so the
// split stays exactly the same.
func fields(s string, dst []string) []string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(dst, strings.Fields(s)...)
		}
	}
	start := -1
	for i := 0; i < len(s); i++ {
		if asciiSpace[s[i]] {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// asciiSpace is strings.Fields' ASCII white space.
var asciiSpace = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

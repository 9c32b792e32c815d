package servertypes

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/beevik/etree"

	"github.com/dssim-go/dssim-go/protocol"
)

// Load reads a ds-system.xml file.
func Load(path string) (*System, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads the text of a ds-system.xml. Every <server> element anywhere
// in the document is a type, in document order; its attributes type, limit,
// bootupTime, hourlyRate, cores, memory and disk are all required, and the
// rate must be finite (rateProblem). Errors name the source, the element
// (1-based), the type and the attribute.
func Parse(source string, data []byte) (*System, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		return nil, fmt.Errorf("%s: not valid XML: %w", source, err)
	}
	elems := doc.FindElements("//server")
	if len(elems) == 0 {
		return nil, fmt.Errorf("%s: no <server> element", source)
	}
	types := make([]Type, 0, len(elems))
	for k, e := range elems {
		t, err := parseServer(e)
		if err != nil {
			return nil, fmt.Errorf("%s: <server> element %d: %w", source, k+1, err)
		}
		types = append(types, t)
	}
	return New(source, types)
}

func parseServer(e *etree.Element) (Type, error) {
	var t Type
	t.Name = e.SelectAttrValue("type", "")
	if t.Name == "" {
		return t, fmt.Errorf(`missing attribute "type"`)
	}
	ints := []struct {
		name string
		dst  *int
	}{{"limit", &t.Limit}, {"bootupTime", &t.BootupTime}, {"cores", &t.Cores}, {"memory", &t.Memory}, {"disk", &t.Disk}}
	for _, a := range ints {
		v, err := attr(e, a.name)
		if err != nil {
			return t, err
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return t, fmt.Errorf("type %q: attribute %s=%q is not an integer", t.Name, a.name, v)
		}
		*a.dst = n
	}
	v, err := attr(e, "hourlyRate")
	if err != nil {
		return t, err
	}
	if t.HourlyRate, err = parseRate(v); err != nil {
		return t, fmt.Errorf("type %q: attribute hourlyRate=%q is not a number", t.Name, v)
	}
	if problem := rateProblem(t.HourlyRate); problem != "" {
		return t, fmt.Errorf("type %q: attribute hourlyRate=%q %s", t.Name, v, problem)
	}
	return t, nil
}

// parseRate reads a rate as ParseFloat does, and also "-nan" and "+nan",
// which ParseFloat refuses: ds-server writes the rate with C's %.2f,
// which prints a NaN whose sign bit is set as "-nan" (a config rate of
// "-nan"), so that rateProblem names it for what it is.
func parseRate(v string) (float64, error) {
	r, err := strconv.ParseFloat(v, 64)
	if err != nil && len(v) == 4 && (v[0] == '-' || v[0] == '+') && strings.EqualFold(v[1:], "nan") {
		return math.NaN(), nil
	}
	return r, err
}

// rateProblem says why a client cannot price servers at rate, "" if it
// can. ds-server stores a rate as a 32-bit float and accepts NaN and
// infinities (strtod reads "nan" and "inf"; only 0 and -1 are refused,
// ds-server.md §2.3), and so does dsmock, but every cost and score with
// such a rate is NaN or infinite, so a strategy cannot compare servers by
// it: refused, as is a rate beyond the 32-bit range, which is infinite
// once ds-server stores it (and renders as such in ds-system.xml). A rate
// of 0 or below is kept: it is finite, ds-server writes 0.00 for a rate
// under 0.005 and bills a negative rate as a negative cost, and
// CheapestPerCore already passes over such rates as carrying no price.
func rateProblem(rate float64) string {
	switch {
	case math.IsNaN(rate) || math.IsInf(rate, 0):
		return "is not a finite number: ds-server accepts it, but every cost on such a server is NaN or infinite, so no strategy can price it; give the type a finite rate in the config"
	case math.IsInf(float64(float32(rate)), 0):
		return "is beyond the 32-bit float range ds-server stores rates in (it is infinite there, and every cost with it); give the type a smaller rate in the config"
	}
	return ""
}

func attr(e *etree.Element, name string) (string, error) {
	a := e.SelectAttr(name)
	if a == nil {
		return "", fmt.Errorf("missing attribute %q", name)
	}
	return strings.TrimSpace(a.Value), nil
}

// FromServers derives the types from a GETS All reply taken before any job
// was scheduled (every server inactive, so available resources are the
// capacities). Types keep the order of the records, which is ds-server's
// sorted order; a type's limit is its highest id + 1. GETS does not carry
// boot times: they are 0 here. A ds-server 2026 record carries the type's
// rate (two decimals, as ds-system.xml has it), which is kept; a 2025
// record does not, and the rate is 0, so strategies that price servers
// need ds-system.xml there. A rate a client cannot price with (NaN,
// infinite) is refused as Parse refuses it.
func FromServers(recs []protocol.Server) (*System, error) {
	var types []Type
	pos := map[string]int{}
	for _, r := range recs {
		i, ok := pos[r.Type]
		if !ok {
			i = len(types)
			pos[r.Type] = i
			types = append(types, Type{Name: r.Type})
			if r.HasRate {
				if problem := rateProblem(r.Rate); problem != "" {
					return nil, fmt.Errorf("GETS All: type %q: hourly rate %s %s", r.Type, protocol.FormatRate(r.Rate), problem)
				}
				types[i].HourlyRate = r.Rate
			}
		}
		t := &types[i]
		t.Limit = max(t.Limit, r.ID+1)
		t.Cores, t.Memory, t.Disk = max(t.Cores, r.Cores), max(t.Memory, r.Memory), max(t.Disk, r.Disk)
	}
	return New("GETS All", types)
}

// rate32 is the rate as ds-server stores it, a 32-bit float, back in a
// float64; a NaN keeps its sign, which Go's conversion does not promise.
func rate32(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	return float64(float32(x))
}

// XML renders the system as ds-server writes ds-system.xml, in this
// System's file order (ds-server.md §1.7). The rate is printed with two
// decimals from its 32-bit float value, as ds-server stores it.
func (s *System) XML(version string) []byte {
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&b, "<!-- system information generated for ds-sim@MQ, %s -->\n", version)
	b.WriteString("<system>\n\t<servers>\n")
	for _, t := range s.types {
		fmt.Fprintf(&b, "\t\t<server type=\"%s\" limit=\"%d\" bootupTime=\"%d\" hourlyRate=\"%s\" cores=\"%d\" memory=\"%d\" disk=\"%d\" />\n",
			t.Name, t.Limit, t.BootupTime, protocol.FormatRate(rate32(t.HourlyRate)), t.Cores, t.Memory, t.Disk)
	}
	b.WriteString("\t</servers>\n</system>\n")
	return b.Bytes()
}

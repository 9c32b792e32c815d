package servertypes

import (
	"bytes"
	"fmt"
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
// bootupTime, hourlyRate, cores, memory and disk are all required. Errors
// name the source, the element (1-based) and the attribute.
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
	if t.HourlyRate, err = strconv.ParseFloat(v, 64); err != nil {
		return t, fmt.Errorf("type %q: attribute hourlyRate=%q is not a number", t.Name, v)
	}
	return t, nil
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
// boot times or rates: they are 0 here, so strategies that price servers
// need ds-system.xml.
func FromServers(recs []protocol.Server) (*System, error) {
	var types []Type
	pos := map[string]int{}
	for _, r := range recs {
		i, ok := pos[r.Type]
		if !ok {
			i = len(types)
			pos[r.Type] = i
			types = append(types, Type{Name: r.Type})
		}
		t := &types[i]
		t.Limit = max(t.Limit, r.ID+1)
		t.Cores, t.Memory, t.Disk = max(t.Cores, r.Cores), max(t.Memory, r.Memory), max(t.Disk, r.Disk)
	}
	return New("GETS All", types)
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
		fmt.Fprintf(&b, "\t\t<server type=\"%s\" limit=\"%d\" bootupTime=\"%d\" hourlyRate=\"%.2f\" cores=\"%d\" memory=\"%d\" disk=\"%d\" />\n",
			t.Name, t.Limit, t.BootupTime, float64(float32(t.HourlyRate)), t.Cores, t.Memory, t.Disk)
	}
	b.WriteString("\t</servers>\n</system>\n")
	return b.Bytes()
}

package swf

import (
	"bytes"
	"encoding/xml"
	"os"
	"slices"
	"strings"
)

// Setting is one attribute of a servers config that a run of the config
// itself would use but a conversion leaves behind (only the <server>
// elements are copied, see ReadServers).
type Setting struct {
	Element, Attr, Value string
}

// String is the setting as written in the config: <jobs file="j.xml">.
func (s Setting) String() string { return "<" + s.Element + " " + s.XMLAttr() + ">" }

// XMLAttr is the attribute as XML writes it, name="value", the value
// escaped as XML escapes text (a quote as &#34;, a newline as &#xA;):
// messages show settings as the XML they came from, so a value with a
// quote or a newline shows as one attribute, on one line, and what they
// advise adding to a config can be copied into it as it stands.
func (s Setting) XMLAttr() string { return XMLAttr(s.Attr, s.Value) }

// XMLAttr is name="value" with the value escaped as XML escapes text.
func XMLAttr(name, value string) string {
	var b strings.Builder
	b.WriteString(name + `="`)
	_ = xml.EscapeText(&b, []byte(value)) // a strings.Builder does not fail
	b.WriteString(`"`)
	return b.String()
}

// Failures says whether the setting makes servers fail (failureModel or
// failureFile on <servers>): a conversion has no failures, so dropping it
// changes what the run means, not only how it is set up.
func (s Setting) Failures() bool {
	return s.Element == "servers" && (s.Attr == "failureModel" || s.Attr == "failureFile")
}

// leftBehind are the attributes UnusedSettings reports, by element: what
// would count in a run of the servers config (ds-server.md §2.2, §2.3,
// §2.7). Job types, workload and conditions are not listed: every config
// generating jobs has them, and the trace's jobs replace them as plainly
// as a job file would (§2.7).
var leftBehind = map[string][]string{
	"config":  {"randomSeed", "newline"},
	"servers": {"failureModel", "failureFile"},
	"jobs":    {"file"},
}

// UnusedSettings lists the settings of the servers config at path that a
// conversion does not carry (its job file, failures, seed and newline
// framing), in document order, an element's attributes as written, so
// that a caller running the trace on that config's servers can say so.
// newline counts only as "true", the one value ds-server acts on. A file
// that cannot be read or parsed gives what was found before the fault:
// ReadServers reports the fault itself.
func UnusedSettings(path string) []Setting {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	var out []Setting
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		for _, a := range se.Attr { // as written: messages show them so
			name := a.Name.Local
			if a.Name.Space == "" && slices.Contains(leftBehind[se.Name.Local], name) && (name != "newline" || a.Value == "true") {
				out = append(out, Setting{se.Name.Local, name, a.Value})
			}
		}
	}
}

package simconfig

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// cfgXMLDecoder returns a strict decoder. Declared charsets are passed
// through unchanged (ds-server's files are UTF-8; a Latin-1 file then fails
// the UTF-8 check with a clear message instead of a charset error).
func cfgXMLDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.Strict = true
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	return d
}

// cfgXMLErr turns an encoding/xml error into a line and a message.
func cfgXMLErr(err error, line int) (int, string) {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Line, "malformed XML: " + se.Msg
	}
	return line, "malformed XML: " + err.Error()
}

// cfgMaxDepth is how deep elements may nest: etree's limit (1024), which
// no config comes near (ds-server's libxml2 allows 256 by default).
const cfgMaxDepth = 1024

// cfgXMLWellFormed checks what encoding/xml lets through but a real XML
// parser (ds-server uses libxml2) refuses: more than one root element, no
// root at all, text outside the root, and repeated attributes; and
// elements nested deeper than etree reads. It returns
// the line and a message, or 0 and "" when the document is well formed.
// The decoder must be positioned at the start of the document; tokens are
// consumed. Callers that need the elements parse the data again (etree).
func cfgXMLWellFormed(data []byte) (int, string) {
	d := cfgXMLDecoder(bytes.NewReader(data))
	depth, roots := 0, 0
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return cfgXMLErr(err, line)
		}
		if l, msg := cfgXMLTokenCheck(tok, depth, &roots); msg != "" {
			if l == 0 {
				l = line
			}
			return l, msg
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth++; depth > cfgMaxDepth {
				// etree, which reads the document next, refuses it
				// without a line ("line 0"): say where.
				return line, fmt.Sprintf("malformed XML: elements nested more than %d deep", cfgMaxDepth)
			}
		case xml.EndElement:
			depth--
		}
	}
	if roots == 0 {
		return 1, "malformed XML: no root element"
	}
	return 0, ""
}

// cfgXMLTokenCheck applies the well-formedness rules of cfgXMLWellFormed to
// one token seen at the given depth (0 = outside the root).
func cfgXMLTokenCheck(tok xml.Token, depth int, roots *int) (int, string) {
	switch t := tok.(type) {
	case xml.StartElement:
		if depth == 0 {
			*roots++
			if *roots > 1 {
				return 0, fmt.Sprintf("malformed XML: a second root element <%s>", t.Name.Local)
			}
		}
		for i := range t.Attr {
			for j := 0; j < i; j++ {
				if t.Attr[i].Name == t.Attr[j].Name {
					return 0, fmt.Sprintf("malformed XML: attribute %s repeated in <%s>", t.Attr[i].Name.Local, t.Name.Local)
				}
			}
		}
	case xml.CharData:
		if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
			return 0, "malformed XML: text outside the root element"
		}
	}
	return 0, ""
}

// cfgElementLine is the line of the k-th (1-based, document order) element
// named tag in data, 0 when there is none: etree, which the loader reads
// the document with, keeps no line numbers.
func cfgElementLine(data []byte, tag string, k int) int {
	d := cfgXMLDecoder(bytes.NewReader(data))
	for n := 0; ; {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err != nil {
			return 0
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == tag {
			if n++; n == k {
				return line
			}
		}
	}
}

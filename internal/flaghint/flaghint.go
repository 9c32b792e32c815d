// Package flaghint adds the nearest flag to pflag's refusal of an unknown
// one ("unknown flag: --plot; did you mean --plots?"), for every command
// line of the project, as every other misspelt name gets a did-you-mean.
package flaghint

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// Error is err, pflag's error from fs.Parse, with the nearest of fs's long
// flag names when err refuses an unknown long flag; err itself otherwise.
func Error(fs *pflag.FlagSet, err error) error {
	const prefix = "unknown flag: --"
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return err
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(msg, prefix), "=")
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if near := didyoumean.Nearest(name, names); near != "" {
		return fmt.Errorf("%w; did you mean --%s?", err, near)
	}
	return err
}

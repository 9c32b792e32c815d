package strategies

import (
	"fmt"
	"strings"

	"github.com/dssim-go/dssim-go/protocol/didyoumean"
)

// UnknownStrategy is the error for a name no registered strategy has:
// "unknown strategy "wray": did you mean wary? (known: …; a new strategy
// package must be imported by the command's main: strategies/all/all.go in
// this module)", or a module's own main (docs/strategy-kit.md, "A strategy in your own
// module"). The nearest name
// catches a typo; the import note is for the other common cause, a new
// package that nothing imports and so never registers.
func UnknownStrategy(name string) error {
	names := Names()
	hint := ""
	if near := didyoumean.Nearest(name, names); near != "" {
		hint = ": did you mean " + near + "?"
	}
	return fmt.Errorf("unknown strategy %q%s (known: %s; a new strategy package must be imported by the command's main, strategies/all/all.go in this module, and the command built again)",
		name, hint, strings.Join(names, ", "))
}

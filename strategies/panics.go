package strategies

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
)

// PanicError turns the value of a recovered panic into an error that says
// where the panic began: "panic: assignment to entry in nil map (at
// mine.go:63 in example.com/x/mine.(*Mine).Job)". Call it from the deferred
// function that recovered, so that the panicking frames are still on the
// stack: the client loop and New use it, so that a strategy's bug ends its
// own run with one line naming the line, not a dsbench sweep or dsclient
// with a stack trace.
func PanicError(p any) error {
	return fmt.Errorf("panic: %v%s", p, panicSite())
}

// panicSite is " (at file.go:63 in pkg.Func)" for the first frame after
// runtime.gopanic that is neither the runtime's (a nil map's
// runtime.mapassign, say) nor this package's (Params.Int's panic on an
// undeclared parameter): the strategy's line that caused it. "" when there
// is none.
func panicSite() string {
	kit := reflect.TypeFor[Info]().PkgPath() + "."
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(f.Function, "runtime.") && !strings.HasPrefix(f.Function, kit):
			return fmt.Sprintf(" (at %s:%d in %s)", filepath.Base(f.File), f.Line, f.Function)
		}
		if !more {
			return ""
		}
	}
}

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

// panicSite is " (at file.go:63 in pkg.Func)" for the frame that caused
// the panic: the first after runtime.gopanic that is neither the runtime's
// (a nil map's runtime.mapassign), this package's (Params.Int's panic on
// an undeclared parameter) nor the standard library's (strings.Repeat with
// a negative count): the strategy's line. Failing that, the first that is
// not the runtime's or this package's; "" when there is none. A strategy
// that recovers and panics again is reported at its second panic.
func panicSite() string {
	kit := reflect.TypeFor[Info]().PkgPath() + "."
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	var fallback *runtime.Frame
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case !panicking || strings.HasPrefix(f.Function, "runtime.") || strings.HasPrefix(f.Function, kit):
		case !standardLibrary(f.Function):
			return at(f)
		case fallback == nil:
			fallback = &f
		}
		if !more {
			break
		}
	}
	if fallback == nil {
		return ""
	}
	return at(*fallback)
}

func at(f runtime.Frame) string {
	return fmt.Sprintf(" (at %s:%d in %s)", filepath.Base(f.File), f.Line, f.Function)
}

// standardLibrary says whether a function's package is the standard
// library's: its import path's first element holds no dot ("strings",
// "encoding/json"), where a module's ("github.com/…", "example.com/…")
// does. (A module named without a dot reads as standard here, and its
// frames are then the fallback.)
func standardLibrary(function string) bool {
	pkg := function
	slash := strings.LastIndexByte(pkg, '/')
	if dot := strings.IndexByte(pkg[slash+1:], '.'); dot >= 0 {
		pkg = pkg[:slash+1+dot]
	}
	first, _, _ := strings.Cut(pkg, "/")
	return !strings.Contains(first, ".")
}

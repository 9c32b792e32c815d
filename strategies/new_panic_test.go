package strategies_test

import (
	"strings"
	"testing"

	"github.com/dssim-go/dssim-go/strategies"
)

// A panic in a strategy's New (reading a parameter it did not declare,
// say) is New's error, naming the strategy and the strategy's line, not
// the kit's that panicked, nor a crash of dsclient or of a dsbench sweep.
// (An external test: the site is the first frame outside the kit.)
func TestNewRecoversPanic(t *testing.T) {
	strategies.Register(strategies.Info{Name: "reg-panics", New: func(p strategies.Params) (strategies.Strategy, error) {
		_ = p.Int("undeclared") // the line the error names
		return nil, nil
	}})
	t.Cleanup(func() { strategies.Unregister("reg-panics") })
	_, err := strategies.New("reg-panics", nil)
	if err == nil || !strings.HasPrefix(err.Error(), `strategy reg-panics: panic: strategies: reg-panics reads undeclared parameter "undeclared" (at new_panic_test.go:16 in `) {
		t.Errorf("New: %v", err)
	}
}

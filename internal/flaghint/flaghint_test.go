package flaghint

import (
	"io"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestError(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--plot", "p"}, "unknown flag: --plot; did you mean --plots?"},
		{[]string{"--plot=p"}, "unknown flag: --plot; did you mean --plots?"},
		{[]string{"--fromat", "csv"}, "unknown flag: --fromat; did you mean --format?"},
		{[]string{"--zzzzzz"}, "unknown flag: --zzzzzz"},
		{[]string{"-x"}, "unknown shorthand flag: 'x' in -x"},
		{[]string{"--format"}, "flag needs an argument: --format"},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("plots", "", "")
		fs.StringP("format", "f", "", "")
		err := fs.Parse(tc.args)
		require.Error(t, err, "%v", tc.args)
		assert.Equal(t, tc.want, Error(fs, err).Error(), "%v", tc.args)
	}
}

package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/sources"
)

// Expand is the cartesian product, with the transform in the row name and
// the result's columns.
func TestExpandAndColumns(t *testing.T) {
	srcs := sources.Expand(sources.Suite()[:1], []float64{0.5, 1}, []float64{0, 100})
	require.Len(t, srcs, 4)
	base := sources.Suite()[0].Name
	assert.Equal(t, base+" af=0.5 inacc=0", srcs[0].Name)
	assert.Equal(t, base+" af=1 inacc=100", srcs[3].Name)
	var r Result
	r.SetTransform(srcs[1])
	require.NotNil(t, r.ArrivalFactor)
	require.NotNil(t, r.Inaccuracy)
	assert.Equal(t, [3]any{base, 0.5, 100.0}, [3]any{r.Base, *r.ArrivalFactor, *r.Inaccuracy})
	assert.Len(t, sources.Expand(sources.Suite()[:1], nil, []float64{25}), 1)
	assert.Equal(t, sources.Suite()[:2], sources.Expand(sources.Suite()[:2], nil, nil))
}

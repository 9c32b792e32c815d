package sources

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dssim-go/dssim-go/harness/corpus"
)

// Corpus serves the spec's configs from memory, named as writecorpus
// names their files, in the corpus's order, each loading with its job
// file found beside it; a bad spec is corpus's own error.
func TestCorpus(t *testing.T) {
	const spec = "seed=5,tiny*2,estimate:jobs=40"
	srcs, err := Corpus(spec)
	require.NoError(t, err)
	assert.Equal(t, []string{"tiny-001", "tiny-002", "estimate-001"}, Names(srcs))
	cs, err := corpus.Generate(spec)
	require.NoError(t, err)
	for i, s := range srcs {
		assert.Equal(t, cs[i].Path(), s.Path)
		require.NotNil(t, s.FS, "served from memory")
		data, err := s.ReadBeside(cs[i].Path())
		require.NoError(t, err)
		assert.Equal(t, cs[i].XML, data, s.Name)
		cfg, err := s.Load()
		require.NoError(t, err, s.Name)
		assert.Equal(t, cs[i].JobFile, cfg.JobFile, s.Name)
		if cfg.JobFile != "" {
			jobs, err := s.ReadBeside(cfg.JobFile)
			require.NoError(t, err)
			assert.Equal(t, cs[i].Jobs, jobs, "the job file beside the config")
			assert.Len(t, cfg.Jobs, 40)
		}
	}
	_, err = Corpus("seed=5,tiny*2:load=0")
	assert.ErrorContains(t, err, `corpus spec item 2 "tiny*2:load=0": load=0`)
}

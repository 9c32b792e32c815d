package memwork_test

import (
	"fmt"

	"github.com/dssim-go/dssim-go/mocksrv/memwork"
)

// The default workload and what each cluster of the f sweep offers to an
// estimator: the share of jobs whose request exceeds the small type's
// memory while their use fits it.
func ExampleWorkload_Stats() {
	w, err := memwork.Generate(memwork.Defaults())
	if err != nil {
		panic(err)
	}
	fmt.Println(w.Params)
	for _, f := range memwork.DefaultFractions {
		st := w.Stats(f)
		fmt.Printf("f=%-7g small=%5d MB  jobs=%d apps=%d over2x=%.1f%% maxratio=%.0f shrinkable=%.1f%%\n",
			f, w.Params.Cluster.SmallMemory(f), st.Jobs, st.Apps, 100*st.Over2x, st.MaxRatio, 100*st.Shrinkable)
	}
	// Output:
	// memwork seed=1 jobs=2000 apps=40 zipf=1 over=0.33 maxratio=100 jitter=0.1 collide=0 load=0.8 runmin=60 runmax=3600 count=16 cores=4 M=32000 disk=64000 boot=60 rate=0.8
	// f=0.03125 small= 1000 MB  jobs=2000 apps=40 over2x=39.6% maxratio=82 shrinkable=36.9%
	// f=0.0625  small= 2000 MB  jobs=2000 apps=40 over2x=39.6% maxratio=82 shrinkable=39.9%
	// f=0.125   small= 4000 MB  jobs=2000 apps=40 over2x=39.6% maxratio=82 shrinkable=13.1%
	// f=0.25    small= 8000 MB  jobs=2000 apps=40 over2x=39.6% maxratio=82 shrinkable=17.5%
	// f=0.5     small=16000 MB  jobs=2000 apps=40 over2x=39.6% maxratio=82 shrinkable=6.2%
	// f=1       small=32000 MB  jobs=2000 apps=40 over2x=39.6% maxratio=82 shrinkable=0.0%
}

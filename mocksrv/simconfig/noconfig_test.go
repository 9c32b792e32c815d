package simconfig

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestRandomConfigJobs: the no-configuration runs of job-generation.md
// §11.4, ds-jobs.xml by SHA-256 in both forms.
func TestRandomConfigJobs(t *testing.T) {
	cases := []struct {
		name string
		opt  LoadOptions
		jobs int
		sha  [2]string
	}{
		{"no -r", LoadOptions{}, 1000, [2]string{"7be459498c4472d230735daca959d19b99e0b96c4d6dc081775837a4ca271cb5", "e12e3e004b359a3a4a6e3678f7cc22308bc6051ccfaa4c27ec94945b664dab03"}},
		{"-r 7", LoadOptions{Seed: 7, SeedGiven: true}, 1000, [2]string{"0def5bcf02c0941b80d6b33fed7e12c475ee5d2295a79870e36d1f7283375c6e", "ba7ff021cbdeae92c4630d9556c4cf665f9ede854c3b08aabbeb4b2e35265e9d"}},
		{"-r 99 -j 300", LoadOptions{Seed: 99, SeedGiven: true, JobCount: 300, JobCountGiven: true}, 300, [2]string{"5015c91193111b4cfba325afa10765ab74b0e008a596d5f17c59a8b6c1952af6", "ccdde5d7498b99dbd7f347fe177b2a8494d4d966cba019e799208e366e6b5bbd"}},
		{"-r 5 -l 3", LoadOptions{Seed: 5, SeedGiven: true, Limit: 3, LimitGiven: true}, 1000, [2]string{"3e0a3aecf7a117f4d29143fe4eee74572d323cf0827fa59d54c8c479d45f7624", "90a8a8079b7083bb139ee1e3c63d14392946ceb5058a548fb5881b7bea2537fb"}},
		{"-r 123 -d 20000", LoadOptions{Seed: 123, SeedGiven: true, EndTime: 20000, EndTimeGiven: true}, 0, [2]string{"42273b6fd18cb86a90acc810233bda5009dbf2970af314d4e4d03c1adfba7479", "afeae4b32c61984bba6951944da48ee0e7365a249d53f20902d1e6f163fa35fb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := RandomConfig(c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !cfg.Random || cfg.Path != RandomConfigPath || !cfg.Generated {
				t.Errorf("Random %v, Path %q, Generated %v", cfg.Random, cfg.Path, cfg.Generated)
			}
			checkGenerated(t, cfg, cmp.Or(c.jobs, len(cfg.Jobs)), 0, c.sha)
		})
	}
}

// TestRandomSystem: Appendix A's seed-1 vector (limits and memory per type)
// and -l (no limit draws).
func TestRandomSystem(t *testing.T) {
	c, err := RandomConfig(LoadOptions{JobCount: 1, JobCountGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	var limits, mem []int
	for _, tp := range c.Types {
		limits, mem = append(limits, tp.Limit), append(mem, tp.Memory)
	}
	if want := []int{7, 30, 30, 30, 20, 20, 40, 7}; !slices.Equal(limits, want) {
		t.Errorf("limits %v, want %v", limits, want)
	}
	if want := []int{1000, 6000, 20000, 200000, 448000, 288000, 512000, 1792000}; !slices.Equal(mem, want) {
		t.Errorf("memory %v, want %v", mem, want)
	}
	if c.Largest().Name != "4xlarge" || c.Types[0].BootupTime != 60 || c.Types[7].HourlyRate != 12.8 {
		t.Errorf("types %v", c.Types)
	}
	c, err = RandomConfig(LoadOptions{Seed: 5, SeedGiven: true, Limit: 3, LimitGiven: true, JobCount: 1, JobCountGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	mem = mem[:0]
	for _, tp := range c.Types {
		if tp.Limit != 3 {
			t.Errorf("-l 3: %s has limit %d", tp.Name, tp.Limit)
		}
		mem = append(mem, tp.Memory)
	}
	if want := []int{2000, 12000, 12000, 8000, 80000, 992000, 1728000, 640000}; !slices.Equal(mem, want) {
		t.Errorf("-r 5 -l 3 memory %v, want %v (failure-models.md §12.6)", mem, want)
	}
}

// TestRandomConfigRefusals: -l out of range; a failure trace without a
// configuration.
func TestRandomConfigRefusals(t *testing.T) {
	for _, c := range []struct {
		opt  LoadOptions
		want string
	}{
		{LoadOptions{Limit: 0, LimitGiven: true}, "0: Out of bound! (1 - 1000); Servers per type"},
		{LoadOptions{Limit: 1001, LimitGiven: true}, "1001: Out of bound! (1 - 1000); Servers per type"},
		{LoadOptions{Failure: "trace.txt", FailureGiven: true}, "-f trace.txt: not a failure model (teragrid, nd07cpu, websites02, ldns04, pl05, g5k06); a failure trace needs a configuration file (-c)"},
	} {
		_, err := RandomConfig(c.opt)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(strings.Join(ce.Stderr, "\n"), c.want) || ce.Status != 1 {
			t.Errorf("%+v: %v; want %q", c.opt, err, c.want)
		}
	}
}

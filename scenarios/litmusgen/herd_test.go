package litmusgen

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	herdN        = flag.Int("herd.n", 0, "TestHerdRandom: number of random programs (0: the bounded default sample)")
	herdSeed     = flag.Uint64("herd.seed", 1, "TestHerdRandom: first seed")
	herdFamilies = flag.String("herd.families", "", "TestHerdRandom: families, e.g. hw or once+rmw+lock (default: all)")
	herdCPUs     = flag.Int("herd.cpus", 0, "TestHerdRandom: at most this many CPUs (default 4; 3 in the bounded sample)")
	herdInstrs   = flag.Int("herd.instrs", 0, "TestHerdRandom: at most this many instructions per CPU (default 4)")
	herdWorkers  = flag.Int("herd.workers", 2, "TestHerdRandom: programs checked at once")
	herdMin      = flag.Int("herd.minimize", 0, "TestHerdRandom: minimise up to this many failing programs per signature")
	herdGaps     = flag.Bool("herd.gaps", false, "TestHerdRandom: with -herd.minimize, minimise programs with tolerated gaps too")
	herdRegress  = flag.String("herd.regress", "", "TestHerdRandom: write minimised failing programs into this directory")
	herdSeeds    = flag.String("herd.seeds", "", "TestHerdRandom: check these seeds (comma-separated) instead of a range")
	herdTimeout  = flag.Duration("herd.timeout", 0, "per herd7 run (default 20s; 5s in the long run)")
	herdFull     = flag.Bool("herd.full", false, "run the herd7-backed tests in full (.ci/run's long lane): TestHerdRandom's whole bounded sample, every sampled cycle of TestCycleOracle, herd7 confirming TestCycleRCUVerdicts and re-checking every regression file, TestLockCyclesMatchPerfbook")
	herdMaxSkip  = flag.Int("herd.maxskip", -1, "TestHerdRandom fails when more programs than this are not compared because herd7 timed out or the machine hit a limit (-1: 2% of the programs, rounded up)")
)

// needFull skips t unless -herd.full is given: tests that only ask herd7
// about herd7 (or the generator), at seconds each, run in the long lane.
func needFull(t *testing.T, what string) {
	t.Helper()
	if !*herdFull {
		t.Skipf("%s: run with -herd.full (.ci/run's long lane)", what)
	}
}

// defaultN is how much of the bounded sample go test runs without
// -herd.full: its first seeds.
const defaultN = 12

// testHerd returns the herd7 runner, or skips the test when
// ../shared/tools/herd7 is not there.
func testHerd(t testing.TB) *Herd {
	t.Helper()
	h, err := FindHerd(".")
	if err != nil {
		t.Skipf("herd7 not available: %v", err)
	}
	h.TmpDir = t.TempDir()
	return h
}

// The bounded sample: seeds 1..boundedN with boundedConfig. Its results
// are deterministic (herd7 and the machine are), so each failing seed is
// listed with the reason, and the test fails when a listed seed passes
// or an unlisted one fails. The lead empties this list as the machine
// is fixed; a generator change that moves programs around must update
// it.
const boundedN = 150

var boundedConfig = Config{MaxCPUs: 3, MaxInstrs: 4}

var knownRandom = map[uint64]string{}

// TestHerdRandom compares the machine with herd7 on random programs. By
// default it runs the first defaultN seeds of the bounded sample, with
// -herd.full all of it; with -herd.n it is the long run and reports
// counts (it then fails only if nothing could be compared). Either way it
// fails when more than -herd.maxskip programs could not be compared.
func TestHerdRandom(t *testing.T) {
	h := testHerd(t)
	long := *herdN > 0 || *herdSeeds != ""
	cfg := boundedConfig
	n := boundedN
	if !*herdFull {
		n = defaultN
	}
	first := uint64(1)
	if long {
		cfg = Config{}
		n = max(*herdN, 0)
		first = *herdSeed
		h.Timeout = 5 * time.Second
	}
	if *herdTimeout > 0 {
		h.Timeout = *herdTimeout
	}
	if *herdFamilies != "" {
		f, err := ParseFamilies(*herdFamilies)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Families = f
	}
	if *herdCPUs > 0 {
		cfg.MaxCPUs = *herdCPUs
	}
	if *herdInstrs > 0 {
		cfg.MaxInstrs = *herdInstrs
	}
	c := &Campaign{Oracle: &Oracle{Herd: h}, Config: cfg, Workers: *herdWorkers, Minimize: *herdMin, MinimizeGaps: *herdGaps}
	for i := 0; i < n; i++ {
		c.Seeds = append(c.Seeds, first+uint64(i))
	}
	if *herdSeeds != "" {
		c.Seeds = nil
		for _, f := range strings.Split(*herdSeeds, ",") {
			s, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			c.Seeds = append(c.Seeds, s)
		}
		n = len(c.Seeds)
	}
	failing := map[uint64][]string{}
	skipped := map[uint64]string{}
	start := time.Now()
	c.Progress = func(st *Stats, r *Report) {
		seed := seedOf(r.Name)
		if r.Skipped() {
			skipped[seed] = r.Skip.Why
		}
		if sigs := signatureNames(r.Signatures()); len(sigs) > 0 {
			failing[seed] = sigs
			if long {
				t.Logf("seed %d fails: %s", seed, strings.Join(sigs, ", "))
			} else {
				t.Logf("seed %d fails: %s\n%s", seed, strings.Join(sigs, ", "), r)
			}
		}
		if long && st.Generated%500 == 0 {
			t.Logf("%d programs, %v:\n%s", st.Generated, time.Since(start).Round(time.Second), st)
		}
	}
	// Minimised programs are written as soon as they are found, so that
	// an interrupted long run keeps them.
	c.Found = func(f *Found) {
		t.Logf("minimised %s (seed %d):\n%s%s", f.Signature, f.Seed, f.Program.Source(), f.Report)
		if *herdRegress == "" {
			return
		}
		dir := *herdRegress
		if !f.Report.Failed() {
			dir = filepath.Join(dir, "gaps") // examples of tolerated gaps, for reading
		}
		path, err := WriteRegression(dir, f, "random programs")
		if err != nil {
			t.Error(err)
		}
		t.Logf("wrote %s", path)
	}
	st := c.Run(context.Background())
	t.Logf("%d seeds from %d, %v:\n%s", n, c.Seeds[0], time.Since(start).Round(time.Second), st)
	if st.Compared == 0 {
		t.Fatalf("no program could be compared")
	}
	// Programs herd7 could not finish, or the machine could not explore,
	// are not compared: a few are the price of bounded runs, more means
	// the run checked less than it says.
	maxSkip := *herdMaxSkip
	if maxSkip < 0 {
		maxSkip = (n + 49) / 50
	}
	if skips := st.HerdTimeout + st.MachineSkip; skips > maxSkip {
		t.Errorf("%d of %d programs not compared (herd7 timed out on %d, the machine skipped %d): more than -herd.maxskip %d", skips, n, st.HerdTimeout, st.MachineSkip, maxSkip)
	}
	if long {
		return
	}
	// Nearly every program must be accepted by herd7.
	if st.HerdRejected > n/50 {
		t.Errorf("herd7 rejected %d of %d programs", st.HerdRejected, n)
	}
	var seeds []uint64
	for s := range failing {
		seeds = append(seeds, s)
	}
	sort.Slice(seeds, func(i, j int) bool { return seeds[i] < seeds[j] })
	for _, s := range seeds {
		if _, ok := knownRandom[s]; !ok {
			t.Errorf("seed %d fails (%s) and is not in knownRandom", s, strings.Join(failing[s], ", "))
		}
	}
	for s, why := range knownRandom {
		if _, ok := failing[s]; ok || s >= first+uint64(n) {
			continue
		}
		if sk, ok := skipped[s]; ok {
			t.Logf("known failing seed %d (%s) could not be checked: %s", s, why, sk)
			continue
		}
		t.Errorf("seed %d passes now; remove it from knownRandom (%s)", s, why)
	}
}

// seedOf reads the seed back from a generated program's name.
func seedOf(name string) uint64 {
	var s uint64
	for _, c := range strings.TrimPrefix(name, "gen-") {
		if c < '0' || c > '9' {
			return 0
		}
		s = s*10 + uint64(c-'0')
	}
	return s
}

var herdImport = flag.String("herd.import", "", "TestImportRegression: comma-separated .litmus files (no header comment) to turn into regression files in -herd.regress")

// TestImportRegression is a tool, run by hand: it checks hand-written
// tests against herd7 and writes each as a regression file (herd7's
// states and the requirements in its header) into -herd.regress.
func TestImportRegression(t *testing.T) {
	if *herdImport == "" || *herdRegress == "" {
		t.Skip("tool: pass -herd.import=FILES -herd.regress=DIR")
	}
	o := &Oracle{Herd: testHerd(t)}
	for _, path := range strings.Split(*herdImport, ",") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".litmus")
		r := o.CheckSource(context.Background(), name, string(src))
		if r.Skipped() {
			t.Errorf("%s: %s", path, r.Skip)
			continue
		}
		t.Logf("%s", r)
		title := "smpscope agrees with herd7"
		var story []string
		for _, m := range r.Modes {
			for _, f := range m.Unsound {
				story = append(story, fmt.Sprintf("%s mode reaches %s, which herd7's %s model forbids.", m.Mode.Title(), f.State, f.Class))
			}
			for _, f := range m.Failures() {
				if !slices.Contains(m.Unsound, f) {
					story = append(story, fmt.Sprintf("%s mode misses %s, which herd7's %s model allows.", m.Mode.Title(), f.State, m.Model))
				}
			}
		}
		if len(story) > 0 {
			title = "smpscope disagrees with herd7"
		}
		story = append(story, "Written by hand; herd7 states recorded by litmusgen.")
		out := RegressionFromSource(name, string(src), r, Requirements(r), title, story)
		dst := filepath.Join(*herdRegress, name+".litmus")
		if err := os.WriteFile(dst, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", dst)
	}
}

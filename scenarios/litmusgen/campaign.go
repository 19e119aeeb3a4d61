package litmusgen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"smpscope/machine"
)

// Campaign checks the random programs of a range of seeds against herd7.
type Campaign struct {
	Oracle *Oracle
	Config Config
	// Seeds are checked in order; Workers at a time (default 2).
	Seeds   []uint64
	Workers int
	// Minimize, when > 0, minimises up to that many failing programs per
	// signature (Report.Signature) and keeps them in Found.
	Minimize int
	// MinimizeGaps minimises programs with tolerated gaps too (by
	// Report.Kinds), to check that the gap classification is right.
	MinimizeGaps bool
	// Progress, if set, is called after each program, and Found after
	// each minimised program (from one goroutine at a time).
	Progress func(st *Stats, r *Report)
	Found    func(f *Found)
}

// Stats are a campaign's counts.
type Stats struct {
	Generated int
	// Accepted: herd7 accepted the program under all three models.
	Accepted     int
	HerdRejected int
	HerdTimeout  int
	// Compared: accepted, and smpscope compiled and fully explored it.
	Compared    int
	MachineSkip int
	// Failed: programs with a failing finding in some mode.
	Failed int
	Modes  map[machine.Mode]*ModeStats
	// Signatures counts failing programs by Report.Signatures entry;
	// FirstSeed has the first seed of each.
	Signatures map[Signature]int
	FirstSeed  map[Signature]uint64
	// Rejections holds herd7's first complaints, by message, for fixing
	// the generator.
	Rejections map[string]int
	// Found holds the minimised failing programs, by signature.
	Found map[Signature][]*Found
	// HWNotLKMM counts programs where a hardware model allows an outcome
	// LKMM forbids (no data race), by model: such outcomes are left out
	// of the mode's target.
	HWNotLKMM map[string]int
}

// ModeStats counts one mode's comparisons.
type ModeStats struct {
	Exact int
	// Unsound: programs where the mode reaches an outcome herd7 forbids,
	// by class ("hw", "lkmm").
	Unsound        int
	UnsoundByClass map[string]int
	// Incomplete: programs where the mode misses a target outcome, by
	// gap class (a program counts once per class it shows).
	Incomplete int
	Gaps       map[string]int
}

// Found is a minimised failing program.
type Found struct {
	Seed      uint64
	Signature Signature
	Program   *Program
	Report    *Report
}

func newStats() *Stats {
	st := &Stats{Modes: map[machine.Mode]*ModeStats{}, Signatures: map[Signature]int{}, FirstSeed: map[Signature]uint64{}, Rejections: map[string]int{}, Found: map[Signature][]*Found{}, HWNotLKMM: map[string]int{}}
	for _, m := range bothModes {
		st.Modes[m] = &ModeStats{UnsoundByClass: map[string]int{}, Gaps: map[string]int{}}
	}
	return st
}

func (st *Stats) add(seed uint64, r *Report) {
	st.Generated++
	if r.Skipped() {
		switch r.Skip.Kind {
		case HerdTimedOut:
			st.HerdTimeout++
		case HerdRejected:
			st.HerdRejected++
			msg := r.Skip.Why
			if len(msg) > 160 {
				msg = msg[:160]
			}
			st.Rejections[msg]++
		default:
			st.Accepted++
			st.MachineSkip++
		}
		return
	}
	st.Accepted++
	st.Compared++
	if r.Failed() {
		st.Failed++
	}
	for _, m := range r.Modes {
		ms := st.Modes[m.Mode]
		if m.Exact() {
			ms.Exact++
		}
		if len(m.Unsound) > 0 {
			ms.Unsound++
			seen := map[string]bool{}
			for _, f := range m.Unsound {
				if !seen[f.Class] {
					seen[f.Class] = true
					ms.UnsoundByClass[f.Class]++
				}
			}
		}
		if len(m.Missing) > 0 {
			ms.Incomplete++
			seen := map[string]bool{}
			for _, f := range m.Missing {
				if !seen[f.Class] {
					seen[f.Class] = true
					ms.Gaps[f.Class]++
				}
			}
		}
	}
	for m, s := range r.HWNotLKMM {
		if len(s) > 0 {
			st.HWNotLKMM[m]++
		}
	}
	for _, s := range r.Signatures() {
		if st.Signatures[s] == 0 {
			st.FirstSeed[s] = seed
		}
		st.Signatures[s]++
	}
}

// Run checks every seed and returns the counts.
func (c *Campaign) Run(ctx context.Context) *Stats {
	st := newStats()
	workers := c.Workers
	if workers <= 0 {
		workers = 2
	}
	jobs := make(chan uint64)
	var mu sync.Mutex
	var wg sync.WaitGroup
	claimed := map[Signature]int{} // minimisations started, by signature
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range jobs {
				p := Generate(seed, c.Config)
				r := c.Oracle.Check(ctx, p)
				var found *Found
				sig, failed := r.Signature()
				if !failed && c.MinimizeGaps {
					if k := r.Kinds(); len(k) > 0 {
						sig, failed = k[0], true
					}
				}
				if failed && c.Minimize > 0 {
					mu.Lock()
					want := claimed[sig] < c.Minimize
					claimed[sig]++
					mu.Unlock()
					if want {
						found = c.Oracle.MinimizeReport(ctx, p, sig)
						found.Seed = seed
					}
				}
				mu.Lock()
				if found != nil {
					st.Found[sig] = append(st.Found[sig], found)
					if c.Found != nil {
						c.Found(found)
					}
				}
				st.add(seed, r)
				if c.Progress != nil {
					c.Progress(st, r)
				}
				mu.Unlock()
			}
		}()
	}
	for _, s := range c.Seeds {
		if ctx.Err() != nil {
			break
		}
		jobs <- s
	}
	close(jobs)
	wg.Wait()
	return st
}

// MinimizeReport shrinks p while its check keeps failing with signature
// sig, then makes the exists clause name the disagreeing outcome and
// checks the result once more.
func (o *Oracle) MinimizeReport(ctx context.Context, p *Program, sig Signature) *Found {
	keep := func(q *Program) bool {
		r := o.Check(ctx, q)
		return !r.Skipped() && slices.Contains(r.Kinds(), sig)
	}
	small := Minimize(p, keep, 0)
	r := o.Check(ctx, small)
	if st := failingState(r, sig); st != "" {
		small.Exists = StateCond(st)
		r = o.Check(ctx, small)
	}
	return &Found{Signature: sig, Program: small, Report: r}
}

// failingState returns the first outcome behind signature sig.
func failingState(r *Report, sig Signature) string {
	m := r.Mode(sig.Mode)
	if m == nil {
		return ""
	}
	fs := m.Missing
	if sig.Unsound {
		fs = m.Unsound
	}
	for _, f := range fs {
		if f.Class == sig.Class {
			return f.State
		}
	}
	return ""
}

// WriteRegression writes a found program as dir/NAME.litmus, NAME made
// from its signature and seed, and returns the path.
func WriteRegression(dir string, f *Found, origin string) (string, error) {
	sig := f.Signature
	name := fmt.Sprintf("%s-%s-%d", sig.Mode, sig.Kind(), f.Seed)
	p := f.Program.Clone()
	p.Name = name
	title := fmt.Sprintf("%s mode disagrees with herd7 (%s)", sig.Mode.Title(), sig.Kind())
	state := failingState(f.Report, sig)
	var story []string
	if sig.Unsound {
		story = append(story, fmt.Sprintf("%s mode reaches %s, which herd7's %s model forbids.", sig.Mode.Title(), state, sig.Class))
	} else {
		story = append(story, fmt.Sprintf("%s mode misses %s, which herd7's %s model allows.", sig.Mode.Title(), state, sig.Mode))
	}
	story = append(story, fmt.Sprintf("Found by litmusgen (%s, seed %d) and minimised.", origin, f.Seed))
	src := RegressionSource(p, f.Report, Requirements(f.Report), title, story)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".litmus")
	return path, os.WriteFile(path, []byte(src), 0o644)
}

// String renders the counts as a table.
func (st *Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "generated %d, accepted by herd7 %d (rejected %d, timed out %d), compared %d (machine skipped %d), failing %d\n",
		st.Generated, st.Accepted, st.HerdRejected, st.HerdTimeout, st.Compared, st.MachineSkip, st.Failed)
	for _, m := range bothModes {
		ms := st.Modes[m]
		fmt.Fprintf(&b, "  %-3s mode: exact %d, unsound %d %v, incomplete %d %v\n", m, ms.Exact, ms.Unsound, sortedCounts(ms.UnsoundByClass), ms.Incomplete, sortedCounts(ms.Gaps))
	}
	if len(st.HWNotLKMM) > 0 {
		fmt.Fprintf(&b, "  hardware model allows what LKMM forbids: %v programs\n", sortedCounts(st.HWNotLKMM))
	}
	var sigs []Signature
	for s := range st.Signatures {
		sigs = append(sigs, s)
	}
	for _, s := range sortSignatures(sigs) {
		fmt.Fprintf(&b, "  failing %-28s %5d programs (first seed %d)\n", s, st.Signatures[s], st.FirstSeed[s])
	}
	for msg, n := range st.Rejections {
		fmt.Fprintf(&b, "  herd7 rejected %d: %s\n", n, msg)
	}
	return b.String()
}

func sortedCounts(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

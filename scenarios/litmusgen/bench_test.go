package litmusgen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"smpscope/machine"
)

// benchFamilies are issue 10's families at a few sizes: links and shape,
// or a lock cycle.
func benchFamilies() []struct{ name, src string } {
	var out []struct{ name, src string }
	add := func(name, src string, err error) {
		if err != nil {
			panic(err)
		}
		out = append(out, struct{ name, src string }{name, src})
	}
	for _, links := range []string{"G+G+B", "G+G+G+B", "G+G+G+B+B", "R+R+B+B+B", "G+R+G+R+B+B+B"} {
		for _, sh := range []string{"RW", "WR"} {
			src, err := Cycle(links, sh)
			add(sh+"/"+links, src, err)
		}
	}
	// Every CPU in a grace period, each writing first: the family that
	// postponed stores brought from millions of states to tens of
	// thousands.
	for _, links := range []string{"G+G+G+G+G", "G+G+G+G+G+G+G"} {
		src, err := Cycle(links, "WW")
		add("WW/"+links, src, err)
	}
	for n := 2; n <= 5; n++ {
		src, err := LockCycle(n, "WR", "")
		add(fmt.Sprintf("lock-WR/%d", n), src, err)
	}
	for _, v := range []string{"C", "X"} {
		src, err := LockCycle(4, "WR", v)
		add("lock-WR-"+v+"/4", src, err)
	}
	// Issue 24: perfbook's 6-CPU lock cycles (explored here without the
	// filter's pruning, as the UI does) and the relaxed load-buffering
	// ring, whose CPUs each touch only their neighbours' lines.
	for _, v := range []string{"C", "X"} {
		src, err := LockCycle(6, "WR", v)
		add("lock-WR-"+v+"/6", src, err)
	}
	for n := 6; n <= 8; n++ {
		src, err := Cycle(strings.TrimSuffix(strings.Repeat("O+", n), "+"), "RW")
		add(fmt.Sprintf("LB-ring/%d", n), src, err)
	}
	return out
}

// BenchmarkCycles explores the cycle families in both modes, one
// exploration per iteration, reporting states and the explorer's own
// peak memory estimate per state (issue 10). Each run stops at 10 s, reported
// as a failed metric (states then counts what was done).
//
//	go test ./scenarios/litmusgen -run '^$' -bench Cycles -benchtime 1x
func BenchmarkCycles(b *testing.B) {
	for _, f := range benchFamilies() {
		c, err := Compile(f.name, f.src)
		if err != nil {
			b.Fatal(err)
		}
		n := len(c.Program.Threads)
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			name := fmt.Sprintf("%s/N=%d/%s", strings.ReplaceAll(f.name, "+", ""), n, mode)
			b.Run(name, func(b *testing.B) {
				benchExplore(b, machine.MustNew(c.Program, mode))
			})
		}
	}
}

// BenchmarkGrace explores issue 24's class (GraceFamilies) in both modes,
// one exploration per iteration, reporting states and the explorer's
// peak memory per state; each run stops at 10 s (reported as the metric
// "incomplete", states then counts what was done). State counts do not
// depend on the machine's load, times do.
//
//	go test ./scenarios/litmusgen -run '^$' -bench Grace -benchtime 1x
func BenchmarkGrace(b *testing.B) {
	for _, f := range GraceFamilies() {
		c, err := Compile(f.Name, f.Src)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			// "+" would be a regular expression operator in -bench; "_"
			// keeps G+G+R+R+R+R and GG+R+R+R+R apart.
			b.Run(fmt.Sprintf("%s/%s", strings.TrimPrefix(strings.ReplaceAll(f.Name, "+", "_"), "C-gp-"), mode), func(b *testing.B) {
				r := benchExplore(b, machine.MustNew(c.Program, mode))
				if r.States > 0 {
					b.ReportMetric(float64(r.Transitions)/float64(r.States), "succ/state")
				}
			})
		}
	}
}

// benchExplore explores m once per iteration (no witnesses, stopping at
// 10 s) and reports the states, the peak bytes per state and, for a search
// that stopped, the metric "incomplete"; it returns the last result.
func benchExplore(b *testing.B, m *machine.Machine) *machine.Result {
	var r *machine.Result
	for i := 0; i < b.N; i++ {
		r = machine.Explore(m, machine.Options{NoWitnesses: true, Timeout: 10 * time.Second})
	}
	b.ReportMetric(float64(r.States), "states")
	if r.Pairs > 0 {
		b.ReportMetric(float64(r.Pairs), "pairs")
	}
	if r.States > 0 {
		b.ReportMetric(float64(r.PeakBytes)/float64(r.States), "B/state")
	}
	if !r.Complete {
		b.ReportMetric(1, "incomplete")
	}
	return r
}

// lockCycleFiles are perfbook's -C and -X lock cycles (the lock taken by
// cmpxchg_acquire or xchg_acquire, whose failure the filter rejects), 2 to
// 5 CPUs, from the shared corpus, and the same shape at 6 CPUs from
// LockCycle.
func lockCycleFiles(b *testing.B) []struct{ name, src string } {
	var out []struct{ name, src string }
	files, _ := filepath.Glob("../../../shared/litmus/public/perfbook/C-SB+l-o-o-u*-[CX].litmus")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, struct{ name, src string }{strings.TrimSuffix(filepath.Base(f), ".litmus"), string(src)})
	}
	for _, v := range []string{"C", "X"} {
		src, err := LockCycle(6, "WR", v)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, struct{ name, src string }{"gen6-" + v, src})
	}
	return out
}

// BenchmarkLockCyclesUnpruned explores the lock cycles (lockCycleFiles)
// in both modes as the UI does (model.DefaultExploreOptions' limits, with
// witnesses, no filter pruning: "full") and as check does (the filter's
// pruning, no witnesses: "pruned"), one exploration per iteration,
// reporting states; each run stops at 20 s ("incomplete").
//
//	go test ./scenarios/litmusgen -run '^$' -bench LockCyclesUnpruned -benchtime 1x -benchmem
func BenchmarkLockCyclesUnpruned(b *testing.B) {
	for _, f := range lockCycleFiles(b) {
		c, err := Compile(f.name, f.src)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.ReplaceAll(strings.TrimPrefix(f.name, "C-SB+"), "+", "")
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			for _, full := range []bool{true, false} {
				how := "pruned"
				opts := machine.Options{MaxStates: 5_000_000, MaxMemory: 768 << 20, Timeout: 20 * time.Second}
				if full {
					how = "full"
				} else {
					opts.NoWitnesses = true
					opts.Prune = c.FilterPrune()
				}
				b.Run(fmt.Sprintf("%s/%s/%s", name, mode, how), func(b *testing.B) {
					m := machine.MustNew(c.Program, mode)
					var r *machine.Result
					for i := 0; i < b.N; i++ {
						r = machine.Explore(m, opts)
					}
					b.ReportMetric(float64(r.States), "states")
					if r.Pairs > 0 {
						b.ReportMetric(float64(r.Pairs), "pairs")
					}
					b.ReportMetric(float64(len(r.Outcomes)), "outcomes")
					if !r.Complete {
						b.ReportMetric(1, "incomplete")
					}
				})
			}
		}
	}
}

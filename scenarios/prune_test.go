package scenarios

import (
	"flag"
	"os"
	"strings"
	"testing"

	"smpscope/machine"
)

// Tests with filters written for these checks: a filter on registers
// decided early, one on a register and a location (a location is never
// settled before the end), one through a branch, and ones whose filter
// keeps everything or nothing.
var pruneCases = map[string]string{
	"lock-xchg": `C lock-xchg
{}
P0(int *x, int *y, int *l) { int r0; int r1; r0 = xchg_acquire(l, 1); WRITE_ONCE(*x, 1); r1 = READ_ONCE(*y); smp_store_release(l, 0); }
P1(int *x, int *y, int *l) { int r0; int r1; r0 = xchg_acquire(l, 1); WRITE_ONCE(*y, 1); r1 = READ_ONCE(*x); smp_store_release(l, 0); }
filter (0:r0=0 /\ 1:r0=0)
exists (0:r1=0 /\ 1:r1=0)`,
	"reg-and-loc": `C reg-and-loc
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); WRITE_ONCE(*x, 2); }
filter (0:r0=0 \/ x=2)
exists (0:r0=0 /\ 1:r0=0)`,
	"branch": `C branch
{}
P0(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x); if (r0) { r1 = READ_ONCE(*y); } else { r1 = 5; } }
P1(int *x, int *y) { WRITE_ONCE(*y, 1); smp_wmb(); WRITE_ONCE(*x, 1); }
filter (0:r1=0 \/ 0:r1=5)
exists (0:r0=1 /\ 0:r1=0)`,
	"not-implies": `C not-implies
{}
P0(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x); r1 = READ_ONCE(*y); }
P1(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); }
filter (~(0:r0=1) => 0:r1=0)
exists (0:r0=0 /\ 0:r1=0)`,
	"needs-later-value": `C needs-later-value
{}
P0(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x); r1 = READ_ONCE(*y); }
P1(int *x, int *y) { WRITE_ONCE(*y, 1); smp_wmb(); WRITE_ONCE(*x, 1); }
filter (0:r0=1)
exists (0:r1=0)`,
	"keeps-nothing": `C keeps-nothing
{}
P0(int *x) { int r0; r0 = READ_ONCE(*x); }
P1(int *x) { WRITE_ONCE(*x, 1); }
filter (0:r0=7)
exists (0:r0=0)`,
}

func parseSpec(name string, src []byte) (*Spec, error) {
	s, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	return compileSpec(s, name)
}

// pruneFull bounds the full search TestFilterPruneKeepsVerdicts compares
// with: the 4-CPU lock cycles take under 50,000 states, the 5-CPU ones
// 293,151 (TSO) and more than 300,000 (ARM), seconds each; .ci/run's long
// lane gives 300000.
var pruneFull = flag.Int("prune.maxstates", 50_000, "TestFilterPruneKeepsVerdicts: largest full search compared with the pruned one")

// Pruning on a filter changes no verdict: on the cases above, the
// corpus files with a filter and the perfbook-style lock cycles, in both
// modes, the verdict and its counts (but Filtered) are those of the full search, which
// the pruned one reaches in no more states (than the full search
// without symmetry, which a Prune turns off).
func TestFilterPruneKeepsVerdicts(t *testing.T) {
	specs := map[string]*Spec{}
	for name, src := range pruneCases {
		sp, err := parseSpec(name+".litmus", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		specs[name] = sp
	}
	if _, err := os.Stat(corpusDir); err == nil {
		for _, f := range corpusFiles(t) {
			src, err := os.ReadFile(f)
			if err != nil || !strings.Contains(string(src), "filter") {
				continue
			}
			if sp, err := parseSpec(f, src); err == nil && sp.Prune() != nil {
				specs[f] = sp
			}
		}
	}
	for name, sp := range specs {
		if sp.Prune() == nil {
			t.Errorf("%s: a filter but no Prune", name)
			continue
		}
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			m, err := sp.Machine(mode)
			if err != nil {
				t.Fatal(err)
			}
			full := machine.Explore(m, machine.Options{NoWitnesses: true, MaxStates: *pruneFull})
			if !full.Complete {
				t.Logf("%s %s: the full search takes more than -prune.maxstates %d states; not compared", name, mode, *pruneFull)
				continue
			}
			pruned := machine.Explore(m, machine.Options{NoWitnesses: true, Prune: sp.Prune()})
			got, want := sp.Verdict(pruned), sp.Verdict(full)
			got.Filtered, want.Filtered = 0, 0 // a pruned search never sees most of what the filter drops
			if got != want {
				t.Errorf("%s %s: pruned %+v, full %+v", name, mode, got, want)
			}
			// In no more states than the same search that prunes nothing
			// (a Prune that never prunes: like the pruned one, it keys
			// no state by its orbit, which the full search may).
			same := machine.Explore(m, machine.Options{NoWitnesses: true, MaxStates: *pruneFull, Prune: func(*machine.State) bool { return false }})
			if same.Complete && pruned.States > same.States {
				t.Errorf("%s %s: pruned search took %d states, the full one %d", name, mode, pruned.States, same.States)
			}
		}
	}
	if sp := specs["lock-xchg"]; sp != nil {
		m, _ := sp.Machine(machine.ARM)
		if r := machine.Explore(m, machine.Options{Prune: sp.Prune()}); r.Pruned == 0 {
			t.Errorf("lock-xchg: nothing pruned, though a failed xchg_acquire settles the filter")
		}
	}
}

package scenarios

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

func attempt(t *testing.T, name string, mode machine.Mode) *Execution {
	t.Helper()
	sp, err := BuiltinSpec(name)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := WitnessOrAttempt(sp, mode, machine.Options{})
	if err != nil {
		t.Fatalf("%s %s: %v", name, mode, err)
	}
	return ex
}

// TestClosestAttemptMP: mp+wmb-rmb in ARM-like mode goes as far as
// 1:r0=1, and the invalidation of x waits until smp_rmb needs it, so P1
// is seen waiting at the barrier; the reason names both barriers.
func TestClosestAttemptMP(t *testing.T) {
	ex := attempt(t, "mp+wmb-rmb", machine.ARM)
	a := ex.Attempt
	if a == nil {
		t.Fatal("no attempt for an unreachable outcome")
	}
	last := ex.Last()
	if !ex.Mach.Final(last) || ex.Spec.Asked(ex.Mach.Outcome(last)) {
		t.Fatal("the attempt does not end in a final state short of the outcome")
	}
	if got := strings.Join(partTexts(a.Parts), " "); got != "1:r0=1 1:r1=0" || !slices.Equal(a.Held, []bool{true, false}) {
		t.Errorf("parts %s held %v", got, a.Held)
	}
	waited := false
	for _, b := range a.Blocks {
		if b.CPU == 1 && strings.Contains(b.Reason, "smp_rmb") {
			waited = true
			// The next step applies the invalidation the barrier waits for.
			if st := ex.Steps[b.At]; st.Kind != machine.StepInvalidate || ex.Mach.ID(st) != "P1 inv x" {
				t.Errorf("after P1 waits at step %d the next step is %s", b.At, ex.Mach.ID(st))
			}
		}
	}
	if !waited {
		t.Errorf("P1 never waits at smp_rmb: %+v", a.Blocks)
	}
	for _, want := range []string{"smp_wmb() (P0:2)", "smp_rmb() (P1:2)", "without either of them, ARM-like mode reaches it"} {
		if !strings.Contains(a.Because, want) {
			t.Errorf("because %q lacks %q", a.Because, want)
		}
	}
	ss := strings.Join(a.Sentences(), " ")
	for _, want := range []string{"It reaches 1:r0=1 of the outcome asked for, but not 1:r1=0.", "This is as far as it gets: the outcome is unreachable because of smp_wmb()"} {
		if !strings.Contains(ss, want) {
			t.Errorf("sentences lack %q:\n%s", want, ss)
		}
	}
	if !strings.HasPrefix(ex.Origin, "Closest attempt at exists (1:r0=1 /\\ 1:r1=0)") {
		t.Errorf("origin %q", ex.Origin)
	}
}

// TestClosestAttemptReasons: why each is unreachable, in the words for
// each kind of reason.
func TestClosestAttemptReasons(t *testing.T) {
	for _, c := range []struct {
		name string
		mode machine.Mode
		want string
	}{
		{"mp+once", machine.TSO, "TSO mode keeps these accesses in order"},
		{"sb+mb", machine.ARM, "of smp_mb() (P0:2)"},
		{"rcu-free+sync", machine.ARM, "of the RCU grace period: no barrier, acquire or release is needed"},
		{"ext4-last-group+lock", machine.ARM, "of the spin lock"},
		{"corr+once", machine.ARM, "of ARM-like mode's own rules, such as coherence"},
	} {
		ex := attempt(t, c.name, c.mode)
		if ex.Attempt == nil || !strings.Contains(ex.Attempt.Conclusion(), c.want) {
			t.Errorf("%s %s: %+v, want %q", c.name, c.mode, ex.Attempt, c.want)
		}
	}
}

// TestWitnessOrAttempt: a reachable outcome gives its shortest witness;
// a search stopped at a limit gives no attempt but a NoWitnessError.
func TestWitnessOrAttempt(t *testing.T) {
	ex := attempt(t, "mp+once", machine.ARM)
	if ex.Attempt != nil || !ex.Spec.Asked(ex.Mach.Outcome(ex.Last())) {
		t.Errorf("mp+once: attempt %v", ex.Attempt)
	}
	sp, _ := BuiltinSpec("mp+wmb-rmb")
	_, err := WitnessOrAttempt(sp, machine.ARM, machine.Options{MaxStates: 3})
	var nw *NoWitnessError
	if !errors.As(err, &nw) || nw.Unreachable() {
		t.Errorf("limited search: %v", err)
	}
}

// TestLateSteps: on every Never scenario of the library, in both modes,
// there is a closest attempt, and none of its commits, invalidations or
// quiescent-state reports could move past an instruction after it and
// still end in the same outcome.
func TestLateSteps(t *testing.T) {
	lib, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range lib {
		if e.Result != syntax.Never {
			continue
		}
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			ex := attempt(t, e.Name, mode)
			if ex.Attempt == nil {
				t.Errorf("%s %s: no attempt", e.Name, mode)
				continue
			}
			n++
			m := ex.Mach
			end := ex.Last()
			for i := 0; i+1 < len(ex.Steps); i++ {
				if !deferred(ex.Steps[i].Kind) {
					continue
				}
				k := i + 1
				for k < len(ex.Steps) && deferred(ex.Steps[k].Kind) {
					k++
				}
				if k == len(ex.Steps) {
					continue
				}
				moved := append(append(append(slices.Clone(ex.Steps[:i]), ex.Steps[i+1:k+1]...), ex.Steps[i]), ex.Steps[k+1:]...)
				_, last, ok := looseReplay(m, moved)
				if ok && m.Final(last) && m.Final(end) && m.Outcome(last).Key() == m.Outcome(end).Key() {
					t.Errorf("%s %s: step %d (%s) could still move past %s", e.Name, mode, i+1, m.ID(ex.Steps[i]), m.ID(ex.Steps[k]))
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d attempts checked", n)
	}
}

func partTexts(ps []Clause) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Cond)
	}
	return out
}

// TestAskedParts: the parts of exists are its conjuncts; of forall, its
// disjuncts negated.
func TestAskedParts(t *testing.T) {
	for _, c := range []struct{ final, want string }{
		{`exists (0:r0=1 /\ (1:r0=0 /\ x=2))`, "0:r0=1|1:r0=0|x=2"},
		{`exists (0:r0=1 \/ 1:r0=0)`, `0:r0=1 \/ 1:r0=0`},
		{`forall (0:r0=1 \/ 1:r0=0)`, "~0:r0=1|~1:r0=0"},
		{`~exists (0:r0=1 /\ 1:r0=0)`, "0:r0=1|1:r0=0"},
	} {
		src := "C t\n{}\nP0(int *x) { int r0; r0 = READ_ONCE(*x); }\nP1(int *x) { int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*x, 2); }\n" + c.final + "\n"
		s, err := Parse("t.litmus", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := Compile(s)
		if err != nil {
			t.Fatal(err)
		}
		sp := NewSpec(cs)
		if got := strings.Join(partTexts(sp.Parts), "|"); got != c.want {
			t.Errorf("%s: parts %q, want %q", c.final, got, c.want)
		}
	}
}

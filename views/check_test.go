package views

import (
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
)

// condSpec is a two-thread scenario with the given clauses.
func condSpec(t *testing.T, clauses string) *scenarios.Spec {
	t.Helper()
	sp, err := scenarios.Resolve("-", strings.NewReader(condScenario(clauses)))
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func condScenario(clauses string) string {
	return "C cond\n{ int *p=y; }\n" +
		"P0(int *x, int *y, int **p) { int r0; int r1; r0 = READ_ONCE(*x); r1 = READ_ONCE(*y); }\n" +
		"P1(int *x, int *y) { int *r0; int r1; r0 = x; r1 = READ_ONCE(*y); }\n" + clauses + "\n"
}

// outcome is P0's r0 and r1, P1's r0 and r1, then memory: p, x, y.
func outcome(regs [4]machine.Value, mem [3]machine.Value) machine.Outcome {
	return machine.Outcome{Regs: [][]machine.Value{regs[:2], regs[2:]}, Mem: mem[:]}
}

func TestHerdReport(t *testing.T) {
	sp := condSpec(t, "locations [1:r1; y]\nfilter (x=1)\nexists (0:r0=1 /\\ 1:r0=x)")
	px, py := machine.PtrTo(1), machine.PtrTo(2)
	outs := []machine.Outcome{
		outcome([4]machine.Value{1, 0, px, 0}, [3]machine.Value{py, 1, 1}),
		outcome([4]machine.Value{1, 1, px, 0}, [3]machine.Value{py, 1, 1}), // same shown state as the first: counted once, as herd7 does
		outcome([4]machine.Value{0, 0, px, 1}, [3]machine.Value{py, 1, 0}),
		outcome([4]machine.Value{0, 0, px, 1}, [3]machine.Value{py, 0, 0}), // filtered out
	}
	got := HerdReport(sp, outs)
	want2 := `Test cond Allowed
States 2
0:r0=0; 1:r0=x; 1:r1=1; y=0;
0:r0=1; 1:r0=x; 1:r1=0; y=1;
Ok
Witnesses
Positive: 1 Negative: 1
Filter (x=1)
Condition exists (0:r0=1 /\ 1:r0=x)
Observation cond Sometimes 1 1
`
	if got != want2 {
		t.Errorf("HerdReport:\n%s\nwant:\n%s", got, want2)
	}
	if !strings.Contains(HerdReport(condSpec(t, "~exists (x=1)"), nil), "Test cond Forbidden") {
		t.Errorf("~exists is not reported as Forbidden")
	}
	// herd7 prints the proposition in parentheses even when the file
	// does not.
	if got := HerdReport(condSpec(t, "forall 0:r0=0"), nil); !strings.Contains(got, "Condition forall (0:r0=0)\n") {
		t.Errorf("unparenthesised condition:\n%s", got)
	}
}

package scenarios

import (
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// condScenario has two threads with registers r0, r1 each and locations
// x, y, p (p initially points to y).
func condScenario(clauses string) string {
	return `C cond
{
	int *p=y;
}
P0(int *x, int *y, int **p)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*x);
	r1 = READ_ONCE(*y);
}
P1(int *x, int *y)
{
	int *r0;
	int r1;

	r0 = x;
	r1 = READ_ONCE(*y);
}
` + clauses + "\n"
}

// outcome builds an outcome for condScenario: P0's r0, r1; P1's r0, r1;
// memory p, x, y (the location order).
func outcome(p0r0, p0r1 int64, p1r0 machine.Value, p1r1, x, y int64, p machine.Value) machine.Outcome {
	return machine.Outcome{
		Regs: [][]machine.Value{{machine.Value(p0r0), machine.Value(p0r1)}, {p1r0, machine.Value(p1r1)}},
		Mem:  []machine.Value{p, machine.Value(x), machine.Value(y)},
	}
}

func TestSatisfies(t *testing.T) {
	// Location order: p (init block), x, y.
	px, py := machine.PtrTo(1), machine.PtrTo(2)
	o := outcome(1, 0, px, 0, 2, 1, py)
	tests := []struct {
		cond string
		want bool
	}{
		{`exists (0:r0=1)`, true},
		{`exists (0:r0=0)`, false},
		{`exists (0:r0=1 /\ ~(1:r1=0 \/ x=2))`, false},
		{`exists (0:r0=1 /\ ~(1:r1=1 \/ x=1))`, true},
		{`exists (0:r0=1 /\ 1:r1=0 /\ x=2 /\ y=1)`, true},
		{`exists (0:r0=2 \/ y=1)`, true},
		{`exists (1:r0=x)`, true},
		{`exists (1:r0=y)`, false},
		{`exists (p=y /\ 1:r0=x)`, true},
		{`exists (0:r1!=0)`, false},
		{`exists (0:r1==0)`, true},
		{`exists (x=-2)`, false},
		{`~exists (0:r0=1)`, true},
		{`forall (x=2)`, true},
		{`exists (true)`, true},
		{`exists (~true \/ false)`, false},
		{`exists 0:r0=1 /\ 0:r1=0`, true},
	}
	for _, tt := range tests {
		c := mustCompile(t, condScenario(tt.cond))
		if got := c.Satisfies(o); got != tt.want {
			t.Errorf("%s: Satisfies = %v, want %v", tt.cond, got, tt.want)
		}
		if !c.Filtered(o) {
			t.Errorf("%s: no filter, but Filtered is false", tt.cond)
		}
	}
}

func TestVerdict(t *testing.T) {
	px, py := machine.PtrTo(1), machine.PtrTo(2)
	outs := []machine.Outcome{
		outcome(0, 0, px, 0, 1, 1, py),
		outcome(1, 0, px, 0, 1, 1, py),
		outcome(1, 1, px, 1, 1, 1, py),
		outcome(0, 1, px, 1, 1, 1, py),
	}
	// herd7 counts distinct valuations of the shown registers and
	// locations (those the clauses name), not outcomes.
	tests := []struct {
		clauses string
		want    Verdict
	}{
		{"exists (0:r0=1 /\\ 0:r1=0)", Verdict{Observation: syntax.Sometimes, Positive: 1, Negative: 3, Validated: true}},
		{"exists (0:r0=2)", Verdict{Observation: syntax.Never, Positive: 0, Negative: 2, Validated: false}},
		{"~exists (0:r0=2)", Verdict{Observation: syntax.Never, Positive: 0, Negative: 2, Validated: true}},
		{"~exists (0:r0=1)", Verdict{Observation: syntax.Sometimes, Positive: 1, Negative: 1, Validated: false}},
		{"forall (x=1)", Verdict{Observation: syntax.Always, Positive: 1, Negative: 0, Validated: true}},
		{"forall (0:r0=1)", Verdict{Observation: syntax.Sometimes, Positive: 1, Negative: 1, Validated: false}},
		{"filter (0:r0=1)\nexists (0:r1=0)", Verdict{Observation: syntax.Sometimes, Positive: 1, Negative: 1, Filtered: 2, Validated: true}},
		{"filter (0:r0=1)\nforall (y=1)", Verdict{Observation: syntax.Always, Positive: 1, Negative: 0, Filtered: 1, Validated: true}},
		{"filter (x=0)\nexists (y=1)", Verdict{Observation: syntax.Never, Filtered: 1}},
	}
	for _, tt := range tests {
		c := mustCompile(t, condScenario(tt.clauses))
		if got := c.Verdict(outs); got != tt.want {
			t.Errorf("%q: Verdict = %+v, want %+v", tt.clauses, got, tt.want)
		}
	}
	c := mustCompile(t, condScenario("exists (0:r0=1)"))
	if v := c.Verdict(nil); v.Observation != syntax.Never || v.Validated {
		t.Errorf("no states: %+v", v)
	}
}

func TestShown(t *testing.T) {
	c := mustCompile(t, condScenario("locations [1:r1; y]\nfilter (x=1)\nexists (0:r0=1 /\\ 1:r0=x)"))
	shown := c.Shown()
	type sel struct {
		thread int
		reg    machine.Reg
		loc    machine.Loc
		isLoc  bool
	}
	want := map[sel]bool{
		{0, 0, 0, false}: true, {0, 1, 0, false}: false, {1, 0, 0, false}: true, {1, 1, 0, false}: true,
		// x only appears in the filter, which herd7 does not show.
		{0, 0, 0, true}: false /* p */, {0, 0, 1, true}: false /* x */, {0, 0, 2, true}: true, /* y */
	}
	for s, w := range want {
		if got := shown(s.thread, s.reg, s.loc, s.isLoc); got != w {
			t.Errorf("Shown(%+v) = %v, want %v", s, got, w)
		}
	}
}

func TestConditionWithTemps(t *testing.T) {
	// Outcomes carry temporaries after the declared registers; conditions
	// only see declared ones.
	c := mustCompile(t, stmtScenario("r0 = READ_ONCE(*x) + READ_ONCE(*y);"))
	if n := len(c.Program.Threads[0].Regs); n != 5 {
		t.Fatalf("%d registers", n)
	}
	o := machine.Outcome{Regs: [][]machine.Value{{0, 0, 0, 7, 7}}, Mem: make([]machine.Value, len(c.Program.Locs))}
	if !c.Satisfies(o) {
		t.Errorf("exists (0:r0=0) not satisfied by r0=0")
	}
	// A malformed outcome (fewer registers) never panics.
	if c.Satisfies(machine.Outcome{}) {
		t.Errorf("empty outcome satisfies 0:r0=0")
	}
}

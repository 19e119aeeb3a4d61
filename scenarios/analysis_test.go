package scenarios

import (
	"context"
	"errors"
	"os"
	"runtime"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

var bothModes = []machine.Mode{machine.TSO, machine.ARM}

func compiled(t *testing.T, name string) *Spec {
	t.Helper()
	s, err := Resolve(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// needs returns, per annotation ("smp_wmb() P0"), its Need in each mode.
func needs(r NecessityReport) map[string][]Need {
	out := map[string][]Need{}
	for i, a := range r.Annotations {
		var ns []Need
		for j := range r.Modes {
			ns = append(ns, r.Need(i, j))
		}
		out[a.What+" "+a.Edit.CPU] = ns
	}
	return out
}

func TestNecessityMPWmbRmb(t *testing.T) {
	r, err := Necessity(compiled(t, "mp+wmb-rmb"), bothModes, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Open(0) || !r.Open(1) {
		t.Fatalf("the outcome should be unreachable as written in both modes: %+v", r.AsWritten)
	}
	got := needs(r)
	want := []Need{NotNeeded, Needed} // TSO, ARM-like
	if len(got) != 2 {
		t.Fatalf("annotations %v, want smp_wmb and smp_rmb", got)
	}
	for _, k := range []string{"smp_wmb() P0", "smp_rmb() P1"} {
		if g := got[k]; len(g) != 2 || g[0] != want[0] || g[1] != want[1] {
			t.Errorf("%s: %v, want %v", k, g, want)
		}
	}
	for i, a := range r.Annotations {
		if v := r.Verdict(i); v != "needed in ARM-like mode, not in TSO" {
			t.Errorf("%s: verdict %q", a.What, v)
		}
		// The witness reaches the asked outcome on the weakened program,
		// and only there.
		run := a.Runs[1]
		m := machine.MustNew(a.Spec.Program, machine.ARM)
		states, _, err := m.Replay(run.Witness)
		if err != nil {
			t.Fatalf("%s: witness does not replay: %v", a.What, err)
		}
		last := states[len(states)-1]
		if !m.Final(last) || !r.Spec.Asked(m.Outcome(last)) {
			t.Errorf("%s: the witness does not end in the asked outcome", a.What)
		}
		// The answer replays with --edit: the weakened scenario is the
		// one its edits make.
		again, err := r.Spec.Edited(a.Spec.Edits...)
		if err != nil || ProgramKey(again.Program) != ProgramKey(a.Spec.Program) || EditsText(a.Spec.Edits) != a.Edit.String() {
			t.Errorf("%s: --edit %s does not give the weakened program: %v", a.What, EditsText(a.Spec.Edits), err)
		}
		// As written, the same steps either do not replay or do not
		// reach the outcome.
		orig := machine.MustNew(r.Spec.Program, machine.ARM)
		if st, _, err := orig.Replay(run.Witness); err == nil {
			if l := st[len(st)-1]; orig.Final(l) && r.Spec.Asked(orig.Outcome(l)) {
				t.Errorf("%s: the witness reaches the outcome as written too", a.What)
			}
		}
	}
	// Weakening both in TSO still leaves it unreachable; in ARM-like one
	// alone is needed, so "together" is not asked there.
	if r.Together(0) != TogetherNotNeeded || r.Together(1) != TogetherMoot {
		t.Errorf("together: TSO %v, ARM %v", r.Together(0), r.Together(1))
	}
	if r.Unknown() {
		t.Error("report says unknown")
	}
}

func TestNecessitySBMb(t *testing.T) {
	r, err := Necessity(compiled(t, "sb+mb"), bothModes, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := needs(r)
	if len(got) != 2 {
		t.Fatalf("annotations %v", got)
	}
	for k, g := range got {
		if g[0] != Needed || g[1] != Needed {
			t.Errorf("%s: %v, want needed in both modes", k, g)
		}
	}
	for i := range r.Annotations {
		if v := r.Verdict(i); v != "needed in both modes (TSO and ARM-like)" {
			t.Errorf("verdict %q", v)
		}
		for j := range r.Modes {
			if len(r.Annotations[i].Runs[j].Witness) == 0 {
				t.Errorf("annotation %d mode %d: no witness", i, j)
			}
		}
	}
	// One mode only.
	r, err = Necessity(compiled(t, "sb+mb"), []machine.Mode{machine.TSO}, machine.Options{})
	if err != nil || r.Verdict(0) != "needed in TSO mode" {
		t.Errorf("TSO only: %q, %v", r.Verdict(0), err)
	}
}

// TestNecessityBackUp: two annotations per side, each enough alone; none
// is needed on its own, all together are.
func TestNecessityBackUp(t *testing.T) {
	src, err := os.ReadFile("testdata/belt-and-braces.litmus")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("belt-and-braces.litmus", src)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Necessity(NewSpec(c), bothModes, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Annotations) != 4 || r.All == nil {
		t.Fatalf("%d annotations, all %v", len(r.Annotations), r.All != nil)
	}
	for i := range r.Annotations {
		for j := range r.Modes {
			if r.Need(i, j) != NotNeeded {
				t.Errorf("annotation %d mode %v: %v", i, r.Modes[j], r.Need(i, j))
			}
		}
	}
	if r.Together(0) != TogetherNotNeeded || r.Together(1) != TogetherNeeded {
		t.Errorf("together: TSO %v, ARM %v", r.Together(0), r.Together(1))
	}
	if len(r.All.Runs[1].Witness) == 0 {
		t.Error("no witness for all weakened together")
	}
}

func TestNecessityReachableAsWritten(t *testing.T) {
	r, err := Necessity(compiled(t, "sb+rel-acq"), bothModes, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Reachable in TSO as written: nothing can be needed there.
	if r.Open(0) || !r.Open(1) {
		t.Fatalf("open: TSO %v ARM %v", r.Open(0), r.Open(1))
	}
	for i := range r.Annotations {
		if r.Need(i, 0) != NeedMoot {
			t.Errorf("annotation %d in TSO: %v", i, r.Need(i, 0))
		}
		if r.Annotations[i].Runs[0].Stop != "" {
			t.Errorf("annotation %d was explored in TSO, where it cannot matter", i)
		}
	}
}

func TestNecessityLimitsAndCancel(t *testing.T) {
	c := compiled(t, "mp+wmb-rmb")
	r, err := Necessity(c, bothModes, machine.Options{MaxStates: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Unknown() || r.AsWritten[0].Known() {
		t.Errorf("a 2-state limit should leave the answer unknown: %+v", r.AsWritten)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Necessity(c, bothModes, machine.Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
	if _, err := Necessity(&Spec{Name: "x"}, bothModes, machine.Options{}); err == nil {
		t.Error("no program: no error")
	}
}

func TestCompareFamily(t *testing.T) {
	fam, err := FindFamily("mp")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := FindFamily("mp+once"); err != nil || again.Name != "mp" {
		t.Errorf("a scenario name selects its family: %v %v", again.Name, err)
	}
	if _, err := FindFamily("no-such"); err == nil {
		t.Error("unknown family: no error")
	}
	tb, err := CompareFamily(fam, bothModes, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"once":    {"Never 0/3", "Sometimes 1/4"},
		"wmb-rmb": {"Never 0/3", "Never 0/3"},
		"rel-acq": {"Never 0/3", "Never 0/3"},
		"mb":      {"Never 0/3", "Never 0/3"},
	}
	if len(tb.Rows) != len(want) {
		t.Fatalf("%d rows", len(tb.Rows))
	}
	for _, r := range tb.Rows {
		w := want[r.Spec.Label()]
		if r.Cells[0].Text() != w[0] || r.Cells[1].Text() != w[1] || r.Cells[1].Mode != machine.ARM {
			t.Errorf("%s: %q %q, want %q", r.Spec.Label(), r.Cells[0].Text(), r.Cells[1].Text(), w)
		}
	}
	if c, ok := tb.Condition(); !ok || c != `exists (1:r0=1 /\ 1:r1=0)` {
		t.Errorf("shared condition %q %v", c, ok)
	}
	if !tb.HasExpected() || tb.Incomplete() || tb.Deadlock() {
		t.Errorf("expected %v incomplete %v deadlock %v", tb.HasExpected(), tb.Incomplete(), tb.Deadlock())
	}

	// A limit marks cells incomplete.
	tb, _ = CompareFamily(fam, bothModes, machine.Options{MaxStates: 2})
	if !tb.Incomplete() || tb.Rows[0].Cells[0].Text()[:2] != "? " {
		t.Errorf("limited: %q", tb.Rows[0].Cells[0].Text())
	}
	// Cancelled before it starts: an error, and no cell claims to be complete.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tb, err = CompareFamily(fam, bothModes, machine.Options{Context: ctx})
	if !errors.Is(err, context.Canceled) || !tb.Incomplete() {
		t.Errorf("cancelled: %v, incomplete %v", err, tb.Incomplete())
	}
}

func TestSpecForall(t *testing.T) {
	q := &Spec{Final: &Final{Kind: syntax.Forall, Clause: Clause{Cond: "(x=1)", Holds: func(o machine.Outcome) bool { return o.Mem[0] == 1 }}}}
	if q.Asked(machine.Outcome{Mem: []machine.Value{1}}) || !q.Asked(machine.Outcome{Mem: []machine.Value{0}}) {
		t.Error("forall asks about counterexamples")
	}
	q.Filter = &Clause{Cond: "(false)", Holds: func(machine.Outcome) bool { return false }}
	if q.Asked(machine.Outcome{Mem: []machine.Value{0}}) {
		t.Error("a filtered outcome is never asked about")
	}
}

func TestShareCores(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	o := shareCores(machine.Options{MaxMemory: 1 << 30}, 4)
	if o.Workers != max(1, procs/4) || o.Budget == nil || o.Budget.Limit() != 1<<30 {
		t.Errorf("4 jobs on %d cores: workers %d, budget %v", procs, o.Workers, o.Budget)
	}
	// The caller's choices stand; no memory bound stays none (each
	// search then has the explorer's default).
	o = shareCores(machine.Options{Workers: 3}, 8)
	if o.Workers != 3 || o.Budget != nil {
		t.Errorf("chosen: workers %d, budget %v", o.Workers, o.Budget)
	}
}

// TestCompareCellEnds: a cell says when executions deadlocked (*) or
// faulted (!), and when none reached the end (issue 21).
func TestCompareCellEnds(t *testing.T) {
	for _, tc := range []struct {
		c    CompareCell
		want string
	}{
		{CompareCell{Complete: true, Verdict: Verdict{Observation: syntax.Sometimes, Positive: 1, Negative: 2}, Deadlock: true}, "Sometimes 1/3 *"},
		{CompareCell{Complete: true, Verdict: Verdict{Observation: syntax.Never, Negative: 2}, Fault: true}, "Never 0/2 !"},
		{CompareCell{Complete: true, Verdict: Verdict{Observation: syntax.Never}, Fault: true, NoEnd: true}, "no final state !"},
		{CompareCell{Complete: true, Verdict: Verdict{Observation: syntax.Never}, Deadlock: true, NoEnd: true}, "no final state *"},
	} {
		if got := tc.c.Text(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
	// From a run: every execution faults.
	sc, err := Parse("f.litmus", []byte("C f\n{}\nP0(int *x) {\n int r0; int *r2; int r1;\n r0 = 8;\n r2 = x + r0;\n r1 = READ_ONCE(*r2);\n}\nexists (0:r1=0)\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := Compare("f", []*Spec{NewSpec(c)}, []machine.Mode{machine.TSO}, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cell := tbl.Rows[0].Cells[0]; cell.Text() != "no final state !" || !tbl.NoEnd() || !tbl.Fault() {
		t.Errorf("cell %q", cell.Text())
	}
}

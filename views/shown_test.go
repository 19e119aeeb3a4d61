package views

import (
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/scenariotest"
)

// TestShownOutcomesOneRowPerLine: r4 = READ_ONCE(*x) + READ_ONCE(*z)
// reaches r4=1 two ways, which differ only in the compiler's temporaries
// (x=1 z=0 or x=0 z=1). The pane showed two identical rows under a
// verdict that counts three outcomes; ShownOutcomes makes them one, with
// the final states of both and the shorter witness, and leaves a result
// without such twins as it is.
func TestShownOutcomesOneRowPerLine(t *testing.T) {
	sp := scenariotest.Spec(t, "sum.litmus", `C sum
{}
P0(int *x, int *z)
{
	int r4;
	r4 = READ_ONCE(*x) + READ_ONCE(*z);
}
P1(int *x, int *z)
{
	WRITE_ONCE(*z, 1);
	WRITE_ONCE(*x, 1);
}
exists (0:r4=1)
`)
	m := machine.MustNew(sp.Program, machine.ARM)
	r := machine.Explore(m, machine.Options{})
	shown := ShownOutcomes(sp, r)
	v := sp.Verdict(r)
	if got, want := len(shown.Outcomes), v.Positive+v.Negative; got != want || len(r.Outcomes) <= got {
		t.Fatalf("%d rows from %d outcomes, want one per outcome the verdict counts (%d)", got, len(r.Outcomes), want)
	}
	lines := map[string]bool{}
	states, shownStates := 0, 0
	for _, o := range r.Outcomes {
		states += o.States
	}
	for _, o := range shown.Outcomes {
		l := OutcomeLine(sp, o.Outcome)
		if lines[l] {
			t.Errorf("two rows read %q", l)
		}
		lines[l] = true
		shownStates += o.States
		best := -1
		for _, x := range r.Outcomes {
			if OutcomeLine(sp, x.Outcome) == l && (best < 0 || len(x.Witness) < best) {
				best = len(x.Witness)
			}
		}
		if len(o.Witness) != best {
			t.Errorf("row %q: a witness of %d steps, the shortest has %d", l, len(o.Witness), best)
		}
	}
	if shownStates != states {
		t.Errorf("rows count %d final states, the outcomes %d", shownStates, states)
	}
	if len(r.Outcomes) < 2 || ShownOutcomes(sp, shown) != shown {
		t.Error("a result without twins is not returned as it is")
	}
}

package machine

import (
	"fmt"
	"testing"
)

// TestInModeExploresAsNew: a machine taken into another mode with InMode
// (sharing the analyses of the program) explores exactly as New's machine
// of that mode does: the same states, transitions, outcomes, deadlocks
// and faults, on every shape and in both directions.
func TestInModeExploresAsNew(t *testing.T) {
	summary := func(r *Result) string {
		var ks []string
		for _, o := range r.Outcomes {
			ks = append(ks, fmt.Sprintf("%s×%d", o.Outcome.Key(), o.States))
		}
		return fmt.Sprint(r.Complete, r.States, r.Transitions, r.Pruned, r.DeadlockStates, r.FaultStates, r.MisspecStates, ks)
	}
	for _, sh := range shapes {
		p, _ := sh.build()
		for _, mode := range []Mode{TSO, ARM} {
			other := TSO
			if mode == TSO {
				other = ARM
			}
			base, err := New(p, other)
			if err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
			shared := base.InMode(mode)
			if shared.Mode != mode || base.Mode != other {
				t.Fatalf("%s: modes %v and %v, want %v and %v", sh.name, shared.Mode, base.Mode, mode, other)
			}
			want := summary(Explore(MustNew(p, mode), Options{Workers: 1}))
			if got := summary(Explore(shared, Options{Workers: 1})); got != want {
				t.Errorf("%s, %v from %v: InMode explores\n%s\nNew explores\n%s", sh.name, mode, other, got, want)
			}
		}
	}
}

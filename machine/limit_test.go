package machine_test

import (
	"fmt"
	"slices"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
)

// A limit is never a verdict (issue 22, item 1): at every state limit from 1
// to the full count, a search of a library scenario is either complete with
// exactly the full count and the full outcome set, deadlocks and faults, or
// not complete. A limit hit in the last chunk once dropped the chunk's
// remaining states and called the search complete.
func TestEveryLimitIsCompleteOrUnknown(t *testing.T) {
	entries, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	pairs, limits := 0, 0
	for _, e := range entries {
		c, err := scenarios.Compile(e.Scenario)
		if err != nil {
			t.Fatalf("%s: %v", e.Scenario.Name, err)
		}
		sp := scenarios.NewSpec(c)
		for _, mode := range modes {
			m, err := sp.Machine(mode)
			if err != nil {
				t.Fatalf("%s %v: %v", e.Scenario.Name, mode, err)
			}
			prunes := []func(*machine.State) bool{nil}
			if p := sp.Prune(); p != nil {
				prunes = append(prunes, p) // the search check makes
			}
			for _, prune := range prunes {
				opts := machine.Options{Prune: prune, NoWitnesses: true}
				full := machine.Explore(m, opts)
				if !full.Complete {
					t.Fatalf("%s %v: %s", e.Scenario.Name, mode, words.Summary(full))
				}
				if full.States > 200 {
					continue // the test is quadratic in the state count
				}
				pairs++
				want := searchFacts(full)
				for limit := 1; limit <= full.States+1; limit++ {
					limits++
					opts.MaxStates = limit
					r := machine.Explore(m, opts)
					where := fmt.Sprintf("%s %v --max-states %d of %d", e.Scenario.Name, mode, limit, full.States)
					switch {
					case !r.Complete && limit >= full.States:
						t.Errorf("%s: stopped (%s) with room for every state", where, words.Stop(r.Stop))
					case !r.Complete && r.States > limit:
						t.Errorf("%s: expanded %d states", where, r.States)
					case r.Complete && r.States != full.States:
						t.Errorf("%s: complete after %d states", where, r.States)
					case r.Complete && searchFacts(r) != want:
						t.Errorf("%s: complete with %s, the full search found %s", where, searchFacts(r), want)
					}
				}
			}
		}
	}
	if pairs < 100 {
		t.Errorf("only %d scenario×mode searches were small enough", pairs)
	}
	t.Logf("%d searches, %d limits", pairs, limits)
}

// searchFacts is what a verdict is made of: the outcome set, and how many
// states deadlock and fault.
func searchFacts(r *machine.Result) string {
	var keys []string
	for _, o := range r.Outcomes {
		keys = append(keys, o.Outcome.Key())
	}
	slices.Sort(keys)
	return fmt.Sprintf("outcomes %q, %d deadlocked, %d faulted", keys, r.DeadlockStates, r.FaultStates)
}

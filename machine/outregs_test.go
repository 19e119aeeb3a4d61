package machine_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"smpscope/machine"
)

// With outcome registers left out, every outcome's witness is as short as
// without (machine/outregs.go): a state's moves depend only on what the
// key keeps, and a pair's path is a shortest one, so the pairs' graph
// has every path the search without the reduction has (sleep sets, which
// it intersects over all the valuations, only add moves). Symmetry is
// off in both, since the two choose their representatives from different
// keys. The pairs stand for the states the search without the reduction
// stores, so there are as many or more (sleep sets merged), never fewer.
func TestOutRegsWitnessesAsShort(t *testing.T) {
	for _, size := range []struct {
		name         string
		cpus, budget int
		kinds        []int
	}{{"small", 3, 6, nil}, {"grace", 4, 8, gracePeriodKinds}, {"readers", 4, 8, readerKinds}} {
		t.Run(size.name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				p := genRandomOf(rt, size.cpus, size.budget, size.kinds)
				for _, mode := range modes {
					m := machine.MustNew(p, mode)
					// (With witnesses: without them the valuations are
					// propagated without distances, propagateSets.)
					opts := machine.Options{Workers: 1, MaxStates: 30_000}
					with := machine.ExploreWithout(m, opts, machine.RedSymmetry)
					without := machine.ExploreWithout(m, opts, machine.RedSymmetry|machine.RedOutRegs)
					if !with.Complete || !without.Complete {
						continue
					}
					cost := map[string]int{}
					for _, o := range without.Outcomes {
						cost[o.Outcome.Key()] = o.Cost
					}
					if len(with.Outcomes) != len(cost) {
						rt.Fatalf("%s: %d outcomes with outRegs, %d without", mode, len(with.Outcomes), len(cost))
					}
					for _, o := range with.Outcomes {
						c, ok := cost[o.Outcome.Key()]
						if !ok || o.Cost > c {
							rt.Fatalf("%s: outcome %s costs %d with outRegs, %s without", mode, o.Outcome.Key(), o.Cost, fmt.Sprint(c, ok))
						}
					}
					if with.Pairs > 0 && with.Pairs < without.States {
						rt.Fatalf("%s: %d pairs with outRegs, %d states without", mode, with.Pairs, without.States)
					}
				}
			})
		})
	}
}

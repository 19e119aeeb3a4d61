package machine

import (
	"fmt"
	"strings"
	"testing"
)

// propagateSets packs each pending set's slot above the skeleton's
// in-degree, and keeps the slots in an array of their own where the two
// would not fit in 32 bits. Both ways give the same outcomes, counts and
// pairs.
func TestPropagateSetsSlotsApart(t *testing.T) {
	summary := func(r *Result) string {
		var b strings.Builder
		for _, o := range r.Outcomes {
			fmt.Fprintf(&b, "%s ×%d\n", o.Outcome.Key(), o.States)
		}
		fmt.Fprintf(&b, "states %d, pairs %d, complete %v", r.States, r.Pairs, r.Complete)
		return b.String()
	}
	for _, n := range []int{3, 4} {
		for _, mode := range []Mode{TSO, ARM} {
			m := MustNew(ring(n, nil), mode)
			packed := Explore(m, Options{Workers: 1, NoWitnesses: true})
			func() {
				defer func(b uint) { slotWordBits = b }(slotWordBits)
				slotWordBits = 0
				apart := Explore(m, Options{Workers: 1, NoWitnesses: true})
				if packed.Pairs == 0 {
					t.Fatalf("ring %d, %s: no pairs: the valuations were not propagated", n, mode)
				}
				if a, b := summary(packed), summary(apart); a != b {
					t.Fatalf("ring %d, %s: slots packed\n%s\nslots apart\n%s", n, mode, a, b)
				}
			}()
		}
	}
}

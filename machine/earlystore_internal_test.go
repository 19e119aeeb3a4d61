package machine

import "testing"

// TestEarlyStoreNotAlonePastReleaseRMW: the explorer takes a store it may
// issue early alone (earlyStore), but not one past a _release RMW, which
// would then wait for the store to commit; past a relaxed RMW it does.
// TestPropTSOSubsetOfARM found it: with the store taken alone, MP with
// xchg_release then WRITE_ONCE lost the outcome in which the reader's
// acquire sees x and its load misses y (litmusgen regression
// arm-release-rmw-then-store-mp).
func TestEarlyStoreNotAlonePastReleaseRMW(t *testing.T) {
	for _, o := range []Order{OrderRelease, OrderRelaxed} {
		b := NewBuilder("early-store-alone")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		t0.RMW(o, RMWXchg, true, t0.Reg("r0"), x, Const(1), nil)
		t0.StoreConst(Once, y, 1)
		m := MustNew(b.Program(), ARM)
		e := &explorer{m: m}
		_, _, alone := e.earlyStore(m.Initial())
		if want := o == OrderRelaxed; alone != want {
			t.Errorf("%s RMW: the store after it taken alone %v, want %v", o, alone, want)
		}
	}
}

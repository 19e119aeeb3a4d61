package machine

import (
	"slices"
	"testing"
)

// TestSRCULockPrivate: an srcu_read_lock is taken alone (a private step)
// only once no grace period can start, none running waits for its CPU's
// report, and no CPU may write its srcu_struct.
func TestSRCULockPrivate(t *testing.T) {
	build := func(writesStruct bool) *Program {
		b := NewBuilder("srcu-private")
		x, sp := b.Loc("x", 0), b.Loc("s", 0)
		reader := b.Thread() // P0: a section that loads x
		r0, r1 := reader.Reg("r0"), reader.Reg("r1")
		reader.SRCULock(r0, sp)
		reader.Load(Once, r1, x)
		reader.SRCUUnlock(sp, RegExpr(r0))
		updater := b.Thread() // P1: stores x, then waits for a grace period
		updater.StoreConst(Once, x, 1)
		updater.SyncSRCU(sp)
		if writesStruct {
			updater.StoreConst(Once, sp, 1)
		}
		return b.Program()
	}
	for _, mode := range []Mode{TSO, ARM} {
		for _, writes := range []bool{false, true} {
			m := MustNew(build(writes), mode)
			s := m.Initial()
			lock := &m.code(0)[0]
			e := &explorer{m: m}
			step := func(id string) {
				t.Helper()
				for _, st := range m.Enabled(s) {
					if m.ID(st) == id {
						n, _, err := m.Apply(s, st)
						if err != nil {
							t.Fatal(err)
						}
						s = n
						return
					}
				}
				var ids []string
				for _, st := range m.Enabled(s) {
					ids = append(ids, m.ID(st))
				}
				t.Fatalf("%s: %s not enabled (%v)", mode, id, ids)
			}
			check := func(when string, want bool) {
				t.Helper()
				if got := e.srcuLockPrivate(s, 0, lock); got != want {
					t.Errorf("%s, P1 writes s %v, %s: private %v, want %v", mode, writes, when, got, want)
				}
			}
			check("before the grace period can start", false)
			step("P1 exec")      // the store of x
			step("P1 commit #0") // ARM-like: queues x's invalidation at P0
			step("P1 exec")      // the grace period starts
			owes := slices.Contains(func() []int { _, owe := s.GracePeriodWaiting(1); return owe }(), 0)
			if mode == ARM {
				if !owes {
					t.Fatalf("%s: P0 does not owe the grace period a report with its queue full", mode)
				}
				check("while the grace period waits for P0's report", false)
				step("P0 inv x")
				step("P0 qs")
			}
			if _, owe := s.GracePeriodWaiting(1); slices.Contains(owe, 0) {
				step("P0 qs")
			}
			check("once P0 has reported and no grace period can start", !writes)
		}
	}
}

package machine

import "testing"

// TestStoreBeforeAccessIsNotPostponed: while a grace period may run, a
// plain store is postponed (taken only with its commit or the step
// after it) unless another access follows it, past register arithmetic
// (ridesWithAccess): then it is a move of its own.
func TestStoreBeforeAccessIsNotPostponed(t *testing.T) {
	b := NewBuilder("postpone")
	x, y, z := b.Loc("x", 0), b.Loc("y", 0), b.Loc("z", 0)
	beforeLoad := b.Thread() // P0: a store, arithmetic, a load
	r0 := beforeLoad.Reg("r0")
	beforeLoad.StoreConst(Once, x, 1)
	beforeLoad.Assign(r0, Const(2))
	beforeLoad.Load(Once, r0, y)
	beforeStore := b.Thread() // P1: a store, then another store
	beforeStore.StoreConst(Once, y, 1)
	beforeStore.StoreConst(Once, z, 1)
	beforeSync := b.Thread() // P2: a store, then a grace period
	beforeSync.StoreConst(Once, z, 2)
	beforeSync.SyncRCU()
	last := b.Thread() // P3: a load, then its last instruction, a store
	r3 := last.Reg("r3")
	last.Load(Once, r3, x)
	last.StoreConst(Once, x, 3)
	prog := b.Program()
	for _, mode := range []Mode{TSO, ARM} {
		m, e, w := testExplorer(t, prog, mode)
		s := m.Initial()
		postponed := func(c int) bool {
			for _, mv := range e.cpuMacros(nil, s, c, w) {
				if mv.store != 0 {
					return true
				}
			}
			return false
		}
		for c, want := range []bool{false, false, true} {
			if got := postponed(c); got != want {
				t.Errorf("%s: P%d's first store postponed: %v, want %v", mode, c, got, want)
			}
		}
		// P3's store, after its load, is the last instruction: postponed
		// once the load has run (in ARM-like mode it may also be issued
		// early, postponed the same way).
		if n, _, err := m.Apply(s, Step{Kind: StepExec, CPU: 3}); err != nil {
			t.Fatal(err)
		} else {
			s = n
		}
		if !postponed(3) {
			t.Errorf("%s: P3's last store is not postponed", mode)
		}
	}
}

// testExplorer returns a machine for prog in mode and an explorer of it
// with one worker, released when the test ends.
func testExplorer(t *testing.T, prog *Program, mode Mode) (*Machine, *explorer, *worker) {
	t.Helper()
	m, err := New(prog, mode)
	if err != nil {
		t.Fatal(err)
	}
	e := newExplorer(m, Options{Workers: 1}, NewBudget(1<<30))
	t.Cleanup(e.release)
	return m, e, e.workers[0]
}

// TestLockBeforeWritingSectionIsNotPostponedARM: while a grace period may
// run, rcu_read_lock is taken with its CPU's next step, except ARM-like
// for a section that writes (a store on either side of a branch, or an
// RMW), which measured smaller with the lock as a step of its own.
func TestLockBeforeWritingSectionIsNotPostponedARM(t *testing.T) {
	b := NewBuilder("postpone-lock")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	writer := b.Thread() // P0: the grace period
	r0 := writer.Reg("r0")
	writer.Load(Once, r0, x)
	writer.SyncRCU()
	writer.StoreConst(Once, y, 1)
	reads := b.Thread() // P1: a section that only loads
	r1, r2 := reads.Reg("r1"), reads.Reg("r2")
	reads.RCULock()
	reads.Load(Once, r1, y)
	reads.Load(Once, r2, x)
	reads.RCUUnlock()
	writes := b.Thread() // P2: a section that stores in one branch
	r3 := writes.Reg("r3")
	writes.RCULock()
	writes.Load(Once, r3, y)
	writes.If(Bin(EEq, RegExpr(r3), Const(1)), func() {}, func() { writes.StoreConst(Once, x, 1) })
	writes.RCUUnlock()
	rmw := b.Thread() // P3: a section with an RMW
	r4 := rmw.Reg("r4")
	rmw.RCULock()
	rmw.RMW(OrderRelaxed, RMWAdd, true, r4, x, Const(1), nil)
	rmw.RCUUnlock()
	after := b.Thread() // P4: a store after its section, which only loads
	r5 := after.Reg("r5")
	after.RCULock()
	after.Load(Once, r5, y)
	after.RCUUnlock()
	after.StoreConst(Once, x, 2)
	prog := b.Program()
	for _, mode := range []Mode{TSO, ARM} {
		m, e, w := testExplorer(t, prog, mode)
		s := m.Initial()
		for c, writesInside := range []bool{false, false, true, true, false} {
			if c == 0 {
				continue
			}
			want := mode == TSO || !writesInside
			if got := e.postponableLock(s, c, w); got != want {
				t.Errorf("%s: P%d's rcu_read_lock postponed: %v, want %v", mode, c, got, want)
			}
		}
	}
}

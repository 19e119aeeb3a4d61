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

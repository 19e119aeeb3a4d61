package machine

import (
	"math/rand"
	"slices"
	"testing"
)

// One rule (cpuWait) decides whether a CPU may perform its next
// instruction and says what it waits for: the enabled steps and the wait
// must agree, and the wait must name what it waits for. (Package
// scenarios/words checks the words of every wait.)

func blockingPrograms() []*Program {
	var ps []*Program
	{ // fences and release/acquire
		b := NewBuilder("fences")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.StoreConst(Once, x, 1)
		t0.Fence(FenceMb)
		t0.StoreConst(Release, y, 1)
		t0.Load(Acquire, r0, x)
		t0.Fence(FenceRmb)
		t0.Load(Once, r0, y)
		t1 := b.Thread()
		r1 := t1.Reg("r1")
		t1.StoreConst(Once, y, 2)
		t1.Fence(FenceWmb)
		t1.StoreConst(Once, x, 2)
		t1.Load(Once, r1, y)
		t1.Fence(FenceRmb)
		t1.Load(Acquire, r1, y)
		t1.Load(Once, r1, x)
		ps = append(ps, b.Program())
	}
	{ // RMWs of every ordering, after a wmb marker and a release
		b := NewBuilder("rmws")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.StoreConst(Once, x, 1)
		t0.Fence(FenceWmb)
		t0.RMW(OrderRelaxed, RMWXchg, true, r0, y, Const(1), nil)
		t0.RMW(OrderFull, RMWAdd, true, r0, x, Const(1), nil)
		t0.StoreConst(Release, y, 3)
		t0.RMW(OrderAcquire, RMWCmpXchg, true, r0, x, Const(5), Const(2))
		t1 := b.Thread()
		r1 := t1.Reg("r1")
		t1.StoreConst(Once, y, 2)
		t1.RMW(OrderRelease, RMWXchg, true, r1, x, Const(3), nil)
		t1.RMW(OrderRelaxed, RMWAdd, true, r1, y, Const(1), nil)
		t1.RMW(OrderFull, RMWCmpXchg, true, r1, y, Const(9), Const(4))
		ps = append(ps, b.Program())
	}
	{ // locks
		b := NewBuilder("locks")
		l, x := b.Loc("l", 0), b.Loc("x", 0)
		for i := 0; i < 2; i++ {
			t := b.Thread()
			r := t.Reg("r0")
			t.StoreConst(Once, x, Value(i+1))
			t.Lock(l)
			t.Load(Once, r, x)
			t.Unlock(l)
			t.TryLock(r, l)
		}
		ps = append(ps, b.Program())
	}
	{ // grace periods
		b := NewBuilder("rcu")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.RCULock()
		t0.Load(Once, r0, x)
		t0.StoreConst(Once, y, 1)
		t0.RCUUnlock()
		t1 := b.Thread()
		t1.StoreConst(Once, x, 1)
		t1.SyncRCU()
		t1.StoreConst(Once, y, 2)
		ps = append(ps, b.Program())
	}
	{ // exclusive RMWs behind their own store, and reserved lines
		b := NewBuilder("exclusive")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		t0.StoreConst(Once, x, 1)
		t0.RMW(OrderRelaxed, RMWAdd, false, 0, x, Const(1), nil)
		t0.RMW(OrderRelaxed, RMWAdd, false, 0, y, Const(1), nil)
		t1 := b.Thread()
		r1 := t1.Reg("r1")
		t1.RMW(OrderRelaxed, RMWAdd, false, 0, y, Const(1), nil)
		t1.RMW(OrderFull, RMWXchg, true, r1, x, Const(3), nil)
		t1.RMW(OrderRelease, RMWXchg, true, r1, y, Const(3), nil)
		ps = append(ps, b.Program())
	}
	{ // an SRCU grace period waiting for a section
		b := NewBuilder("srcu")
		x, sl := b.Loc("x", 0), b.Loc("s", 0)
		t0 := b.Thread()
		r0, r1 := t0.Reg("r0"), t0.Reg("r1")
		t0.emit(Instr{Op: OpSRCULock, HasDst: true, Dst: r1, Addr: Const(PtrTo(sl)), Text: "r1 = srcu_read_lock(s);"})
		t0.Load(Once, r0, x)
		t0.emit(Instr{Op: OpSRCUUnlock, Addr: Const(PtrTo(sl)), Val: RegExpr(r1), Text: "srcu_read_unlock(s, r1);"})
		t1 := b.Thread()
		t1.StoreConst(Once, x, 1)
		t1.emit(Instr{Op: OpSyncSRCU, Addr: Const(PtrTo(sl)), Text: "synchronize_srcu(s);"})
		ps = append(ps, b.Program())
	}
	return ps
}

func TestWaitIsTheOneBlockingRule(t *testing.T) {
	type seenKey struct {
		kind WaitKind
		rule WaitRule
	}
	seen := map[seenKey]bool{}
	for _, p := range blockingPrograms() {
		for _, mode := range []Mode{TSO, ARM} {
			m := MustNew(p, mode)
			for seed := int64(0); seed < 300; seed++ {
				rng := rand.New(rand.NewSource(seed))
				s := m.Initial()
				for {
					steps := m.Enabled(s)
					for c := range s.cpus {
						w := m.Wait(s, c)
						seen[seenKey{w.Kind, w.Rule}] = true
						if exec := slices.Contains(steps, Step{Kind: StepExec, CPU: uint8(c)}); exec != (w.Kind == WaitNone) {
							t.Fatalf("%s %s P%d: exec enabled %v, but the wait is %v", p.Name, mode, c, exec, w.Kind)
						}
						if !w.Blocked() {
							continue
						}
						if (w.Kind == WaitDrain || w.Kind == WaitRelease || w.Kind == WaitOwnStore || w.Kind == WaitMarker) && len(w.Entries)+len(w.Invals) == 0 {
							t.Errorf("%s %s P%d: %v names nothing it waits for", p.Name, mode, c, w.Kind)
						}
					}
					if len(steps) == 0 {
						break
					}
					n, _, err := m.Apply(s, steps[rng.Intn(len(steps))])
					if err != nil {
						t.Fatal(err)
					}
					s = n
				}
			}
		}
	}
	// The programs must reach every blocking condition. (WaitSections is
	// not among them: a section's opener cannot report while it is open,
	// so its grace period still waits for a quiescent state then.)
	for _, want := range []seenKey{
		{WaitAfterAcquire, RuleOwn}, {WaitDrain, RuleOwn}, {WaitDrain, RuleLocked}, {WaitDrain, RuleFullRMW},
		{WaitDrain, RuleReleaseRMW}, {WaitRelease, RuleOwn}, {WaitRelease, RuleExclusive}, {WaitRelease, RuleFailedRMW},
		{WaitQuiescent, RuleOwn}, {WaitLockHeld, RuleLock}, {WaitReserved, RuleLock}, {WaitReserved, RuleExclusive},
		{WaitReserved, RuleFullRMW}, {WaitReserved, RuleReleaseRMW}, {WaitOwnStore, RuleExclusive}, {WaitMarker, RuleExclusive},
		{WaitDrain, RuleLateSection},
	} {
		if !seen[want] {
			t.Errorf("no state blocked with %v under rule %d", want.kind, want.rule)
		}
	}
}

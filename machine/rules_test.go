package machine

import (
	"fmt"
	"slices"
	"testing"
)

// Focused tests, one per ordering rule of RULES.md's tables. Each drives
// the machine step by step by step identity, so a failure names the rule.

type driver struct {
	t *testing.T
	m *Machine
	s *State
}

func drive(t *testing.T, p *Program, mode Mode) *driver {
	t.Helper()
	return &driver{t: t, m: MustNew(p, mode), s: nil}
}

func (d *driver) state() *State {
	if d.s == nil {
		d.s = d.m.Initial()
	}
	return d.s
}

func (d *driver) enabled() []string {
	var ids []string
	for _, st := range d.m.Enabled(d.state()) {
		ids = append(ids, d.m.ID(st))
	}
	return ids
}

func (d *driver) can(id string) bool { return slices.Contains(d.enabled(), id) }

func (d *driver) do(id string) Event {
	d.t.Helper()
	st, err := d.m.ParseID(id)
	if err != nil {
		d.t.Fatal(err)
	}
	n, ev, err := d.m.Apply(d.state(), st)
	if err != nil {
		d.t.Fatalf("%s: %v (enabled: %v)", id, err, d.enabled())
	}
	d.s = n
	return ev
}

func (d *driver) mustNot(id, rule string) {
	d.t.Helper()
	if d.can(id) {
		d.t.Fatalf("rule %q: %s must not be enabled (enabled: %v)", rule, id, d.enabled())
	}
}

func (d *driver) must(id, rule string) {
	d.t.Helper()
	if !d.can(id) {
		d.t.Fatalf("rule %q: %s must be enabled (enabled: %v)", rule, id, d.enabled())
	}
}

// twoStores: P0 stores x=1 then y=1 with an optional fence between; P1
// reads y then x with an optional fence between.
func twoStores(first, second Access, wfence, rfence *Fence, rfirst Access) (*Program, Loc, Loc) {
	b := NewBuilder("t")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	t0 := b.Thread()
	t0.StoreConst(first, x, 1)
	if wfence != nil {
		t0.Fence(*wfence)
	}
	t0.StoreConst(second, y, 1)
	t1 := b.Thread()
	r0, r1 := t1.Reg("r0"), t1.Reg("r1")
	t1.Load(rfirst, r0, y)
	if rfence != nil {
		t1.Fence(*rfence)
	}
	t1.Load(Once, r1, x)
	return b.Program(), x, y
}

func fence(f Fence) *Fence { return &f }

func TestRuleTSOStoreBufferIsFIFO(t *testing.T) {
	p, _, _ := twoStores(Once, Once, nil, nil, Once)
	d := drive(t, p, TSO)
	d.do("P0 exec")
	d.do("P0 exec")
	d.must("P0 commit #0", "TSO: only the oldest entry commits")
	d.mustNot("P0 commit #1", "TSO: only the oldest entry commits")
}

func TestRuleARMCommitsOutOfOrder(t *testing.T) {
	p, x, _ := twoStores(Once, Once, nil, nil, Once)
	d := drive(t, p, ARM)
	d.do("P0 exec")
	d.do("P0 exec")
	d.must("P0 commit #1", "ARM: any entry with no older entry to its location may commit")
	d.do("P0 commit #1") // y=1 is visible while x=1 still waits in P0's buffer
	// P1 applies the invalidation of its copy of y, reads y=1 and then
	// x=0: the message-passing outcome TSO forbids.
	d.do("P1 inv y")
	if ev := d.do("P1 exec"); ev.Load == nil || ev.Load.Val != 1 {
		t.Fatalf("rule \"ARM: a later store becomes visible first\": P1 reads y as %+v, want 1", ev.Load)
	}
	if ev := d.do("P1 exec"); ev.Load == nil || ev.Load.Val != 0 {
		t.Fatalf("rule \"ARM: an earlier store is still invisible\": P1 reads x as %+v, want 0", ev.Load)
	}
	if sb := d.state().StoreBuffer(0); len(sb) != 1 || sb[0].Loc != x || sb[0].Val != 1 {
		t.Fatalf("x=1 should still be P0's only buffered store: %+v", sb)
	}
	d.must("P0 commit #0", "ARM: the older entry commits later")
}

func TestRuleARMSameLocationStaysOrdered(t *testing.T) {
	b := NewBuilder("t")
	x := b.Loc("x", 0)
	t0 := b.Thread()
	t0.StoreConst(Once, x, 1)
	t0.StoreConst(Once, x, 2)
	d := drive(t, b.Program(), ARM)
	d.do("P0 exec")
	d.do("P0 exec")
	d.mustNot("P0 commit #1", "ARM: an entry never overtakes an older entry to the same location")
}

func TestRuleARMReleaseCommitsOnlyWhenOldest(t *testing.T) {
	p, _, _ := twoStores(Once, Release, nil, nil, Once)
	d := drive(t, p, ARM)
	d.do("P0 exec")
	d.do("P0 exec")
	d.mustNot("P0 commit #1", "ARM: a release entry commits only when it is the oldest")
	d.do("P0 commit #0")
	d.must("P0 commit #1", "ARM: a release entry commits once it is the oldest")
}

func TestRuleARMWmbMarkerOrdersCommits(t *testing.T) {
	p, _, _ := twoStores(Once, Once, fence(FenceWmb), nil, Once)
	d := drive(t, p, ARM)
	d.do("P0 exec") // x=1, then the smp_wmb folds in, inserting a marker
	d.do("P0 exec")
	if sb := d.state().StoreBuffer(0); len(sb) != 3 || sb[1].Kind != EntryWmb {
		t.Fatalf("rule \"smp_wmb inserts a marker\": store buffer %+v", sb)
	}
	d.mustNot("P0 commit #2", "ARM: no entry commits past a wmb marker with entries before it")
	d.do("P0 commit #0")
	d.must("P0 commit #2", "ARM: the marker is gone once the entries before it commit")
}

func TestRuleStaleReadARMAndNotTSO(t *testing.T) {
	p, x, _ := twoStores(Once, Once, nil, nil, Once)
	for _, mode := range []Mode{TSO, ARM} {
		d := drive(t, p, mode)
		d.do("P0 exec")
		d.do("P0 commit #0") // x=1 visible
		if mode == TSO {
			if d.state().Cache(1, x).State != Invalid {
				t.Fatalf("rule \"TSO: a commit drops other S copies to I at once\": P1 holds x in %v", d.state().Cache(1, x).State)
			}
			continue
		}
		if !d.state().Stale(1, x) || len(d.state().InvalQueue(1)) != 1 {
			t.Fatalf("rule \"ARM: S holders get a queued invalidation and keep the stale copy\"")
		}
		d.do("P0 exec")
		d.do("P0 commit #1") // y=1 visible too
		d.do("P1 inv y")     // P1 sees y=1 fresh ...
		ev := d.do("P1 exec")
		if ev.Load == nil || ev.Load.Val != 1 || ev.Load.Source != FromMiss {
			t.Fatalf("P1 should miss on y and read 1: %+v", ev.Load)
		}
		ev = d.do("P1 exec") // ... but x from its stale copy
		if ev.Load.Class != Stale || ev.Load.Val != 0 || ev.Load.NewerVal != 1 || ev.Load.Newer != (StoreID{CPU: 0, Instr: 0}) || ev.Load.NewerStep != 2 || ev.Load.From != initialStore {
			t.Fatalf("rule \"stale reads name the committing CPU and step\": %+v", ev.Load)
		}
	}
}

func TestRuleReadClassifications(t *testing.T) {
	p, _, _ := twoStores(Once, Once, nil, nil, Once)
	d := drive(t, p, TSO)
	d.do("P0 exec") // x=1 in P0's store buffer
	d.do("P0 exec")
	ev := d.do("P1 exec") // P1 reads y=0 while y=1 waits in P0's buffer
	if ev.Load.Class != NewerPending || ev.Load.Newer.CPU != 0 || ev.Load.NewerVal != 1 {
		t.Fatalf("rule \"newer value pending names the CPU and value\": %+v", ev.Load)
	}
	b := NewBuilder("fwd")
	x := b.Loc("x", 0)
	t0 := b.Thread()
	r := t0.Reg("r0")
	t0.StoreConst(Once, x, 5)
	t0.Load(Once, r, x)
	d = drive(t, b.Program(), ARM)
	d.do("P0 exec")
	if ev := d.do("P0 exec"); ev.Load.Class != Forwarded || ev.Load.Val != 5 {
		t.Fatalf("rule \"a load forwards from the newest own store-buffer entry\": %+v", ev.Load)
	}
}

func TestRuleMbWaitsForStoreBufferAndQueue(t *testing.T) {
	b := NewBuilder("mb")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	t0 := b.Thread()
	r := t0.Reg("r0")
	t0.StoreConst(Once, x, 1)
	t0.Fence(FenceMb)
	t0.Load(Once, r, y)
	b.Thread().StoreConst(Once, y, 1)
	for _, mode := range []Mode{TSO, ARM} {
		d := drive(t, b.Program(), mode)
		d.do("P0 exec")
		if w := d.m.Wait(d.state(), 0); w.Kind != WaitDrain || len(w.Entries) != 1 || len(w.Invals) != 0 {
			t.Fatalf("%s: rule \"smp_mb waits for the store buffer\": %+v", mode, w)
		}
		d.do("P1 exec")
		d.do("P1 commit #0") // ARM: invalidation of y queued at P0
		d.do("P0 commit #0")
		if mode == TSO {
			d.must("P0 exec", "TSO: smp_mb needs only an empty store buffer")
			continue
		}
		d.mustNot("P0 exec", "ARM: smp_mb also waits for the invalidation queue")
		d.do("P0 inv y")
		d.must("P0 exec", "ARM: smp_mb proceeds once both are empty")
		d.do("P0 exec")
		if ev := d.do("P0 exec"); ev.Load == nil || ev.Load.Val != 1 {
			t.Fatalf("after smp_mb P0 must read y=1, read %d", ev.Load.Val)
		}
	}
}

func TestRuleRmbWaitsForQueueOnlyOnARM(t *testing.T) {
	p, _, _ := twoStores(Once, Once, nil, fence(FenceRmb), Once)
	d := drive(t, p, ARM)
	d.do("P0 exec")
	d.do("P0 commit #0") // invalidation of x queued at P1
	d.do("P1 exec")      // reads y; then waits at smp_rmb
	if w := d.m.Wait(d.state(), 1); w.Kind != WaitDrain || len(w.Invals) != 1 || len(w.Entries) != 0 {
		t.Fatalf("rule \"smp_rmb waits for the invalidation queue\": %+v", w)
	}
	d2 := drive(t, p, TSO)
	d2.do("P1 exec") // smp_rmb folds: no effect in TSO
	if ev := d2.do("P1 exec"); ev.Instr != 2 {
		t.Fatalf("rule \"smp_rmb has no effect in TSO\": executed instruction %d", ev.Instr)
	}
}

func TestRuleAcquireWaitsForOwnReleaseAndAppliesMarked(t *testing.T) {
	b := NewBuilder("rel-acq")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	t0 := b.Thread()
	r0 := t0.Reg("r0")
	t0.StoreConst(Release, x, 1)
	t0.Load(Acquire, r0, y)
	b.Thread().StoreConst(Once, y, 1)
	d := drive(t, b.Program(), ARM)
	d.do("P0 exec")
	d.mustNot("P0 exec", "ARM: smp_load_acquire waits for its own earlier release stores")
	d.do("P1 exec")
	d.do("P1 commit #0") // y=1 visible; invalidation queued at P0 before its release commits
	d.do("P0 commit #0") // the release commits and marks the queued invalidation
	if q := d.state().InvalQueue(0); len(q) != 1 || !q[0].Marked {
		t.Fatalf("rule \"a release commit marks the queued invalidations\": %+v", q)
	}
	ev := d.do("P0 exec")
	if ev.Load.Val != 1 || !slices.Contains(ev.Applied, Applied{Loc: y, Cause: ApplyAcquire, Stale: 0, Readable: true}) {
		t.Fatalf("rule \"an acquire applies marked invalidations first (release->acquire order)\": %+v", ev.Load)
	}
}

func TestRuleAcquireMayStillReadStale(t *testing.T) {
	// Acquire orders later accesses only: with no release of its own, the
	// acquire load itself may return a stale value.
	p, y, _ := twoStores(Once, Once, nil, nil, Acquire)
	_ = y
	d := drive(t, p, ARM)
	d.do("P0 exec")
	d.do("P0 exec")
	d.do("P0 commit #1") // y=1 visible, invalidation queued at P1
	ev := d.do("P1 exec")
	if ev.Load.Class != Stale || ev.Load.Val != 0 {
		t.Fatalf("rule \"the acquire load itself may return a stale value\": %+v", ev.Load)
	}
}

func TestRuleAfterAcquireNextWaitsForEmptyQueue(t *testing.T) {
	p, _, _ := twoStores(Once, Once, nil, nil, Acquire)
	d := drive(t, p, ARM)
	d.do("P0 exec")
	d.do("P0 exec")
	d.do("P0 commit #1") // y=1
	d.do("P0 commit #0") // x=1: both invalidations queued at P1
	d.do("P1 inv y")
	ev := d.do("P1 exec") // acquire reads y=1; x's invalidation is still queued
	if ev.Load.Val != 1 {
		t.Fatalf("acquire read %d", ev.Load.Val)
	}
	if w := d.m.Wait(d.state(), 1); w.Kind != WaitAfterAcquire || len(w.Invals) == 0 {
		t.Fatalf("rule \"after an acquire, the next instruction waits for an empty queue\": %+v", w)
	}
	d.do("P1 inv x")
	if ev := d.do("P1 exec"); ev.Load.Val != 1 {
		t.Fatalf("after the acquire P1 must read x=1, read %d", ev.Load.Val)
	}
}

func TestRuleAddressDependencyAppliesEarlierInvalidations(t *testing.T) {
	p, cond := shapes[3].build() // MP+assign+deref
	_ = cond
	d := drive(t, p, ARM)
	d.do("P0 exec")      // x=1
	d.do("P0 commit #0") // invalidation of x queued at P1
	d.do("P0 exec")      // rcu_assign_pointer(p, &x)
	d.do("P0 commit #1")
	d.do("P1 inv p")
	if ev := d.do("P1 exec"); ev.Load.Val != PtrTo(0) {
		t.Fatalf("P1 should read p=&x, got %v", ev.Load.Val)
	}
	ev := d.do("P1 exec")
	if ev.Load.Val != 1 || !slices.Contains(ev.Applied, Applied{Loc: 0, Cause: ApplyAddrDep, Stale: 0, Readable: true}) {
		t.Fatalf("rule \"an address-dependent load first applies invalidations that arrived before the pointer load\": %+v applied %v", ev.Load, ev.Applied)
	}
}

func TestRuleExclusiveRMWReservesLine(t *testing.T) {
	b := NewBuilder("excl")
	x := b.Loc("x", 0)
	t0 := b.Thread()
	t0.RMW(OrderRelaxed, RMWAdd, false, 0, x, Const(1), nil)
	b.Thread().StoreConst(Once, x, 5)
	d := drive(t, b.Program(), ARM)
	d.do("P0 exec")
	if sb := d.state().StoreBuffer(0); len(sb) != 1 || sb[0].Kind != EntryExclusive || sb[0].Val != 1 {
		t.Fatalf("rule \"a relaxed RMW appends an exclusive entry\": %+v", sb)
	}
	d.do("P1 exec")
	d.mustNot("P1 commit #0", "ARM: no other CPU commits to a reserved line")
	d.do("P0 commit #0")
	d.must("P1 commit #0", "ARM: the reservation ends when the exclusive entry commits")
}

func TestRuleExclusiveRMWWaitsForWmbMarker(t *testing.T) {
	b := NewBuilder("wmb-then-lock")
	x, s := b.Loc("x", 0), b.Loc("s", 0)
	t0 := b.Thread()
	t0.StoreConst(Once, x, 1)
	t0.Fence(FenceWmb)
	t0.Lock(s)
	t1 := b.Thread()
	t1.StoreConst(Once, s, 0)
	d := drive(t, b.Program(), ARM)
	d.do("P0 exec")
	if w := d.m.Wait(d.state(), 0); w.Kind != WaitMarker || w.Rule != RuleExclusive || w.Loc != s || len(w.Entries) != 1 {
		t.Fatalf("rule \"an exclusive RMW waits for stores before an smp_wmb while another CPU may write its line\": %+v", w)
	}
	d.do("P1 exec")
	d.mustNot("P0 exec", "ARM: P1's store to the lock is still buffered")
	d.do("P1 commit #0")
	d.must("P0 exec", "ARM: no other CPU may write the lock any more, so spin_lock need not wait for the marker")
	d.do("P0 exec")
	if sb := d.state().StoreBuffer(0); len(sb) != 3 || sb[0].Loc != x || sb[1].Kind != EntryWmb || sb[2].Loc != s || !sb[2].Kind.IsExclusive() {
		t.Fatalf("the lock's exclusive entry waits behind the marker: %+v", sb)
	}
	d.mustNot("P0 commit #2", "ARM: the lock's write commits after the store ahead of the marker")
	d.do("P0 commit #0")
	d.do("P0 commit #2")
}

// An exclusive RMW reads past a wmb marker when no other CPU may write
// its line (herd7's ARMv8 allows the read; smp_wmb orders only its
// write): a load through the pointer it returns is then satisfied while
// the store ahead of the marker is still pending, which another CPU can
// see through a store and smp_mb.
func TestRuleExclusiveRMWReadsPastWmbMarker(t *testing.T) {
	b := NewBuilder("wmb-then-xchg-addr")
	x, w, v := b.Loc("x", 0), b.Loc("w", 0), b.Loc("v", 0)
	y := b.Loc("y", PtrTo(w))
	t0 := b.Thread()
	r0, r1 := t0.Reg("r0"), t0.Reg("r1")
	t0.StoreConst(Once, x, 1)
	t0.Fence(FenceWmb)
	t0.RMW(OrderRelaxed, RMWXchg, true, r0, y, Const(PtrTo(v)), nil)
	t0.LoadVia(Once, r1, r0)
	t1 := b.Thread()
	r2 := t1.Reg("r2")
	t1.StoreConst(Once, w, 1)
	t1.Fence(FenceMb)
	t1.Load(Once, r2, x)
	m := MustNew(b.Program(), ARM)
	res := Explore(m, Options{Workers: 1})
	want := false
	for _, o := range res.Outcomes {
		want = want || o.Outcome.Regs[0][r1] == 0 && o.Outcome.Regs[1][r2] == 0
	}
	if !want {
		t.Fatalf("ARM-like misses 0:r1=0, 1:r2=0 (herd7's ARMv8 allows it): %d outcomes", len(res.Outcomes))
	}
	if res.DeadlockStates != 0 {
		t.Fatalf("%d deadlocked states", res.DeadlockStates)
	}
}

// Two CPUs each storing a line, then smp_wmb, then an exclusive RMW of
// the other's line: neither RMW may read past its marker (the other CPU
// still writes its line), or the two reservations would hold up each
// other's stores ahead of the markers for ever.
func TestRuleExclusiveRMWsBehindMarkersNoDeadlock(t *testing.T) {
	b := NewBuilder("wmb-xchg-crossed")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	for _, ls := range [][2]Loc{{x, y}, {y, x}} {
		th := b.Thread()
		th.StoreConst(Once, ls[0], 1)
		th.Fence(FenceWmb)
		th.RMW(OrderRelaxed, RMWXchg, false, 0, ls[1], Const(2), nil)
	}
	res := Explore(MustNew(b.Program(), ARM), Options{Workers: 1})
	if res.DeadlockStates != 0 || len(res.Outcomes) == 0 {
		t.Fatalf("%d deadlocked states, %d outcomes", res.DeadlockStates, len(res.Outcomes))
	}
}

func TestRuleFullyOrderedRMW(t *testing.T) {
	b := NewBuilder("xchg")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	t0 := b.Thread()
	r := t0.Reg("r0")
	t0.StoreConst(Once, y, 1)
	t0.RMW(OrderFull, RMWXchg, true, r, x, Const(2), nil)
	for _, mode := range []Mode{TSO, ARM} {
		d := drive(t, b.Program(), mode)
		d.do("P0 exec")
		d.mustNot("P0 exec", "a fully ordered RMW waits for an empty store buffer")
		d.do("P0 commit #0")
		d.do("P0 exec")
		if d.state().Latest(x) != 2 || len(d.state().StoreBuffer(0)) != 0 {
			t.Fatalf("%s: rule \"a fully ordered RMW writes at once\"", mode)
		}
	}
}

func TestRuleFailedCmpxchg(t *testing.T) {
	b := NewBuilder("cmpxchg")
	x, y := b.Loc("x", 7), b.Loc("y", 0)
	t0 := b.Thread()
	r := t0.Reg("r0")
	t0.StoreConst(Once, y, 1)
	t0.RMW(OrderFull, RMWCmpXchg, true, r, x, Const(2), Const(0))
	d := drive(t, b.Program(), ARM)
	d.do("P0 exec")
	d.must("P0 exec", "ARM: a failed cmpxchg is a plain load with no barrier")
	if ev := d.do("P0 exec"); !ev.Failed || d.state().Reg(0, r) != 7 {
		t.Fatalf("failed cmpxchg: %+v", ev)
	}
	d = drive(t, b.Program(), TSO)
	d.do("P0 exec")
	d.mustNot("P0 exec", "TSO: a failed cmpxchg is still a locked instruction that drains the store buffer")
}

func TestRuleSpinLockMutualExclusion(t *testing.T) {
	b := NewBuilder("lock")
	l, n := b.Loc("l", 0), b.Loc("n", 0)
	for i := 0; i < 2; i++ {
		th := b.Thread()
		r := th.Reg("r")
		th.Lock(l)
		th.Load(Once, r, n)
		th.Store(Once, n, Bin(EAdd, RegExpr(r), Const(1)))
		th.Unlock(l)
	}
	for _, mode := range []Mode{TSO, ARM} {
		m := MustNew(b.Program(), mode)
		res := Explore(m, Options{})
		if len(res.Outcomes) == 0 || len(res.Deadlocks) > 0 {
			t.Fatalf("%s: %d outcomes, %d deadlocks", mode, len(res.Outcomes), len(res.Deadlocks))
		}
		for _, o := range res.Outcomes {
			if o.Outcome.Mem[n] != 2 {
				t.Fatalf("%s: rule \"spin_lock excludes\": a lost update, n=%d", mode, o.Outcome.Mem[n])
			}
		}
	}
}

func TestRuleSynchronizeRCUInsideOwnReaderDeadlocks(t *testing.T) {
	b := NewBuilder("rcu-self")
	x := b.Loc("x", 0)
	t0 := b.Thread()
	t0.RCULock()
	t0.SyncRCU()
	t0.StoreConst(Once, x, 1)
	t0.RCUUnlock()
	t1 := b.Thread()
	r := t1.Reg("r0")
	t1.Load(Once, r, x)
	for _, mode := range []Mode{TSO, ARM} {
		res := Explore(MustNew(b.Program(), mode), Options{})
		if len(res.Outcomes) != 0 || len(res.Deadlocks) == 0 {
			t.Fatalf("%s: rule \"synchronize_rcu in its own reader never completes\": %d outcomes, %d deadlocks", mode, len(res.Outcomes), len(res.Deadlocks))
		}
		if w := res.Deadlocks[0].Waits; len(w) == 0 || w[0].Kind != WaitQuiescent || !slices.Contains(w[0].CPUs, 0) {
			t.Fatalf("deadlock: %+v", w)
		}
	}
}

func TestRuleGracePeriodWaitsForReaderThatLeft(t *testing.T) {
	// regress-rcu-reader-left: the reader's buffered store must be visible
	// when synchronize_rcu returns.
	b := NewBuilder("rcu-left")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	t0 := b.Thread()
	r0 := t0.Reg("r0")
	t0.RCULock()
	t0.Load(Once, r0, y)
	t0.StoreConst(Once, x, 1)
	t0.RCUUnlock()
	t1 := b.Thread()
	r1 := t1.Reg("r1")
	t1.StoreConst(Once, y, 1)
	t1.SyncRCU()
	t1.Load(Once, r1, x)
	for _, mode := range []Mode{TSO, ARM} {
		checkReach(t, b.Program(), mode, func(o Outcome) bool { return reg(o, 0, r0) == 0 && reg(o, 1, r1) == 0 }, false, Options{})
	}
}

func TestRuleEarlyIssue(t *testing.T) {
	// LB shape with a control dependency on one side: the store inside the
	// if may not be issued early; the other side's may.
	b := NewBuilder("early")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	t0 := b.Thread()
	r0 := t0.Reg("r0")
	t0.Load(Once, r0, x)
	t0.If(RegExpr(r0), func() { t0.StoreConst(Once, y, 1) }, nil)
	t1 := b.Thread()
	r1 := t1.Reg("r1")
	t1.Load(Once, r1, y)
	t1.StoreConst(Once, x, 1)
	d := drive(t, b.Program(), ARM)
	// Past an unresolved branch a store goes into the store buffer (a
	// guess), where only its own CPU's loads see it (PPOCA): it commits
	// only once the branch has been performed.
	d.must("P0 early #2", "ARM: a store inside an unresolved if may be put in the store buffer")
	ev := d.do("P0 early #2")
	if ev.Stored == nil || ev.Stored.Guard != 2 {
		t.Fatalf("the store's entry is not guarded by the if: %+v", ev.Stored)
	}
	d.mustNot("P0 commit #2", "ARM: no store is made visible past an unresolved branch on a skipped load")
	d.do("P1 early #1") // x=1
	d.do("P1 commit #1")
	d.mustNot("P0 commit #2", "ARM: no store is made visible past an unresolved branch on a skipped load")
	d.do("P0 inv x")
	d.do("P0 exec") // r0 = 1: the if is taken, as guessed
	d.must("P0 commit #2", "ARM: a guarded store commits once its branch has executed")
	if e := d.state().StoreBuffer(0); len(e) != 1 || e[0].Guard != 0 {
		t.Errorf("the entry's guard is not cleared once the pc passed its branch: %+v", e)
	}
	d = drive(t, b.Program(), ARM)
	d.must("P1 early #1", "ARM: a plain store may be issued before an earlier plain load")
	d.do("P1 early #1")
	if !d.state().IssuedEarly(1, 1) {
		t.Fatal("issued-early mark missing")
	}
	d.do("P1 exec") // the skipped load runs; the pc passes the early store
	if !d.m.Finished(d.state(), 1) {
		t.Fatal("P1 should have finished after its skipped load")
	}
	// Same location: never issued early.
	b2 := NewBuilder("early-same")
	z := b2.Loc("z", 0)
	t2 := b2.Thread()
	r2 := t2.Reg("r2")
	t2.Load(Once, r2, z)
	t2.StoreConst(Once, z, 1)
	d = drive(t, b2.Program(), ARM)
	d.mustNot("P0 early #1", "ARM: a store never overtakes a load of its own location")
	d = drive(t, b.Program(), TSO)
	d.mustNot("P1 early #1", "TSO: stores are never issued early")
}

func TestRuleLoadPastUnresolvedBranchIsAGuess(t *testing.T) {
	// P0: r0 = flag; if (r0) { r1 = data } else { r2 = z; WRITE_ONCE(z, 1) }.
	b := NewBuilder("guess")
	data, flag, z := b.Loc("data", 0), b.Loc("flag", 0), b.Loc("z", 0)
	t0 := b.Thread()
	r0, r1, r2 := t0.Reg("r0"), t0.Reg("r1"), t0.Reg("r2")
	t0.Load(Once, r0, flag)
	t0.If(RegExpr(r0), func() { t0.Load(Once, r1, data) }, func() {
		t0.Load(Once, r2, z)
		t0.StoreConst(Once, z, 1)
	})
	t1 := b.Thread()
	t1.StoreConst(Once, flag, 1)
	p := b.Program()
	// #0 load flag, #1 if, #2 load data, #3 else, #4 load z, #5 store z.
	d := drive(t, p, ARM)
	d.must("P0 early #2", "ARM: a load inside an if may be performed before its condition is known")
	d.must("P0 early #4", "ARM: a load inside an else may be performed before its condition is known")
	d.mustNot("P0 early #5", "ARM: a store never overtakes a load of its own location")
	ev := d.do("P0 early #2")
	if ev.Guess != 1 {
		t.Errorf("the early load's event names guess %d, want the if (1)", ev.Guess)
	}
	d.mustNot("P0 early #4", "ARM: once a CPU guessed a branch's direction, it performs nothing on the other side")
	d.mustNot("P0 early #5", "ARM: once a CPU guessed a branch's direction, it performs nothing on the other side")
	// flag is 0: the branch is not taken, and the guess was wrong.
	ev = d.do("P0 exec")
	if ev.Misspec == nil || ev.Misspec.Guessed != 1 || ev.Misspec.Taken || !slices.Equal(ev.Misspec.Instrs, []int{2}) {
		t.Fatalf("the wrong guess is not in the event: %+v", ev.Misspec)
	}
	s := d.state()
	if len(d.m.Enabled(s)) != 0 || d.m.Final(s) || d.m.Deadlocked(s) {
		t.Errorf("a wrong guess must end the path as no execution: enabled %v, final %v, deadlocked %v", d.enabled(), d.m.Final(s), d.m.Deadlocked(s))
	}
	if _, f := d.m.Fault(s); f {
		t.Error("a wrong guess is no fault")
	}
	if w := d.m.Wait(s, 0); w.Kind != WaitMisspec || w.Misspec == nil || !slices.Equal(w.Misspec.Instrs, []int{2}) {
		t.Errorf("P0's wait is %v %+v, want misspeculated on #2", w.Kind, w.Misspec)
	}
	// The right guess: flag is 1 when P0 reads it.
	d = drive(t, p, ARM)
	d.do("P0 early #2")
	d.do("P1 exec")
	d.do("P1 commit #0")
	d.do("P0 inv flag")
	if ev := d.do("P0 exec"); ev.Misspec != nil {
		t.Fatalf("a right guess is no misspeculation: %+v", ev.Misspec)
	}
	if !d.m.Finished(d.state(), 0) {
		t.Error("P0 should have finished: its load inside the if was performed early")
	}
	// The explorer and the reference skip wrong guesses: no deadlock.
	res := Explore(MustNew(p, ARM), Options{})
	if res.DeadlockStates != 0 || res.FaultStates != 0 || res.MisspecStates == 0 {
		t.Errorf("explorer: %d deadlocked, %d faulted, %d mis-speculated states; want 0, 0, some", res.DeadlockStates, res.FaultStates, res.MisspecStates)
	}
	// TSO: nothing is issued early.
	d = drive(t, p, TSO)
	d.mustNot("P0 early #2", "TSO: loads are performed in order")
}

func TestRuleMbBeforeAtomicIsNoOpOnTSO(t *testing.T) {
	b := NewBuilder("before-atomic")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	t0 := b.Thread()
	r := t0.Reg("r")
	t0.StoreConst(Once, x, 1)
	t0.Fence(FenceMbBeforeAtomic)
	t0.Load(Once, r, y)
	d := drive(t, b.Program(), TSO)
	d.do("P0 exec")
	d.must("P0 exec", "TSO: smp_mb__before_atomic has no effect")
	d = drive(t, b.Program(), ARM)
	d.do("P0 exec")
	d.mustNot("P0 exec", "ARM: smp_mb__before_atomic is a full barrier")
}

func TestExecutedMarksPerformedInstructions(t *testing.T) {
	b := NewBuilder("branch")
	x := b.Loc("x", 0)
	t0 := b.Thread()
	r := t0.Reg("r0")
	t0.Load(Once, r, x)
	t0.If(RegExpr(r), func() { t0.StoreConst(Once, x, 2) }, func() { t0.StoreConst(Once, x, 3) })
	d := drive(t, b.Program(), TSO)
	d.do("P0 exec") // r0=0, the branch folds in and skips the then-part
	d.do("P0 exec") // x=3
	s := d.state()
	want := []bool{true, true, false, false, true}
	for i, w := range want {
		if s.Executed(0, i) != w {
			t.Fatalf("instruction %d (%s): executed=%v, want %v", i, b.Program().Threads[0].Code[i].Text, s.Executed(0, i), w)
		}
	}
}

// TestRuleARMLoadPassesReleaseRMW: a plain load, a relaxed RMW or a plain
// store may be performed before an earlier _release RMW (its release
// orders what precedes its write, and its read is an ordinary load); an
// acquire may not go before it, nor an access of its own location, nor a
// store whose entry would wait for a branch after it (the RMW waits for
// that entry: neither could go on); and nothing goes before a fully
// ordered RMW.
func TestRuleARMLoadPassesReleaseRMW(t *testing.T) {
	// P0 runs an RMW of x with order o, then next (y and z are two
	// other locations).
	after := func(o Order, next func(tb *ThreadBuilder, x, y, z Loc)) *driver {
		b := NewBuilder("release-rmw")
		x, y, z := b.Loc("x", 0), b.Loc("y", 0), b.Loc("z", 0)
		t0 := b.Thread()
		t0.RMW(o, RMWAdd, true, t0.Reg("r0"), x, Const(1), nil)
		next(t0, x, y, z)
		return drive(t, b.Program(), ARM)
	}
	loadY := func(tb *ThreadBuilder, x, y, z Loc) { tb.Load(Once, tb.Reg("r1"), y) }
	after(OrderRelease, loadY).must("P0 early #1", "ARM: a plain load may be satisfied before an earlier _release RMW")
	rmwY := func(tb *ThreadBuilder, x, y, z Loc) {
		tb.RMW(OrderRelaxed, RMWAdd, true, tb.Reg("r1"), y, Const(1), nil)
	}
	after(OrderRelease, rmwY).must("P0 early #1", "ARM: a relaxed RMW may be performed before an earlier _release RMW")
	storeY := func(tb *ThreadBuilder, x, y, z Loc) { tb.StoreConst(Once, y, 1) }
	after(OrderRelease, storeY).must("P0 early #1", "ARM: a plain store may be issued before an earlier _release RMW")
	after(OrderRelease, func(tb *ThreadBuilder, x, y, z Loc) {
		tb.Load(Once, tb.Reg("r1"), y)
		tb.StoreConst(Once, z, 1)
	}).must("P0 early #2", "ARM: a plain store may pass a plain load and an earlier _release RMW")
	// A branch before the RMW is performed before it: a store guarded
	// by it may go.
	guardedBefore := func(o Order) *driver {
		b := NewBuilder("release-rmw-guard-before")
		x, y, z := b.Loc("x", 0), b.Loc("y", 0), b.Loc("z", 0)
		t0 := b.Thread()
		r1 := t0.Reg("r1")
		t0.Load(Once, r1, y)
		t0.If(RegExpr(r1), func() {
			t0.RMW(o, RMWAdd, true, t0.Reg("r0"), x, Const(1), nil)
			t0.StoreConst(Once, z, 1)
		}, nil)
		return drive(t, b.Program(), ARM)
	}
	guardedBefore(OrderRelease).must("P0 early #3", "ARM: a store guarded by a branch before a _release RMW may be issued before that RMW")
	// A store under a branch after the RMW goes once the load the branch
	// reads has passed the RMW: the branch's direction is then known.
	loadThenStore := after(OrderRelease, func(tb *ThreadBuilder, x, y, z Loc) {
		r1 := tb.Reg("r1")
		tb.Load(Once, r1, y)
		tb.If(Bin(EEq, RegExpr(r1), Const(0)), func() { tb.StoreConst(Once, z, 1) }, nil)
	})
	loadThenStore.mustNot("P0 early #3", "ARM: a store guarded by a branch after a _release RMW is not issued before that RMW")
	loadThenStore.do("P0 early #1")
	loadThenStore.must("P0 early #3", "ARM: once the branch's load has passed the _release RMW, the store under the branch may too")
	after(OrderFull, loadY).mustNot("P0 early #1", "ARM: nothing goes before an earlier fully ordered RMW")
	after(OrderFull, storeY).mustNot("P0 early #1", "ARM: nothing goes before an earlier fully ordered RMW")
	for _, c := range []struct {
		what string
		next func(tb *ThreadBuilder, x, y, z Loc)
		k    int  // the instruction that must not go early
		own  bool // it touches the RMW's location: a relaxed RMW stops it too
	}{
		{"a load of its own location", func(tb *ThreadBuilder, x, y, z Loc) { tb.Load(Once, tb.Reg("r1"), x) }, 1, true},
		{"a store to its own location", func(tb *ThreadBuilder, x, y, z Loc) { tb.StoreConst(Once, x, 2) }, 1, true},
		{"an acquire", func(tb *ThreadBuilder, x, y, z Loc) { tb.Load(Acquire, tb.Reg("r1"), y) }, 1, false},
		{"an acquire RMW", func(tb *ThreadBuilder, x, y, z Loc) {
			tb.RMW(OrderAcquire, RMWAdd, true, tb.Reg("r1"), y, Const(1), nil)
		}, 1, false},
		{"a store guarded by a branch after it", func(tb *ThreadBuilder, x, y, z Loc) {
			r1 := tb.Reg("r1")
			tb.Load(Once, r1, y)
			tb.If(RegExpr(r1), func() { tb.StoreConst(Once, z, 1) }, nil)
		}, 3, false},
	} {
		id := fmt.Sprintf("P0 early #%d", c.k)
		d := after(OrderRelease, c.next)
		if d.can(id) {
			t.Errorf("%s goes before an earlier _release RMW (%s enabled)", c.what, id)
		}
		// The guarded store once went, and its entry and the RMW then
		// waited for each other.
		if r := Explore(d.m, Options{NoWitnesses: true}); r.DeadlockStates != 0 {
			t.Errorf("after %s, the search finds %d deadlocked states", c.what, r.DeadlockStates)
		}
		// The others do go before a relaxed RMW: the release is what
		// stops them.
		if c.own {
			continue
		}
		if !after(OrderRelaxed, c.next).can(id) {
			t.Errorf("%s does not go before an earlier relaxed RMW either (%s not enabled): the case tests nothing", c.what, id)
		}
	}
}

// ARM-like: a fully ordered cmpxchg orders nothing when it fails, so what
// follows it may be performed before it, on the guess that it fails
// (litmusgen regression arm-missing-rmw-past-failing-cmpxchg-5000009). If
// it then succeeds, the path is no execution.
// An acquire passes a conditional _release RMW on the guess that it
// fails: a failed cmpxchg_release makes no release write, and only that
// write orders a later acquire after it (herd7's ARMv8; litmusgen
// regression arm-missing-acquire-past-failing-cmpxchg-release-8000309).
func TestRuleARMAcquirePassesFailingCmpxchgRelease(t *testing.T) {
	// P0: r0 = cmpxchg_release(x, 0, 2); then next; P1 stores 1 to x,
	// which makes the cmpxchg fail if it comes first.
	after := func(kind RMWKind, next func(tb *ThreadBuilder, y Loc)) *driver {
		b := NewBuilder("failing-cmpxchg-release")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		t0.RMW(OrderRelease, kind, true, t0.Reg("r0"), x, Const(2), Const(0))
		next(t0, y)
		t1 := b.Thread()
		t1.StoreConst(Once, x, 1)
		return drive(t, b.Program(), ARM)
	}
	acqLoad := func(tb *ThreadBuilder, y Loc) { tb.Load(Acquire, tb.Reg("r1"), y) }
	acqRMW := func(tb *ThreadBuilder, y Loc) {
		tb.RMW(OrderAcquire, RMWXchg, true, tb.Reg("r1"), y, Const(1), nil)
	}
	lock := func(tb *ThreadBuilder, y Loc) { tb.Lock(y) }
	trylock := func(tb *ThreadBuilder, y Loc) { tb.TryLock(tb.Reg("r1"), y) }
	after(RMWCmpXchg, acqLoad).must("P0 early #1", "ARM: smp_load_acquire may be performed before a cmpxchg_release, on the guess that it fails")
	after(RMWCmpXchg, acqRMW).must("P0 early #1", "ARM: an _acquire RMW may be performed before a cmpxchg_release, on the guess that it fails")
	after(RMWCmpXchg, lock).must("P0 early #1", "ARM: spin_lock may be performed before a cmpxchg_release, on the guess that it fails")
	after(RMWCmpXchg, trylock).mustNot("P0 early #1", "ARM: a spin_trylock that would succeed does not pass a cmpxchg_release")
	after(RMWXchg, acqLoad).mustNot("P0 early #1", "ARM: an acquire does not pass an xchg_release (release→acquire)")

	// The guess is named, and a wrong one ends the path.
	d := after(RMWCmpXchg, acqLoad)
	if ev := d.do("P0 early #1"); ev.Guess != 0 {
		t.Errorf("the early acquire's event names guess %d, want the cmpxchg_release (0)", ev.Guess)
	}
	ev := d.do("P0 exec") // x is still 0: it succeeds
	if ev.Misspec == nil || !ev.Misspec.Succeeded || !slices.Equal(ev.Misspec.Instrs, []int{1}) {
		t.Fatalf("the wrong guess is not in the event: %+v", ev.Misspec)
	}
	if s := d.state(); len(d.m.Enabled(s)) != 0 || d.m.Final(s) || d.m.Deadlocked(s) {
		t.Errorf("a wrong guess must end the path as no execution")
	}
	// A right guess goes on, and says so.
	d = after(RMWCmpXchg, acqLoad)
	d.do("P0 early #1")
	d.do("P1 exec")
	d.do("P1 commit #0")
	d.do("P0 inv x")
	if ev := d.do("P0 exec"); ev.Misspec != nil || !ev.Failed || ev.RMW == nil || !slices.Equal(ev.RMW.Guessed, []int{1}) {
		t.Errorf("a cmpxchg_release that fails as guessed: misspec %+v, failed %v, rmw %+v", ev.Misspec, ev.Failed, ev.RMW)
	}
	// A plain load past it is no guess: the cmpxchg_release may succeed.
	d = after(RMWCmpXchg, func(tb *ThreadBuilder, y Loc) { tb.Load(Once, tb.Reg("r1"), y) })
	d.do("P0 early #1")
	if ev := d.do("P0 exec"); ev.Misspec != nil || ev.Failed {
		t.Errorf("a plain load past a cmpxchg_release that succeeds: misspec %+v, failed %v", ev.Misspec, ev.Failed)
	}
}

func TestRuleARMPassFailingCmpxchg(t *testing.T) {
	// P0: r0 = cmpxchg(x, 0, 2); then next (y and z are two other
	// locations). x starts at 0, so the cmpxchg succeeds unless P1
	// stores 1 to x first.
	after := func(order Order, kind RMWKind, next func(tb *ThreadBuilder, x, y, z Loc)) *driver {
		b := NewBuilder("failing-cmpxchg")
		x, y, z := b.Loc("x", 0), b.Loc("y", 0), b.Loc("z", 0)
		t0 := b.Thread()
		t0.RMW(order, kind, true, t0.Reg("r0"), x, Const(2), Const(0))
		next(t0, x, y, z)
		t1 := b.Thread()
		t1.StoreConst(Once, x, 1)
		return drive(t, b.Program(), ARM)
	}
	loadY := func(tb *ThreadBuilder, x, y, z Loc) { tb.Load(Once, tb.Reg("r1"), y) }
	storeY := func(tb *ThreadBuilder, x, y, z Loc) { tb.StoreConst(Once, y, 1) }
	rmwY := func(tb *ThreadBuilder, x, y, z Loc) {
		tb.RMW(OrderRelaxed, RMWAdd, true, tb.Reg("r1"), y, Const(1), nil)
	}
	after(OrderFull, RMWCmpXchg, loadY).must("P0 early #1", "ARM: a load may be performed before a fully ordered cmpxchg, on the guess that it fails")
	after(OrderFull, RMWCmpXchg, storeY).must("P0 early #1", "ARM: a store may be issued before a fully ordered cmpxchg, on the guess that it fails")
	after(OrderFull, RMWCmpXchg, rmwY).must("P0 early #1", "ARM: a relaxed RMW may be performed before a fully ordered cmpxchg, on the guess that it fails")
	after(OrderFull, RMWAddUnless, loadY).must("P0 early #1", "ARM: a load may be performed before a fully ordered atomic_add_unless, on the guess that it fails")
	// What cannot fail, or orders what follows it even when it fails, is
	// passed by nothing.
	after(OrderFull, RMWXchg, loadY).mustNot("P0 early #1", "ARM: nothing goes before an earlier fully ordered xchg")
	after(OrderAcquire, RMWCmpXchg, loadY).mustNot("P0 early #1", "ARM: nothing goes before an earlier cmpxchg_acquire (a failed one is an acquire load)")
	after(OrderFull, RMWCmpXchg, func(tb *ThreadBuilder, x, y, z Loc) { tb.Load(Once, tb.Reg("r1"), x) }).
		mustNot("P0 early #1", "ARM: a load of the cmpxchg's own location does not pass it")

	// The guess is named in the event, and a wrong one ends the path.
	d := after(OrderFull, RMWCmpXchg, storeY)
	if ev := d.do("P0 early #1"); ev.Guess != 0 {
		t.Errorf("the early store's event names guess %d, want the cmpxchg (0)", ev.Guess)
	}
	d.do("P0 commit #1")  // y=1 is visible before the cmpxchg has read x
	ev := d.do("P0 exec") // x is still 0: it succeeds
	if ev.Misspec == nil || !ev.Misspec.Succeeded || ev.Misspec.Guessed != 0 || !slices.Equal(ev.Misspec.Instrs, []int{1}) {
		t.Fatalf("the wrong guess is not in the event: %+v", ev.Misspec)
	}
	s := d.state()
	if ms, ok := d.m.Misspeculated(s); !ok || !ms.Succeeded || !slices.Equal(ms.Instrs, []int{1}) {
		t.Errorf("Misspeculated = %+v, %v: want the cmpxchg's guess with instruction 1", ms, ok)
	}
	if len(d.m.Enabled(s)) != 0 || d.m.Final(s) || d.m.Deadlocked(s) {
		t.Errorf("a wrong guess must end the path as no execution: enabled %v, final %v, deadlocked %v", d.enabled(), d.m.Final(s), d.m.Deadlocked(s))
	}
	// A right guess: P1's store makes the cmpxchg fail, and the path goes on.
	d = after(OrderFull, RMWCmpXchg, storeY)
	d.do("P0 early #1")
	d.do("P1 exec")
	d.do("P1 commit #0")
	d.do("P0 inv x") // else its stale copy says 0, and it would succeed
	if ev := d.do("P0 exec"); ev.Misspec != nil || !ev.Failed {
		t.Errorf("a cmpxchg that fails as guessed: misspec %+v, failed %v", ev.Misspec, ev.Failed)
	}

	// A store under a branch after the cmpxchg waits for the branch; the
	// cmpxchg, if it would succeed, for the store: it is not offered, and
	// no search deadlocks. Once the branch's load has passed the cmpxchg,
	// the store may too.
	branchStore := after(OrderFull, RMWCmpXchg, func(tb *ThreadBuilder, x, y, z Loc) {
		r1 := tb.Reg("r1")
		tb.Load(Once, r1, y)
		tb.If(Bin(EEq, RegExpr(r1), Const(0)), func() { tb.StoreConst(Once, z, 1) }, nil)
	})
	branchStore.mustNot("P0 early #3", "ARM: a store guarded by a branch after a fully ordered cmpxchg is not issued before it")
	if r := Explore(branchStore.m, Options{NoWitnesses: true}); r.DeadlockStates != 0 {
		t.Errorf("with a guarded store after the cmpxchg, the search finds %d deadlocked states", r.DeadlockStates)
	}
	branchStore.do("P0 early #1")
	branchStore.must("P0 early #3", "ARM: once the branch's load has passed the cmpxchg, the store under the branch may too")
}

// TestRuleARMStorePassesReleaseStore: a release store (STLR) orders what
// precedes it before its write and nothing after it, so a later plain
// store of another location may be issued before it and before the load
// ahead of it (LB through a release store: litmusgen regression
// arm-missing-store-past-release-store). The release itself never goes
// early, nor, past it, a load, an acquire or a store of its location; and
// once it executes, its entry waits for the early store's to commit.
func TestRuleARMStorePassesReleaseStore(t *testing.T) {
	build := func(mode Mode, next func(tb *ThreadBuilder, y, z, x Loc)) *driver {
		b := NewBuilder("release-store")
		x, y, z := b.Loc("x", 0), b.Loc("y", 0), b.Loc("z", 0)
		t0 := b.Thread()
		t0.Load(Once, t0.Reg("r0"), y)
		t0.StoreConst(Release, z, 1)
		next(t0, y, z, x)
		return drive(t, b.Program(), mode)
	}
	storeX := func(tb *ThreadBuilder, y, z, x Loc) { tb.StoreConst(Once, x, 1) }
	d := build(ARM, storeX)
	d.mustNot("P0 early #1", "ARM: a release store is never issued early")
	d.must("P0 early #2", "ARM: a plain store may pass a release store and the load before it")
	d.do("P0 early #2")
	d.do("P0 exec") // the load of y
	d.do("P0 exec") // the release store: its entry behind x's
	d.mustNot("P0 commit #1", "ARM: the release commits only after the store issued before it")
	d.do("P0 commit #2")
	d.must("P0 commit #1", "ARM: the release commits once it is the oldest")
	build(TSO, storeX).mustNot("P0 early #2", "TSO: stores are never issued early")
	build(ARM, func(tb *ThreadBuilder, y, z, x Loc) { tb.StoreConst(Once, z, 2) }).
		mustNot("P0 early #2", "ARM: a store never passes a release store of its own location")
	build(ARM, func(tb *ThreadBuilder, y, z, x Loc) { tb.Load(Once, tb.Reg("r1"), x) }).
		mustNot("P0 early #2", "ARM: no load is issued past a release store")
	build(ARM, func(tb *ThreadBuilder, y, z, x Loc) { tb.Load(Acquire, tb.Reg("r1"), x) }).
		mustNot("P0 early #2", "ARM: an acquire never passes a release store")
	// spin_unlock is a release store of the lock: a store after the
	// section may go before it and before the loads inside.
	b := NewBuilder("unlock")
	x, y, l := b.Loc("x", 0), b.Loc("y", 0), b.Loc("l", 0)
	t0 := b.Thread()
	t0.Lock(l)
	t0.Load(Once, t0.Reg("r0"), y)
	t0.Unlock(l)
	t0.StoreConst(Once, x, 1)
	d = drive(t, b.Program(), ARM)
	d.do("P0 exec") // the lock
	d.mustNot("P0 early #2", "ARM: an unlock is never issued early")
	d.must("P0 early #3", "ARM: a plain store may pass an unlock and the load before it")
	// The explorer must not take such a store alone: issuing it orders it
	// before the release's write, which executions issuing it in order
	// need not do (earlyStore, pastRelease).
	m := MustNew(build(ARM, storeX).m.Prog, ARM)
	if _, _, alone := (&explorer{m: m}).earlyStore(m.Initial()); alone {
		t.Error("a store issued past a release store was taken alone")
	}
}

package machine

import "testing"

// TestChangedOnlyAcceptsOwnReport: a move after which its CPU reports to
// a grace period (eagerly) changed nothing else but that report, so its
// footprint is known; a state in which another CPU's report also
// happened is not accepted.
func TestChangedOnlyAcceptsOwnReport(t *testing.T) {
	b := NewBuilder("report")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	p0 := b.Thread()
	r0 := p0.Reg("r0")
	p0.StoreConst(Once, x, 1)
	p0.RCULock()
	p0.Load(Once, r0, y)
	p0.RCUUnlock()
	b.Thread().SyncRCU()
	p2 := b.Thread()
	p2.StoreConst(Once, y, 1)
	p2.RCULock()
	p2.RCUUnlock()
	d := drive(t, b.Program(), TSO)

	// Reports are steps of their own here; the search takes them at
	// once, after the move that makes them possible.
	d.do("P0 exec") // x=1 buffered: P0 owes a report
	d.do("P2 exec") // y=1 buffered: P2 too
	d.do("P1 exec") // the grace period starts
	d.do("P1 qs")
	start := d.state()
	if g := start.cpus[1].gpWait; g != 1<<0|1<<2 {
		t.Fatalf("the grace period waits for %b, want P0 and P2", g)
	}
	d.do("P0 commit #0")
	d.do("P0 qs")
	after := d.state()
	if g := after.cpus[1].gpWait; g != 1<<2 {
		t.Fatalf("after P0's commit the grace period waits for %b, want P2 only", g)
	}

	e := newExplorer(d.m, Options{Workers: 1}, NewBudget(1<<30))
	defer e.release()
	w := e.workers[0]
	if !e.changedOnly(start, after.clone(), 0, 1<<x, 1<<x, false, w) {
		t.Errorf("P0's commit and its own report were not accepted as a change of x only")
	}
	d.do("P2 commit #0")
	d.do("P2 qs")
	if e.changedOnly(start, d.state(), 0, 1<<x, 1<<x, false, w) {
		t.Errorf("a state in which P2 also committed y and reported was accepted as P0's change of x only")
	}
}

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
	p1 := b.Thread()
	p1.SyncRCU()
	p2 := b.Thread()
	p2.StoreConst(Once, y, 1)
	p2.RCULock()
	p2.RCUUnlock()
	m := MustNew(b.Program(), TSO)

	s := m.Initial()
	apply := func(s *State, st Step) *State {
		t.Helper()
		next, _, err := m.Apply(s, st)
		if err != nil {
			t.Fatalf("%v: %v", st, err)
		}
		return next
	}
	// Reports are steps of their own here; the search takes them at
	// once, after the move that makes them possible.
	reports := func(s *State) *State {
		for again := true; again; {
			again = false
			for _, st := range m.Enabled(s) {
				if st.Kind == StepReportQS {
					s, again = apply(s, st), true
					break
				}
			}
		}
		return s
	}
	s = apply(s, Step{Kind: StepExec, CPU: 0})          // x=1 buffered: P0 owes a report
	s = apply(s, Step{Kind: StepExec, CPU: 2})          // y=1 buffered: P2 too
	s = reports(apply(s, Step{Kind: StepExec, CPU: 1})) // the grace period starts
	if g := s.cpus[1].gpWait; g != 1<<0|1<<2 {
		t.Fatalf("the grace period waits for %b, want P0 and P2", g)
	}
	commit := func(s *State, c int) *State {
		for _, st := range m.Enabled(s) {
			if st.Kind == StepCommit && int(st.CPU) == c {
				return reports(apply(s, st))
			}
		}
		t.Fatalf("P%d has no commit", c)
		return nil
	}
	after := commit(s, 0)
	if g := after.cpus[1].gpWait; g != 1<<2 {
		t.Fatalf("after P0's commit the grace period waits for %b, want P2 only", g)
	}

	e := newExplorer(m, Options{Workers: 1}, NewBudget(1<<30))
	defer e.release()
	w := e.workers[0]
	if !e.changedOnly(s, after.clone(), 0, 1<<x, 1<<x, false, w) {
		t.Errorf("P0's commit and its own report were not accepted as a change of x only")
	}
	both := commit(after, 2)
	if e.changedOnly(s, both, 0, 1<<x, 1<<x, false, w) {
		t.Errorf("a state in which P2 also committed y and reported was accepted as P0's change of x only")
	}
}

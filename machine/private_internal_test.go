package machine

import "testing"

// TestStoreNoGracePeriodWaitsForIsPrivate: a store is a private step
// (taken alone, before the other CPUs' steps) while no grace period can
// wait for its CPU's store buffer to drain (buffersUnseen), and not when
// one can: the buffer then delays the CPU's quiescent state, which the
// grace period's CPU observes.
func TestStoreNoGracePeriodWaitsForIsPrivate(t *testing.T) {
	const (
		none = iota
		rcu
		srcu
	)
	cases := []struct {
		name         string
		sync, reader int // the grace period P1 waits for; P0's sections
		private      bool
	}{
		{"rcu-gp-plain-cpu", rcu, none, true},
		{"rcu-gp-srcu-reader", rcu, srcu, true},
		{"srcu-gp-plain-cpu", srcu, none, true},
		{"srcu-gp-rcu-reader", srcu, rcu, true},
		{"rcu-gp-rcu-reader", rcu, rcu, false},
		{"srcu-gp-srcu-reader", srcu, srcu, false},
	}
	for _, tc := range cases {
		b := NewBuilder(tc.name)
		x, y, ss := b.Loc("x", 0), b.Loc("y", 0), b.Loc("ss", 0)
		// P0: the store under test first, a load (so that no section
		// marker is folded into the store's step), then (maybe) a
		// read-side section around a load.
		p0 := b.Thread()
		r0, idx := p0.Reg("r0"), p0.Reg("idx")
		p0.StoreConst(Once, x, 1)
		p0.Load(Once, r0, y)
		switch tc.reader {
		case rcu:
			p0.RCULock()
			p0.Load(Once, r0, y)
			p0.RCUUnlock()
		case srcu:
			p0.SRCULock(idx, ss)
			p0.Load(Once, r0, y)
			p0.SRCUUnlock(ss, RegExpr(idx))
		}
		// P1: a load of x (not private: P0 writes x), then the grace
		// period, then a store of y.
		p1 := b.Thread()
		r1 := p1.Reg("r1")
		p1.Load(Once, r1, x)
		if tc.sync == rcu {
			p1.SyncRCU()
		} else {
			p1.SyncSRCU(ss)
		}
		p1.StoreConst(Once, y, 1)
		prog := b.Program()
		for _, mode := range []Mode{TSO, ARM} {
			m, e, w := testExplorer(t, prog, mode)
			s := m.Initial()
			mvs, ok := e.privateStep(s, w)
			got := ok && len(mvs) == 1 && mvs[0].step == Step{Kind: StepExec, CPU: 0}
			if got != tc.private {
				t.Errorf("%s, %s: P0's store taken alone: %v (moves %v), want %v", tc.name, mode, got, mvs, tc.private)
			}
		}
	}
}

// TestStoreDelaysOnlyWatchedCPUs: in the persistent sets, a store into an
// empty buffer delays its CPU (it no longer commutes with a grace
// period's start) only when some grace period waits for that CPU to
// drain (buffersUnseen); a CPU outside every read-side section of the
// synchronised kinds reports whatever it buffers.
func TestStoreDelaysOnlyWatchedCPUs(t *testing.T) {
	for _, reader := range []bool{false, true} {
		b := NewBuilder("delays")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		// P0: a store (not postponed: a load follows it), then maybe a
		// reader.
		p0 := b.Thread()
		r0 := p0.Reg("r0")
		p0.StoreConst(Once, x, 1)
		p0.Load(Once, r0, y)
		if reader {
			p0.RCULock()
			p0.Load(Once, r0, x)
			p0.RCUUnlock()
		}
		p1 := b.Thread() // P1: reads x, waits for a grace period, writes y
		r1 := p1.Reg("r1")
		p1.Load(Once, r1, x)
		p1.SyncRCU()
		p1.StoreConst(Once, y, 1)
		prog := b.Program()
		for _, mode := range []Mode{TSO, ARM} {
			m, e, w := testExplorer(t, prog, mode)
			s := m.Initial()
			w.cpuMvs = nil
			for c := range s.cpus {
				w.cpuMvs = append(w.cpuMvs, e.cpuMacros(nil, s, c, w))
			}
			w.resetMoveMemos(len(s.cpus))
			rereads := make([]uint64, len(s.cpus))
			found := false
			for i, mv := range w.cpuMvs[0] {
				if mv.step != (Step{Kind: StepExec, CPU: 0}) || mv.store != 0 {
					continue
				}
				found = true
				f := e.moveFoot(s, 0, i, m.liveWrites(s), rereads, w)
				if f.delays != reader {
					t.Errorf("reader %v, %s: the store delays P0: %v, want %v", reader, mode, f.delays, reader)
				}
			}
			if !found {
				t.Fatalf("reader %v, %s: P0's store is no move of its own: %+v", reader, mode, w.cpuMvs[0])
			}
		}
	}
}

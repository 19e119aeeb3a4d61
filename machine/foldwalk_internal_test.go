package machine

import "testing"

// TestFoldWalkAgreesWithFoldsOnlyLocal: wherever foldWalk answers for
// privateStep without a copy (no waiting instruction can be folded after
// the exec step, or an srcu_read_unlock certainly will be),
// foldsOnlyLocal, taking the step, says the same; checked on every
// reachable state of SRCU readers whose loads are followed by register
// arithmetic, rcu_read_unlock and the unlock, in both modes (ARM-like:
// with loads issued early).
func TestFoldWalkAgreesWithFoldsOnlyLocal(t *testing.T) {
	b := NewBuilder("folds")
	x, y, sl := b.Loc("x", 0), b.Loc("y", 0), b.Loc("s", 0)
	p0 := b.Thread()
	i0, r0, r1 := p0.Reg("i0"), p0.Reg("r0"), p0.Reg("r1")
	p0.SRCULock(i0, sl)
	p0.RCULock()
	p0.Load(Once, r0, x)
	p0.Load(Once, r1, y)
	p0.Assign(r1, RegExpr(r0))
	p0.RCUUnlock()
	p0.SRCUUnlock(sl, RegExpr(i0))
	p1 := b.Thread()
	i1, r2 := p1.Reg("i1"), p1.Reg("r2")
	p1.StoreConst(Once, y, 1)
	p1.SRCULock(i1, sl)
	p1.Load(Once, r2, y)
	p1.SRCUUnlock(sl, RegExpr(i1))
	p1.StoreConst(Once, x, 1)
	p2 := b.Thread()
	p2.StoreConst(Once, x, 2)
	p2.SyncSRCU(sl)
	p2.StoreConst(Once, y, 2)
	prog := b.Program()
	for _, mode := range []Mode{TSO, ARM} {
		m, e, w := testExplorer(t, prog, mode)
		seen := map[string]bool{}
		queue := []*State{m.Initial()}
		certain, sureN, states := 0, 0, 0
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			k := string(e.encode(s, w))
			if seen[k] {
				continue
			}
			seen[k] = true
			states++
			for c := range s.cpus {
				if m.finished(s, c) || !m.enabledExec(s, c) {
					continue
				}
				may, sure := m.foldWalk(s, c)
				if may && !sure {
					continue // foldsOnlyLocal decides
				}
				certain++
				if sure {
					sureN++
				}
				if local := e.foldsOnlyLocal(w.load(&w.sc, s), Step{Kind: StepExec, CPU: uint8(c)}, w); local == sure {
					t.Fatalf("%s: P%d at pc %d: foldWalk says %v, %v; foldsOnlyLocal %v", mode, c, s.cpus[c].pc, may, sure, local)
				}
			}
			for _, st := range m.Enabled(s) {
				n, _, err := m.Apply(s, st)
				if err != nil {
					t.Fatal(err)
				}
				queue = append(queue, n)
			}
		}
		if sureN == 0 || sureN == certain {
			t.Fatalf("%s: of foldWalk's %d answers in %d states, %d are an SRCU unlock folded: the test checks one kind only", mode, certain, states, sureN)
		}
		t.Logf("%s: %d states, %d answers checked, %d of them an SRCU unlock folded", mode, states, certain, sureN)
	}
}

package machine

import "testing"

// TestOwnUnlock: persistentCPU treats a folded srcu_read_unlock as local
// to its CPU only when it can close nothing but its own CPU's sections,
// which no other CPU can close (persistent.go, "Closing one's own
// section"). An index handed to another CPU through memory, or a section
// opened by srcu_down_read, makes every unlock it reaches a rule-6 move.
func TestOwnUnlock(t *testing.T) {
	b := NewBuilder("own-unlock")
	x, y, sp := b.Loc("x", 0), b.Loc("y", 0), b.Loc("s", 0)
	p0 := b.Thread() // its own section, closed by itself
	r0, r1 := p0.Reg("r0"), p0.Reg("r1")
	p0.SRCULock(r0, sp)
	p0.Load(Once, r1, x)
	p0.SRCUUnlock(sp, RegExpr(r0))
	p1 := b.Thread() // hands its index to P2, and may close the section itself
	q0 := p1.Reg("r0")
	p1.SRCULock(q0, sp)
	p1.Store(Once, y, RegExpr(q0))
	p1.SRCUUnlock(sp, RegExpr(q0))
	p2 := b.Thread() // closes P1's section with the index it read
	u0 := p2.Reg("r0")
	p2.Load(Once, u0, y)
	p2.SRCUUnlock(sp, RegExpr(u0))
	p3 := b.Thread() // a down/up pair: another CPU may close such a section
	v0 := p3.Reg("r0")
	p3.SRCULock(v0, sp)
	p3.SRCUUnlock(sp, RegExpr(v0))
	p4 := b.Thread()
	p4.SyncSRCU(sp)
	prog := b.Program()
	prog.Threads[3].Code[0].Cross = true
	prog.Threads[3].Code[1].Cross = true
	m := MustNew(prog, ARM)
	for _, tc := range []struct {
		cpu, pc int
		want    bool
		why     string
	}{
		{0, 2, true, "P0 closes only its own section"},
		{1, 2, false, "P1's section may also be closed by P2"},
		{2, 1, false, "P2 closes P1's section"},
		{3, 1, false, "srcu_up_read"},
	} {
		if got := m.ownUnlock(tc.cpu, tc.pc); got != tc.want {
			t.Errorf("P%d instruction %d: ownUnlock %v, want %v (%s)", tc.cpu, tc.pc, got, tc.want, tc.why)
		}
	}
}

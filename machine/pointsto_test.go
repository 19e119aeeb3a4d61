package machine

import (
	"math/bits"
	"testing"

	"pgregory.net/rapid"
)

// The pointer publication shape: the store through the loaded pointer
// touches only the locations ever published (and the initial one).
func TestAddrTargetsPublication(t *testing.T) {
	b := NewBuilder("publication")
	x := b.Loc("x", 0)
	y := b.Loc("y", 0)
	z := b.Loc("z", 0)
	p := b.Loc("p", PtrTo(z))
	q := b.Loc("q", 0)
	t0 := b.Thread()
	t0.StoreConst(Release, p, PtrTo(x))
	t0.StoreConst(Once, q, PtrTo(y))
	t1 := b.Thread()
	r := t1.Reg("r")
	s := t1.Reg("s")
	t1.Load(RCUDeref, r, p)
	t1.StoreVia(Once, r, Const(1))
	t1.Load(Once, s, q)
	t1.LoadVia(Once, t1.Reg("v"), s)
	t1.RMW(OrderRelaxed, RMWAdd, false, 0, q, Const(1), nil)
	t1.LoadVia(Once, t1.Reg("w"), s)
	prog := b.Program()
	got := addrTargets(prog)
	bit := func(ls ...Loc) uint64 {
		var m uint64
		for _, l := range ls {
			m |= 1 << l
		}
		return m
	}
	if want := bit(x, z); got[1][1] != want {
		t.Errorf("store through rcu_dereference(*p): targets %b, want %b (x and z)", got[1][1], want)
	}
	// q is also the target of an atomic_add: its values are any, so the
	// loads through s may touch every line.
	if got[1][3] != ^uint64(0) || got[1][5] != ^uint64(0) {
		t.Errorf("loads through a pointer read from an atomically added location: %b %b, want every line", got[1][3], got[1][5])
	}
	if got[0][0] != bit(p) || got[1][0] != bit(p) {
		t.Errorf("constant addresses: %b %b, want only p", got[0][0], got[1][0])
	}
	m, err := New(prog, ARM)
	if err != nil {
		t.Fatal(err)
	}
	if fw := m.fut.futureWrites[1][1]; fw&^bit(x, z, q) != 0 || fw&bit(x, z) != bit(x, z) {
		t.Errorf("futureWrites of P1 from its store through r: %b, want x, z (and q's RMW)", fw)
	}
}

// Every access a random walk performs is at a location addrTargets
// allows: checked at every state for each CPU's next instruction, and
// for every instruction left whose address registers no instruction left
// writes (its address is already what it will be).
func TestAddrTargetsCoverWalks(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		prog := genProgramOf(rt, false, true)
		mode := []Mode{TSO, ARM}[rapid.IntRange(0, 1).Draw(rt, "mode")]
		m, err := New(prog, mode)
		if err != nil {
			rt.Skip(err)
		}
		targets := addrTargets(prog)
		s := m.Initial()
		for step := 0; step < 300; step++ {
			for c := range s.cpus {
				cs := &s.cpus[c]
				code := m.code(c)
				if cs.fault || int(cs.pc) >= len(code) {
					continue
				}
				check := m.fut.reach[c][cs.pc] &^ cs.early
				final := m.finalRegs(s, c)
				for l := check; l != 0; l &= l - 1 {
					k := bits.TrailingZeros64(l)
					in := &code[k]
					if in.Addr == nil || k != int(cs.pc) && in.Addr.Regs()&^final != 0 {
						continue
					}
					if loc, ok := m.addr(in, cs.regs); ok && targets[c][k]&(1<<loc) == 0 {
						rt.Fatalf("P%d instruction %d (%s) accesses %s, outside its targets %b", c, k, in.Text, prog.Locs[loc], targets[c][k])
					}
				}
			}
			en := m.Enabled(s)
			if len(en) == 0 {
				return
			}
			next, _, err := m.Apply(s, en[rapid.IntRange(0, len(en)-1).Draw(rt, "step")])
			if err != nil {
				rt.Fatal(err)
			}
			s = next
		}
	})
}

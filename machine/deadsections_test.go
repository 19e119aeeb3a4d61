package machine

import (
	"bytes"
	"testing"
)

// TestClosedSectionsLeftOutOfSearchKey checks what deadSections leaves
// out of the search's encoding (encode.go, "Closed sections"): whether a
// register, a store-buffer entry, memory or a grace period carries a
// closed SRCU section changes no stored state, whether it carries an open
// one changes each of them, and with the reduction off every bit counts.
func TestClosedSectionsLeftOutOfSearchKey(t *testing.T) {
	b := NewBuilder("closed-sections")
	x, sl := b.Loc("x", 0), b.Loc("s", 0)
	t0 := b.Thread()
	r0 := t0.Reg("r0")
	t0.SRCULock(r0, sl)
	t0.SRCUUnlock(sl, RegExpr(r0))
	t1 := b.Thread()
	r1, r2 := t1.Reg("r1"), t1.Reg("r2")
	t1.SRCULock(r1, sl)
	t1.Store(Once, x, RegExpr(r1))
	t1.Load(Once, r2, x) // keeps the unlock from folding into the store
	t1.SRCUUnlock(sl, RegExpr(r1))
	t2 := b.Thread()
	t2.SyncSRCU(sl)
	m := MustNew(b.Program(), ARM)
	s := m.Initial()
	// P0 opens and closes its section (the unlock folded); P1 opens one and stores its index.
	for _, id := range []string{"P0 exec", "P1 exec", "P1 exec"} {
		st, err := m.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		if s, _, err = m.Apply(s, st); err != nil {
			t.Fatal(err)
		}
	}
	closed, open := uint32(1)<<uint(m.srcuSecOf[0][0]), uint32(1)<<uint(m.srcuSecOf[1][0])
	if s.srcuOpen != open || closed == open || len(s.cpus[1].sb) != 1 {
		t.Fatalf("base state: open sections %b (want %b, closed %b), P1's buffer %v", s.srcuOpen, open, closed, s.cpus[1].sb)
	}
	carriers := []struct {
		name string
		set  func(s *State, secs uint32)
	}{
		{"register", func(s *State, secs uint32) { s.cpus[0].secs[r0] = secs }},
		{"store-buffer entry", func(s *State, secs uint32) { s.cpus[1].sb[0].Secs = secs }},
		{"memory", func(s *State, secs uint32) { s.memSecs[x] = secs }},
		{"grace period", func(s *State, secs uint32) { s.cpus[2].gpSecs = secs }},
	}
	encode := func(off Reduction, s *State) []byte {
		e := newExplorer(m, Options{Workers: 1, off: off}, nil)
		return bytes.Clone(e.encode(s, &worker{}))
	}
	with := func(c func(*State, uint32), secs uint32) *State {
		mut := s.clone()
		if mut.memSecs == nil {
			mut.memSecs = make([]uint32, len(mut.mem))
		}
		c(mut, secs)
		return mut
	}
	for _, off := range []Reduction{0, redDeadSections} {
		for _, c := range carriers {
			base := encode(off, with(c.set, 0))
			for _, bit := range []uint32{closed, open} {
				same := bytes.Equal(encode(off, with(c.set, bit)), base)
				if want := off == 0 && bit == closed; same != want {
					t.Errorf("deadSections off=%v: a %s carrying the %s section: same encoding %v, want %v",
						off != 0, c.name, map[bool]string{true: "closed", false: "open"}[bit == closed], same, want)
				}
			}
		}
	}
}

package machine

import (
	"reflect"
	"strings"
	"testing"
)

// annotated is a program with one of every kind of annotation, and things
// that must not be weakened (barrier(), relaxed RMWs, locks, RCU).
func annotated() *Program {
	b := NewBuilder("annotated")
	x, y, l := b.Loc("x", 0), b.Loc("y", 0), b.Loc("l", 0)
	t0 := b.Thread()
	r := t0.Reg("r0")
	t0.StoreConst(Release, x, 1)                          // 0
	t0.Fence(FenceWmb)                                    // 1
	t0.Fence(FenceBarrier)                                // 2
	t0.RMW(OrderFull, RMWXchg, true, r, y, Const(2), nil) // 3
	t0.RMW(OrderRelaxed, RMWAdd, false, r, y, Const(1), nil)
	t0.Lock(l)
	t0.Unlock(l)
	t0.SyncRCU()
	t1 := b.Thread()
	r1 := t1.Reg("r1")
	t1.RCULock()
	t1.Load(Acquire, r1, y)                                           // 1
	t1.Store(RCUAssign, x, Const(PtrTo(y)))                           // 2
	t1.RMW(OrderAcquire, RMWCmpXchg, true, r1, y, Const(3), Const(2)) // 3
	t1.RMW(OrderRelease, RMWAdd, true, r1, x, Const(1), nil)          // 4
	t1.Fence(FenceMb)                                                 // 5
	t1.RCUUnlock()
	p := b.Program()
	// Texts as a litmus file would have them, with source lines.
	p.Threads[0].Code[3].Text = "r0 = xchg(y, 2);"
	p.Threads[1].Code[3].Text = "r1 = cmpxchg_acquire(y, 2, 3);"
	p.Threads[1].Code[4].Text = "r1 = atomic_fetch_add_release(1, x);"
	for t := range p.Threads {
		for i := range p.Threads[t].Code {
			p.Threads[t].Code[i].Line = 10*t + i + 1
		}
	}
	return p
}

func TestWeakenings(t *testing.T) {
	p := annotated()
	var got []string
	for _, w := range Weakenings(p) {
		got = append(got, w.String()+" -> "+w.To)
	}
	want := []string{
		"smp_store_release() (P0 line 1) -> WRITE_ONCE()",
		"smp_wmb() (P0 line 2) -> nothing",
		"xchg() (P0 line 4) -> xchg_relaxed()",
		"smp_load_acquire() (P1 line 12) -> READ_ONCE()",
		"rcu_assign_pointer() (P1 line 13) -> WRITE_ONCE()",
		"cmpxchg_acquire() (P1 line 14) -> cmpxchg_relaxed()",
		"atomic_fetch_add_release() (P1 line 15) -> atomic_fetch_add_relaxed()",
		"smp_mb() (P1 line 16) -> nothing",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if w := (Weakening{CPU: "P2", Instr: 4}); w.Where() != "P2 instruction 4" {
		t.Errorf("Where without a line: %q", w.Where())
	}
}

func TestWeakeningApply(t *testing.T) {
	p := annotated()
	orig := annotated()
	ws := Weakenings(p)
	check := func(q *Program, w Weakening) {
		t.Helper()
		got := q.Threads[w.Thread].Code[w.Instr]
		switch got.Op {
		case OpFence:
			if got.Fence != FenceBarrier {
				t.Errorf("%s: fence %s", w, got.Fence)
			}
		case OpLoad, OpStore:
			if got.Access != Once {
				t.Errorf("%s: access %d", w, got.Access)
			}
		case OpRMW:
			if got.Order != OrderRelaxed {
				t.Errorf("%s: order %s", w, got.Order)
			}
		}
		if got.Text != orig.Threads[w.Thread].Code[w.Instr].Text || got.Line != orig.Threads[w.Thread].Code[w.Instr].Line {
			t.Errorf("%s: text or line changed", w)
		}
		if err := q.Validate(); err != nil {
			t.Errorf("%s: %v", w, err)
		}
	}
	for _, w := range ws {
		q := w.Apply(p)
		check(q, w)
		// Only that instruction changed.
		for ti := range q.Threads {
			for i := range q.Threads[ti].Code {
				if ti == w.Thread && i == w.Instr {
					continue
				}
				if !reflect.DeepEqual(q.Threads[ti].Code[i], orig.Threads[ti].Code[i]) {
					t.Errorf("%s: changed %s instruction %d too", w, q.Threads[ti].Name, i)
				}
			}
		}
	}
	// p itself is untouched, after every single and the combined weakening.
	all := WeakenAll(p, ws)
	for _, w := range ws {
		check(all, w)
	}
	if !reflect.DeepEqual(p, orig) {
		t.Fatal("Apply changed the original program")
	}
	if len(Weakenings(all)) != 0 {
		t.Errorf("weakening everything leaves %v", Weakenings(all))
	}
	// A weakening of another program is refused.
	defer func() {
		if recover() == nil {
			t.Error("applying a weakening to an instruction without ordering did not panic")
		}
	}()
	Weakening{Thread: 0, Instr: 2, CPU: "P0"}.Apply(p) // barrier()
}

// reaches reports whether mode reaches an outcome satisfying cond.
func reaches(t *testing.T, p *Program, mode Mode, cond func(Outcome) bool) bool {
	t.Helper()
	res := Explore(MustNew(p, mode), Options{})
	if !res.Complete {
		t.Fatalf("%s: %s", p.Name, res.Summary())
	}
	for _, o := range res.Outcomes {
		if cond(o.Outcome) {
			return true
		}
	}
	return false
}

// TestWeakeningNeeded checks the answers the why command relies on: in
// MP+wmb+rmb both barriers are needed in ARM-like mode and neither in TSO;
// in SB+mbs both barriers are needed in both modes.
func TestWeakeningNeeded(t *testing.T) {
	for _, tc := range []struct {
		shape    string
		tso, arm bool // each single weakening reaches the outcome
	}{
		{"MP+wmb+rmb", false, true},
		{"SB+mbs", true, true},
		{"MP+rel+acq", false, true},
	} {
		p, cond := shapeNamed(tc.shape)
		ws := Weakenings(p)
		if len(ws) != 2 {
			t.Fatalf("%s: %d weakenings", p.Name, len(ws))
		}
		for _, mode := range []Mode{TSO, ARM} {
			if reaches(t, p, mode, cond) {
				t.Fatalf("%s reaches the outcome in %s mode as written", p.Name, mode)
			}
			want := tc.tso
			if mode == ARM {
				want = tc.arm
			}
			for _, w := range ws {
				if got := reaches(t, w.Apply(p), mode, cond); got != want {
					t.Errorf("%s without %s in %s mode: reachable %v, want %v", p.Name, w, mode, got, want)
				}
			}
		}
	}
}

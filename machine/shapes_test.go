package machine

import (
	"fmt"
	"testing"
)

// shape is a litmus shape built with the Builder, with the outcome the
// question is about and whether each mode may reach it (RULES.md, "Shapes
// every mode must get right", which must list exactly these).
type shape struct {
	name     string
	build    func() (*Program, func(Outcome) bool)
	tso, arm bool // reachable?
}

// Register helpers for the conditions below.
func reg(o Outcome, t int, r Reg) Value { return o.Regs[t][r] }

func mp(w func(t *ThreadBuilder, x, y Loc), r func(t *ThreadBuilder, r0, r1 Reg, x, y Loc)) func() (*Program, func(Outcome) bool) {
	return func() (*Program, func(Outcome) bool) {
		b := NewBuilder("MP")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		w(b.Thread(), x, y)
		t1 := b.Thread()
		r0, r1 := t1.Reg("r0"), t1.Reg("r1")
		r(t1, r0, r1, x, y)
		return b.Program(), func(o Outcome) bool { return reg(o, 1, r0) == 1 && reg(o, 1, r1) == 0 }
	}
}

func sb(side func(t *ThreadBuilder, mine, other Loc, r Reg)) func() (*Program, func(Outcome) bool) {
	return func() (*Program, func(Outcome) bool) {
		b := NewBuilder("SB")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0, t1 := b.Thread(), b.Thread()
		r0, r1 := t0.Reg("r0"), t1.Reg("r1")
		side(t0, x, y, r0)
		side(t1, y, x, r1)
		return b.Program(), func(o Outcome) bool { return reg(o, 0, r0) == 0 && reg(o, 1, r1) == 0 }
	}
}

func lb(side0, side1 func(t *ThreadBuilder, in, out Loc, r Reg)) func() (*Program, func(Outcome) bool) {
	return func() (*Program, func(Outcome) bool) {
		b := NewBuilder("LB")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0, t1 := b.Thread(), b.Thread()
		r0, r1 := t0.Reg("r0"), t1.Reg("r1")
		side0(t0, x, y, r0)
		side1(t1, y, x, r1)
		return b.Program(), func(o Outcome) bool { return reg(o, 0, r0) == 1 && reg(o, 1, r1) == 1 }
	}
}

func iriw(between func(t *ThreadBuilder)) func() (*Program, func(Outcome) bool) {
	return func() (*Program, func(Outcome) bool) {
		b := NewBuilder("IRIW")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		b.Thread().StoreConst(Once, x, 1)
		b.Thread().StoreConst(Once, y, 1)
		t2, t3 := b.Thread(), b.Thread()
		r0, r1 := t2.Reg("r0"), t2.Reg("r1")
		r2, r3 := t3.Reg("r2"), t3.Reg("r3")
		t2.Load(Once, r0, x)
		between(t2)
		t2.Load(Once, r1, y)
		t3.Load(Once, r2, y)
		between(t3)
		t3.Load(Once, r3, x)
		return b.Program(), func(o Outcome) bool {
			return reg(o, 2, r0) == 1 && reg(o, 2, r1) == 0 && reg(o, 3, r2) == 1 && reg(o, 3, r3) == 0
		}
	}
}

func nothing(*ThreadBuilder) {}

var shapes = []shape{
	{"MP", mp(func(t *ThreadBuilder, x, y Loc) {
		t.StoreConst(Once, x, 1)
		t.StoreConst(Once, y, 1)
	}, func(t *ThreadBuilder, r0, r1 Reg, x, y Loc) {
		t.Load(Once, r0, y)
		t.Load(Once, r1, x)
	}), false, true},
	{"MP+wmb+rmb", mp(func(t *ThreadBuilder, x, y Loc) {
		t.StoreConst(Once, x, 1)
		t.Fence(FenceWmb)
		t.StoreConst(Once, y, 1)
	}, func(t *ThreadBuilder, r0, r1 Reg, x, y Loc) {
		t.Load(Once, r0, y)
		t.Fence(FenceRmb)
		t.Load(Once, r1, x)
	}), false, false},
	{"MP+rel+acq", mp(func(t *ThreadBuilder, x, y Loc) {
		t.StoreConst(Once, x, 1)
		t.StoreConst(Release, y, 1)
	}, func(t *ThreadBuilder, r0, r1 Reg, x, y Loc) {
		t.Load(Acquire, r0, y)
		t.Load(Once, r1, x)
	}), false, false},
	{"MP+assign+deref", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("MP+assign+deref")
		x := b.Loc("x", 0)
		y := b.Loc("y", 0)
		p := b.Loc("p", PtrTo(y))
		t0 := b.Thread()
		t0.StoreConst(Once, x, 1)
		t0.StoreConst(RCUAssign, p, PtrTo(x))
		t1 := b.Thread()
		r0, r1 := t1.Reg("r0"), t1.Reg("r1")
		t1.Load(RCUDeref, r0, p)
		t1.LoadVia(Once, r1, r0)
		return b.Program(), func(o Outcome) bool { return reg(o, 1, r0) == PtrTo(x) && reg(o, 1, r1) == 0 }
	}, false, false},
	{"SB", sb(func(t *ThreadBuilder, mine, other Loc, r Reg) {
		t.StoreConst(Once, mine, 1)
		t.Load(Once, r, other)
	}), true, true},
	{"SB+mbs", sb(func(t *ThreadBuilder, mine, other Loc, r Reg) {
		t.StoreConst(Once, mine, 1)
		t.Fence(FenceMb)
		t.Load(Once, r, other)
	}), false, false},
	{"SB+rel+acq", sb(func(t *ThreadBuilder, mine, other Loc, r Reg) {
		t.StoreConst(Release, mine, 1)
		t.Load(Acquire, r, other)
	}), true, false},
	{"LB", lb(func(t *ThreadBuilder, in, out Loc, r Reg) {
		t.Load(Once, r, in)
		t.StoreConst(Once, out, 1)
	}, func(t *ThreadBuilder, in, out Loc, r Reg) {
		t.Load(Once, r, in)
		t.StoreConst(Once, out, 1)
	}), false, true},
	{"LB+acq+rel", lb(func(t *ThreadBuilder, in, out Loc, r Reg) {
		t.Load(Once, r, in)
		t.StoreConst(Release, out, 1)
	}, func(t *ThreadBuilder, in, out Loc, r Reg) {
		t.Load(Acquire, r, in)
		t.StoreConst(Once, out, 1)
	}), false, false},
	{"LB+ctrl+mb", lb(func(t *ThreadBuilder, in, out Loc, r Reg) {
		t.Load(Once, r, in)
		t.If(RegExpr(r), func() { t.StoreConst(Once, out, 1) }, nil)
	}, func(t *ThreadBuilder, in, out Loc, r Reg) {
		t.Load(Once, r, in)
		t.Fence(FenceMb)
		t.StoreConst(Once, out, 1)
	}), false, false},
	{"MP+wmb+ctrl", mp(func(t *ThreadBuilder, x, y Loc) {
		t.StoreConst(Once, x, 1)
		t.Fence(FenceWmb)
		t.StoreConst(Once, y, 1)
	}, func(t *ThreadBuilder, r0, r1 Reg, x, y Loc) {
		t.Load(Once, r0, y)
		t.If(RegExpr(r0), func() { t.Load(Once, r1, x) }, nil)
	}), false, true},
	{"MP+mb+ctrl+W", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("MP+mb+ctrl+W")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0 := b.Thread()
		t0.StoreConst(Once, x, 2)
		t0.Fence(FenceMb)
		t0.StoreConst(Once, y, 1)
		t1 := b.Thread()
		r0, r1 := t1.Reg("r0"), t1.Reg("r1")
		t1.Load(Once, r0, y)
		t1.If(RegExpr(r0), func() { t1.Load(Once, r1, x) }, nil)
		b.Thread().StoreConst(Once, x, 1)
		return b.Program(), func(o Outcome) bool { return reg(o, 1, r0) == 1 && reg(o, 1, r1) == 1 && o.Mem[x] == 2 }
	}, false, true},
	{"IRIW", iriw(nothing), false, true},
	{"IRIW+rmbs", iriw(func(t *ThreadBuilder) { t.Fence(FenceRmb) }), false, false},
	{"IRIW+mbs", iriw(func(t *ThreadBuilder) { t.Fence(FenceMb) }), false, false},
	{"WRC+rel+rmb", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("WRC+rel+rmb")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		b.Thread().StoreConst(Once, x, 1)
		t1 := b.Thread()
		r0 := t1.Reg("r0")
		t1.Load(Once, r0, x)
		t1.StoreConst(Release, y, 1)
		t2 := b.Thread()
		r1, r2 := t2.Reg("r1"), t2.Reg("r2")
		t2.Load(Once, r1, y)
		t2.Fence(FenceRmb)
		t2.Load(Once, r2, x)
		return b.Program(), func(o Outcome) bool { return reg(o, 1, r0) == 1 && reg(o, 2, r1) == 1 && reg(o, 2, r2) == 0 }
	}, false, false},
	{"WRC", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("WRC")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		b.Thread().StoreConst(Once, x, 1)
		t1 := b.Thread()
		r0 := t1.Reg("r0")
		t1.Load(Once, r0, x)
		t1.StoreConst(Once, y, 1)
		t2 := b.Thread()
		r1, r2 := t2.Reg("r1"), t2.Reg("r2")
		t2.Load(Once, r1, y)
		t2.Load(Once, r2, x)
		return b.Program(), func(o Outcome) bool { return reg(o, 1, r0) == 1 && reg(o, 2, r1) == 1 && reg(o, 2, r2) == 0 }
	}, false, true},
	{"2+2W", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("2+2W")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0, t1 := b.Thread(), b.Thread()
		t0.StoreConst(Once, x, 1)
		t0.StoreConst(Once, y, 2)
		t1.StoreConst(Once, y, 1)
		t1.StoreConst(Once, x, 2)
		return b.Program(), func(o Outcome) bool { return o.Mem[x] == 1 && o.Mem[y] == 1 }
	}, false, true},
	{"S", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("S")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0, t1 := b.Thread(), b.Thread()
		t0.StoreConst(Once, x, 2)
		t0.StoreConst(Once, y, 1)
		r0 := t1.Reg("r0")
		t1.Load(Once, r0, y)
		t1.StoreConst(Once, x, 1)
		return b.Program(), func(o Outcome) bool { return reg(o, 1, r0) == 1 && o.Mem[x] == 2 }
	}, false, true},
	{"R", rShape(nothing), true, true},
	{"R+mbs", rShape(func(t *ThreadBuilder) { t.Fence(FenceMb) }), false, false},
	{"CoRR", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("CoRR")
		x := b.Loc("x", 0)
		b.Thread().StoreConst(Once, x, 1)
		t1 := b.Thread()
		r0, r1 := t1.Reg("r0"), t1.Reg("r1")
		t1.Load(Once, r0, x)
		t1.Load(Once, r1, x)
		return b.Program(), func(o Outcome) bool { return reg(o, 1, r0) == 1 && reg(o, 1, r1) == 0 }
	}, false, false},
	{"CoRW", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("CoRW")
		x := b.Loc("x", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.Load(Once, r0, x)
		t0.StoreConst(Once, x, 1)
		b.Thread().StoreConst(Once, x, 2)
		return b.Program(), func(o Outcome) bool { return reg(o, 0, r0) == 2 && o.Mem[x] == 2 }
	}, false, false},
	{"CoWR", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("CoWR")
		x := b.Loc("x", 0)
		t0 := b.Thread()
		r0 := t0.Reg("r0")
		t0.StoreConst(Once, x, 1)
		t0.Load(Once, r0, x)
		b.Thread().StoreConst(Once, x, 2)
		return b.Program(), func(o Outcome) bool { return reg(o, 0, r0) == 2 && o.Mem[x] == 1 }
	}, false, false},
	{"CoWW", func() (*Program, func(Outcome) bool) {
		b := NewBuilder("CoWW")
		x := b.Loc("x", 0)
		t0 := b.Thread()
		t0.StoreConst(Once, x, 1)
		t0.StoreConst(Once, x, 2)
		return b.Program(), func(o Outcome) bool { return o.Mem[x] == 1 }
	}, false, false},
}

// shapeNamed returns the program and condition of one of the shapes above.
func shapeNamed(name string) (*Program, func(Outcome) bool) {
	for _, sh := range shapes {
		if sh.name == name {
			return sh.build()
		}
	}
	panic("no shape " + name)
}

func rShape(between func(t *ThreadBuilder)) func() (*Program, func(Outcome) bool) {
	return func() (*Program, func(Outcome) bool) {
		b := NewBuilder("R")
		x, y := b.Loc("x", 0), b.Loc("y", 0)
		t0, t1 := b.Thread(), b.Thread()
		t0.StoreConst(Once, x, 1)
		between(t0)
		t0.StoreConst(Once, y, 1)
		r0 := t1.Reg("r0")
		t1.StoreConst(Once, y, 2)
		between(t1)
		t1.Load(Once, r0, x)
		return b.Program(), func(o Outcome) bool { return o.Mem[y] == 2 && reg(o, 1, r0) == 0 }
	}
}

// checkReach explores p in mode and asserts whether an outcome satisfying
// cond is reachable; when it is, its witness must replay to it.
func checkReach(t *testing.T, p *Program, mode Mode, cond func(Outcome) bool, want bool, opts Options) *Result {
	t.Helper()
	m := MustNew(p, mode)
	res := Explore(m, opts)
	if !res.Complete {
		t.Fatalf("%s/%s: %s", p.Name, mode, summary(res))
	}
	if len(res.Outcomes) == 0 {
		t.Fatalf("%s/%s: no outcomes at all", p.Name, mode)
	}
	var found *OutcomeResult
	for i := range res.Outcomes {
		if cond(res.Outcomes[i].Outcome) {
			found = &res.Outcomes[i]
		}
	}
	if (found != nil) != want {
		verdict := "forbidden"
		if want {
			verdict = "allowed"
		}
		t.Fatalf("%s/%s: outcome should be %s; reached outcomes: %v", p.Name, mode, verdict, outcomeList(p, res))
	}
	if found != nil {
		states, _, err := m.Replay(found.Witness)
		if err != nil {
			t.Fatalf("%s/%s: witness does not replay: %v", p.Name, mode, err)
		}
		last := states[len(states)-1]
		if !m.Final(last) {
			t.Fatalf("%s/%s: witness ends in a non-final state", p.Name, mode)
		}
		if got := m.Outcome(last); got.Key() != found.Outcome.Key() || !cond(got) {
			t.Fatalf("%s/%s: witness replays to %s, want %s", p.Name, mode, got.Format(p, nil), found.Outcome.Format(p, nil))
		}
	}
	return res
}

func outcomeList(p *Program, r *Result) []string {
	var out []string
	for _, o := range r.Outcomes {
		out = append(out, o.Outcome.Format(p, nil))
	}
	return out
}

func TestShapes(t *testing.T) {
	for _, sh := range shapes {
		for _, mode := range []Mode{TSO, ARM} {
			want := sh.tso
			if mode == ARM {
				want = sh.arm
			}
			t.Run(fmt.Sprintf("%s/%s", sh.name, mode), func(t *testing.T) {
				p, cond := sh.build()
				checkReach(t, p, mode, cond, want, Options{})
			})
		}
	}
}

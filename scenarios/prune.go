package scenarios

import (
	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// A filter clause decided early. herd7 drops the executions a filter
// rejects; an exploration can drop them as soon as the filter's value is
// settled, before they end, when the filter is false on registers that no
// instruction of their CPU can still write. Perfbook's lock cycles built
// on xchg_acquire or cmpxchg_acquire filter on every lock attempt having
// succeeded: once one has failed, nothing that execution does matters.

// FilterPrune returns, for a test with a filter clause, a test of a
// running state that no execution through it can pass the filter; nil
// without a filter. Locations are never settled before the end (a commit
// may still come), so only atoms on registers decide.
func (c *Compiled) FilterPrune() func(*machine.State) bool { return c.filterPrune(c.Program) }

// filterPrune is FilterPrune for p, a program with c's threads, registers
// and locations (a weakened or edited one).
func (c *Compiled) filterPrune(p *machine.Program) func(*machine.State) bool {
	if c.Scenario.Filter == nil {
		return nil
	}
	writes := make([][]uint32, len(p.Threads))
	for t, th := range p.Threads {
		writes[t] = futureRegWrites(th.Code)
	}
	f := c.settle(c.Scenario.Filter.Cond, writes)
	return func(s *machine.State) bool {
		v, known := f(s)
		return known && !v
	}
}

// futureRegWrites computes, for every pc, the registers an instruction at
// or after pc may write (on some path).
func futureRegWrites(code []machine.Instr) []uint32 {
	return machine.Future(code, func(in *machine.Instr) uint32 {
		if in.HasDst {
			return 1 << in.Dst
		}
		return 0
	})
}

// settled evaluates a condition on a running state in three values: the
// value, and whether the rest of the execution can no longer change it.
type settled func(s *machine.State) (v, known bool)

func (c *Compiled) settle(x syntax.Cond, writes [][]uint32) settled {
	switch x := x.(type) {
	case *syntax.CondAnd:
		l, r := c.settle(x.X, writes), c.settle(x.Y, writes)
		return func(s *machine.State) (bool, bool) {
			lv, lk := l(s)
			if lk && !lv {
				return false, true
			}
			rv, rk := r(s)
			if rk && !rv {
				return false, true
			}
			return true, lk && rk
		}
	case *syntax.CondOr:
		l, r := c.settle(x.X, writes), c.settle(x.Y, writes)
		return func(s *machine.State) (bool, bool) {
			lv, lk := l(s)
			if lk && lv {
				return true, true
			}
			rv, rk := r(s)
			if rk && rv {
				return true, true
			}
			return false, lk && rk
		}
	case *syntax.CondNot:
		f := c.settle(x.X, writes)
		return func(s *machine.State) (bool, bool) { v, k := f(s); return !v, k }
	case *syntax.CondImplies:
		return c.settle(&syntax.CondOr{X: &syntax.CondNot{X: x.X}, Y: x.Y}, writes)
	case *syntax.CondParen:
		return c.settle(x.X, writes)
	case *syntax.CondBool:
		v := x.Value
		return func(*machine.State) (bool, bool) { return v, true }
	case *syntax.CondAtom:
		if x.Loc.Thread < 0 || x.Val.Ref != nil && x.Val.Ref.Thread < 0 {
			return func(*machine.State) (bool, bool) { return false, false }
		}
		// The clause resolved when the test compiled: its names exist.
		r, _ := c.Reg(x.Loc.Thread, x.Loc.Name)
		eq := x.Op != "!="
		t := x.Loc.Thread
		w := writes[t]
		if ref := x.Val.Ref; ref != nil {
			// Two registers: settled once neither can still be written.
			r2, _ := c.Reg(ref.Thread, ref.Name)
			t2 := ref.Thread
			w2 := writes[t2]
			return func(s *machine.State) (bool, bool) {
				if w[s.PC(t)]&(1<<r) != 0 || w2[s.PC(t2)]&(1<<r2) != 0 {
					return false, false
				}
				return (s.Reg(t, r) == s.Reg(t2, r2)) == eq, true
			}
		}
		want := c.atomValue(x)
		return func(s *machine.State) (bool, bool) {
			if w[s.PC(t)]&(1<<r) != 0 {
				return false, false
			}
			return (s.Reg(t, r) == want) == eq, true
		}
	}
	return func(*machine.State) (bool, bool) { return false, false }
}

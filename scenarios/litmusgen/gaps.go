package litmusgen

import (
	"context"
	"slices"
	"strings"

	"smpscope/machine"
)

// classify refines the classes of the outcomes a mode misses, using the
// program's structure:
//   - in an RCU test, a missing outcome is put down to RCU (GapRCU) only if
//     the machine reaches it once grace periods are plain smp_mb() and
//     read-side sections are gone (which is how herd7's hardware models
//     see them); otherwise RCU is not why, and it is judged as in a test
//     without RCU (GapTSO in TSO mode, GapUnexplained in ARM-like mode);
//   - in ARM-like mode, a GapUnexplained outcome is put down to a
//     difference machine/RULES.md lists ("Where ARM-like mode knowingly
//     differs") where one fits. ctrl-join is verified: herd7's arm model
//     is run on a copy of the program in which the rest of each thread
//     after an if is copied into both branches, which gives every later
//     store the control dependency the machine already respects; if the
//     outcome is gone there, the join is why. The smp_wmb-RMW gap is
//     matched on the program's shape (the pattern the gap needs is present
//     on some CPU, with another CPU that may write the RMW's line), which
//     is weaker evidence: a minimised example shows whether it really is
//     that gap.
func (o *Oracle) classify(ctx context.Context, p *Program, r *Report) {
	if r.RCU {
		o.checkRCU(p, r)
	}
	arm := r.Mode(machine.ARM)
	if arm == nil {
		return
	}
	var open []int
	for i, f := range arm.Missing {
		if f.Class == GapUnexplained {
			open = append(open, i)
		}
	}
	if len(open) == 0 {
		return
	}
	if q, ok := joinCopies(p); ok {
		h := o.Herd.Run(ctx, "arm", q.Name, q.Source())
		if h.Accepted {
			for _, i := range open {
				if !slices.Contains(h.States, arm.Missing[i].State) {
					arm.Missing[i].Class = GapCtrlJoin
				}
			}
		}
	}
	pats := patterns(p)
	if pats[GapWmbRMW] && !wmbRMWWithWriter(p) {
		delete(pats, GapWmbRMW) // the machine produces it then
	}
	for _, i := range open {
		if arm.Missing[i].Class != GapUnexplained {
			continue
		}
		for _, g := range []string{GapWmbRMW} {
			if pats[g] {
				arm.Missing[i].Class = g
				break
			}
		}
	}
}

// checkRCU re-explores each mode that misses GapRCU outcomes on the
// program without RCU (see classify) and takes back the GapRCU class
// from the outcomes it still misses.
func (o *Oracle) checkRCU(p *Program, r *Report) {
	q := withoutRCU(p)
	c, err := Compile(q.Name, q.Source())
	if err != nil {
		return
	}
	for _, m := range r.Modes {
		has := false
		for _, f := range m.Missing {
			has = has || f.Class == GapRCU
		}
		if !has {
			continue
		}
		mr, err := ExploreStates(c, m.Mode, o.exploreOpts())
		if err != nil || !mr.Complete {
			continue
		}
		for i, f := range m.Missing {
			if f.Class != GapRCU || slices.Contains(mr.States, f.State) {
				continue
			}
			m.Missing[i].Class = GapUnexplained
			if m.Mode == machine.TSO {
				m.Missing[i].Class = GapTSO
			}
		}
	}
}

// withoutRCU returns p with every synchronize_rcu() and
// synchronize_srcu() replaced by smp_mb() and every rcu_read_lock() or
// srcu_read_lock() section replaced by its body (an SRCU section's index
// register set to 0, the index srcu_read_lock returns).
func withoutRCU(p *Program) *Program {
	q := p.Clone()
	q.Name = p.Name + "-norcu"
	var fix func(list []*Stmt) []*Stmt
	fix = func(list []*Stmt) []*Stmt {
		var out []*Stmt
		for _, s := range list {
			s.Body = fix(s.Body)
			s.Else = fix(s.Else)
			switch s.Op {
			case OpSync:
				out = append(out, &Stmt{Text: "smp_mb();", Op: OpFence})
			case OpReader:
				if len(s.Defs) == 1 {
					r, _, _ := strings.Cut(s.Text, " =")
					out = append(out, &Stmt{Text: r + " = 0;", Defs: s.Defs})
				}
				out = append(out, s.Body...)
			default:
				out = append(out, s)
			}
		}
		return out
	}
	for _, t := range q.Threads {
		t.Body = fix(t.Body)
	}
	return q
}

// joinCopies returns p with, in every thread, the statements after an if
// copied into both of its branches (and ok false when no thread has a
// statement after an if).
func joinCopies(p *Program) (*Program, bool) {
	q := p.Clone()
	q.Name = p.Name + "-joins"
	changed := false
	var fix func(list []*Stmt) []*Stmt
	fix = func(list []*Stmt) []*Stmt {
		for i, s := range list {
			if s.isBlock() {
				s.Body = fix(s.Body)
			}
			if !s.isIf() || i == len(list)-1 {
				continue
			}
			rest := list[i+1:]
			s.Body = fix(append(s.Body, cloneStmts(rest)...))
			s.Else = fix(append(s.Else, cloneStmts(rest)...))
			changed = true
			return list[:i+1]
		}
		return list
	}
	for _, t := range q.Threads {
		t.Body = fix(t.Body)
	}
	return q, changed
}

// flatItem is a statement in program order with its surroundings.
type flatItem struct {
	s    *Stmt
	inIf bool // inside an if branch
}

func flatten(list []*Stmt, inIf bool, out []flatItem) []flatItem {
	for _, s := range list {
		if s.isIf() {
			out = append(out, flatItem{s, inIf})
			out = flatten(s.Body, true, out)
			out = flatten(s.Else, true, out)
			continue
		}
		out = append(out, flatItem{s, inIf})
		out = flatten(s.Body, inIf, out)
		if s.isBlock() && s.Op == OpLock {
			out = append(out, flatItem{&Stmt{Text: s.Close, Op: OpUnlock}, inIf})
		}
	}
	return out
}

func fenceName(s *Stmt) string {
	if s.Op != OpFence {
		return ""
	}
	name, _, _ := strings.Cut(s.Text, "(")
	return name
}

// orders reports whether s orders the accesses before it with those after
// it on ARMv8 (a full barrier, smp_rmb for reads, or a fully ordered RMW).
func orders(s *Stmt) bool {
	switch fenceName(s) {
	case "smp_mb", "smp_rmb", "smp_mb__before_atomic", "smp_mb__after_atomic", "smp_mb__after_spinlock":
		return true
	}
	return s.Op == OpSync || s.Op == OpRMWFull
}

func writes(o Op) bool {
	return o == OpStore || o == OpRelease || o.rmw() || o == OpUnlock
}

// wmbRMWWithWriter reports whether, on some CPU of p, an RMW or lock
// after a store and smp_wmb works on a line another CPU may write (any
// line, where an address is computed): the machine reads such an RMW
// past the marker when no other CPU may write its line (RULES.md,
// "Exclusive RMW"), so only this shape is the gap. True when p does not
// compile: the shape alone then decides, as before.
func wmbRMWWithWriter(p *Program) bool {
	c, err := Compile(p.Name, p.Source())
	if err != nil {
		return true
	}
	threads := c.Program.Threads
	const anyLine = ^uint64(0)
	lines := func(in *machine.Instr) uint64 {
		if in.Addr == nil {
			return 0
		}
		if l, ok := in.Addr.Val.AsLoc(); ok && in.Addr.Op == machine.EConst {
			return 1 << l
		}
		return anyLine
	}
	writes := make([]uint64, len(threads))
	for t, th := range threads {
		for i := range th.Code {
			switch in := &th.Code[i]; in.Op {
			case machine.OpStore, machine.OpRMW, machine.OpLock, machine.OpTryLock, machine.OpUnlock:
				writes[t] |= lines(in)
			}
		}
	}
	for t, th := range threads {
		var others uint64
		for u := range threads {
			if u != t {
				others |= writes[u]
			}
		}
		stored, marker := false, false
		for i := range th.Code {
			switch in := &th.Code[i]; {
			case in.Op == machine.OpStore || in.Op == machine.OpUnlock || in.Op == machine.OpRMW && !marker:
				stored = true
			case in.Op == machine.OpFence && in.Fence == machine.FenceWmb && stored:
				marker = true
			case marker && (in.Op == machine.OpRMW || in.Op == machine.OpLock || in.Op == machine.OpTryLock) && lines(in)&others != 0:
				return true
			}
		}
	}
	return false
}

// patterns reports which gap shapes occur on some CPU of p.
func patterns(p *Program) map[string]bool {
	out := map[string]bool{}
	for _, t := range p.Threads {
		items := flatten(t.Body, false, nil)
		for i, a := range items {
			for j := i + 1; j < len(items); j++ {
				b := items[j]
				ordered := false
				for _, m := range items[i+1 : j] {
					ordered = ordered || orders(m.s)
				}
				// A store, smp_wmb, then an RMW.
				if writes(a.s.Op) && fenceName(b.s) == "smp_wmb" {
					for _, c := range items[j+1:] {
						if c.s.Op.rmw() || c.s.Op == OpLock || c.s.Op == OpTrylock {
							out[GapWmbRMW] = true
						}
					}
				}
			}
		}
	}
	return out
}

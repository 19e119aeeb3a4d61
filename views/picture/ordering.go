package picture

import (
	"smpscope/machine"
	"smpscope/scenarios"
)

// ordering says what orders two accesses of one CPU, in LKMM's terms:
// the fences performed between them that order that kind of pair
// (smp_mb and its kin every pair, smp_rmb two reads, smp_wmb two
// writes; a fully ordered RMW on either side counts as smp_mb), an
// acquire read first, a release write last, and address, data and
// control dependencies on the first (a read) through the registers.
type ordering struct {
	prog *machine.Program
	// fences lists, per CPU, the fences performed (instruction indices).
	fences [][]int
	// deps holds, per CPU and instruction, the loads (instruction
	// indices) its address, value and control depend on.
	addr, data, ctrl []map[int]map[int]bool
}

func newOrdering(ex *scenarios.Execution) *ordering {
	p := ex.Mach.Prog
	o := &ordering{prog: p}
	for c, instrs := range performed(ex) {
		code := p.Threads[c].Code
		regs := map[machine.Reg]map[int]bool{} // the loads each register's value comes from
		from := func(mask uint32) map[int]bool {
			s := map[int]bool{}
			for r, src := range regs {
				if mask&(1<<uint(r)) != 0 {
					for k := range src {
						s[k] = true
					}
				}
			}
			return s
		}
		addr, data, ctrl := map[int]map[int]bool{}, map[int]map[int]bool{}, map[int]map[int]bool{}
		control := map[int]bool{}
		var fences []int
		for _, i := range instrs {
			in := &code[i]
			if in.Addr != nil {
				addr[i] = from(in.Addr.Regs())
			}
			var vmask uint32
			if in.Val != nil {
				vmask |= in.Val.Regs()
			}
			if in.Exp != nil {
				vmask |= in.Exp.Regs()
			}
			data[i] = from(vmask)
			ctrl[i] = copySet(control)
			switch in.Op {
			case machine.OpFence, machine.OpSyncRCU, machine.OpSyncSRCU:
				fences = append(fences, i)
			case machine.OpBranch:
				for k := range from(in.Cond.Regs()) {
					control[k] = true
				}
			case machine.OpAssign:
				regs[in.Dst] = from(in.Val.Regs())
			case machine.OpLoad, machine.OpRMW, machine.OpTryLock:
				if in.HasDst {
					regs[in.Dst] = map[int]bool{i: true}
				}
			case machine.OpSRCULock:
				if in.HasDst {
					regs[in.Dst] = map[int]bool{}
				}
			}
		}
		o.fences = append(o.fences, fences)
		o.addr, o.data, o.ctrl = append(o.addr, addr), append(o.data, data), append(o.ctrl, ctrl)
	}
	return o
}

func copySet(s map[int]bool) map[int]bool {
	n := make(map[int]bool, len(s))
	for k := range s {
		n[k] = true
	}
	return n
}

// between says what orders events x and y (x before y in program order
// on one CPU) of g.
func (o *ordering) between(g *Graph, x, y int) []string {
	ex, ey := g.Events[x], g.Events[y]
	c := ex.CPU
	var out []string
	code := o.prog.Threads[c].Code
	seen := map[string]bool{}
	for _, f := range o.fences[c] {
		if f < ex.Instr || f >= ey.Instr || f == ex.Instr {
			continue
		}
		in := &code[f]
		name := ""
		switch in.Op {
		case machine.OpSyncRCU, machine.OpSyncSRCU:
			name = "sync"
		default:
			name = fenceOrders(in.Fence, ex.Kind, ey.Kind)
		}
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	if (ex.full || ey.full) && ex.Instr != ey.Instr && !seen["mb"] {
		out = append(out, "mb") // a fully ordered RMW is smp_mb on either side
	}
	if ex.Kind == EvRead && ex.acquire {
		out = append(out, "acq")
	}
	if ey.Kind == EvWrite && ey.release {
		out = append(out, "rel")
	}
	if ex.Kind == EvRead && ex.Instr != ey.Instr {
		if o.addr[c][ey.Instr][ex.Instr] {
			out = append(out, "addr")
		}
		if ey.Kind == EvWrite && o.data[c][ey.Instr][ex.Instr] {
			out = append(out, "data")
		}
		if o.ctrl[c][ey.Instr][ex.Instr] {
			out = append(out, "ctrl")
		}
	}
	return out
}

// fenceOrders names fence f when it orders a pair of accesses of kinds
// a then b in LKMM, "" when it does not.
func fenceOrders(f machine.Fence, a, b GEventKind) string {
	switch f {
	case machine.FenceMb, machine.FenceMbBeforeAtomic, machine.FenceMbAfterAtomic, machine.FenceMbAfterSpinlock, machine.FenceMbAfterSRCUUnlock:
		return "mb"
	case machine.FenceRmb:
		if a == EvRead && b == EvRead {
			return "rmb"
		}
	case machine.FenceWmb:
		if a == EvWrite && b == EvWrite {
			return "wmb"
		}
	}
	return ""
}

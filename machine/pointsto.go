package machine

// Where a computed address may point (issue 24: pointer publication). A
// reader's rcu_dereference(*p) followed by WRITE_ONCE(*r1, 1) stores at an
// address it loaded, and the analyses of futures.go took such an access to
// touch every location: the reader's future then conflicted with every
// CPU's moves and always joined the persistent sets whole, and no line
// of the program was ever dead in the key while it could still run.
//
// addrTargets bounds them with a flow-insensitive value analysis. Each
// location and each register of each CPU gets the set of values it may
// ever hold: its initial value, and every value an instruction may write
// to it. A store adds its value's set to every location its address may
// name, an xchg or cmpxchg as much (the new value; a failed cmpxchg
// writes nothing new), a load gives its register the union of the sets of
// those locations (and an RMW its old value the same way), an assignment
// its expression's set. A constant is a set of one value, a register its
// set; any other expression, an arithmetic RMW, a lock, an SRCU
// operation and anything else that writes makes the set "any value". The
// sets only grow, and a set that would hold more than maxPointsTo values
// becomes "any", so the iteration ends. Every value a location or
// register holds in an execution is in its set (by induction on the
// execution: each write is one of the above, applied to values already in
// their sets), so an access at a computed address touches only the lines
// of its address's set: the values that name a location (one that names
// none faults, touching no line). With "any" it may touch every line, as
// before.

// maxPointsTo bounds a value set (above it: any value).
const maxPointsTo = 16

// valueSet is a set of values, or any value.
type valueSet struct {
	any  bool
	vals []Value
}

// add adds v and reports whether the set changed.
func (s *valueSet) add(v Value) bool {
	if s.any {
		return false
	}
	for _, x := range s.vals {
		if x == v {
			return false
		}
	}
	if len(s.vals) == maxPointsTo {
		return s.setAny()
	}
	s.vals = append(s.vals, v)
	return true
}

// addAll adds o's values and reports whether the set changed.
func (s *valueSet) addAll(o valueSet) bool {
	if o.any {
		return s.setAny()
	}
	changed := false
	for _, v := range o.vals {
		changed = s.add(v) || changed
	}
	return changed
}

// setAny makes the set "any value" and reports whether it changed.
func (s *valueSet) setAny() bool {
	if s.any {
		return false
	}
	s.any, s.vals = true, nil
	return true
}

// addrTargets returns, per CPU and instruction, the locations its address
// may name (see above): every location for "any", none for an
// instruction without an address.
func addrTargets(p *Program) [][]uint64 {
	nl := len(p.Locs)
	locs := make([]valueSet, nl)
	for l := range locs {
		var v Value
		if l < len(p.Init) {
			v = p.Init[l]
		}
		locs[l].add(v)
	}
	regs := make([][]valueSet, len(p.Threads))
	for c, t := range p.Threads {
		regs[c] = make([]valueSet, len(t.Regs))
		for r := range regs[c] {
			var v Value
			if r < len(t.Init) {
				v = t.Init[r]
			}
			regs[c][r].add(v)
		}
	}
	eval := func(c int, e *Expr) valueSet {
		switch {
		case e == nil:
			return valueSet{any: true}
		case e.Op == EConst:
			return valueSet{vals: []Value{e.Val}}
		case e.Op == EReg && int(e.Reg) < len(regs[c]):
			return regs[c][e.Reg]
		}
		return valueSet{any: true}
	}
	// named returns the locations a set of addresses names (all for any).
	named := func(a valueSet) uint64 {
		if a.any {
			return ^uint64(0)
		}
		var out uint64
		for _, v := range a.vals {
			if l, ok := v.AsLoc(); ok && int(l) < nl {
				out |= 1 << l
			}
		}
		return out
	}
	// write adds vals to each location of mask; written unions the sets
	// of those locations.
	write := func(mask uint64, vals valueSet) bool {
		changed := false
		for l := range locs {
			if mask&(1<<l) != 0 {
				changed = locs[l].addAll(vals) || changed
			}
		}
		return changed
	}
	read := func(mask uint64) valueSet {
		var out valueSet
		for l := range locs {
			if mask&(1<<l) != 0 {
				out.addAll(locs[l])
			}
		}
		return out
	}
	setReg := func(c int, in *Instr, vals valueSet) bool {
		if !in.HasDst || int(in.Dst) >= len(regs[c]) {
			return false
		}
		return regs[c][in.Dst].addAll(vals)
	}
	anyVal := valueSet{any: true}
	for changed := true; changed; {
		changed = false
		for c, t := range p.Threads {
			for k := range t.Code {
				in := &t.Code[k]
				var mask uint64
				if in.Addr != nil {
					mask = named(eval(c, in.Addr))
				}
				switch in.Op {
				case OpLoad:
					changed = setReg(c, in, read(mask)) || changed
				case OpStore:
					changed = write(mask, eval(c, in.Val)) || changed
				case OpAssign:
					changed = setReg(c, in, eval(c, in.Val)) || changed
				case OpRMW:
					changed = setReg(c, in, read(mask)) || changed
					if in.RMW == RMWXchg || in.RMW == RMWCmpXchg {
						changed = write(mask, eval(c, in.Val)) || changed
					} else {
						changed = write(mask, anyVal) || changed
					}
				default:
					if in.Addr != nil {
						changed = write(mask, anyVal) || changed
					}
					if in.HasDst || in.Op == OpSRCULock {
						if int(in.Dst) < len(regs[c]) {
							changed = regs[c][in.Dst].setAny() || changed
						}
					}
				}
			}
		}
	}
	out := make([][]uint64, len(p.Threads))
	for c, t := range p.Threads {
		out[c] = make([]uint64, len(t.Code))
		for k := range t.Code {
			if in := &t.Code[k]; in.Addr != nil {
				out[c][k] = named(eval(c, in.Addr))
			}
		}
	}
	return out
}

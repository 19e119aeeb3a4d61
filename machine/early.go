package machine

// Out-of-order issue (ARM-like mode), machine.md "Out-of-order issue": a CPU
// may perform a later plain store or smp_wmb before earlier plain loads and
// register arithmetic, when nothing it needs depends on those loads.

// earlyCandidates walks CPU c's program from its pc over unexecuted plain
// loads and register arithmetic, evaluating what it can on a shadow copy of
// the registers, and calls yield for every later store or smp_wmb that may
// be issued early, with the value it would store.
func (m *Machine) earlyCandidates(s *State, c int, yield func(k int, l Loc, v Value)) {
	cs := &s.cpus[c]
	code := m.code(c)
	if int(cs.pc) >= len(code) || (cs.acqWait && len(cs.iq) > 0) {
		return
	}
	var shadow [MaxRegs]Value
	copy(shadow[:], cs.regs)
	var tainted uint32     // registers that depend on a skipped load
	var skippedLocs uint64 // locations read by skipped loads
	unknownAddr := false   // a skipped load's address is not yet known
	skippedLoad := false
	for i := int(cs.pc); i < len(code); {
		if cs.early&(1<<uint(i)) != 0 {
			i++
			continue
		}
		in := &code[i]
		switch in.Op {
		case OpAssign:
			if in.Val.Regs()&tainted != 0 {
				tainted |= 1 << in.Dst
			} else {
				shadow[in.Dst] = in.Val.Eval(shadow[:])
				tainted &^= 1 << in.Dst
			}
			i++
			continue
		case OpJump:
			i = in.Target
			continue
		case OpBranch:
			if in.Cond.Regs()&tainted != 0 {
				return // no store becomes visible past an unresolved branch
			}
			if in.Cond.Eval(shadow[:]) == 0 {
				i = in.Target
			} else {
				i++
			}
			continue
		case OpLoad:
			if in.Access == Acquire || in.Access == SpinIsLocked {
				return
			}
			if in.Addr.Regs()&tainted != 0 {
				unknownAddr = true
			} else if l, ok := in.Addr.Eval(shadow[:]).AsLoc(); ok {
				skippedLocs |= 1 << l
			} else {
				unknownAddr = true
			}
			if in.HasDst {
				tainted |= 1 << in.Dst
			}
			skippedLoad = true
			i++
			continue
		case OpFence:
			if m.fenceKind(in.Fence) == fenceNone {
				i++ // compiler barriers and no-op fences order nothing here
				continue
			}
			if in.Fence == FenceWmb && skippedLoad {
				yield(i, 0, 0)
			}
			return
		case OpStore:
			if !skippedLoad || in.Access.IsRelease() || (in.Addr.Regs()|in.Val.Regs())&tainted != 0 || unknownAddr {
				return
			}
			l, ok := in.Addr.Eval(shadow[:]).AsLoc()
			if !ok || int(l) >= len(m.Prog.Locs) || skippedLocs&(1<<l) != 0 {
				return
			}
			yield(i, l, in.Val.Eval(shadow[:]))
			return
		default:
			return
		}
	}
}

func (m *Machine) appendEarly(out []Step, s *State, c int) []Step {
	m.earlyCandidates(s, c, func(k int, _ Loc, _ Value) {
		out = append(out, Step{Kind: StepEarly, CPU: uint8(c), Arg: uint8(k)})
	})
	return out
}

func (m *Machine) execEarly(s *State, c, k int, ev *Event) {
	cs := &s.cpus[c]
	found := false
	var loc Loc
	var val Value
	m.earlyCandidates(s, c, func(i int, l Loc, v Value) {
		if i == k {
			found, loc, val = true, l, v
		}
	})
	if !found {
		return
	}
	if ev != nil {
		ev.Instr = k
		ev.Early = true
	}
	cs.acqWait = false
	in := &m.code(c)[k]
	if in.Op == OpFence {
		m.insertWmb(cs)
	} else {
		cs.sb = append(cs.sb, SBEntry{Loc: loc, Kind: EntryPlain, Val: val, Instr: uint8(k)})
	}
	cs.early |= 1 << uint(k)
	cs.executed |= 1 << uint(k)
}

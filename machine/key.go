package machine

import "encoding/binary"

// Key returns a canonical encoding of everything in s that can influence
// any future step or outcome: two states with equal keys offer the same
// steps, leading to states that again have equal keys, and reach the same
// outcomes, deadlocks and faults (machine.md, "What the explorer owes").
//
// Left out, each because no rule reads it:
//   - the coherence history, step numbers, executed marks and the arrival
//     step of queued invalidations: annotations for people;
//   - memory's own copy of a line some cache owns, and whether the owner
//     holds it in M or in E: every rule reads an owned line through the
//     owner (Latest), and a line without an owner is up to date in memory;
//   - in TSO mode, the caches altogether: a TSO commit drops every other
//     copy at once, so a readable copy always holds the latest value, and
//     no rule depends on which CPUs hold one;
//   - in ARM-like mode, the value of an up-to-date copy (it is the latest
//     value); its state is kept, since whether a CPU holds a line in S or
//     owns it decides whether another CPU's commit leaves it a stale,
//     readable copy; and whether a reader's miss gets E or S.
//   - a register's address-dependency marks on queued invalidations when
//     the register never flows into an address.
func (m *Machine) Key(s *State) string {
	return string(m.appendKey(nil, s, false))
}

// appendKey appends s's key to b. With deadLines it also leaves out the
// stale value of a copy whose CPU never loads that line again: nothing can
// read it (a commit or an RMW by that CPU applies the invalidation first,
// and a stale S copy is never written back), so only its presence — the
// queued entry and the line's S state — can matter, and both stay in the
// key. That argument needs the CPU's future loads, which only the search
// has at hand, so the public Key keeps the value.
func (m *Machine) appendKey(b []byte, s *State, deadLines bool) []byte {
	for l := range s.mem {
		b = binary.AppendVarint(b, int64(s.Latest(Loc(l))))
	}
	b = binary.AppendUvarint(b, uint64(s.srcuOpen))
	arm := m.Mode == ARM
	for c := range s.cpus {
		cs := &s.cpus[c]
		flags := byte(0)
		if cs.acqWait {
			flags |= 1
		}
		if cs.syncWait {
			flags |= 2
		}
		if cs.fault {
			flags |= 4
		}
		b = append(b, cs.pc, flags, cs.rcuDepth, cs.gpDomain)
		b = binary.AppendUvarint(b, cs.early)
		b = binary.AppendUvarint(b, uint64(cs.gpWait))
		b = binary.AppendUvarint(b, uint64(cs.gpSecs))
		for _, v := range cs.regs {
			b = binary.AppendVarint(b, int64(v))
		}
		b = append(b, byte(len(cs.sb)))
		for _, e := range cs.sb {
			b = append(b, byte(e.Loc), byte(e.Kind), e.Instr)
			b = binary.AppendVarint(b, int64(e.Val))
		}
		if !arm {
			continue
		}
		// Line states, two bits each: I, S, or owned (E or M).
		var st uint64
		for l := range cs.cache {
			var code uint64
			switch cs.cache[l].State {
			case Shared:
				code = 1
			case Exclusive, Modified:
				code = 2
			}
			st |= code << (2 * uint(l%32))
			if l%32 == 31 || l == len(cs.cache)-1 {
				b = binary.AppendUvarint(b, st)
				st = 0
			}
		}
		// Queued invalidations in location order: the order they arrived
		// in does not matter, any of them may be applied at any time.
		reads := ^uint64(0)
		if deadLines {
			reads = m.futureReads[c][cs.pc]
		}
		b = append(b, byte(len(cs.iq)))
		for l := range s.mem {
			i := s.iqIndex(c, Loc(l))
			if i < 0 {
				continue
			}
			e := cs.iq[i]
			mark := byte(0)
			if e.Marked {
				mark = 1
			}
			b = append(b, byte(e.Loc), mark)
			b = binary.AppendUvarint(b, uint64(e.Before&m.addrRegs[c]))
			if reads&(1<<l) != 0 {
				b = binary.AppendVarint(b, int64(cs.cache[e.Loc].Val))
			}
		}
	}
	return b
}

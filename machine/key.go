package machine

import "encoding/binary"

// Key returns a canonical encoding of everything in s that can influence
// any future step or outcome. Two states with equal keys offer the same
// steps and reach the same outcomes.
//
// Left out, because they cannot influence the future: the coherence history
// and step numbers (annotations), and which MESI letter an up-to-date copy
// has. In TSO mode every readable copy is up to date, so caches are left out
// entirely; in ARM-like mode a copy is out of date exactly when its
// invalidation is queued, so the key keeps each queued entry with the stale
// value the copy holds.
func (m *Machine) Key(s *State) string {
	return string(m.appendKey(nil, s, false))
}

// appendKey appends s's key to b. With deadLines, the key also leaves out
// queued invalidations of lines the CPU never loads again: such an entry can
// only delay a barrier until it is applied, and applying it is always
// possible. That is an equivalence for outcomes, not for steps (the entry's
// own invalidation step changes nothing in the key), so only the reduced
// search, which applies such entries together with the step they unblock,
// may use it.
func (m *Machine) appendKey(b []byte, s *State, deadLines bool) []byte {
	for l := range s.mem {
		b = binary.AppendVarint(b, int64(s.Latest(Loc(l))))
	}
	arm := m.Mode == ARM
	for c := range s.cpus {
		cs := &s.cpus[c]
		live := ^uint64(0)
		if deadLines {
			live = m.futureReads[c][cs.pc]
		}
		nlive := 0
		for _, e := range cs.iq {
			if live&(1<<e.Loc) != 0 {
				nlive++
			}
		}
		flags := byte(0)
		if cs.acqWait && nlive > 0 {
			flags |= 1
		}
		if cs.syncWait {
			flags |= 2
		}
		b = append(b, cs.pc, flags, cs.rcuDepth)
		b = binary.AppendUvarint(b, cs.early)
		b = binary.AppendUvarint(b, uint64(cs.gpWait))
		for _, v := range cs.regs {
			b = binary.AppendVarint(b, int64(v))
		}
		b = append(b, byte(len(cs.sb)))
		for _, e := range cs.sb {
			b = append(b, byte(e.Loc), byte(e.Kind), e.Instr)
			b = binary.AppendVarint(b, int64(e.Val))
		}
		if arm {
			// Entries in location order: the order they arrived in does not
			// matter, any of them may be applied at any time.
			b = append(b, byte(nlive))
			for l := range s.mem {
				if live&(1<<l) == 0 {
					continue
				}
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
				b = binary.AppendVarint(b, int64(cs.cache[e.Loc].Val))
			}
		}
	}
	return b
}

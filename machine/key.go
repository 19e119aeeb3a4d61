package machine

import "encoding/binary"

// Key returns a canonical encoding of everything in s that can influence
// any future step or outcome. Two states with equal keys offer the same
// steps and reach the same outcomes, so the explorer expands each key once.
//
// Left out, because they cannot influence the future: the coherence history
// and step numbers (annotations), and which MESI letter an up-to-date copy
// has. In TSO mode every readable copy is up to date, so caches are left out
// entirely; in ARM-like mode a copy is out of date exactly when its
// invalidation is queued, so the key keeps each queued entry with the stale
// value the copy holds.
func (m *Machine) Key(s *State) string {
	return string(m.appendKey(nil, s))
}

func (m *Machine) appendKey(b []byte, s *State) []byte {
	for l := range s.mem {
		b = binary.AppendVarint(b, int64(s.Latest(Loc(l))))
	}
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
				b = binary.AppendVarint(b, int64(cs.cache[e.Loc].Val))
			}
		}
	}
	return b
}

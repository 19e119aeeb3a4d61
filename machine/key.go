package machine

// Key returns a canonical encoding of everything in s that can influence
// any future step or outcome: two states with equal keys offer the same
// steps, leading to states that again have equal keys, and reach the same
// outcomes, deadlocks and faults (RULES.md, "The explorer").
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

// appendKey appends s's key to b: its search encoding (encode.go), the
// blocks one after the other. With deadLines it also leaves out what only
// the search may leave out: the stale value of a copy whose CPU never
// loads that line again (nothing can read it: a commit or an RMW by that
// CPU applies the invalidation first, and a stale S copy is never written
// back), and line states where no CPU may still both load and write the
// line (without a later commit an up-to-date copy stays up to date and a
// miss reads the latest value whoever holds the line; without a later
// load nobody reads a copy). Those arguments need the CPUs' futures, and
// the search applies queued invalidations of lines nobody will load at
// once (explorer.perform), so the public Key keeps everything.
func (m *Machine) appendKey(b []byte, s *State, deadLines bool) []byte {
	b = m.appendMemBlock(b, s, ^uint32(0))
	for c := range s.cpus {
		live, reads := m.blockMasks(s, c, deadLines)
		b = m.appendCPUBlock(b, s, c, live, reads, ^uint32(0), 0)
	}
	return b
}

// liveReads returns the locations some CPU may still load from. (Loads
// issued early count too: perform keeps a queued invalidation of a line
// its CPU may load before its next drain by the same static count,
// drainReads, and the key must not force to I a copy such an
// invalidation may still arrive at.)
func (m *Machine) liveReads(s *State) uint64 {
	var live uint64
	for c := range s.cpus {
		live |= m.fut.futureReads[c][s.cpus[c].pc]
	}
	return live
}

// liveWrites returns the locations some CPU may still write: by an
// instruction still to run or an entry still in its store buffer.
func (m *Machine) liveWrites(s *State) uint64 {
	var live uint64
	for c := range s.cpus {
		live |= m.writesLeft(s, c)
		for _, e := range s.cpus[c].sb {
			if e.Kind != EntryWmb {
				live |= 1 << e.Loc
			}
		}
	}
	return live
}

package machine

import "encoding/binary"

// The search encoding of a state: a shared block (the latest value of
// every location, the open SRCU sections) and one block per CPU. Equal
// encodings mean equal futures (see Key for what is left out and why),
// and an encoding decodes back into a state with those futures, so the
// explorer keeps nothing but encodings: the blocks are interned per CPU,
// and a state is a short tuple of block numbers.
//
// A CPU block holds, in order: pc, flags (acquire wait, in a grace period,
// faulted), RCU nesting, grace-period domain, the mis-speculated branch,
// the issued-early mask, the
// CPUs its grace period waits for, the SRCU sections it waits for, its
// registers, its store buffer, and in ARM-like mode its line states and
// queued invalidations. Line states are two bits per location (I, S,
// owned), forced to I where they cannot matter (mask live); a line with a
// queued invalidation is S whatever its bits say, and its stale value is
// kept only if the CPU may still load the line (mask reads).
//
// When the program has SRCU sections to close (Machine.srcuTracked), every
// encoded value is followed by the sections it carries: the latest value
// of each location, each register, each store-buffer entry and each kept
// stale value. (An up-to-date copy carries what the latest value does.)
//
// Closed sections (the search only: redDeadSections, open is then
// srcuOpen; Key passes every bit). Each set of sections encoded — a
// value's, a register's, an entry's, and a grace period's gpSecs — is
// encoded ANDed with open. The one rule that reads a value's sections,
// srcuUnlocks, ANDs them with srcuOpen first; every rule that reads gpSecs
// (owesOutside through inSections, srcuUnlock for a matched section, the
// wait in wait.go, srcuHold, the facts) either ANDs it with srcuOpen or
// meets only open sections. A section closed stays closed: it is named by
// its srcu_read_lock, which runs at most once (jumps only go forward), and
// no value carries a section before its lock has run. So the bits of
// closed sections are read by no future step, and two states that differ
// only in them have the same futures. (A section an unlock matched but
// left open, because another unlock of it may still run, is still open and
// kept.) Decoding gives the masked sets, which encode to the same blocks.

// appendMemBlock appends the shared block of s, the sections a value
// carries ANDed with open (see above).
func (m *Machine) appendMemBlock(b []byte, s *State, open uint32) []byte {
	track := m.srcuTracked()
	for l := range s.mem {
		b = binary.AppendVarint(b, int64(s.Latest(Loc(l))))
		if track {
			b = binary.AppendUvarint(b, uint64(s.latestSecs(Loc(l))&open))
		}
	}
	return binary.AppendUvarint(b, uint64(s.srcuOpen))
}

// appendCPUBlock appends CPU c's block. live selects the locations whose
// line states are encoded; reads, those whose stale values are; open, the
// sections kept in every set of sections (see above); skip, the
// registers left out (outregs.go).
func (m *Machine) appendCPUBlock(b []byte, s *State, c int, live, reads uint64, open, skip uint32) []byte {
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
	b = append(b, cs.pc, flags, cs.rcuDepth, cs.gpDomain, cs.misspec)
	b = binary.AppendUvarint(b, cs.early)
	b = binary.AppendUvarint(b, uint64(cs.gpWait))
	b = binary.AppendUvarint(b, uint64(cs.gpSecs&open))
	track := m.srcuTracked()
	for r, v := range cs.regs {
		if skip&(1<<r) == 0 {
			b = binary.AppendVarint(b, int64(v))
		}
	}
	for _, f := range cs.secs {
		b = binary.AppendUvarint(b, uint64(f&open))
	}
	b = append(b, byte(len(cs.sb)))
	for _, e := range cs.sb {
		b = append(b, byte(e.Loc), byte(e.Kind), e.Instr, e.Guard)
		b = binary.AppendVarint(b, int64(e.Val))
		if track {
			b = binary.AppendUvarint(b, uint64(e.Secs&open))
		}
	}
	if m.Mode != ARM {
		return b
	}
	var st uint64
	for l := range cs.cache {
		var code uint64
		if live&(1<<l) != 0 {
			switch cs.cache[l].State {
			case Shared:
				code = 1
			case Exclusive, Modified:
				code = 2
			}
		}
		st |= code << (2 * uint(l%32))
		if l%32 == 31 || l == len(cs.cache)-1 {
			b = binary.AppendUvarint(b, st)
			st = 0
		}
	}
	// Queued invalidations in location order: the order they arrived in
	// does not matter, any of them may be applied at any time.
	b = append(b, byte(len(cs.iq)))
	for l := 0; l < len(s.mem) && len(cs.iq) > 0; l++ {
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
		b = binary.AppendUvarint(b, uint64(e.Before&m.fut.addrRegs[c]))
		if reads&(1<<l) != 0 {
			b = binary.AppendVarint(b, int64(cs.cache[e.Loc].Val))
			if track {
				b = binary.AppendUvarint(b, uint64(cs.cache[e.Loc].Secs&open))
			}
		}
	}
	return b
}

// blockMasks returns the masks appendCPUBlock takes for CPU c: with
// dead, the search's (line states only where some CPU may still load and
// some CPU may still write the line; stale values only where c may still
// load it), else everything.
func (m *Machine) blockMasks(s *State, c int, dead bool) (live, reads uint64) {
	if !dead || m.Mode != ARM {
		return ^uint64(0), ^uint64(0)
	}
	return m.liveLines(s), m.staleReads(&s.cpus[c], c)
}

// staleReads is the search's mask of the lines whose stale values CPU c
// may still read: those it may load before its queue is next drained,
// and none while it waits after an acquire (its next instruction, early
// or not, waits until every entry queued now is applied).
func (m *Machine) staleReads(cs *cpuState, c int) uint64 {
	if cs.acqWait {
		return 0
	}
	return m.drainReadsOf(cs, c)
}

// liveLines returns the lines whose states the search encodes (ARM-like
// mode): those some CPU may still load and some CPU may still write.
func (m *Machine) liveLines(s *State) uint64 { return m.liveReads(s) & m.liveWrites(s) }

// decoder reads a byte block.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

// decodeState rebuilds, in sc, a state from its shared block and CPU
// blocks. Fields the encoding leaves out get fixed values: annotations are
// zero, memory holds the latest value of every line, an owned line is M,
// an up-to-date copy holds the latest value, and a stale copy whose value
// was not kept holds 0 (nothing reads it).
//
// dead says whether the blocks were encoded with the search's masks
// (blockMasks): then a queued invalidation carries its stale value only
// where the CPU may still load the line.
func (m *Machine) decodeState(sc *scratch, memBlock []byte, blocks [][]byte, dead bool, skip [][]uint32) *State {
	p := m.Prog
	nl, nc := len(p.Locs), len(p.Threads)
	nv := nl
	for _, t := range p.Threads {
		nv += len(t.Regs)
	}
	sc.vals, sc.lines = grow(sc.vals, nv), grow(sc.lines, nc*nl)
	sc.cpus = grow(sc.cpus, nc)
	// Store buffers and queues: one buffer holds them all, each CPU's
	// entries and a spare slot after them. Every entry takes at least a
	// byte of its CPU's block, so the block's length bounds their number
	// (a buffer longer than needed only leaves slots unused).
	track := m.srcuTracked()
	nsb, niq := 0, 0
	for c := range blocks {
		nsb += len(blocks[c]) + 1
		niq += len(blocks[c]) + 1
	}
	sc.sbs, sc.iqs = grow(sc.sbs, nsb), grow(sc.iqs, niq)
	s := &sc.st
	*s = State{cpus: sc.cpus, mem: sc.vals[:nl:nl]}
	if track {
		sc.secs = grow(sc.secs, nv)
		s.memSecs = sc.secs[:nl:nl]
	}
	d := decoder{b: memBlock}
	for l := 0; l < nl; l++ {
		s.mem[l] = Value(d.varint())
		if track {
			s.memSecs[l] = uint32(d.uvarint())
		}
	}
	s.srcuOpen = uint32(d.uvarint())
	bad := d.bad
	vo, so, io := nl, 0, 0
	for c := range blocks {
		k := len(p.Threads[c].Regs)
		regs := sc.vals[vo : vo+k : vo+k]
		var secs []uint32
		if track {
			secs = sc.secs[vo : vo+k : vo+k]
		}
		vo += k
		var ok bool
		var sk []uint32
		if skip != nil {
			sk = skip[c]
		}
		so, io, ok = m.decodeCPU(s, c, blocks[c], regs, secs, sc, so, io, dead, sk)
		bad = bad || !ok
	}
	if bad {
		panic("machine: corrupt state encoding")
	}
	return s
}

// decodeCPU decodes CPU c's block into s, using regs for its registers and
// the scratch buffers from offsets so and io for its store buffer and
// queue; it returns the offsets after them.
func (m *Machine) decodeCPU(s *State, c int, block []byte, regs []Value, secs []uint32, sc *scratch, so, io int, dead bool, skipAt []uint32) (int, int, bool) {
	nl := len(s.mem)
	track := secs != nil
	cs := &s.cpus[c]
	*cs = cpuState{regs: regs, secs: secs}
	d := decoder{b: block}
	cs.pc = d.byte()
	flags := d.byte()
	cs.acqWait, cs.syncWait, cs.fault = flags&1 != 0, flags&2 != 0, flags&4 != 0
	cs.rcuDepth = d.byte()
	cs.gpDomain = d.byte()
	cs.misspec = d.byte()
	cs.early = d.uvarint()
	cs.gpWait = uint32(d.uvarint())
	cs.gpSecs = uint32(d.uvarint())
	var skip uint32
	if skipAt != nil && int(cs.pc) < len(skipAt) {
		skip = skipAt[cs.pc]
	}
	for r := range cs.regs {
		if skip&(1<<r) != 0 {
			cs.regs[r] = 0 // left out: never read (outregs.go)
			continue
		}
		cs.regs[r] = Value(d.varint())
	}
	for r := range cs.secs {
		cs.secs[r] = uint32(d.uvarint())
	}
	n := int(d.byte())
	cs.sb = sc.sbs[so : so+n : so+n+1]
	so += n + 1
	for i := range cs.sb {
		cs.sb[i] = SBEntry{Loc: Loc(d.byte()), Kind: EntryKind(d.byte()), Instr: d.byte(), Guard: d.byte()}
		cs.sb[i].Val = Value(d.varint())
		if track {
			cs.sb[i].Secs = uint32(d.uvarint())
		}
	}
	cs.cache = sc.lines[c*nl : (c+1)*nl : (c+1)*nl]
	for l := range cs.cache {
		cs.cache[l] = Line{}
	}
	if m.Mode != ARM {
		cs.iq = sc.iqs[io : io : io+1]
		return so, io + 1, !d.bad
	}
	for base := 0; base < nl; base += 32 {
		st := d.uvarint()
		for l := base; l < nl && l < base+32; l++ {
			switch (st >> (2 * uint(l-base))) & 3 {
			case 1:
				cs.cache[l] = Line{State: Shared, Val: s.mem[l]}
			case 2:
				cs.cache[l] = Line{State: Modified, Val: s.mem[l]}
			}
			if track {
				cs.cache[l].Secs = s.memSecs[l]
			}
		}
	}
	reads := ^uint64(0) // as blockMasks; its live mask needs every CPU decoded
	if dead {
		reads = m.staleReads(cs, c)
	}
	n = int(d.byte())
	cs.iq = sc.iqs[io : io+n : io+n+1]
	io += n + 1
	for i := range cs.iq {
		l := Loc(d.byte())
		cs.iq[i] = IQEntry{Loc: l, Marked: d.byte() != 0, Before: uint32(d.uvarint())}
		var v Value
		var f uint32
		if reads&(1<<l) != 0 {
			v = Value(d.varint())
			if track {
				f = uint32(d.uvarint())
			}
		}
		cs.cache[l] = Line{State: Shared, Val: v, Secs: f}
	}
	return so, io, !d.bad && len(d.b) == 0
}

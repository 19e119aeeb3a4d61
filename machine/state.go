package machine

import (
	"fmt"
	"slices"
)

// Mode is the architecture the machine imitates.
type Mode uint8

// Modes.
const (
	TSO Mode = iota // x86-TSO: FIFO store buffers, invalidations applied at once
	ARM             // ARMv8-like: store buffers commit out of order, invalidation queues, early issue of stores
)

func (m Mode) String() string {
	if m == ARM {
		return "arm"
	}
	return "tso"
}

// Title is the mode's name for people.
func (m Mode) Title() string {
	if m == ARM {
		return "ARM-like"
	}
	return "TSO"
}

// ParseMode accepts "tso" or "arm".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "tso", "TSO", "x86":
		return TSO, nil
	case "arm", "ARM", "arm64":
		return ARM, nil
	}
	return TSO, fmt.Errorf("unknown mode %q (want tso or arm)", s)
}

// MESI is a cache line's coherence state.
type MESI uint8

// Cache line states. The zero value is Invalid.
const (
	Invalid MESI = iota
	Shared
	Exclusive
	Modified
)

func (s MESI) String() string { return [...]string{"I", "S", "E", "M"}[s] }

// EntryKind distinguishes store-buffer entries.
type EntryKind uint8

// Store-buffer entry kinds.
const (
	EntryPlain     EntryKind = iota
	EntryRelease             // commits only when it is the oldest entry (ARM-like)
	EntryExclusive           // the write half of an exclusive RMW; reserves its line
	EntryWmb                 // an smp_wmb marker, not a store
	// EntryReleaseExclusive is the write of a _release RMW (ARM-like):
	// exclusive (it reserves its line) and a release (it commits only
	// when it is the oldest entry, and its commit marks the queue).
	EntryReleaseExclusive
)

// IsRelease reports whether entries of kind k are releases: they commit
// only when they are the oldest, and their commit marks the queue.
func (k EntryKind) IsRelease() bool { return k == EntryRelease || k == EntryReleaseExclusive }

// IsExclusive reports whether entries of kind k are the write of an
// exclusive RMW: they reserve their line until they commit.
func (k EntryKind) IsExclusive() bool { return k == EntryExclusive || k == EntryReleaseExclusive }

// SBEntry is one store-buffer entry. Instr is the index of the instruction
// that produced it: instructions run at most once, so it names the entry
// stably across replays.
type SBEntry struct {
	Loc   Loc
	Kind  EntryKind
	Instr uint8
	// Secs holds the SRCU read-side sections whose index the stored value
	// carries (srcu.go, "Which section an unlock closes").
	Secs uint32
	Val  Value
	// Guard is 1+the last unresolved branch a store issued early past
	// one waits for (ARM-like, early.go): it may be forwarded to the CPU's
	// own later loads, but commits only once the pc has passed that
	// branch (and so every one before it); 0 for every other entry, and
	// once the pc has passed it (unguard).
	Guard uint8
}

// IQEntry is one queued invalidation (ARM-like mode). A CPU holds at most
// one entry per line: a second invalidation of a line already queued is the
// same work for the cache.
type IQEntry struct {
	Loc Loc
	// Marked is set when one of the CPU's own release stores committed while
	// this entry was queued: a later acquire applies it first.
	Marked bool
	// Before has bit r set when the entry arrived before the load whose value
	// register r holds: a load whose address depends on r applies it first.
	Before uint32
	// Arrived is the step number at which the entry arrived (for display
	// only; not part of the state key).
	Arrived int32
}

// Line is one cache line.
type Line struct {
	Val   Value
	Co    int32  // position of Val in the location's coherence order (display and tests)
	Secs  uint32 // the SRCU sections whose index Val carries (srcu.go)
	State MESI
}

// cpuState is the per-CPU part of a State.
type cpuState struct {
	pc       uint8
	early    uint64 // instructions issued early and not yet passed by the pc
	executed uint64 // annotation: instructions performed so far (not in keys)
	acqWait  bool   // an acquire ran: the next instruction waits for an empty invalidation queue
	syncWait bool   // inside synchronize_rcu or synchronize_srcu, after the grace period started
	fault    bool   // the instruction at pc used an address that is not a pointer: the execution ended
	// misspec is 1+the branch that went the other way than the CPU guessed
	// when it performed a read inside it early (early.go): the state is no
	// execution; 0 if none.
	misspec  uint8
	rcuDepth uint8
	// gpDomain is the kind of grace period this CPU waits for: 0 for
	// RCU, 1+d for the SRCU domain of location d.
	gpDomain uint8
	gpWait   uint32 // CPUs that still owe a quiescent state to this CPU's grace period
	// gpSecs holds the SRCU read-side sections open when this CPU's SRCU
	// grace period started: it ends only after each has been closed.
	gpSecs uint32
	regs   []Value
	// wrote marks the registers written since the state was decoded by
	// the search (outregs.go): not in keys, not compared.
	wrote uint32
	// secs holds, per register, the SRCU read-side sections whose index
	// flowed into its value by data (srcu.go, "Which section an unlock
	// closes"); nil when the program has no SRCU section to close.
	secs  []uint32
	cache []Line
	sb    []SBEntry
	iq    []IQEntry
}

// cohNode is one committed store in a location's coherence order, kept as
// an immutable linked list so states share history.
type cohNode struct {
	val   Value
	cpu   int8 // -1: the initial value
	instr int8 // the instruction that made the store (-1: the initial value)
	step  int32
	prev  *cohNode
	n     int32 // position in the coherence order (0 = initial value)
}

func (n *cohNode) store() StoreID { return StoreID{CPU: int(n.cpu), Instr: int(n.instr)} }

// State is one state of the machine. States are immutable values for users
// of the package: Apply returns a new State.
type State struct {
	mem   []Value
	memCo []int32 // coherence position of each memory value
	// memSecs holds, per location, the SRCU sections whose index memory's
	// value carries (nil like cpuState.secs).
	memSecs []uint32
	cpus    []cpuState
	// srcuOpen holds the SRCU read-side sections (see Machine.srcuSecs)
	// that have been opened and not yet closed.
	srcuOpen uint32
	coh      []*cohNode // annotation: per location, the newest committed store
	steps    int32      // annotation: number of steps taken
}

func (s *State) clone() *State {
	// A handful of allocations per state whatever the number of CPUs.
	nv, nl, nsb, niq, nsec := s.sizes()
	n := &State{}
	s.cloneInto(n, make([]Value, nv), make([]Line, nl), make([]SBEntry, nsb), make([]IQEntry, niq), make([]cpuState, len(s.cpus)), make([]uint32, nsec))
	if s.coh != nil {
		n.memCo = append([]int32(nil), s.memCo...)
		n.coh = append([]*cohNode(nil), s.coh...)
	}
	return n
}

// sizes returns the buffer lengths cloneInto needs: values (memory and
// registers), cache lines, store-buffer and invalidation-queue entries
// with room for one more per CPU (a step appends at most one to each),
// and SRCU section masks (memory and registers, when they are kept).
func (s *State) sizes() (vals, lines, sb, iq, secs int) {
	vals = len(s.mem)
	secs = len(s.memSecs)
	for i := range s.cpus {
		c := &s.cpus[i]
		vals += len(c.regs)
		secs += len(c.secs)
		sb += len(c.sb) + 1
		iq += len(c.iq) + 1
	}
	return vals, len(s.cpus) * len(s.mem), sb, iq, secs
}

// cloneInto copies s into n using the given buffers (of the lengths sizes
// returns). The coherence history is left to the caller.
func (s *State) cloneInto(n *State, vals []Value, lines []Line, sbs []SBEntry, iqs []IQEntry, cpus []cpuState, secs []uint32) {
	nl := len(s.mem)
	*n = State{cpus: cpus, steps: s.steps, srcuOpen: s.srcuOpen, mem: vals[:nl:nl]}
	copy(n.mem, s.mem)
	eo := 0
	if s.memSecs != nil {
		n.memSecs = secs[:nl:nl]
		copy(n.memSecs, s.memSecs)
		eo = nl
	}
	vo, so, io := nl, 0, 0
	for i := range s.cpus {
		c := &s.cpus[i]
		d := &n.cpus[i]
		*d = *c
		k := len(c.regs)
		d.regs = vals[vo : vo+k : vo+k]
		copy(d.regs, c.regs)
		vo += k
		if c.secs != nil {
			k := len(c.secs)
			d.secs = secs[eo : eo+k : eo+k]
			copy(d.secs, c.secs)
			eo += k
		}
		d.cache = lines[i*nl : (i+1)*nl : (i+1)*nl]
		copy(d.cache, c.cache)
		k = len(c.sb)
		d.sb = sbs[so : so+k : so+k+1]
		copy(d.sb, c.sb)
		so += k + 1
		k = len(c.iq)
		d.iq = iqs[io : io+k : io+k+1]
		copy(d.iq, c.iq)
		io += k + 1
	}
}

// scratch is a reusable state for computing successors without allocating:
// the explorer materialises a successor only when it is new.
type scratch struct {
	st    State
	vals  []Value
	lines []Line
	sbs   []SBEntry
	iqs   []IQEntry
	cpus  []cpuState
	secs  []uint32
}

func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, 2*n)
	}
	return b[:n]
}

// load copies s into the scratch state (without history) and returns it.
func (sc *scratch) load(s *State) *State {
	nv, nl, nsb, niq, nsec := s.sizes()
	sc.vals, sc.lines = grow(sc.vals, nv), grow(sc.lines, nl)
	sc.sbs, sc.iqs = grow(sc.sbs, nsb), grow(sc.iqs, niq)
	sc.cpus, sc.secs = grow(sc.cpus, len(s.cpus)), grow(sc.secs, nsec)
	s.cloneInto(&sc.st, sc.vals, sc.lines, sc.sbs, sc.iqs, sc.cpus, sc.secs)
	return &sc.st
}

// loadFrom is load for a state s that src holds in its buffers laid out as
// cloneInto and decodeState lay them out (holds): each buffer is then
// copied at once, and the slices are cut as cloneInto cuts them, with
// the same contents (the spare slots copied too are never read).
func (sc *scratch) loadFrom(s *State, src *scratch) *State {
	if !src.holds(s) {
		return sc.load(s)
	}
	nv, nl, nsb, niq, nsec := s.sizes()
	sc.vals, sc.lines = grow(sc.vals, nv), grow(sc.lines, nl)
	sc.sbs, sc.iqs = grow(sc.sbs, nsb), grow(sc.iqs, niq)
	sc.cpus, sc.secs = grow(sc.cpus, len(s.cpus)), grow(sc.secs, nsec)
	copy(sc.vals, src.vals[:nv])
	copy(sc.lines, src.lines[:nl])
	copy(sc.sbs, src.sbs[:nsb])
	copy(sc.iqs, src.iqs[:niq])
	copy(sc.secs, src.secs[:nsec])
	nm := len(s.mem)
	n := &sc.st
	*n = State{cpus: sc.cpus, steps: s.steps, srcuOpen: s.srcuOpen, mem: sc.vals[:nm:nm]}
	tracked := s.memSecs != nil
	if tracked {
		n.memSecs = sc.secs[:nm:nm]
	}
	vo, so, io := nm, 0, 0
	for i := range s.cpus {
		c := &s.cpus[i]
		d := &n.cpus[i]
		*d = *c
		k := len(c.regs)
		d.regs = sc.vals[vo : vo+k : vo+k]
		if tracked {
			d.secs = sc.secs[vo : vo+k : vo+k]
		}
		vo += k
		d.cache = sc.lines[i*nm : (i+1)*nm : (i+1)*nm]
		k = len(c.sb)
		d.sb = sc.sbs[so : so+k : so+k+1]
		so += k + 1
		k = len(c.iq)
		d.iq = sc.iqs[io : io+k : io+k+1]
		io += k + 1
	}
	return n
}

// holds reports whether s lives in sc's buffers laid out as cloneInto
// lays them out: memory then each CPU's registers, the caches one after
// the other, each store buffer and queue followed by a spare slot, and
// the SRCU sections either kept for memory and every register (at the
// values' offsets) or for none.
func (sc *scratch) holds(s *State) bool {
	nl := len(s.mem)
	if nl == 0 || len(sc.vals) < nl || &s.mem[0] != &sc.vals[0] {
		return false
	}
	tracked := s.memSecs != nil
	if tracked && (len(s.memSecs) != nl || len(sc.secs) < nl || &s.memSecs[0] != &sc.secs[0]) {
		return false
	}
	vo, so, io := nl, 0, 0
	for i := range s.cpus {
		c := &s.cpus[i]
		if (c.secs != nil) != tracked || len(c.cache) != nl || (i+1)*nl > len(sc.lines) || &c.cache[0] != &sc.lines[i*nl] {
			return false
		}
		k := len(c.regs)
		if k > 0 && (vo+k > len(sc.vals) || &c.regs[0] != &sc.vals[vo]) {
			return false
		}
		if tracked && (len(c.secs) != k || k > 0 && (vo+k > len(sc.secs) || &c.secs[0] != &sc.secs[vo])) {
			return false
		}
		vo += k
		if k := len(c.sb); k > 0 && (so+k > len(sc.sbs) || &c.sb[0] != &sc.sbs[so]) {
			return false
		}
		so += len(c.sb) + 1
		if k := len(c.iq); k > 0 && (io+k > len(sc.iqs) || &c.iq[0] != &sc.iqs[io]) {
			return false
		}
		io += len(c.iq) + 1
	}
	return vo <= len(sc.vals) && so <= len(sc.sbs) && io <= len(sc.iqs) && (!tracked || vo <= len(sc.secs))
}

// Steps returns how many steps led to this state.
func (s *State) Steps() int { return int(s.steps) }

// NumCPUs returns the number of CPUs.
func (s *State) NumCPUs() int { return len(s.cpus) }

// PC returns CPU c's program counter (the index of its next instruction;
// equal to the code length when it has finished).
func (s *State) PC(c int) int { return int(s.cpus[c].pc) }

// IssuedEarly reports whether instruction i of CPU c was executed early,
// ahead of the (still unexecuted) loads before it.
func (s *State) IssuedEarly(c, i int) bool { return i < 64 && s.cpus[c].early&(1<<uint(i)) != 0 }

// Executed reports whether instruction i of CPU c has been performed
// (including instructions folded into a step, and those issued early); an
// instruction the pc passed without performing it was skipped by a branch.
func (s *State) Executed(c, i int) bool { return i < 64 && s.cpus[c].executed&(1<<uint(i)) != 0 }

// Reg returns the value of register r of CPU c.
func (s *State) Reg(c int, r Reg) Value { return s.cpus[c].regs[r] }

// Regs returns a copy of CPU c's registers.
func (s *State) Regs(c int) []Value { return append([]Value(nil), s.cpus[c].regs...) }

// Cache returns CPU c's cache line for l.
func (s *State) Cache(c int, l Loc) Line { return s.cpus[c].cache[l] }

// StoreBuffer returns a copy of CPU c's store buffer, oldest entry first.
func (s *State) StoreBuffer(c int) []SBEntry { return append([]SBEntry(nil), s.cpus[c].sb...) }

// InvalQueue returns a copy of CPU c's invalidation queue in arrival order.
func (s *State) InvalQueue(c int) []IQEntry { return append([]IQEntry(nil), s.cpus[c].iq...) }

// RCUDepth returns CPU c's RCU read-side nesting depth.
func (s *State) RCUDepth(c int) int { return int(s.cpus[c].rcuDepth) }

// GracePeriodWaiting returns, if CPU c is inside synchronize_rcu waiting for
// a grace period, the CPUs that have not yet reported a quiescent state.
func (s *State) GracePeriodWaiting(c int) (waiting bool, owe []int) {
	cs := &s.cpus[c]
	if !cs.syncWait {
		return false, nil
	}
	for d := range s.cpus {
		if cs.gpWait&(1<<uint(d)) != 0 {
			owe = append(owe, d)
		}
	}
	return true, owe
}

// Memory returns the value memory holds for l (which may be older than the
// latest committed value when a cache owns the line).
func (s *State) Memory(l Loc) Value { return s.mem[l] }

// Latest returns the latest committed value of l: the value of the cache
// that owns it in M or E, else memory.
func (s *State) Latest(l Loc) Value {
	if o := s.owner(l); o >= 0 {
		return s.cpus[o].cache[l].Val
	}
	return s.mem[l]
}

// Owner returns the CPU whose cache holds l in M or E, or -1.
func (s *State) Owner(l Loc) int { return s.owner(l) }

func (s *State) owner(l Loc) int {
	for i := range s.cpus {
		if st := s.cpus[i].cache[l].State; st == Modified || st == Exclusive {
			return i
		}
	}
	return -1
}

// Stale reports whether CPU c's copy of l is readable but out of date
// because its invalidation is still queued.
func (s *State) Stale(c int, l Loc) bool {
	return s.cpus[c].cache[l].State != Invalid && s.iqIndex(c, l) >= 0
}

// CoherenceStore is one entry of a location's coherence order.
type CoherenceStore struct {
	Val  Value
	CPU  int // -1 for the initial value
	Step int // the step that committed it (0 for the initial value)
}

// Coherence returns l's coherence order so far, oldest first.
func (s *State) Coherence(l Loc) []CoherenceStore {
	var out []CoherenceStore
	for n := s.coh[l]; n != nil; n = n.prev {
		out = append(out, CoherenceStore{Val: n.val, CPU: int(n.cpu), Step: int(n.step)})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// CoherenceLen returns the number of stores in l's coherence order,
// counting the initial value.
func (s *State) CoherenceLen(l Loc) int { return int(s.coh[l].n) + 1 }

// sameSlice reports whether a and b are the same elements of the same
// array.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (s *State) iqIndex(c int, l Loc) int {
	for i, e := range s.cpus[c].iq {
		if e.Loc == l {
			return i
		}
	}
	return -1
}

// Equal reports whether two states are identical in every detail that
// influences the machine, including MESI states and step annotations of
// queued invalidations, but not the coherence history.
func (s *State) Equal(t *State) bool {
	if len(s.mem) != len(t.mem) || len(s.cpus) != len(t.cpus) || s.srcuOpen != t.srcuOpen {
		return false
	}
	for i := range s.mem {
		if s.mem[i] != t.mem[i] {
			return false
		}
	}
	if !slices.Equal(s.memSecs, t.memSecs) {
		return false
	}
	for i := range s.cpus {
		a, b := &s.cpus[i], &t.cpus[i]
		if !slices.Equal(a.secs, b.secs) {
			return false
		}
		if a.pc != b.pc || a.early != b.early || a.executed != b.executed || a.acqWait != b.acqWait || a.syncWait != b.syncWait ||
			a.fault != b.fault || a.misspec != b.misspec || a.rcuDepth != b.rcuDepth || a.gpDomain != b.gpDomain || a.gpWait != b.gpWait || a.gpSecs != b.gpSecs ||
			len(a.sb) != len(b.sb) || len(a.iq) != len(b.iq) {
			return false
		}
		// (A slice compared with itself is skipped: changedOnly compares
		// a CPU's state with the same one.)
		if !sameSlice(a.regs, b.regs) && !slices.Equal(a.regs, b.regs) ||
			!sameSlice(a.cache, b.cache) && !slices.Equal(a.cache, b.cache) ||
			!sameSlice(a.sb, b.sb) && !slices.Equal(a.sb, b.sb) ||
			!sameSlice(a.iq, b.iq) && !slices.Equal(a.iq, b.iq) {
			return false
		}
	}
	for l := range s.coh {
		if s.coh[l].n != t.coh[l].n {
			return false
		}
	}
	return s.steps == t.steps
}

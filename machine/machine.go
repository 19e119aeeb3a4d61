package machine

import (
	"fmt"
)

// Machine is a program loaded into a mode. It is immutable and safe for
// concurrent use; all mutable state lives in [State] values.
type Machine struct {
	Prog *Program
	Mode Mode

	hasSync bool // any synchronize_rcu: without one, RCU read-side markers have no effect
	// readers and srcuReaders: bit c is set when CPU c's program has an
	// RCU read-side marker (rcu_read_lock/unlock), resp. an SRCU lock or
	// unlock of any domain. A CPU outside them reports a quiescent state
	// without draining (exec.go, canReportTo).
	readers, srcuReaders uint32
	// hasSyncSRCU: any synchronize_srcu; without one, SRCU sections
	// have no effect beyond the index srcu_read_lock returns.
	hasSyncSRCU bool
	srcuSecs    []srcuSec // the section-opening instructions (srcu.go)
	// hasSRCUUnlock: any srcu_read_unlock or srcu_up_read.
	hasSRCUUnlock bool
	srcuSecOf     [][]int8 // [cpu][pc]: index into srcuSecs, or -1
	srcuCPUSecs   []uint32 // [cpu]: the sections it opens (bits of srcuSecs)
	// srcuOwnUnlocks[c]: the srcu_read_unlock instructions of CPU c
	// (bits) that can close only sections c opened and no other CPU can
	// close (initSRCU; persistentCPU's rule 6).
	srcuOwnUnlocks []uint64
	// srcuReach[c][pc]: the instructions of CPU c a path from pc may
	// perform (SRCU programs only).
	srcuReach [][]uint64
	// srcuLockLocs[c][pc]: the srcu_struct locations CPU c may still
	// read by an srcu_read_lock from pc (nil without any).
	srcuLockLocs [][]uint64
	// srcuSyncSecs: per domain a synchronize_srcu names, its sections.
	srcuSyncSecs []uint32
	// srcuBracketed: the srcu_struct locations (as bits) every section
	// of which is closed in every execution that opens it before its CPU
	// can block or finish (initSRCUBracketed).
	srcuBracketed uint64
	// unseen: the CPUs no grace period ever waits for to drain
	// (buffersUnseen).
	unseen uint32
	// noFold: every instruction is a step of its own (tests only, to
	// check that folding local instructions changes no outcome).
	noFold bool
	// fut holds the explorer's static analyses of the program
	// (futures.go): what each CPU may still do from each pc.
	fut *futures
	// sym holds the program's automorphisms but the identity
	// (symmetry.go).
	sym []perm
	// outRegs holds, per CPU and pc, the registers no instruction it may
	// still run reads (outregs.go).
	outRegs [][]uint32
}

// New validates p and returns a machine running it in mode.
func New(p *Program, mode Mode) (*Machine, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := &Machine{Prog: p, Mode: mode}
	for c, t := range p.Threads {
		for _, in := range t.Code {
			switch in.Op {
			case OpSyncRCU:
				m.hasSync = true
			case OpRCULock, OpRCUUnlock:
				m.readers |= 1 << uint(c)
			case OpSRCULock, OpSRCUUnlock:
				m.srcuReaders |= 1 << uint(c)
			}
		}
	}
	if err := m.initSRCU(); err != nil {
		return nil, err
	}
	m.initSRCUSync()
	m.initSRCUBracketed()
	m.initUnseen()
	m.fut = analyse(p, m.hasSyncSRCU)
	m.sym = automorphisms(p)
	m.outRegs = outRegs(p)
	return m, nil
}

// InMode returns a machine running m's program in mode. It shares m's
// analyses of the program, which depend on the code alone (validation,
// the futures, the automorphisms, the SRCU sections): exploring a program
// in both modes builds them once (issue 24: they were a tenth of what a
// batch of small tests allocated). Neither machine may be changed after.
func (m *Machine) InMode(mode Mode) *Machine {
	c := *m
	c.Mode = mode
	return &c
}

// MustNew is New for programs known to be valid (tests, built-ins).
func MustNew(p *Program, mode Mode) *Machine {
	m, err := New(p, mode)
	if err != nil {
		panic(err)
	}
	return m
}

// Initial returns the initial state: memory holds the initial values, every
// CPU holds every location in S (warm caches), buffers and queues are empty,
// and each CPU has already passed the instructions at the start of its
// program that touch nothing shared.
func (m *Machine) Initial() *State {
	p := m.Prog
	nl := len(p.Locs)
	s := &State{
		mem:   append([]Value(nil), p.Init...),
		memCo: make([]int32, nl),
		cpus:  make([]cpuState, len(p.Threads)),
		coh:   make([]*cohNode, nl),
	}
	// The first coherence node of every location, and every CPU's cache
	// below, are carved out of one allocation each (issue 24: a small
	// exploration's set-up). Each cache is capped at its length, so that
	// no append of one reaches the next.
	nodes := make([]cohNode, nl)
	for l := range s.coh {
		nodes[l] = cohNode{val: p.Init[l], cpu: -1, instr: -1}
		s.coh[l] = &nodes[l]
	}
	caches := make([]Line, nl*len(s.cpus))
	if m.srcuTracked() {
		s.memSecs = make([]uint32, nl)
	}
	for c := range s.cpus {
		cs := &s.cpus[c]
		cs.regs = make([]Value, len(p.Threads[c].Regs))
		copy(cs.regs, p.Threads[c].Init)
		if m.srcuTracked() {
			cs.secs = make([]uint32, len(cs.regs))
		}
		cs.cache = caches[c*nl : (c+1)*nl : (c+1)*nl]
		for l := range cs.cache {
			cs.cache[l] = Line{State: Shared, Val: p.Init[l]}
		}
	}
	for c := range s.cpus {
		m.advance(s, c, nil)
	}
	return s
}

// StepKind is the kind of hardware event a step is.
type StepKind uint8

// Step kinds (RULES.md, "Steps").
const (
	StepExec       StepKind = iota // the CPU performs its next instruction
	StepEarly                      // ARM-like: the CPU performs a later store or smp_wmb early
	StepCommit                     // a store-buffer entry is written to the cache
	StepInvalidate                 // ARM-like: the CPU applies one queued invalidation
	StepReportQS                   // the CPU reports a quiescent state to a grace period
)

var stepKindNames = [...]string{"exec", "early", "commit", "inv", "qs"}

func (k StepKind) String() string { return stepKindNames[k] }

// Step names one enabled transition. Its identity is stable: the same step
// of the same state always has the same value, and Arg names the thing the
// step acts on (the instruction index for StepEarly and StepCommit, the
// location for StepInvalidate).
type Step struct {
	Kind StepKind
	CPU  uint8
	Arg  uint8
}

// ID returns the step's compact identity, e.g. "P0 exec", "P1 commit #3",
// "P1 early #4", "P2 inv x", "P0 qs".
func (m *Machine) ID(st Step) string {
	cpu := m.Prog.Threads[st.CPU].Name
	switch st.Kind {
	case StepEarly, StepCommit:
		return fmt.Sprintf("%s %s #%d", cpu, st.Kind, st.Arg)
	case StepInvalidate:
		return fmt.Sprintf("%s inv %s", cpu, m.Prog.LocName(Loc(st.Arg)))
	}
	return fmt.Sprintf("%s %s", cpu, st.Kind)
}

// ParseID is the inverse of ID for this machine's program.
func (m *Machine) ParseID(id string) (Step, error) {
	var cpu, kind, arg string
	n, _ := fmt.Sscan(id, &cpu, &kind, &arg)
	if n < 2 {
		return Step{}, fmt.Errorf("malformed step %q", id)
	}
	c := -1
	for i, t := range m.Prog.Threads {
		if t.Name == cpu {
			c = i
		}
	}
	if c < 0 {
		return Step{}, fmt.Errorf("step %q: no CPU named %s", id, cpu)
	}
	st := Step{CPU: uint8(c)}
	for k, name := range stepKindNames {
		if name == kind {
			st.Kind = StepKind(k)
			switch st.Kind {
			case StepEarly, StepCommit:
				var idx int
				if _, err := fmt.Sscanf(arg, "#%d", &idx); err != nil || idx < 0 || idx >= MaxInstrs {
					return Step{}, fmt.Errorf("step %q: want an instruction number like #3", id)
				}
				st.Arg = uint8(idx)
			case StepInvalidate:
				found := false
				for l, name := range m.Prog.Locs {
					if name == arg {
						st.Arg, found = uint8(l), true
					}
				}
				if !found {
					return Step{}, fmt.Errorf("step %q: no location named %s", id, arg)
				}
			default:
				if n > 2 {
					return Step{}, fmt.Errorf("step %q: unexpected %q", id, arg)
				}
			}
			return st, nil
		}
	}
	return Step{}, fmt.Errorf("step %q: unknown kind %q (want exec, early, commit, inv or qs)", id, kind)
}

// Final reports whether every CPU has finished its program and every store
// buffer has drained (invalidation queues need not be empty).
func (m *Machine) Final(s *State) bool {
	for c := range s.cpus {
		cs := &s.cpus[c]
		if int(cs.pc) < len(m.Prog.Threads[c].Code) || len(cs.sb) > 0 || cs.fault || cs.misspec != 0 {
			return false
		}
	}
	return true
}

// Outcome extracts the outcome of a state: registers and latest committed
// values.
func (m *Machine) Outcome(s *State) Outcome {
	o := Outcome{Regs: make([][]Value, len(s.cpus)), Mem: make([]Value, len(s.mem))}
	for c := range s.cpus {
		o.Regs[c] = append([]Value(nil), s.cpus[c].regs...)
	}
	for l := range s.mem {
		o.Mem[l] = s.Latest(Loc(l))
	}
	return o
}

// Fault reports whether the execution ended in a fault: a CPU used an
// address that is not a pointer (e.g. a location plus a non-zero offset);
// and which.
func (m *Machine) Fault(s *State) (Fault, bool) {
	for c := range s.cpus {
		if s.cpus[c].fault {
			return m.faultAt(s, c), true
		}
	}
	return Fault{}, false
}

// faultAt is the fault CPU c stopped at.
func (m *Machine) faultAt(s *State, c int) Fault {
	cs := &s.cpus[c]
	in := &m.code(c)[cs.pc]
	return Fault{CPU: c, Instr: int(cs.pc), Kind: FaultAddress, Addr: in.Addr.Eval(cs.regs)}
}

func (m *Machine) faulted(s *State) bool {
	_, f := m.Fault(s)
	return f
}

// Misspec is a CPU's wrong guess, made by performing instructions
// (Instrs) early: reads inside one side of a branch before the branch's
// condition was known, and the branch then went the other way (Taken:
// the then-body ran, so the reads were in the else-body); or accesses
// after a fully ordered cmpxchg or atomic_add_unless (acquires after a
// cmpxchg_release) before it ran, on the guess that it fails, and it
// succeeded (Succeeded). Guessed is the
// branch or the RMW. Such a state is no execution (see jump and
// failGuessWrong).
type Misspec struct {
	CPU, Guessed int
	Taken        bool
	Succeeded    bool
	Instrs       []int
}

// Misspeculated reports whether a CPU guessed a branch wrong in s (the
// state is then no execution: no step is enabled, and it is no outcome,
// no deadlock and no fault), and which.
func (m *Machine) Misspeculated(s *State) (Misspec, bool) {
	for c := range s.cpus {
		if ms, ok := m.misspecAt(s, c); ok {
			return ms, true
		}
	}
	return Misspec{}, false
}

func (m *Machine) misspecAt(s *State, c int) (Misspec, bool) {
	cs := &s.cpus[c]
	if cs.misspec == 0 {
		return Misspec{}, false
	}
	br := int(cs.misspec) - 1
	if m.code(c)[br].Op == OpRMW {
		// The pc stopped after the RMW: every early mark is past it.
		return Misspec{CPU: c, Guessed: br, Succeeded: true, Instrs: maskInstrs(m.guessedPast(c, &m.code(c)[br], cs.early))}, true
	}
	// The wrong reads are the early marks the pc jumped over.
	return Misspec{CPU: c, Guessed: br, Taken: int(cs.pc) != m.code(c)[br].Target,
		Instrs: maskInstrs(earlyMask(cs.early, br+1, int(cs.pc)))}, true
}

// ended reports whether the execution of s has ended before its end: a
// fault, or a wrong guess.
func (m *Machine) ended(s *State) bool {
	if m.faulted(s) {
		return true
	}
	for c := range s.cpus {
		if s.cpus[c].misspec != 0 {
			return true
		}
	}
	return false
}

// Deadlocked reports whether the state is stuck: not final, and even after
// every queued invalidation is applied no step can make progress.
func (m *Machine) Deadlocked(s *State) bool {
	if m.ended(s) || m.Final(s) {
		return false
	}
	t := s
	if m.Mode == ARM {
		t = s.clone()
		for c := range t.cpus {
			for len(t.cpus[c].iq) > 0 {
				m.applyInval(t, c, 0)
			}
		}
	}
	return len(m.Enabled(t)) == 0
}

// Enabled returns the steps enabled in s, in a fixed order: per CPU, exec,
// early issues, commits (oldest first), invalidations (arrival order), then
// the quiescent-state report.
func (m *Machine) Enabled(s *State) []Step {
	var out []Step
	if m.ended(s) {
		return nil // the execution has ended, or is none
	}
	for c := range s.cpus {
		out = m.appendCPUSteps(out, s, c)
	}
	return out
}

func (m *Machine) appendCPUSteps(out []Step, s *State, c int) []Step {
	cs := &s.cpus[c]
	if m.enabledExec(s, c) {
		out = append(out, Step{Kind: StepExec, CPU: uint8(c)})
	}
	if m.Mode == ARM {
		out = m.appendEarly(out, s, c)
	}
	for i := range cs.sb {
		if m.canCommit(s, c, i) {
			out = append(out, Step{Kind: StepCommit, CPU: uint8(c), Arg: cs.sb[i].Instr})
		}
	}
	for _, e := range cs.iq {
		out = append(out, Step{Kind: StepInvalidate, CPU: uint8(c), Arg: uint8(e.Loc)})
	}
	if m.canReportQS(s, c) {
		out = append(out, Step{Kind: StepReportQS, CPU: uint8(c)})
	}
	return out
}

// IsEnabled reports whether st is enabled in s.
func (m *Machine) IsEnabled(s *State, st Step) bool {
	if int(st.CPU) >= len(s.cpus) {
		return false
	}
	if m.ended(s) {
		return false
	}
	if st.Kind == StepExec {
		// appendCPUSteps offers it exactly when enabledExec holds.
		return st.Arg == 0 && m.enabledExec(s, int(st.CPU))
	}
	for _, e := range m.appendCPUSteps(nil, s, int(st.CPU)) {
		if e == st {
			return true
		}
	}
	return false
}

// Apply takes step st from s and returns the next state and an event that
// says what happened (every fact, for people and pictures). s is not changed. It is an error to apply a step
// that is not enabled.
func (m *Machine) Apply(s *State, st Step) (*State, Event, error) {
	if !m.IsEnabled(s, st) {
		return nil, Event{}, fmt.Errorf("step %s is not enabled", m.ID(st))
	}
	n := s.clone()
	ev := Event{Step: st, Instr: -1, Guess: -1, explain: true}
	m.apply(n, st, &ev)
	m.explain(s, n, &ev)
	return n, ev, nil
}

// apply performs an enabled step on n in place. ev may be nil.
func (m *Machine) apply(n *State, st Step, ev *Event) {
	n.steps++
	c := int(st.CPU)
	switch st.Kind {
	case StepExec:
		m.exec(n, c, ev)
	case StepEarly:
		m.execEarly(n, c, int(st.Arg), ev)
	case StepCommit:
		cs := &n.cpus[c]
		for i := range cs.sb {
			if cs.sb[i].Instr == st.Arg && cs.sb[i].Kind != EntryWmb {
				m.commitEntry(n, c, i, ev)
				break
			}
		}
	case StepInvalidate:
		m.applyInvalBecause(n, c, n.iqIndex(c, Loc(st.Arg)), ApplyStep, ev)
	case StepReportQS:
		bit := uint32(1) << uint(c)
		for d := range n.cpus {
			if m.canReportTo(n, c, d) {
				n.cpus[d].gpWait &^= bit
			}
		}
	}
}

// Replay applies a sequence of steps from the initial state and returns
// every state along the way (states[0] is the initial state) and the events.
func (m *Machine) Replay(steps []Step) ([]*State, []Event, error) {
	states := []*State{m.Initial()}
	var events []Event
	for i, st := range steps {
		n, ev, err := m.Apply(states[len(states)-1], st)
		if err != nil {
			return states, events, fmt.Errorf("step %d (%s): %w", i+1, m.ID(st), err)
		}
		states = append(states, n)
		events = append(events, ev)
	}
	return states, events, nil
}

// Finished reports whether CPU c has executed its whole program (its store
// buffer may still hold entries).
func (m *Machine) Finished(s *State, c int) bool { return m.finished(s, c) }

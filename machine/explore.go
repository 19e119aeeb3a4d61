package machine

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"
)

// Options bound and tune an exploration. The zero value explores with the
// reductions on and the default limits.
type Options struct {
	// MaxStates stops the search after this many distinct states
	// (default 20 million).
	MaxStates int
	// MaxMemory stops the search when the explorer's own estimate of the
	// memory it holds exceeds this many bytes (default 2 GiB).
	MaxMemory int64
	// Timeout stops the search after this long (default: none).
	Timeout time.Duration
	// Context cancels the search (default: none).
	Context context.Context
	// Workers is how many goroutines generate successors (default: one per
	// core). Callers that run several searches at once use 1.
	Workers int
	// NoWitnesses leaves OutcomeResult.Witness and DeadlockResult.Witness
	// empty, for callers that only need verdicts (rebuilding a witness
	// replays it from the initial state).
	NoWitnesses bool
}

const (
	maxDeadlocks     = 16
	defaultMaxStates = 20_000_000
	defaultMaxMemory = 2 << 30
)

// OutcomeResult is one final outcome the search reached.
type OutcomeResult struct {
	Outcome Outcome
	// States is how many distinct final states (by key) produced it.
	States int
	// Witness is a shortest step sequence (within the explored graph) from
	// the initial state to a final state with this outcome.
	Witness []Step
}

// DeadlockResult is a stuck state the search reached.
type DeadlockResult struct {
	Witness []Step
	// Reasons holds each unfinished CPU's blocked reason in that state.
	Reasons []string
}

// FaultResult is an execution that ended in a fault (see Machine.Fault).
type FaultResult struct {
	Witness []Step
	Reason  string // the CPU, the instruction and why, in words
}

// Result is what an exploration found.
type Result struct {
	Outcomes []OutcomeResult // sorted by outcome key
	// Deadlocks holds the first stuck states found (at most 16, nearest
	// first); DeadlockStates counts them all.
	Deadlocks      []DeadlockResult
	DeadlockStates int
	// Faults holds the first executions that ended in a fault (at most
	// 16, nearest first); FaultStates counts them all.
	Faults      []FaultResult
	FaultStates int
	// States is the number of distinct states expanded.
	States int
	// Transitions is the number of successor states generated.
	Transitions int
	// Complete is false when a limit stopped the search: outcomes are then
	// a subset of the reachable ones.
	Complete   bool
	StopReason string // why the search stopped early, in words
	Elapsed    time.Duration
	// PeakBytes is the explorer's own estimate of the memory it held.
	PeakBytes int64
}

// Summary is a one-line description of the search, e.g. "explored 1234
// states in 3ms" or "stopped after 20000000 states: state limit".
func (r *Result) Summary() string {
	if !r.Complete {
		return fmt.Sprintf("stopped after %d states: %s", r.States, r.StopReason)
	}
	return fmt.Sprintf("explored %d states in %v", r.States, r.Elapsed.Round(time.Microsecond))
}

// macro is a step of the reduced search: optionally applying queued
// invalidations of the step's CPU first (one location, or all of them),
// then the step. Each macro is a sequence of ordinary steps, so witnesses
// replay exactly in the UI.
type macro struct {
	step   Step
	pre    uint8 // preNone, preOne, preAll
	preLoc Loc
}

const (
	preNone uint8 = iota
	preOne
	preAll
)

// node is one visited state.
type node struct {
	parent int32
	dist   int32 // number of ordinary steps from the initial state
	via    macro
	done   bool
}

type explorer struct {
	m       *Machine
	opts    Options
	nodes   []node
	index   map[string]int32
	buckets [][]pending
	keyBuf  []byte
	bytes   int64
	res     *Result
	outs    map[string]*outcomeAcc
}

type pending struct {
	idx   int32
	state *State
}

type outcomeAcc struct {
	outcome Outcome
	states  int
	node    int32
}

// Explore visits every state reachable from m's initial state and reports
// the final outcomes, deadlocks and how many states it visited.
//
// Reductions keep the search small without losing any outcome (tests
// compare every one of them with the unreduced search):
//   - queued invalidations are applied only where they make a difference,
//     just before a step of their CPU that reads the line or needs an empty
//     queue, and an invalidation of a line its CPU never reads again is left
//     out of the state key;
//   - a step no other CPU can observe, disable or influence (a store into
//     the CPU's own store buffer, a load of a location no other CPU writes
//     again — with both its stale and its fresh reading when the line's
//     invalidation is queued — or a commit to a location no other CPU
//     touches again) is taken alone, without interleaving the others first
//     (a persistent set);
//   - successors are generated on all cores, in chunks, and merged in a
//     fixed order, so results do not depend on scheduling.
func Explore(m *Machine, opts Options) *Result {
	if opts.MaxStates <= 0 {
		opts.MaxStates = defaultMaxStates
	}
	if opts.MaxMemory <= 0 {
		opts.MaxMemory = defaultMaxMemory
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	start := time.Now()
	e := &explorer{m: m, opts: opts, index: make(map[string]int32), res: &Result{}, outs: make(map[string]*outcomeAcc)}
	init := m.Initial()
	init.coh, init.memCo = nil, nil // the search needs no history; witnesses are replayed
	e.keyBuf = m.appendKey(e.keyBuf[:0], init, true)
	e.visit(string(e.keyBuf), init, -1, macro{}, 0)
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	pool := make([]*worker, opts.Workers)
	for i := range pool {
		pool[i] = &worker{id: i}
	}
	transitions := make([]int, len(pool))
	stopped := ""
	for d := 0; d < len(e.buckets) && stopped == ""; d++ {
		for len(e.buckets[d]) > 0 && stopped == "" {
			// Take a chunk of this distance's states, mark them expanded,
			// generate their successors (in parallel when the chunk is big
			// enough to pay for it), then merge in a fixed order so that
			// results do not depend on scheduling.
			b := e.buckets[d]
			n := min(len(b), expandChunk)
			var work []pending
			for _, p := range b[len(b)-n:] {
				nd := &e.nodes[p.idx]
				if nd.done || int(nd.dist) != d {
					continue
				}
				nd.done = true
				e.bytes -= stateBytes(p.state)
				work = append(work, p)
			}
			e.buckets[d] = b[:len(b)-n]
			gens := make([][]successor, len(work))
			terminal := make([]bool, len(work))
			expand := func(w *worker, i int) {
				gens[i] = e.successors(work[i].state, int32(d), w)
				terminal[i] = w.transitions == 0
				transitions[w.id] += w.transitions
			}
			if len(pool) > 1 && len(work) >= parallelMin {
				var wg sync.WaitGroup
				for _, w := range pool {
					wg.Add(1)
					go func(w *worker) {
						defer wg.Done()
						for i := w.id; i < len(work); i += len(pool) {
							expand(w, i)
						}
					}(w)
				}
				wg.Wait()
			} else {
				for i := range work {
					expand(pool[0], i)
				}
			}
			for i, p := range work {
				e.res.States++
				e.merge(p, gens[i], terminal[i])
				gens[i] = nil
			}
			if err := ctx.Err(); err != nil {
				if err == context.DeadlineExceeded {
					stopped = "time limit"
				} else {
					stopped = "cancelled"
				}
			}
			if e.res.States >= opts.MaxStates && e.pendingWork(d) {
				stopped = fmt.Sprintf("state limit (%d)", opts.MaxStates)
			}
			if e.bytes > opts.MaxMemory {
				stopped = fmt.Sprintf("memory limit (%d MiB)", opts.MaxMemory>>20)
			}
		}
		e.buckets[d] = nil
	}
	for _, t := range transitions {
		e.res.Transitions += t
	}
	e.res.Complete = stopped == ""
	e.res.StopReason = stopped
	for _, acc := range e.outs {
		e.res.Outcomes = append(e.res.Outcomes, OutcomeResult{Outcome: acc.outcome, States: acc.states, Witness: e.witness(acc.node)})
	}
	sort.Slice(e.res.Outcomes, func(i, j int) bool {
		return e.res.Outcomes[i].Outcome.Key() < e.res.Outcomes[j].Outcome.Key()
	})
	e.res.Elapsed = time.Since(start)
	return e.res
}

func (e *explorer) pendingWork(from int) bool {
	for d := from; d < len(e.buckets); d++ {
		if len(e.buckets[d]) > 0 {
			return true
		}
	}
	return false
}

// stateBytes estimates the memory a queued state holds.
func stateBytes(s *State) int64 {
	n := int64(64 + 16*len(s.mem) + 24*len(s.coh))
	for i := range s.cpus {
		c := &s.cpus[i]
		n += 96 + int64(8*len(c.regs)+16*len(c.cache)+16*len(c.sb)+24*len(c.iq))
	}
	return n
}

// visit records a state with the given key, reached from parent by mv at
// distance dist.
func (e *explorer) visit(key string, s *State, parent int32, mv macro, dist int32) {
	if idx, ok := e.index[key]; ok {
		n := &e.nodes[idx]
		if !n.done && dist < n.dist {
			n.dist, n.parent, n.via = dist, parent, mv
			e.push(idx, s, dist)
		}
		return
	}
	idx := int32(len(e.nodes))
	e.index[key] = idx
	e.nodes = append(e.nodes, node{parent: parent, dist: dist, via: mv})
	e.bytes += int64(len(key)) + 48 + 24 // key, map entry, node
	e.push(idx, s, dist)
}

func (e *explorer) push(idx int32, s *State, dist int32) {
	for int(dist) >= len(e.buckets) {
		e.buckets = append(e.buckets, nil)
	}
	e.buckets[dist] = append(e.buckets[dist], pending{idx, s})
	e.bytes += stateBytes(s)
	if e.bytes > e.res.PeakBytes {
		e.res.PeakBytes = e.bytes
	}
}

// merge records the successors of an expanded state, or the state itself
// when it is terminal.
func (e *explorer) merge(p pending, succ []successor, terminal bool) {
	dist := e.nodes[p.idx].dist
	if terminal || e.m.Final(p.state) {
		e.terminal(p.idx, p.state)
	}
	for _, sc := range succ {
		e.visit(sc.key, sc.state, p.idx, sc.via, dist+sc.cost)
	}
}

func (e *explorer) terminal(idx int32, s *State) {
	m := e.m
	if _, why, faulted := m.Fault(s); faulted {
		e.res.FaultStates++
		if len(e.res.Faults) < maxDeadlocks {
			e.res.Faults = append(e.res.Faults, FaultResult{Witness: e.witness(idx), Reason: why})
		}
		return
	}
	if !m.Final(s) {
		e.res.DeadlockStates++
		if len(e.res.Deadlocks) >= maxDeadlocks {
			return
		}
		d := DeadlockResult{Witness: e.witness(idx)}
		for c := range s.cpus {
			if st := m.Status(s, c); !st.Finished {
				d.Reasons = append(d.Reasons, m.cpuName(c)+": "+st.Reason)
			}
		}
		e.res.Deadlocks = append(e.res.Deadlocks, d)
		return
	}
	o := m.Outcome(s)
	k := o.Key()
	acc := e.outs[k]
	if acc == nil {
		acc = &outcomeAcc{outcome: o, node: idx}
		e.outs[k] = acc
	} else if e.nodes[idx].dist < e.nodes[acc.node].dist {
		acc.node = idx
	}
	acc.states++
}

// worker holds one goroutine's reusable buffers.
type worker struct {
	id          int
	sc          scratch
	drained     scratch
	steps       []Step
	steps2      []Step
	buf         []byte
	ev          Event
	transitions int
}

type successor struct {
	state *State
	key   string
	via   macro
	cost  int32
}

const (
	expandChunk = 4096 // states expanded between limit checks
	parallelMin = 64   // smaller chunks are expanded on one goroutine
)

// successors returns the new states the search moves to from s (at
// distance dist), with their keys. Each candidate is computed in the
// worker's scratch state and copied to the heap only when its key is not
// already known at a distance as short: most successors are states seen
// before. The index is only read here, never written, so several
// goroutines may call successors at once between merges.
func (e *explorer) successors(s *State, dist int32, w *worker) []successor {
	var out []successor
	w.transitions = 0
	add := func(t *State, mv macro, cost int32) {
		w.transitions++
		w.buf = e.m.appendKey(w.buf[:0], t, true)
		if idx, ok := e.index[string(w.buf)]; ok {
			if n := &e.nodes[idx]; n.done || n.dist <= dist+cost {
				return
			}
		}
		out = append(out, successor{state: t.clone(), key: string(w.buf), via: mv, cost: cost})
	}
	for _, mv := range e.macros(s, w) {
		t := w.sc.load(s)
		add(t, mv, e.applyMacro(t, mv, nil))
	}
	return out
}

// applyMacro performs a macro on t and returns its cost in ordinary steps.
func (e *explorer) applyMacro(t *State, mv macro, ev *Event) int32 {
	m := e.m
	cost := int32(1)
	c := int(mv.step.CPU)
	switch mv.pre {
	case preOne:
		m.apply(t, Step{Kind: StepInvalidate, CPU: mv.step.CPU, Arg: uint8(mv.preLoc)}, nil)
		cost++
	case preAll:
		for len(t.cpus[c].iq) > 0 {
			m.apply(t, Step{Kind: StepInvalidate, CPU: mv.step.CPU, Arg: uint8(t.cpus[c].iq[0].Loc)}, nil)
			cost++
		}
	}
	m.apply(t, mv.step, ev)
	return cost
}

// macros returns the moves of the search from s.
//
// Lazy invalidations (machine.md, "What the explorer owes"): the search
// never applies a queued invalidation as a step of its own; it applies
// them just before a step of their CPU whose behaviour or enabledness
// depends on the queue, and offers that step both ways. Why that loses
// nothing: a queued entry keeps its CPU's copy readable (S, stale), and
// every behaviour of the state with the copy dropped (I) is also one of
// the state that keeps it — the entry can be applied whenever it is
// needed, and until then the S copy only makes other CPUs' misses get S
// rather than E, which again only adds behaviours (an S copy gets a queued
// invalidation where an E copy would drop at once). So applying an entry
// is needed only where the CPU's own step observes the queue, and there
// the variants are:
//   - none applied;
//   - the entry of the line the step reads (a load, a conditional RMW, a
//     trylock), so that it may read the stale copy or the latest value;
//   - all applied, for steps that wait for an empty queue (barriers,
//     fully ordered RMWs, grace periods, quiescent-state reports, anything
//     after an acquire) or whose effect depends on whether it is empty
//     (an acquire sets the wait for an empty queue only if it is not).
//
// A subset between the line's entry and all of them is never needed: the
// other entries do not change what the step reads, and if they are not all
// applied the acquire wait stays set, as with none.
func (e *explorer) macros(s *State, w *worker) []macro {
	m := e.m
	var out []macro
	if _, _, f := m.Fault(s); f {
		return nil
	}
	if mvs, ok := e.privateStep(s, w); ok {
		return mvs
	}
	for c := range s.cpus {
		w.steps = m.appendCPUSteps(w.steps[:0], s, c)
		steps := w.steps
		for _, st := range steps {
			if st.Kind != StepInvalidate {
				out = append(out, macro{step: st})
			}
		}
		if m.Mode != ARM || len(s.cpus[c].iq) == 0 {
			continue
		}
		if l, ok := e.staleRead(s, c); ok {
			t := w.sc.load(s)
			m.applyInval(t, c, t.iqIndex(c, l))
			if ok, _ := m.canExec(t, c); ok {
				out = append(out, macro{step: Step{Kind: StepExec, CPU: uint8(c)}, pre: preOne, preLoc: l})
			}
		}
		// The same for a load issued early.
		for _, st := range steps {
			if st.Kind != StepEarly {
				continue
			}
			l, isLoad := m.earlyLoc(s, c, int(st.Arg))
			if !isLoad || !s.Stale(c, l) || hasEntryFor(s.cpus[c].sb, l) {
				continue
			}
			t := w.sc.load(s)
			m.applyInval(t, c, t.iqIndex(c, l))
			if m.IsEnabled(t, st) {
				out = append(out, macro{step: st, pre: preOne, preLoc: l})
			}
		}
		sensitive := e.queueSensitive(s, c)
		t := w.drained.load(s)
		for _, e := range t.cpus[c].iq {
			t.cpus[c].cache[e.Loc].State = Invalid
		}
		t.cpus[c].iq = t.cpus[c].iq[:0]
		t.cpus[c].acqWait = false
		w.steps2 = m.appendCPUSteps(w.steps2[:0], t, c)
		for _, st := range w.steps2 {
			if st.Kind == StepCommit || st.Kind == StepInvalidate {
				continue
			}
			if containsStep(steps, st) && !(st.Kind == StepExec && sensitive) {
				continue
			}
			out = append(out, macro{step: st, pre: preAll})
		}
	}
	return out
}

// queueSensitive reports whether the effect of CPU c's next instruction,
// when it can be performed with entries still queued, depends on whether
// the queue is empty: an acquire (it leaves the CPU waiting for an empty
// queue if it is not), and a conditional RMW or trylock (whether it fails
// depends on what its load returns; succeeding may need an empty queue).
func (e *explorer) queueSensitive(s *State, c int) bool {
	m := e.m
	if m.finished(s, c) {
		return false
	}
	in := &m.code(c)[s.cpus[c].pc]
	switch in.Op {
	case OpLoad:
		return in.Access == Acquire
	case OpRMW:
		return in.Order == OrderAcquire || in.isConditional()
	case OpLock, OpTryLock:
		return true
	}
	return false
}

func containsStep(steps []Step, st Step) bool {
	for _, s := range steps {
		if s == st {
			return true
		}
	}
	return false
}

// staleRead reports whether CPU c's next instruction would read location l
// from a cache line whose invalidation is queued.
func (e *explorer) staleRead(s *State, c int) (Loc, bool) {
	m := e.m
	if m.finished(s, c) {
		return 0, false
	}
	cs := &s.cpus[c]
	in := &m.code(c)[cs.pc]
	if !readsLine(in) {
		return 0, false
	}
	l, ok := m.addr(in, cs.regs)
	if !ok || hasEntryFor(cs.sb, l) {
		return 0, false
	}
	return l, s.Stale(c, l)
}

// privateStep finds a step that no other CPU's step can observe, disable
// or be affected by, in any future: taking it alone, before interleaving the
// others, loses no outcome (a persistent set of one step). Three kinds
// qualify:
//   - the CPU's next instruction appends a store to its own store buffer
//     (no other step reads a plain or release entry; not when grace periods
//     exist, since a non-empty buffer delays the CPU's quiescent state);
//   - the CPU's next instruction is a plain load of a location no other
//     CPU has a store to pending or may write again (other readers do not
//     change what it reads), whose line holds no queued invalidation and
//     whose destination never feeds an address;
//   - a commit of a plain or exclusive entry to a private location.
//
// In each case the instructions folded after it must not include a barrier
// whose condition depends on other CPUs.
func (e *explorer) privateStep(s *State, w *worker) ([]macro, bool) {
	m := e.m
	for c := range s.cpus {
		if m.finished(s, c) {
			continue
		}
		cs := &s.cpus[c]
		in := &m.code(c)[cs.pc]
		ok, stale := false, false
		var l Loc
		switch in.Op {
		case OpStore, OpUnlock:
			ok = !m.hasSync && !m.hasSyncSRCU
		case OpLoad:
			if in.Access == Acquire || in.Addr.Op != EConst {
				break
			}
			var isLoc bool
			l, isLoc = in.Addr.Val.AsLoc()
			ok = isLoc && !e.writtenByOthers(s, c, l) && (m.Mode == TSO || m.addrRegs[c]&(1<<in.Dst) == 0)
			// With the line's invalidation queued, the load may read the
			// stale copy or apply it first: both moves are the CPU's own,
			// and together they form the persistent set.
			stale = ok && s.iqIndex(c, l) >= 0 && !hasEntryFor(cs.sb, l)
		}
		if !ok {
			continue
		}
		if ok, _ := m.canExec(s, c); !ok {
			continue
		}
		mvs := []macro{{step: Step{Kind: StepExec, CPU: uint8(c)}}}
		if stale {
			mvs = append(mvs, macro{step: mvs[0].step, pre: preOne, preLoc: l})
		}
		local := true
		for _, mv := range mvs {
			t := w.sc.load(s)
			if mv.pre == preOne {
				m.applyInval(t, c, t.iqIndex(c, l))
			}
			local = local && e.foldsOnlyLocal(t, mv.step, w)
		}
		if local {
			return mvs, true
		}
	}
	for c := range s.cpus {
		for i, en := range s.cpus[c].sb {
			if en.Kind == EntryRelease || en.Kind == EntryWmb || e.shared(s, c, en.Loc) || !m.canCommit(s, c, i) {
				continue
			}
			return []macro{{step: Step{Kind: StepCommit, CPU: uint8(c), Arg: en.Instr}}}, true
		}
	}
	return nil, false
}

// foldsOnlyLocal takes an exec step on t and reports whether nothing
// folded after it is a barrier that waits on other CPUs.
func (e *explorer) foldsOnlyLocal(t *State, st Step, w *worker) bool {
	m := e.m
	w.ev.Folded = w.ev.Folded[:0]
	m.apply(t, st, &w.ev)
	w.ev.Load, w.ev.Commit, w.ev.Applied = nil, nil, nil
	for _, i := range w.ev.Folded {
		f := &m.code(int(st.CPU))[i]
		if f.Op == OpFence && (m.fenceKind(f.Fence) == fenceFull || m.fenceKind(f.Fence) == fenceRead) {
			return false
		}
	}
	return true
}

// writtenByOthers reports whether a CPU other than c has a store to l
// pending or may still write l: only then can the value c loads from l
// depend on the order of steps.
func (e *explorer) writtenByOthers(s *State, c int, l Loc) bool {
	for d := range s.cpus {
		if d != c && (e.m.futureWrites[d][s.cpus[d].pc]&(1<<l) != 0 || hasEntryFor(s.cpus[d].sb, l)) {
			return true
		}
	}
	return false
}

// shared reports whether a CPU other than c has a store to l pending or may
// still access l.
func (e *explorer) shared(s *State, c int, l Loc) bool {
	for d := range s.cpus {
		if d == c {
			continue
		}
		if e.m.futureAccess[d][s.cpus[d].pc]&(1<<l) != 0 || hasEntryFor(s.cpus[d].sb, l) {
			return true
		}
	}
	return false
}

// witness rebuilds the ordinary step sequence that leads to node idx.
func (e *explorer) witness(idx int32) []Step {
	if e.opts.NoWitnesses {
		return nil
	}
	var mvs []macro
	for i := idx; e.nodes[i].parent >= 0; i = e.nodes[i].parent {
		mvs = append(mvs, e.nodes[i].via)
	}
	m := e.m
	s := m.Initial()
	var steps []Step
	do := func(st Step) {
		m.apply(s, st, nil)
		steps = append(steps, st)
	}
	for i := len(mvs) - 1; i >= 0; i-- {
		mv := mvs[i]
		c := int(mv.step.CPU)
		switch mv.pre {
		case preOne:
			do(Step{Kind: StepInvalidate, CPU: mv.step.CPU, Arg: uint8(mv.preLoc)})
		case preAll:
			for len(s.cpus[c].iq) > 0 {
				do(Step{Kind: StepInvalidate, CPU: mv.step.CPU, Arg: uint8(s.cpus[c].iq[0].Loc)})
			}
		}
		do(mv.step)
	}
	return steps
}

package machine

import (
	"bytes"
	"context"
	"maps"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Options bound and tune an exploration. The zero value explores with the
// reductions on and the default limits.
type Options struct {
	// MaxStates stops the search after this many distinct states
	// (default 20 million).
	MaxStates int
	// MaxMemory stops the search before the memory it holds would exceed
	// this many bytes. Ignored when Budget is set; with neither, the
	// search has a budget of 2 GiB of its own.
	MaxMemory int64
	// Budget, when set, is a memory allowance this search shares with
	// others running at the same time (NewBudget; a program's one budget
	// for all its explorations is NewProcessBudget).
	Budget *Budget
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
	// StuckWitnesses, with NoWitnesses, still gives the first deadlock
	// and the first fault (the nearest ones) their witness: an example
	// path each, for one replay each.
	StuckWitnesses bool
	// Prune, when set, says of a state that no execution through it
	// matters to the caller (a litmus test's filter that can no longer
	// hold): the search does not expand it, so the outcomes, deadlocks and
	// faults only reachable through such states are not reported, and
	// counts it in Result.Pruned. It must not keep the state it is given.
	Prune func(*State) bool
	// off names reductions turned off (tests only: export_test.go), so
	// that each can be checked alone against the reference explorer.
	off reduction
}

// reduction names one of the explorer's reductions (see Explore). Each
// is sound on its own, given the ones it requires (requires); the tests
// compare every one alone, and all together, with the reference explorer
// (machine/reduction_test.go).
type reduction uint32

const (
	// redLazy: queued invalidations are not steps of their own but are
	// applied just before a step of their CPU that observes the queue,
	// offered both ways (macros, cpuMoves).
	redLazy reduction = 1 << iota
	// redUnreadable: an invalidation nobody can read is applied at once
	// (perform).
	redUnreadable
	// redEagerQS: quiescent-state reports are taken at once (perform).
	redEagerQS
	// redGraceStep: starting or ending a grace period is taken alone
	// (gracePeriodStep).
	redGraceStep
	// redPrivate: a step nobody else can observe is taken alone
	// (privateStep).
	redPrivate
	// redEarlyStore: without grace periods, a plain store issued early
	// is taken alone (earlyStore).
	redEarlyStore
	// redPersistentCPU: one CPU's moves are taken alone when nothing the
	// others may do interferes (persistentCPU).
	redPersistentCPU
	// redPostpone: while a grace period may wait, a plain store is taken
	// with the step that needs it (postponedStoreMoves).
	redPostpone
	// redDeadLines: the search's key leaves out dead lines (appendKey).
	redDeadLines
	// redPostponeLock: while a grace period may wait, rcu_read_lock is
	// taken with its CPU's next step (postponedLockMoves).
	redPostponeLock
	// redPersistentSet: the moves of a set of CPUs are taken alone when
	// nothing the others may do interferes (persistentSet).
	redPersistentSet
	// redEarlyPair: a postponed early store is not taken together with
	// the in-order load before it (postponedStoreMoves).
	redEarlyPair
	// redSymmetry: states are keyed by their orbit under the program's
	// automorphisms (symmetry.go).
	redSymmetry
	// redPartialSet: persistent sets in which a CPU may take part with
	// only the moves that perform some of its instructions (partialSet,
	// persistentpart.go).
	redPartialSet
	// redChain: a state whose only move is a private step is not stored:
	// the step is taken with the move that led to it (chain).
	redChain
	// redSleep: sleep sets on top of the persistent sets (sleep.go).
	redSleep
	// redReservedCommit: without grace periods, the commit of an
	// exclusive entry whose line no other CPU may load is taken alone
	// (reservedCommit).
	redReservedCommit
	// redDeadSections: the search's key leaves out the closed SRCU
	// sections that values carry and grace periods recorded at their
	// start (encode.go, "Closed sections").
	redDeadSections
	// redOutRegs: the search's key leaves out the registers no
	// instruction reads, whose values it propagates after (outregs.go).
	redOutRegs

	allReductions = redOutRegs<<1 - 1
)

// requires holds, for each reduction, those its argument relies on: it
// is on only when they are.
var requires = map[reduction]reduction{
	// Starting a grace period first waits for no more CPUs than starting
	// it later only because reports are taken as soon as they can be.
	redGraceStep: redEagerQS,
	// A line whose state the key forces to I may still hold an entry a
	// barrier waits for; only because such entries of lines nobody can
	// read are applied at once are the merged states equivalent (the
	// differential test found witnesses that did not replay without it).
	redDeadLines: redUnreadable,
	// A refinement of postponed stores.
	redEarlyPair: redPostpone,
	// A refinement of persistent sets of CPUs, computed with them.
	redPartialSet: redPersistentSet,
	// The other CPUs' copies of the reserved line must not keep queued
	// invalidations, which their barriers would observe.
	redReservedCommit: redUnreadable,
}

// enabledReductions returns the reductions on when off are turned off:
// the others, less those whose requirements are off.
func enabledReductions(off reduction) reduction {
	on := allReductions &^ off
	for r, req := range requires {
		if on&req != req {
			on &^= r
		}
	}
	return on
}

// on reports whether reduction r is on in this search.
func (e *explorer) on(r reduction) bool { return e.red&r != 0 }

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
	// Cost is the witness's length as the search counts it (ordinary
	// steps, a load issued early counting earlyLoadCost), before the
	// steps the execution does not need are pruned from it.
	Cost int
}

// DeadlockResult is a stuck state the search reached.
type DeadlockResult struct {
	Witness []Step
	// Waits says what each unfinished CPU waits for in that state.
	Waits []Wait
}

// FaultResult is an execution that ended in a fault (see Machine.Fault).
type FaultResult struct {
	Witness []Step
	Fault   Fault
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
	// MisspecStates counts the states in which a CPU guessed a branch
	// wrong (Machine.Misspeculated): they are no executions, and only
	// counted.
	MisspecStates int
	// States is the number of distinct states expanded (or pruned): with
	// outcome registers left out (outregs.go), of states less those.
	States int
	// Pairs is, with outcome registers left out, how many pairs of such a
	// state and a valuation of those registers the search reached (the
	// states it stands for); 0 otherwise.
	Pairs int
	// Pruned is the number of states Options.Prune left unexpanded.
	Pruned int
	// Transitions is the number of successor states generated.
	Transitions int
	// Complete is false when a limit stopped the search: outcomes are then
	// a subset of the reachable ones.
	Complete bool
	Stop     Stop // why the search stopped early (Kind StopNone when Complete)
	Elapsed  time.Duration
	// PeakBytes is the most memory the explorer's store held (counted
	// exactly: its pages and tables), and BytesPerState that divided by
	// States.
	PeakBytes     int64
	BytesPerState float64
}

// macro is a step of the reduced search: optionally applying queued
// invalidations of the step's CPU first (one location, or all of them),
// then the step. Each macro is a sequence of ordinary steps, so witnesses
// replay exactly in the UI.
type macro struct {
	step   Step
	pre    uint8 // preNone, preOne, preAll
	preLoc Loc
	// store, when not 0, is a postponed plain store of the CPU taken
	// first (see postponedStoreMoves): 1 for its next instruction, 2+k
	// for instruction k issued early.
	store uint8
	// lock: a postponed rcu_read_lock, the CPU's next instruction, is
	// taken before everything else (postponedLockMoves).
	lock bool
}

const (
	preNone uint8 = iota
	preOne
	preAll
)

// node data of the visited states, indexed like the tuple set: parent
// index (-1 for the initial state) and the move from the parent (packed),
// both only without outcome registers left out (add), and the distance
// in ordinary steps with the expanded flag in the top bit.
type nodes struct {
	parent, via, dist paged32
	// sleep is the number of the state's sleep set (sleep.go), with
	// redoBit while it waits for a redo.
	sleep paged32
}

const doneBit = 1 << 31

func packMacro(mv macro) uint32 {
	v := uint32(mv.step.Kind) | uint32(mv.step.CPU)<<3 | uint32(mv.step.Arg)<<6 | uint32(mv.pre)<<14 | uint32(mv.preLoc)<<16 | uint32(mv.store)<<22
	if mv.lock {
		v |= 1 << 30
	}
	return v
}

func unpackMacro(v uint32) macro {
	return macro{step: Step{Kind: StepKind(v & 7), CPU: uint8(v >> 3 & 7), Arg: uint8(v >> 6)}, pre: uint8(v >> 14 & 3), preLoc: Loc(v >> 16 & 63), store: uint8(v >> 22 & 0xff), lock: v&(1<<30) != 0}
}

func (n *nodes) bytes() int64 {
	return n.parent.bytes() + n.via.bytes() + n.dist.bytes() + n.sleep.bytes()
}

type explorer struct {
	m      *Machine
	opts   Options
	budget *Budget
	mem    interner   // shared blocks
	cpus   []interner // per CPU blocks
	states tupleSet
	nodes  nodes
	// buckets[d] holds the states queued at distance d, by index.
	buckets [][]uint32
	charged int64 // bytes taken from the budget
	// addBlocks and addTuple are add's buffers.
	addBlocks [][]byte
	addTuple  []uint32
	res       *Result
	outs      map[string]*outcomeAcc
	workers   []*worker
	red       reduction // the reductions on (enabledReductions)
	// Sleep sets (sleep.go): the sets, the states waiting for a redo,
	// the distance being expanded, and add's buffer.
	// endsOnly: the search is over and only the end skeletons' tuples
	// are kept (orState.keepEnds), which decode then reads.
	endsOnly bool
	sleepy   bool // sleep sets on: redSleep without redGraceStep, and the program has synchronize_rcu
	sleeps   sleepSets
	redo     []uint32
	cur      int32
	slpTmp   []uint32
	// A chunk's buffers, reused from chunk to chunk.
	work      []uint32
	gens      [][]successor
	terminals []bool
	pruned    []bool
	finals    []*State
	// or is the outcome-register reduction's (outregs.go).
	or orState
	// srcuStays: every grace period is an SRCU one and every section
	// bracketed, so a CPU inside a section of each synchronised domain
	// stays non-quiescent until it moves (persistentset.go, srcuInside).
	srcuStays bool
}

type outcomeAcc struct {
	outcome Outcome
	states  int
	node    int32
	perm    int // the automorphism that renames the node's witness (-1: none)
}

// Explore visits every state reachable from m's initial state and reports
// the final outcomes, deadlocks, faults and how many states it visited.
//
// The search is breadth first by ordinary steps, so every witness is a
// shortest one within the explored graph. It stores states in compact form
// (store.go, encode.go) and expands them from there, and its reductions —
// each documented next to its code with the argument for why it keeps
// every outcome, deadlock and fault, and all checked against the
// reference explorer of the tests — are:
//   - lazy invalidations (macros): queued invalidations are applied only
//     just before a step of their CPU that observes its queue, which is
//     offered both ways; those of lines nobody will load again at once
//     (perform);
//   - eager quiescent-state reports (perform), and grace periods started
//     and ended at the first moment they can (gracePeriodStep);
//   - persistent sets: a step no other CPU can observe, disable or
//     influence is taken alone (privateStep; without grace periods that
//     includes a plain store issued early, earlyStore, and, ARM-like,
//     the commit of an exclusive RMW's write whose line no other CPU may
//     load, reservedCommit), as are all the
//     moves of a CPU that nothing another CPU may still do interferes with
//     (persistentCPU), and else the moves of the smallest set of CPUs
//     closed under interference (persistentSet, persistentset.go), or of
//     a set in which some CPUs take part with only the moves performing
//     some of their instructions (partialSet, persistentpart.go);
//   - sleep sets on top of the persistent sets, where RCU grace periods
//     are and grace-period steps are not taken alone (sleep.go): a move
//     that commutes with a move taken before it from the same state is
//     not taken again after it;
//   - postponed stores: while a grace period may wait, a plain store is
//     taken only together with the step of its CPU that needs it
//     (postponedStoreMoves; an early one not with the in-order load
//     before it, which does not need it);
//   - postponed read-side sections: while a grace period may wait,
//     rcu_read_lock is taken only together with its CPU's next step
//     (postponedLockMoves; ARM-like, not when its section writes);
//   - the state key leaves out what no future step can observe (Key);
//   - symmetry: when renaming CPUs and locations together maps the
//     program onto itself, states are keyed by their orbit and every
//     outcome found is reported with its renamed images (symmetry.go);
//   - chains: a state whose only move is a private step is not stored,
//     the step taken with the move that led to it (chain);
//   - outcome registers: registers no instruction reads are left out of
//     the key, and their values propagated along the recorded moves
//     after the search (outregs.go); a witness is then a shortest path of
//     the pair of a state and those values.
//
// Each is switchable (Options.off, for the tests: reduction lists them
// with what each requires), and the tests compare each alone, none and
// all with the reference explorer (reduction_test.go).
//
// Successors are generated on all cores in chunks and merged in a fixed
// order, so results do not depend on scheduling.
func Explore(m *Machine, opts Options) *Result {
	opts, budget := exploreDefaults(opts)
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
	e := newExplorer(m, opts, budget)
	defer e.release()
	init := m.Initial()
	init.coh, init.memCo = nil, nil // the search needs no history; witnesses are replayed
	e.add(e.encode(init, e.workers[0]), nil, -1, macro{}, 0, nil)
	transitions := make([]int, len(e.workers))
	var stopped Stop
	for d := 0; d < len(e.buckets) && stopped.Kind == StopNone; d++ {
		e.cur = int32(d)
		for (len(e.buckets[d]) > 0 || len(e.redo) > 0) && stopped.Kind == StopNone {
			// Take a chunk of this distance's states, mark them expanded,
			// generate their successors (in parallel when the chunk is big
			// enough to pay for it), then merge in a fixed order so that
			// results do not depend on scheduling.
			// At the limit with every discovered state expanded, what is
			// left in the buckets are stale entries: drain them.
			if e.res.States >= opts.MaxStates && e.res.States < e.states.n {
				stopped = Stop{Kind: StopStates, MaxStates: opts.MaxStates}
				break
			}
			work := e.takeChunk(d)
			e.expandChunk(work, d, transitions)
			e.mergeChunk(work, d)
			stopped = e.stopAfterChunk(ctx)
		}
		e.buckets[d] = nil
	}
	// Complete means every discovered state was expanded: a chunk cut short
	// by the state limit drops its remaining states from the buckets, so
	// the buckets alone cannot tell.
	if stopped.Kind == StopNone && e.res.States < e.states.n {
		stopped = Stop{Kind: StopStates, MaxStates: opts.MaxStates}
	}
	if e.or.on {
		// The valuations of the outcome registers (outregs.go). What
		// only the search itself reads goes first: the states' index
		// and their tuples (phase two decodes only the end skeletons,
		// whose tuples are kept apart), their parents, distances and
		// sleep sets (witnesses are the pairs' paths).
		e.or.keepEnds(&e.states)
		e.states.table = nil
		e.states.words.release()
		e.endsOnly = true
		e.nodes.parent.release()
		e.nodes.via.release()
		e.nodes.dist.release()
		e.nodes.sleep.release()
		e.sleeps.reset()
		e.propagate(ctx, m.Initial(), &stopped) // (sets Pairs)
		e.charge()
	}
	for _, t := range transitions {
		e.res.Transitions += t
	}
	return e.finish(stopped, start)
}

// exploreDefaults fills in the options left zero and picks the memory
// budget: the caller's, one of MaxMemory, or the default.
func exploreDefaults(opts Options) (Options, *Budget) {
	if opts.MaxStates <= 0 {
		opts.MaxStates = defaultMaxStates
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case opts.Budget != nil:
		return opts, opts.Budget
	case opts.MaxMemory > 0:
		return opts, NewBudget(opts.MaxMemory)
	default:
		return opts, NewBudget(defaultMaxMemory)
	}
}

// takeChunk takes up to expandChunk states of distance d off its bucket
// and marks them expanded, skipping stale entries (expanded already, or
// re-queued at a shorter distance) and stopping at the state limit.
func (e *explorer) takeChunk(d int) []uint32 {
	work := e.work[:0]
	if len(e.redo) > 0 {
		// States whose sleep sets shrank after their expansion (sleep.go)
		// are expanded again first.
		n := min(len(e.redo), expandChunk)
		for _, idx := range e.redo[len(e.redo)-n:] {
			e.nodes.sleep.set(int(idx), e.nodes.sleep.at(int(idx))&^redoBit)
			work = append(work, idx|redoBit)
		}
		e.redo = e.redo[:len(e.redo)-n]
		e.work = work
		return work
	}
	b := e.buckets[d]
	n := min(len(b), expandChunk)
	for _, idx := range b[len(b)-n:] {
		dv := e.nodes.dist.at(int(idx))
		if dv&doneBit != 0 || int(dv) != d || e.res.States+len(work) >= e.opts.MaxStates {
			continue
		}
		e.nodes.dist.set(int(idx), dv|doneBit)
		work = append(work, idx)
	}
	e.buckets[d] = b[:len(b)-n]
	e.work = work
	return work
}

// expandChunk generates the successors of the chunk's states into e.gens
// (and e.terminals, e.pruned, the workers' final states), on all workers
// when the chunk is big enough to pay for it; each worker counts its
// transitions in transitions[w.id].
func (e *explorer) expandChunk(work []uint32, d int, transitions []int) {
	gens := grow(e.gens, len(work))
	terminal := grow(e.terminals, len(work))
	pruned := grow(e.pruned, len(work))
	clear(terminal)
	clear(pruned)
	e.gens, e.terminals, e.pruned = gens, terminal, pruned
	expand := func(w *worker, i int) {
		idx, redo := int(work[i]&^redoBit), work[i]&redoBit != 0
		s := e.decode(idx, w)
		if e.opts.Prune != nil && e.opts.Prune(s) {
			pruned[i] = true
			return
		}
		dist := int32(d)
		if redo {
			dist = int32(e.nodes.dist.at(idx) &^ doneBit)
		}
		gens[i] = e.successors(s, idx, dist, w)
		terminal[i] = w.moves == 0
		transitions[w.id] += w.transitions
		if !redo && (terminal[i] || e.m.Final(s)) {
			w.keep(i, s)
		}
	}
	pool := e.workers
	for _, w := range pool {
		// The previous chunk's successors are merged: their buffers are
		// free again.
		w.final = w.final[:0]
		w.arena, w.idArena, w.succs = w.arena[:0], w.idArena[:0], w.succs[:0]
		w.slpArena = w.slpArena[:0]
		w.wrArena = w.wrArena[:0]
	}
	if len(pool) > 1 && len(work) >= parallelMin {
		// The workers take the states a few at a time as they finish the
		// last: states differ in cost (a state's expansion performs each
		// of its moves for the persistent sets), and a fixed share left
		// one worker waiting. Which worker expands a state changes
		// nothing: mergeChunk takes the results in the chunk's order.
		var next atomic.Int64
		grab := expandGrab
		if len(work) < 8*expandGrab*len(pool) {
			grab = 1 // fewer than eight takes each: one state at a time
		}
		var wg sync.WaitGroup
		for _, w := range pool {
			wg.Add(1)
			go func(w *worker) {
				defer wg.Done()
				for {
					lo := int(next.Add(int64(grab))) - grab
					if lo >= len(work) {
						return
					}
					for i := lo; i < min(lo+grab, len(work)); i++ {
						expand(w, i)
					}
				}
			}(w)
		}
		wg.Wait()
		return
	}
	for i := range work {
		expand(pool[0], i)
	}
}

// mergeChunk adds the chunk's successors to the search in the chunk's
// order (so results do not depend on scheduling) and records its final
// and stuck states.
func (e *explorer) mergeChunk(work []uint32, d int) {
	finals := grow(e.finals, len(work))
	clear(finals)
	e.finals = finals
	for _, w := range e.workers {
		for _, f := range w.final {
			finals[f.i] = f.state
		}
	}
	for i, item := range work {
		idx := item &^ redoBit
		dist := int32(d)
		if item&redoBit == 0 {
			e.res.States++
			if e.pruned[i] {
				e.res.Pruned++
			}
			if s := finals[i]; s != nil {
				if e.or.on {
					e.markEnd(int32(idx)) // reported with its valuations (outregs.go)
				} else {
					e.terminal(int32(idx), s)
				}
			}
		} else {
			dist = int32(e.nodes.dist.at(int(idx)) &^ doneBit) // a redo (sleep.go)
		}
		for j := range e.gens[i] {
			sc := &e.gens[i][j]
			if sc.enc == nil {
				e.recordEdge(int32(idx), sc.dst, sc) // a known state (outregs.go)
				continue
			}
			dst := e.add(sc.enc, sc.ids, int32(idx), sc.via, dist+sc.cost, sc.sleep)
			if e.or.on {
				e.recordEdge(int32(idx), int32(dst), sc)
			}
		}
		if e.or.on {
			e.or.endRun()
		}
		e.gens[i] = nil
	}
}

// stopAfterChunk says whether the search must stop after a chunk: the
// context was cancelled (with the caller's cause) or timed out, or the
// memory budget is spent.
func (e *explorer) stopAfterChunk(ctx context.Context) Stop {
	if err := ctx.Err(); err != nil {
		if err == context.DeadlineExceeded {
			return Stop{Kind: StopTime, Timeout: e.opts.Timeout}
		}
		stop := Stop{Kind: StopCancelled}
		if c := context.Cause(ctx); c != nil && c != err {
			stop.Cause = c // why, when the caller said (check: "interrupted")
		}
		return stop
	}
	if !e.charge() {
		return Stop{Kind: StopMemory, MaxMemory: e.budget.Limit()}
	}
	return Stop{}
}

// finish fills in the result: how the search ended, each outcome with its
// witness (sorted by key), the time and the bytes per state.
func (e *explorer) finish(stopped Stop, start time.Time) *Result {
	e.res.Complete = stopped.Kind == StopNone
	e.res.Stop = stopped
	// By key: e.outs holds each outcome's Key, computed once when it was
	// found (sorting by Key() instead built two strings per comparison:
	// 2,300 of the kernel suite's 37,000 allocations; issue 24).
	keys := slices.Sorted(maps.Keys(e.outs))
	// With symmetry, an outcome's images share their node's witness
	// (renamed): it is rebuilt once.
	paths := map[int32][]Step{}
	if !e.opts.NoWitnesses {
		var nodes []int32
		for _, k := range keys {
			n := e.outs[k].node
			if _, ok := paths[n]; !ok {
				paths[n] = e.unpruned(n)
				nodes = append(nodes, n)
			}
		}
		e.pruneAll(paths, nodes)
	}
	for _, k := range keys {
		acc := e.outs[k]
		wit := paths[acc.node]
		if acc.perm >= 0 {
			wit = slices.Clone(wit)
			for i, st := range wit {
				wit[i] = e.m.sym[acc.perm].step(st)
			}
		}
		e.res.Outcomes = append(e.res.Outcomes, OutcomeResult{Outcome: acc.outcome, States: acc.states, Witness: wit, Cost: int(e.nodeDist(acc.node))})
	}
	e.res.Elapsed = time.Since(start)
	if e.res.States > 0 {
		e.res.BytesPerState = float64(e.res.PeakBytes) / float64(e.res.States)
	}
	return e.res
}

// finalState is a final or stuck state of a chunk, kept whole for the
// outcome and deadlock reports.
type finalState struct {
	i     int
	state *State
}

// keep copies s, the chunk's i-th state, final or stuck, into one of w's
// buffers for mergeChunk. mergeChunk reads them and keeps nothing of them
// (terminal copies what it reports), so the next chunk, and the next
// exploration of a batch, reuse the buffers instead of allocating a state
// each: that was an eighth of what checking the kernel's litmus tests
// allocated (issue 24).
func (w *worker) keep(i int, s *State) {
	k := len(w.final)
	if k == len(w.finalBufs) {
		w.finalBufs = append(w.finalBufs, &scratch{})
	}
	w.final = append(w.final, finalState{i: i, state: w.finalBufs[k].load(s)})
}

// bytes is what the explorer holds now.
func (e *explorer) bytes() int64 {
	n := e.mem.bytes() + e.states.bytes() + e.nodes.bytes()
	for i := range e.cpus {
		n += e.cpus[i].bytes()
	}
	for _, b := range e.buckets {
		n += int64(cap(b)) * 4
	}
	return n + e.sleeps.bytes() + int64(cap(e.redo))*4 + e.or.bytes()
}

// headroom is what the next chunk may add at most, besides table
// doublings: every state of a chunk expands into a few new ones.
const headroom = 8 << 20

// charge brings the explorer's share of the budget up to date and reports
// whether the search may go on: whether what it holds, plus what the next
// chunk and the next table doublings may add, still fits.
func (e *explorer) charge() bool {
	now := e.bytes()
	e.budget.charge(now - e.charged)
	e.charged = now
	if now > e.res.PeakBytes {
		e.res.PeakBytes = now
	}
	next := int64(headroom) + tableGrowth(e.states.n+expandChunk*8, len(e.states.table)) + tableGrowth(e.mem.refs.n+expandChunk*8, len(e.mem.table))
	for i := range e.cpus {
		next += tableGrowth(e.cpus[i].refs.n+expandChunk*8, len(e.cpus[i].table))
	}
	return e.budget.fits(next)
}

// release returns the explorer's share of the budget.
func (e *explorer) release() {
	e.budget.charge(-e.charged)
	e.charged = 0
	if e.bytes() <= reuseMax {
		e.m, e.res, e.outs, e.budget, e.opts = nil, nil, nil, nil, Options{}
		clear(e.finals)
		clear(e.gens)
		for _, w := range e.workers {
			clear(w.final)
		}
		explorers.Put(e)
	}
}

// Small explorations come in batches (a directory of litmus tests, the
// what-if edits of one test), and for them the search's own set-up — its
// tables, pages and workers' buffers, a few tens of KiB touched for the
// first time — costs more than the search. So the buffers of an
// exploration that stayed small are kept for the next one (explorers),
// emptied; larger ones are left to the garbage collector.
var explorers sync.Pool

// reuseMax is the most an exploration may hold for its buffers to be
// kept.
const reuseMax = 256 << 10

// newExplorer returns an explorer for m with empty tables, reusing a
// small exploration's buffers when one is free.
func newExplorer(m *Machine, opts Options, budget *Budget) *explorer {
	e, _ := explorers.Get().(*explorer)
	if e == nil {
		e = &explorer{}
	}
	n := len(m.Prog.Threads)
	e.m, e.opts, e.budget, e.res, e.outs = m, opts, budget, &Result{}, make(map[string]*outcomeAcc)
	e.red = enabledReductions(opts.off)
	// Not with grace-period starts taken alone: that choice is not a
	// persistent set (sleep.go, "Where").
	e.sleepy = e.on(redSleep) && m.hasSync && !e.on(redGraceStep)
	e.srcuStays = m.hasSyncSRCU && !m.hasSync && m.srcuBracketed&m.srcuDomainLocs() == m.srcuDomainLocs()
	e.or.reset(m, e.on(redOutRegs) && opts.Prune == nil, !opts.NoWitnesses || opts.StuckWitnesses)
	e.endsOnly = false
	e.mem.reset()
	for len(e.cpus) < n {
		e.cpus = append(e.cpus, interner{})
	}
	e.cpus = e.cpus[:n]
	for i := range e.cpus {
		e.cpus[i].reset()
	}
	e.states.reset(1 + n)
	e.nodes.parent.reset()
	e.nodes.via.reset()
	e.nodes.dist.reset()
	e.nodes.sleep.reset()
	e.sleeps.reset()
	e.redo, e.cur = e.redo[:0], 0
	clear(e.buckets)
	e.buckets = e.buckets[:0]
	for len(e.workers) < opts.Workers {
		e.workers = append(e.workers, &worker{})
	}
	e.workers = e.workers[:opts.Workers]
	for i, w := range e.workers {
		w.id = i
		w.tuple = grow(w.tuple, e.states.width)
		w.final = w.final[:0]
		w.arena, w.idArena, w.succs = w.arena[:0], w.idArena[:0], w.succs[:0]
	}
	return e
}

// encoding is a state's blocks, concatenated with their lengths: the
// shared block, then one block per CPU.
type encoding []byte

// encode appends s's encoding to w.buf and returns it.
func (e *explorer) encode(s *State, w *worker) encoding {
	m := e.m
	b := w.buf[:0]
	mark := func() int { b = append(b, 0, 0); return len(b) }
	finish := func(at int) {
		n := len(b) - at
		b[at-2], b[at-1] = byte(n), byte(n>>8)
	}
	at := mark()
	open := ^uint32(0)
	if e.on(redDeadSections) {
		open = s.srcuOpen
	}
	b = m.appendMemBlock(b, s, open)
	finish(at)
	// blockMasks(s, c, true), with the mask every CPU shares computed once.
	dead := m.Mode == ARM && e.on(redDeadLines)
	live, reads := ^uint64(0), ^uint64(0)
	if dead {
		live = m.liveLines(s)
	}
	for c := range s.cpus {
		if dead {
			reads = m.staleReads(&s.cpus[c], c)
		}
		at := mark()
		b = m.appendCPUBlock(b, s, c, live, reads, open, e.skip(c, s.cpus[c].pc))
		finish(at)
	}
	w.buf = b
	return b
}

// blocks splits an encoding into its blocks.
func (enc encoding) blocks(out [][]byte) [][]byte {
	out = out[:0]
	for len(enc) > 0 {
		n := int(enc[0]) | int(enc[1])<<8
		out = append(out, enc[2:2+n])
		enc = enc[2+n:]
	}
	return out
}

// lookup finds the state of an encoding without changing anything: its
// index, or ok false when a block or the tuple is new.
// It leaves in w.tuple the numbers of the blocks it found, and unknown for
// the others.
func (e *explorer) lookup(enc encoding, w *worker) (int, bool) {
	w.blocks = enc.blocks(w.blocks)
	found := true
	// A move changes few blocks: a block equal to the parent's has the
	// parent's number, without a look in the table.
	for i, b := range w.blocks {
		if i < len(w.parentBlocks) && bytes.Equal(b, w.parentBlocks[i]) {
			w.tuple[i] = w.parentTuple[i]
			continue
		}
		in := &e.mem
		if i > 0 {
			in = &e.cpus[i-1]
		}
		id, ok := in.lookup(b)
		if !ok {
			id, found = unknown, false
		}
		w.tuple[i] = id
	}
	if !found {
		return 0, false
	}
	return e.states.lookup(w.tuple)
}

// unknown marks a block number not yet assigned.
const unknown = ^uint32(0)

// add records a state reached from parent by mv at distance dist (or a
// shorter way to a known state not yet expanded).
//
// ids holds block numbers already known (unknown for the others), or is
// nil. sleep is the sleep set it is reached with (sleep.go): a known
// state's stored set becomes the intersection, and one expanded already
// whose set shrinks is queued for a redo.
func (e *explorer) add(enc encoding, ids []uint32, parent int32, mv macro, dist int32, sleep []uint32) int {
	// A redo's successors may cost less than the distance being expanded:
	// they join it.
	dist = max(dist, e.cur)
	e.addBlocks = enc.blocks(e.addBlocks)
	blocks := e.addBlocks
	if len(e.addTuple) != e.states.width {
		e.addTuple = make([]uint32, e.states.width)
	}
	t := e.addTuple
	for i, b := range blocks {
		if ids != nil && ids[i] != unknown {
			t[i] = ids[i]
		} else if i == 0 {
			t[i] = e.mem.intern(b)
		} else {
			t[i] = e.cpus[i-1].intern(b)
		}
	}
	idx, isNew := e.states.add(t)
	// With outcome registers left out, witnesses are the pairs' paths
	// (outregs.go): the states' parents and moves are not kept.
	paths := !e.or.on
	if isNew {
		if paths {
			e.nodes.parent.append(uint32(parent))
			e.nodes.via.append(packMacro(mv))
		}
		e.nodes.dist.append(uint32(dist))
		if e.sleepy {
			e.nodes.sleep.append(e.sleeps.intern(sleep))
		}
	} else {
		dv := e.nodes.dist.at(idx)
		if old := e.sleepOf(idx); e.sleepy && !subset(old, sleep) {
			e.slpTmp = intersect(e.slpTmp, old, sleep)
			z := e.nodes.sleep.at(idx)&redoBit | e.sleeps.intern(e.slpTmp)
			if dv&doneBit != 0 && z&redoBit == 0 {
				z |= redoBit
				e.redo = append(e.redo, uint32(idx))
			}
			e.nodes.sleep.set(idx, z)
		}
		if dv&doneBit != 0 || int32(dv) <= dist {
			return idx
		}
		if paths {
			e.nodes.parent.set(idx, uint32(parent))
			e.nodes.via.set(idx, packMacro(mv))
		}
		e.nodes.dist.set(idx, uint32(dist))
	}
	for int(dist) >= len(e.buckets) {
		e.buckets = append(e.buckets, nil)
	}
	e.buckets[dist] = append(e.buckets[dist], uint32(idx))
	return idx
}

// decode rebuilds state idx in the worker's scratch state.
func (e *explorer) decode(idx int, w *worker) *State {
	if len(w.parentTuple) != e.states.width {
		w.parentTuple = make([]uint32, e.states.width)
	}
	if e.endsOnly {
		e.or.endTuple(idx, w.parentTuple)
	} else {
		e.states.get(idx, w.parentTuple)
	}
	w.parentBlocks = append(w.parentBlocks[:0], e.mem.get(w.parentTuple[0]))
	for c := range e.cpus {
		w.parentBlocks = append(w.parentBlocks, e.cpus[c].get(w.parentTuple[1+c]))
	}
	return e.m.decodeState(&w.decoded, w.parentBlocks[0], w.parentBlocks[1:], e.on(redDeadLines), e.skipRegs())
}

func (e *explorer) terminal(idx int32, s *State) {
	m := e.m
	if _, ok := m.Misspeculated(s); ok {
		e.res.MisspecStates++ // no execution: nothing to report
		return
	}
	if f, faulted := m.Fault(s); faulted {
		e.res.FaultStates++
		if len(e.res.Faults) < maxDeadlocks {
			e.res.Faults = append(e.res.Faults, FaultResult{Witness: e.stuckWitness(idx, len(e.res.Faults) == 0), Fault: f})
		}
		return
	}
	if !m.Final(s) {
		e.res.DeadlockStates++
		if len(e.res.Deadlocks) >= maxDeadlocks {
			return
		}
		d := DeadlockResult{Witness: e.stuckWitness(idx, len(e.res.Deadlocks) == 0)}
		for c := range s.cpus {
			if w := m.Wait(s, c); w.Kind != WaitFinished {
				d.Waits = append(d.Waits, w)
			}
		}
		e.res.Deadlocks = append(e.res.Deadlocks, d)
		return
	}
	o := m.Outcome(s)
	e.addOutcome(o, o.Key(), idx, -1)
	if e.symmetric() {
		// Its images under the automorphisms are outcomes too (symmetry.go),
		// each reached by the witness renamed.
		seen := []string{o.Key()}
		for g := range m.sym {
			og := m.sym[g].outcome(o)
			if k := og.Key(); !slices.Contains(seen, k) {
				seen = append(seen, k)
				e.addOutcome(og, k, idx, g)
			}
		}
	}
}

// nodeDist is the distance of node idx: a state's, or with outcome
// registers left out a pair's (outregs.go).
func (e *explorer) nodeDist(idx int32) uint32 {
	if idx < 0 {
		return 0 // a pair propagateSets reported: no path asked for
	}
	if e.or.on {
		return e.or.pair(idx).dist &^ pairDone
	}
	return e.nodes.dist.at(int(idx)) &^ doneBit
}

// addOutcome records outcome o (key k) of the final state at node idx,
// whose witness is renamed by automorphism g (-1: none).
func (e *explorer) addOutcome(o Outcome, k string, idx int32, g int) {
	acc := e.outs[k]
	if acc == nil {
		acc = &outcomeAcc{outcome: o, node: idx, perm: g}
		e.outs[k] = acc
	} else if e.nodeDist(idx) < e.nodeDist(acc.node) {
		acc.node, acc.perm = idx, g
	}
	acc.states++
}

// worker holds one goroutine's reusable buffers.
type worker struct {
	id      int
	sc      scratch
	drained scratch
	decoded scratch
	steps   []Step
	steps2  []Step
	mesi    []MESI // cpuMoves' saved line states
	buf     []byte
	arena   []byte   // encodings of new successors (see successors)
	idArena []uint32 // and their known block numbers
	succs   []successor
	blocks  [][]byte
	tuple   []uint32
	// The state being expanded, as decode found it: its blocks and their
	// numbers (lookup reuses them).
	parentBlocks [][]byte
	parentTuple  []uint32
	ev           Event
	post         scratch // the state after a postponed store (postponedStoreMoves)
	postLock     scratch // the state after a postponed rcu_read_lock, from a state not being expanded
	// postponableLock's answers for the state being expanded (lockFor,
	// set by macros), each CPU's (lockKnown, lockOK) with the state after
	// its lock (lockAfter): postponedLockMoves and postponedWaitFoot ask
	// again and read it.
	lockFor           *State
	lockKnown, lockOK uint32
	lockAfter         []scratch
	waitStoreSc       scratch   // the state after a postponed store (postponedStoreWaitFoot)
	waitSteps         []Step    // the steps postponedStoreWaitFoot looks through
	cpuMvs            [][]macro // per CPU moves of the state being expanded
	reads             []uint64  // per CPU future loads (persistentCPU)
	cur               []setFoot // per CPU footprints of its moves (persistentSet), computed when first needed (curKnown)
	curKnown          uint32    // the CPUs whose cur is computed for the state being expanded
	curLive           uint64    // liveWrites of that state, for curOf
	curRereads        []uint64  // persistentSet's rereads, for curOf
	rereadArr         [32]uint64
	seedArr           [32]int8
	// The moves macros returns, and privateStep's and gracePeriodStep's
	// (reused: a state's are consumed before the next state's are asked
	// for; chain calls privateStep while successors walks macros' list,
	// so macros copies them into its own).
	mvOut, privMvs, gpMvs []macro
	fut                   []futFoot // per CPU footprints of its futures (persistentSet)
	fpSc                  scratch   // persistentSet's copy of the state
	succ                  scratch   // the successor being computed (successors)
	symSc                 scratch   // a successor renamed by an automorphism (canonical)
	symBuf                permBuf
	symBest               []byte // the least encoding so far (canonical)
	symLatest             []Value
	symTied               []int
	memos                 [][]moveMemo // per CPU, per move of cpuMvs: what the footprints learnt (moveMemo)
	memoLive              bool         // memos are of the state being expanded
	stuckAll              uint32       // stuckIn of every CPU of the state being expanded (persistentSet), srcuIn too
	srcuIn                uint32       // srcuInside of the state being expanded, when srcuStays (else 0)
	srcuStill             uint32       // sbCPUs of that state, and srcuIn (conflictsStuck)
	afterSc               [][]scratch  // per CPU, per move: the state after it (moveMemo.after)
	// changedOnly's undo buffers.
	undoGP    []uint32
	undoVals  []Value
	undoSecs  []uint32
	undoLines []Line
	undoIQ    [][]IQEntry
	iqKeep    []IQEntry
	part      setFoot // persistentSet's footprint of a single commit
	partFut   futFoot // and of the rest of its CPU's future
	// partialSet's (persistentpart.go): per CPU what it knows of its
	// moves, the instructions in the set, footprints of the set's moves
	// and I-free futures, the best set's instructions, its moves.
	pinfo   []partInfo
	psteps  [][]partStep // per CPU: partClosure's first phase, by instructions (partStepOf)
	pids    []uint64
	pfoot   []setFoot
	pfut    []futFoot
	bestIDs []uint64
	partOut []macro
	ppSc    scratch
	final   []finalState
	// finalBufs are the buffers of final's states (keep).
	finalBufs   []*scratch
	transitions int
	moves       int // how many moves macros gave the state (before its sleep set)
	// Sleep sets (sleep.go): the moves of the state being expanded, taken
	// ones first (slp[:slpTaken]), then those asleep; a scratch state and
	// buffers for commute, hasMove and successors.
	slp      []*sleepMove
	slpTaken int
	slpN     int
	slpAB    scratch
	slpKey   []byte
	slpV     scratch
	slpP     sleepMove
	slpU     sleepMove
	slpOut   []uint32
	slpArena []uint32
	wrArena  []orWrite // successors' writes to outcome registers (outregs.go)
}

// load copies s into dst, at once when s is the state being expanded
// (decode's, in its own buffers: scratch.loadFrom).
func (w *worker) load(dst *scratch, s *State) *State {
	if s == &w.decoded.st {
		return dst.loadFrom(s, &w.decoded)
	}
	return dst.load(s)
}

// successor is a new state (or a shorter way to one) to record.
type successor struct {
	enc  encoding
	ids  []uint32 // block numbers lookup found (unknown for new blocks)
	via  macro
	cost int32
	// sleep is its sleep set (sleep.go).
	sleep []uint32
	// For the outcome-register reduction (outregs.go): the writes the
	// move made to outcome registers, the automorphism the state was
	// renamed by (-1: none), and, when enc is nil, the known state the
	// move leads to (only its edge is recorded).
	writes []orWrite
	perm   int16
	dst    int32
}

const (
	expandChunk = 4096 // states expanded between limit checks
	parallelMin = 16   // smaller chunks are expanded on one goroutine
	expandGrab  = 4    // states a worker takes at a time
)

// successors returns the states the search moves to from s (at distance
// dist) that are not already known at a distance as short. Each candidate
// is computed in the worker's scratch state and encoded; the store is
// only read here, never written, so several goroutines may call
// successors at once between merges.
func (e *explorer) successors(s *State, idx int, dist int32, w *worker) []successor {
	first := len(w.succs)
	w.transitions = 0
	mvs := e.macros(s, w)
	w.moves = len(mvs)
	// Sleep sets only where RCU grace periods are (issue 24's class), as
	// with the step-level persistent sets: elsewhere the persistent sets
	// already serve, and the state counts and witnesses people see stay
	// as they were.
	sleeping := e.sleepy
	if sleeping {
		// The moves asleep are not taken (sleep.go); the ones taken and
		// those asleep are what the successors' sleep sets are made of.
		mvs = e.sleepMoves(s, mvs, e.sleepOf(idx), w)
	}
	for i, mv := range mvs {
		// The footprints (moveFoot) may have performed the move's own
		// steps already, on a copy of s: then only what perform takes
		// after them is left.
		t, cost, ok := w.takeAfter(mv)
		if ok {
			e.performAfter(t, func(st Step) { cost += e.stepCost(st) })
		} else {
			t = w.load(&w.succ, s)
			cost = e.applyMacro(t, mv, nil)
		}
		w.transitions++
		var sleep []uint32
		if sleeping {
			sleep = e.childSleep(s, i, w)
		}
		chained, sleep := e.chainSleep(t, w, sleep)
		cost += chained
		var writes []orWrite
		if e.or.on {
			from := len(w.wrArena)
			w.wrArena = e.writes(w.wrArena, s, t)
			writes = w.wrArena[from:len(w.wrArena):len(w.wrArena)]
		}
		enc, g := e.canonical(t, w)
		if g >= 0 {
			sleep = nil // stored renamed (sleep.go)
		}
		if idx, ok := e.lookup(enc, w); ok {
			if dv := e.nodes.dist.at(idx); (dv&doneBit != 0 || int32(dv) <= dist+cost) && subset(e.sleepOf(idx), sleep) {
				if e.or.on {
					w.succs = append(w.succs, successor{via: mv, cost: cost, writes: writes, perm: int16(g), dst: int32(idx)})
				}
				continue
			}
		}
		// Encodings of a chunk's new states go into the worker's arena,
		// kept until the chunk is merged.
		// Arenas start small and double up to 64 KiB, so a tiny search
		// allocates little.
		if len(w.arena)+len(enc) > cap(w.arena) {
			w.arena = make([]byte, 0, max(min(64<<10, 2*cap(w.arena)), 1024, 2*len(enc)))
		}
		start := len(w.arena)
		w.arena = append(w.arena, enc...)
		if len(w.idArena)+len(w.tuple) > cap(w.idArena) {
			w.idArena = make([]uint32, 0, max(min(16<<10, 2*cap(w.idArena)), 256, len(w.tuple)))
		}
		at := len(w.idArena)
		w.idArena = append(w.idArena, w.tuple...)
		var kept []uint32
		if len(sleep) > 0 {
			if len(w.slpArena)+len(sleep) > cap(w.slpArena) {
				w.slpArena = make([]uint32, 0, max(min(16<<10, 2*cap(w.slpArena)), 256, len(sleep)))
			}
			from := len(w.slpArena)
			w.slpArena = append(w.slpArena, sleep...)
			kept = w.slpArena[from:len(w.slpArena):len(w.slpArena)]
		}
		w.succs = append(w.succs, successor{enc: w.arena[start:len(w.arena):len(w.arena)], ids: w.idArena[at:len(w.idArena):len(w.idArena)], via: mv, cost: cost, sleep: kept, writes: writes, perm: int16(g)})
	}
	return w.succs[first:len(w.succs):len(w.succs)]
}

// Chains. A state whose expansion is a single private step (privateStep:
// the step macros returns alone, first) has one successor, so the search
// need not store it: it takes that step together with the move that led
// to the state, and again while the state reached has a single private
// step, and stores only where that ends. Such a state is no end (it has
// a move: it is neither final, stuck nor faulted, and mis-speculated
// states have none), so the graph the search explores is the same with
// those nodes contracted, and reaches the same ends; each move stored is
// still a sequence of ordinary steps, and path replays the chain after
// it as the search took it (privateStep reads only what the key holds,
// so the replayed state, equal in key to the stored one, chooses the
// same steps).

// chain takes on t the private steps a state with nothing else to do
// would take one by one (see above), calling did after each ordinary
// step, and returns their cost.
func (e *explorer) chain(t *State, w *worker, did func(Step)) int32 {
	if !e.on(redChain) {
		return 0
	}
	cost := int32(0)
	for !e.m.ended(t) {
		mvs, ok := e.privateStep(t, w)
		if !ok || len(mvs) != 1 {
			break
		}
		e.perform(t, mvs[0], nil, func(st Step) {
			cost += e.stepCost(st)
			did(st)
		})
	}
	return cost
}

// stepCost is what an ordinary step costs in applyMacro's count.
func (e *explorer) stepCost(st Step) int32 {
	if st.Kind == StepEarly {
		if op := e.m.code(int(st.CPU))[st.Arg].Op; op != OpStore && op != OpFence {
			return earlyLoadCost
		}
	}
	return 1
}

// applyMacro performs a macro on t and returns its cost: the number of
// ordinary steps, with a load issued early counting as earlyLoadCost.
// Breadth-first order by cost makes witnesses the shortest ones, and
// among those the ones that keep loads in order: people find an
// explanation by stale copies and store buffers easier to follow than one
// by out-of-order loads, which the machine offers for the outcomes that
// need them.
func (e *explorer) applyMacro(t *State, mv macro, ev *Event) int32 {
	cost := int32(0)
	e.perform(t, mv, ev, func(st Step) {
		cost++
		if st.Kind == StepEarly {
			if op := e.m.code(int(st.CPU))[st.Arg].Op; op != OpStore && op != OpFence {
				cost += earlyLoadCost - 1
			}
		}
	})
	return cost
}

const earlyLoadCost = 3

// perform carries out macro mv on t as ordinary steps, calling did after
// each: the queued invalidations it applies first, its step (with ev), and
// then every quiescent-state report that has become possible.
//
// Reports are taken eagerly. A report only clears a CPU's bit in the grace
// periods waiting for it: it disables nothing and enables only the end of
// a grace period, which its owner may still take as late as it likes. So
// the state after a report simulates the state before it, and reporting
// at the first moment it is possible (without applying any invalidation
// for it: that would drop stale copies) loses no outcome, while the order
// of reports no longer multiplies the states. Nor does it lose a deadlock:
// a CPU that could report but does not can only hold a grace period up by
// entering a read-side section later, and the execution in which the
// grace period starts just after that entry (nothing between depends on
// the start: its owner only waits) reaches the same stuck state.
func (e *explorer) perform(t *State, mv macro, ev *Event, did func(Step)) {
	ownSteps(t, mv, ev, func(st Step, ev *Event) {
		e.m.apply(t, st, ev)
		did(st)
	})
	e.performAfter(t, did)
}

// performAfter takes on t what perform takes after a macro's own steps:
// the invalidations nobody can read, then the reports.
func (e *explorer) performAfter(t *State, did func(Step)) {
	m := e.m
	do := func(st Step, ev *Event) {
		m.apply(t, st, ev)
		did(st)
	}
	if m.Mode == ARM && e.on(redUnreadable) {
		// A queued invalidation is applied at once when its CPU cannot
		// load the line before its queue is next drained anyway (by a
		// full barrier, smp_rmb, a grace period, a fully ordered RMW or the
		// wait after an acquire: drainReads; or an srcu_read_lock made
		// late: drainsFirst) and, besides, no other CPU
		// will load the line twice more or no CPU will write it again. Its
		// stale copy can then never be read; what else it does is make
		// another CPU's miss get S rather than E, which matters only if a
		// later commit then leaves that CPU a stale copy to read again —
		// impossible without a later writer and a second later load by
		// the CPU that missed (its first load, the miss, reads the latest
		// value either way; a CPU that already holds the line is not
		// affected). So applying it now or at the drain leads to the same
		// outcomes, and applying it now keeps it from multiplying states
		// and from blocking reports.
		writes := e.liveWrites(t)
		for d := range t.cpus {
			if len(t.cpus[d].iq) == 0 {
				continue
			}
			own := m.drainReadsIn(t, d)
			var others uint64
			for x := range t.cpus {
				if x != d {
					others |= m.fut.futureRereads[x][t.cpus[x].pc]
				}
			}
			for i := 0; i < len(t.cpus[d].iq); {
				if l := t.cpus[d].iq[i].Loc; own&(1<<l) == 0 && (others&(1<<l) == 0 || writes&(1<<l) == 0) {
					do(Step{Kind: StepInvalidate, CPU: uint8(d), Arg: uint8(l)}, nil)
					continue
				}
				i++
			}
		}
	}
	if !m.hasSync && !m.hasSyncSRCU || !e.on(redEagerQS) {
		return
	}
	// Only a CPU some grace period waits for can report, and reports
	// only clear those bits.
	var owed uint32
	for d := range t.cpus {
		owed |= t.cpus[d].gpWait
	}
	for d := range t.cpus {
		if owed&(1<<d) != 0 && m.canReportQS(t, d) {
			do(Step{Kind: StepReportQS, CPU: uint8(d)}, nil)
		}
	}
}

// ownSteps takes the ordinary steps of mv itself on t with do, in order:
// a postponed rcu_read_lock, a postponed store, the queued invalidations
// applied first, then the step (with ev). What perform takes eagerly
// after them is not among them.
func ownSteps(t *State, mv macro, ev *Event, do func(st Step, ev *Event)) {
	c := int(mv.step.CPU)
	if mv.lock {
		do(Step{Kind: StepExec, CPU: mv.step.CPU}, nil)
	}
	switch {
	case mv.store == 1:
		do(Step{Kind: StepExec, CPU: mv.step.CPU}, nil)
	case mv.store > 1:
		do(Step{Kind: StepEarly, CPU: mv.step.CPU, Arg: mv.store - 2}, nil)
	}
	switch mv.pre {
	case preOne:
		do(Step{Kind: StepInvalidate, CPU: mv.step.CPU, Arg: uint8(mv.preLoc)}, nil)
	case preAll:
		for len(t.cpus[c].iq) > 0 {
			do(Step{Kind: StepInvalidate, CPU: mv.step.CPU, Arg: uint8(t.cpus[c].iq[0].Loc)}, nil)
		}
	}
	do(mv.step, ev)
}

// liveReads returns the locations some CPU may still load from.
func (e *explorer) liveReads(s *State) uint64 { return e.m.liveReads(s) }

// liveWrites returns the locations some CPU may still write: by an
// instruction still to run or an entry still in its store buffer.
func (e *explorer) liveWrites(s *State) uint64 { return e.m.liveWrites(s) }

// macros returns the moves of the search from s.
//
// Lazy invalidations (RULES.md, "The explorer"): the search
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
	w.lockFor, w.lockKnown, w.lockOK = s, 0, 0
	mvs := e.expandMoves(s, w)
	w.lockFor = nil // s's storage is reused for the next state
	return mvs
}

// expandMoves is macros' work.
func (e *explorer) expandMoves(s *State, w *worker) []macro {
	m := e.m
	w.memoLive = false // persistentSet computes them anew
	if m.ended(s) {
		return nil
	}
	if mvs, ok := e.privateStep(s, w); ok {
		w.mvOut = append(w.mvOut[:0], mvs...)
		return w.mvOut
	}
	// Every CPU's moves, computed once for the persistent-set search and
	// for the full list.
	for len(w.cpuMvs) < len(s.cpus) {
		w.cpuMvs = append(w.cpuMvs, nil)
	}
	for c := range s.cpus {
		w.cpuMvs[c] = e.cpuMacros(w.cpuMvs[c][:0], s, c, w)
	}
	if e.on(redPersistentCPU) {
		if c, ok := e.persistentCPU(s, w); ok {
			w.mvOut = append(w.mvOut[:0], w.cpuMvs[c]...)
			return w.mvOut
		}
	}
	if p, part, mv, ok := e.persistentSet(s, w); ok {
		if part == partMoves {
			w.mvOut = append(w.mvOut[:0], w.partOut...)
			return w.mvOut
		}
		out := w.mvOut[:0]
		for c := range s.cpus {
			switch {
			case c == part:
				out = append(out, mv)
			case p&(1<<c) != 0:
				out = append(out, w.cpuMvs[c]...)
			}
		}
		w.mvOut = out
		return out
	}
	out := w.mvOut[:0]
	for c := range s.cpus {
		out = append(out, w.cpuMvs[c]...)
	}
	w.mvOut = out
	return out
}

// cpuMacros appends CPU c's moves from s: its enabled steps other than
// invalidations, and the lazy-invalidation variants of the ones that
// observe its queue.
func (e *explorer) cpuMacros(out []macro, s *State, c int, w *worker) []macro {
	if e.postponableLock(s, c, w) {
		return e.postponedLockMoves(out, s, c, w)
	}
	if !e.postponing(s, c) {
		return e.cpuMoves(out, s, c, w)
	}
	return e.postponedStoreMoves(out, s, c, w)
}

// cpuMoves appends CPU c's moves from s, every store on its own.
func (e *explorer) cpuMoves(out []macro, s *State, c int, w *worker) []macro {
	m := e.m
	w.steps = m.appendCPUSteps(w.steps[:0], s, c)
	steps := w.steps
	lazy := e.on(redLazy)
	for _, st := range steps {
		if st.Kind != StepInvalidate || !lazy {
			out = append(out, macro{step: st})
		}
	}
	if m.Mode != ARM || len(s.cpus[c].iq) == 0 || !lazy {
		return out // without lazy invalidations, each is a step of its own
	}
	if l, ok := e.staleRead(s, c); ok {
		t := w.load(&w.sc, s)
		m.applyInval(t, c, t.iqIndex(c, l))
		if m.enabledExec(t, c) {
			out = append(out, macro{step: Step{Kind: StepExec, CPU: uint8(c)}, pre: preOne, preLoc: l})
		}
	}
	// The same for a load, RMW or acquire issued early.
	for _, st := range steps {
		if st.Kind != StepEarly {
			continue
		}
		l, kind := m.earlyLoc(s, c, int(st.Arg))
		if !kind.reads() || !s.Stale(c, l) || hasEntryFor(s.cpus[c].sb, l) {
			continue
		}
		t := w.load(&w.sc, s)
		m.applyInval(t, c, t.iqIndex(c, l))
		if m.IsEnabled(t, st) {
			out = append(out, macro{step: st, pre: preOne, preLoc: l})
		}
	}
	sensitive := e.queueSensitive(s, c)
	// The steps with the whole queue applied, found on s itself, changed
	// for the call and restored after it (a copy of the whole state cost
	// more than finding the steps).
	cs := &s.cpus[c]
	iq, acqWait := cs.iq, cs.acqWait
	w.mesi = w.mesi[:0]
	for _, e := range iq {
		w.mesi = append(w.mesi, cs.cache[e.Loc].State)
		cs.cache[e.Loc].State = Invalid
	}
	cs.iq, cs.acqWait = iq[:0], false
	w.steps2 = m.appendCPUSteps(w.steps2[:0], s, c)
	cs.iq, cs.acqWait = iq, acqWait
	for i := len(iq) - 1; i >= 0; i-- {
		cs.cache[iq[i].Loc].State = w.mesi[i]
	}
	for _, st := range w.steps2 {
		if st.Kind == StepCommit || st.Kind == StepInvalidate {
			continue
		}
		if containsStep(steps, st) && !(st.Kind == StepExec && sensitive) && !(st.Kind == StepEarly && e.earlySensitive(c, int(st.Arg))) {
			continue
		}
		out = append(out, macro{step: st, pre: preAll})
	}
	return out
}

// Postponed stores. While a grace period is running or may still start, a
// plain store in the store buffer delays its CPU's quiescent state, so the
// moment a store is executed matters and, taken as a step of its own, it
// multiplies the states by every moment it could have been taken. But
// executing it later takes no behaviour away: no other CPU can see a
// store-buffer entry, nothing of its own CPU but the entry's commit and the
// CPU's next step depends on it, and a CPU whose buffer lacks the entry is
// quiescent at least whenever one that holds it is. So the search does not
// offer such a store on its own; it offers it together with the step that
// needs it: its own commit, or the CPU's next step (its next instruction or
// one issued early). For every execution of the machine, the execution in
// which each such store runs just before the first of those two steps
// takes the same steps otherwise, with every grace period waiting for the
// same CPUs or fewer (reports only ever enable a grace period's end), and
// so reaches the same final state.
//
// Stuck states are kept too. In a stuck state every store buffer and
// invalidation queue is empty (a pending commit or invalidation is always
// a step), so the only CPUs a grace period still waits for are inside
// read-side sections. So it is enough that the CPU is outside every
// section and cannot enter one later (then it has reported in both
// executions), or that no CPU can stay inside a section for ever
// (Machine.readerCanHang: then a stuck state has no grace period waiting
// at all); either way the two stuck states are equal.
//
// A store issued early (ARM-like mode) is postponed the same way: what
// depends on its entry is its commit and the CPU's own later steps (which
// instructions may be issued early after it, and loads of its location).
//
// The step taken with the store comes with its lazy-invalidation variants
// as usual (appending a store neither reads nor changes the queue). Only
// when the program has no SRCU, and an in-order store folds nothing but
// register arithmetic, branches and compiler barriers.
//
// Which stores. A store whose next instruction (past register arithmetic)
// is another access is not postponed (ridesWithAccess): postponed, it
// would be taken with that access as one move performing two instructions
// on two lines, which the step-level sets must take together or not at
// all (coupled, persistentpart.go), and which a CPU-level set sees touch
// both lines. Leaving it a step of its own keeps each move on one line.
// The argument above delays each postponed store on its own, so it holds
// for any set of stores fixed by the program. Measured with ExploreWithout
// over litmusgen's GraceFamilies and cycle families, against postponing
// every store: the write-read cycles fell to a hundredth (RCU
// WR-G+G+R+R+R+R+R ARM-like 10,142 to 102 states), the read-read cycles
// closed by a writer of every location to about three fifths (RR-W
// G+G+R+R+R+R ARM-like 33,724 to 19,264); no other file changed but the
// mixed WR+WW+RW+WR+WW+RW-G+R+G+R+R+R (ARM-like 2,334 to 3,205, TSO
// 1,099 to 935).

// postponableStore reports whether CPU c's next instruction is a plain
// store that the search takes only together with the step that needs it,
// given that c's stores are postponed in s (postponing).
func (e *explorer) postponableStore(s *State, c int, w *worker) bool {
	m := e.m
	cs := &s.cpus[c]
	in := &m.code(c)[cs.pc]
	if in.Op != OpStore || in.Access.IsRelease() || !m.enabledExec(s, c) || e.ridesWithAccess(c, int(cs.pc)) {
		return false
	}
	if _, ok := m.addr(in, cs.regs); !ok {
		return false
	}
	if m.fut.reach[c][cs.pc]&m.fut.markers[c] == 0 {
		return true // what it may fold is register arithmetic and branches
	}
	t := w.load(&w.drained, s)
	w.ev.Folded = w.ev.Folded[:0]
	m.apply(t, Step{Kind: StepExec, CPU: uint8(c)}, &w.ev)
	w.ev.Load, w.ev.Commit, w.ev.Applied = nil, nil, nil
	for _, i := range w.ev.Folded {
		f := &m.code(c)[i]
		switch {
		case f.Op == OpAssign, f.Op == OpBranch, f.Op == OpJump:
		case f.Op == OpFence && m.fenceKind(f.Fence) == fenceNone:
		default:
			return false
		}
	}
	return true
}

// After the grace periods. Postponing stays sound once no grace period
// can run: then a store's or a lock's moment matters to nothing but its
// CPU's own next step and the store's commit, with which the search takes
// it. What decides is the persistent sets. A CPU's moves postponed only
// while a grace period may run change when the last one ends, so a set
// that holds one must keep a grace period possible along every path it
// leaves out, with a CPU inside or before one, whose grace-period moves
// keep sets from being taken at all (gpDep, closure); postponed for the
// whole search, they depend on no grace period. But the CPU-level sets
// (persistentCPU) do not take postponed moves, and in TSO mode they are
// what take a CPU alone after the grace periods. So postponing lasts the
// whole search in ARM-like mode only, where it saved states on every
// test of litmusgen's GraceFamilies and cycle families (measured with
// ExploreWithout; TSO's read-read cycles closed by a writer took up to
// 1.8× the states).

// postponeNow reports whether stores and rcu_read_lock are postponed in s
// (postponing, postponableLock): in a program with synchronize_rcu, in
// ARM-like mode always, in TSO mode while a grace period may run.
func (e *explorer) postponeNow(s *State) bool {
	return e.m.hasSync && (e.postponeAlways() || e.gpPossible(s))
}

// postponeAlways reports whether postponing lasts the whole search (see
// above), so that postponed moves depend on no grace period.
func (e *explorer) postponeAlways() bool { return e.m.Mode == ARM }

// postponing reports whether CPU c's plain stores are postponed in s.
func (e *explorer) postponing(s *State, c int) bool {
	m := e.m
	cs := &s.cpus[c]
	if !e.on(redPostpone) || m.finished(s, c) || cs.fault || m.hasSyncSRCU || len(m.srcuSecs) > 0 || !e.postponeNow(s) {
		return false
	}
	return !m.fut.readerCanHang || cs.rcuDepth == 0 && !m.fut.futureReader[c][cs.pc]
}

// postponedStoreMoves appends CPU c's moves from s with its plain stores
// postponed: its moves other than appending such a store, and for each
// such store (its next instruction, or one it may issue early), the moves
// of c after it that need it (its next instruction, one issued early, the
// store's commit), each with the store taken first.
func (e *explorer) postponedStoreMoves(out []macro, s *State, c int, w *worker) []macro {
	m := e.m
	inOrder := e.postponableStore(s, c, w)
	start := len(out)
	out = e.cpuMoves(out, s, c, w)
	var stores [MaxInstrs + 1]uint8
	n := 0
	kept := out[:start]
	for _, mv := range out[start:] {
		switch {
		case mv.pre != preNone:
			kept = append(kept, mv) // a variant (after an acquire): taken as it is
		case inOrder && mv.step.Kind == StepExec:
			stores[n] = 1
			n++
		case e.issuesStoreEarly(mv.step) && !e.ridesWithAccess(c, int(mv.step.Arg)):
			stores[n] = 2 + mv.step.Arg
			n++
		default:
			kept = append(kept, mv)
		}
	}
	out = kept
	for _, store := range stores[:n] {
		st := Step{Kind: StepExec, CPU: uint8(c)}
		instr := s.cpus[c].pc
		if store > 1 {
			st = Step{Kind: StepEarly, CPU: uint8(c), Arg: store - 2}
			instr = store - 2
		}
		t := w.load(&w.post, s)
		m.apply(t, st, nil)
		from := len(out)
		out = e.cpuMoves(out, t, c, w)
		keep := out[:from]
		// An early store need not come with the in-order load before it
		// (postponedEarlyLoad).
		skipExec := store > 1 && e.on(redEarlyPair) && m.code(c)[t.cpus[c].pc].Op == OpLoad
		for _, mv := range out[from:] {
			if k := mv.step.Kind; k == StepExec && !skipExec || k == StepEarly || k == StepCommit && mv.step.Arg == instr {
				mv.store = store
				keep = append(keep, mv)
			}
		}
		out = keep
	}
	return out
}

// Postponed early stores, taken with the step that needs them. A plain
// store issued early (ARM-like) while its stores are postponed comes with
// its own commit, with an instruction issued early after it (which may
// need it issued first: stores after it go ahead only once it has), or
// with the CPU's in-order next step. When that next step is a load, it
// does not need the store: the early rules keep the store's location out
// of every instruction it passes, and a plain store in the buffer changes
// nothing a load of another location reads. Performing the load first and
// the store afterwards reaches the same states: after the load, the store
// is still the CPU's to issue (in order if the load was the last it
// passed, else early: passing fewer loads, it meets every condition it
// met), postponed again, and offered with its commit or the next step;
// and a CPU whose buffer lacks the entry is quiescent at least whenever
// one that holds it is (postponedStoreMoves). So the search does not offer
// the early store together with the in-order load (redEarlyPair): the
// store issued early matters only where it commits, or lets later
// instructions go, before the loads it passed.

// Postponed read-side sections. While a grace period is running or may
// still start, the moment a CPU executes rcu_read_lock() matters (a grace
// period that starts after it waits for the section), so as a step of its
// own it multiplies the states by every moment it could be taken. But
// entering a section later takes no behaviour away: the lock reads and
// writes nothing, no other CPU sees it, and a CPU outside a section is
// quiescent whenever one inside is, so every grace period waits for no
// more CPUs and every step stays enabled at least as long (reports only
// ever enable the end of a grace period). So for every execution of the
// machine, the one in which each such rcu_read_lock runs just before its
// CPU's next step (its next instruction or one issued early) takes the
// same steps otherwise and reaches the same final state: the search
// offers the lock only together with that step (RULES.md, "The explorer":
// folding).
//
// Not in ARM-like mode when the section writes (a store or an RMW before
// its rcu_read_unlock): there the search is smaller with the lock as a
// step of its own. That is the lock as the machine takes it, so the
// choice is one of size only. Measured on litmusgen.GraceFamilies,
// ARM-like, all reductions on: the readers' sections that load then
// store took 3,663 states with the lock postponed and 1,406 without
// (G+R+R+R+R+R+R), and 21,427 against 7,928 at 8 CPUs; the read-read
// ones, whose sections only load, 5,926 against 8,744, so they keep it.
// Over the fourteen RCU files: 62,890 states with every such lock
// postponed, 40,510 with this rule. TSO keeps postponing them all: there
// the same rule helped the files with one grace-period CPU and hurt those
// with several (11,814 states in all against 11,251). Why the sets grow
// was not traced.
//
// Stuck states: when no CPU can stay inside a section for ever
// (Machine.readerCanHang false), a stuck state has no CPU inside a section
// whose lock came just before a step that never ran, so it is reached in
// both executions. Only RCU: an SRCU lock returns an index and opens a
// section a grace period's start records (srcu.go). When the step after
// the lock is a plain store the search postpones itself
// (postponedStoreMoves): then the lock comes first in the moves that take
// the store, with the same argument for both.

// postponableLock reports whether CPU c's next instruction is an
// rcu_read_lock the search takes only together with the step after it.
func (e *explorer) postponableLock(s *State, c int, w *worker) bool {
	m := e.m
	cs := &s.cpus[c]
	if !e.on(redPostponeLock) || !m.hasSync || m.hasSyncSRCU || len(m.srcuSecs) > 0 || m.fut.readerCanHang ||
		m.finished(s, c) || cs.fault || m.code(c)[cs.pc].Op != OpRCULock || !e.postponeNow(s) || !m.enabledExec(s, c) ||
		m.Mode == ARM && sectionWrites(m.code(c), int(cs.pc)) {
		return false
	}
	// One lock at a time: a lock right after it stays a step of its own.
	// So does a lock whose step finishes the CPU (nothing after it, or
	// only what the step folds, an rcu_read_unlock among them), and one
	// whose step ends the execution (what it folds resolves a branch the
	// CPU guessed wrong, or faults): with no next step to wait for,
	// postponing it would keep it, and the CPU, from ever finishing, and
	// a stuck state would be reported with the lock still to run (its
	// witness would not replay to a deadlock) instead of no execution or
	// a fault.
	bit := uint32(1) << c
	memo := s == w.lockFor
	if memo && w.lockKnown&bit != 0 {
		return w.lockOK&bit != 0
	}
	t := w.load(w.lockScratch(s, c), s)
	m.apply(t, Step{Kind: StepExec, CPU: uint8(c)}, nil)
	ok := !m.finished(t, c) && !m.ended(t) && m.code(c)[t.cpus[c].pc].Op != OpRCULock
	if memo {
		w.lockKnown |= bit
		if ok {
			w.lockOK |= bit
		}
	}
	return ok
}

// sectionWrites reports whether the read-side section that the
// rcu_read_lock at pc opens holds a store or an RMW before the next
// rcu_read_unlock in the code (on either side of a branch).
func sectionWrites(code []Instr, pc int) bool {
	for i := pc + 1; i < len(code) && code[i].Op != OpRCUUnlock; i++ {
		if op := code[i].Op; op == OpStore || op == OpRMW {
			return true
		}
	}
	return false
}

// lockScratch is where postponableLock leaves the state after CPU c's
// lock from s: kept for the rest of the expansion when s is the state
// being expanded.
func (w *worker) lockScratch(s *State, c int) *scratch {
	if s != w.lockFor {
		return &w.postLock
	}
	for len(w.lockAfter) <= c {
		w.lockAfter = append(w.lockAfter, scratch{})
	}
	return &w.lockAfter[c]
}

// afterLock returns the state after CPU c's postponed rcu_read_lock from
// s, which postponableLock, answering true, left.
func (w *worker) afterLock(s *State, c int) *State {
	return &w.lockScratch(s, c).st
}

// postponedLockMoves appends CPU c's moves from s with its rcu_read_lock
// postponed: its moves other than the lock, and the moves after the lock
// of its next instruction and of those it may issue early (with a store
// after the lock postponed too: the moves that take it), each with the
// lock taken first.
func (e *explorer) postponedLockMoves(out []macro, s *State, c int, w *worker) []macro {
	m := e.m
	start := len(out)
	out = e.cpuMoves(out, s, c, w)
	kept := out[:start]
	for _, mv := range out[start:] {
		if mv.step.Kind != StepExec {
			kept = append(kept, mv) // commits and reports (after applied invalidations)
		}
	}
	out = kept
	// postponableLock, just before, left the state after the lock
	// (cpuMoves does not touch it), unless s is that state.
	t := w.afterLock(s, c)
	if s == t {
		t = w.load(&w.postLock, s)
		m.apply(t, Step{Kind: StepExec, CPU: uint8(c)}, nil)
	}
	from := len(out)
	// After the lock, a plain store is postponed in turn: the moves that
	// take it first need the lock too.
	out = e.cpuMacros(out, t, c, w)
	keep := out[:from]
	for _, mv := range out[from:] {
		if k := mv.step.Kind; mv.store != 0 || k == StepExec || k == StepEarly {
			mv.lock = true
			keep = append(keep, mv)
		}
	}
	return keep
}

// ridesWithAccess reports whether store k of CPU c is followed, past
// register arithmetic, by another access: then it is not postponed (see
// "Which stores" above).
func (e *explorer) ridesWithAccess(c, k int) bool {
	code := e.m.code(c)
	for j := k + 1; j < len(code); j++ {
		switch code[j].Op {
		case OpAssign:
			continue
		case OpLoad, OpStore, OpRMW, OpLock, OpUnlock, OpTryLock:
			return true
		}
		return false
	}
	return false
}

// issuesStoreEarly reports whether st issues a plain store early.
func (e *explorer) issuesStoreEarly(st Step) bool {
	return st.Kind == StepEarly && e.m.code(int(st.CPU))[st.Arg].Op == OpStore
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
	return queueSensitiveInstr(&m.code(c)[s.cpus[c].pc])
}

// earlySensitive is queueSensitive for instruction k of CPU c issued
// early.
func (e *explorer) earlySensitive(c, k int) bool {
	return queueSensitiveInstr(&e.m.code(c)[k])
}

// queueSensitiveInstr is what queueSensitive and earlySensitive ask of the
// instruction: an acquire, a conditional RMW, a lock operation.
func queueSensitiveInstr(in *Instr) bool {
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
// others, loses no outcome (a persistent set of one step). These
// qualify:
//   - the CPU's next instruction appends a store to its own store buffer
//     (no other step reads a plain or release entry), and no grace period
//     waits for its buffer to drain (buffersUnseen: a non-empty buffer
//     delays the quiescent state of a CPU with read-side sections of the
//     grace period's kind, and of no other);
//   - the CPU's next instruction is a plain load of a location no other
//     CPU has a store to pending or may write again (other readers do not
//     change what it reads), whose line holds no queued invalidation and
//     whose destination never feeds an address;
//   - the CPU's next instruction is an srcu_read_lock, once no grace
//     period can start, none running waits for the CPU's report, and no
//     CPU may write the srcu_struct (srcuLockPrivate);
//   - a commit of a plain or exclusive entry to a private location;
//   - (ARM-like, without grace periods) the commit of an exclusive entry
//     whose line no other CPU may load, which everything else waits for
//     or does not touch (reservedCommit, its own reduction).
//
// In each case the instructions folded after it must not include a barrier
// whose condition depends on other CPUs.
func (e *explorer) privateStep(s *State, w *worker) ([]macro, bool) {
	m := e.m
	if e.on(redGraceStep) {
		if mvs, ok := e.gracePeriodStep(s, w); ok {
			return mvs, true
		}
	}
	for c := range s.cpus {
		if m.finished(s, c) || !e.on(redPrivate) {
			continue
		}
		cs := &s.cpus[c]
		in := &m.code(c)[cs.pc]
		ok, stale := false, false
		var l Loc
		switch in.Op {
		case OpStore:
			ok = m.buffersUnseen(c)
		case OpUnlock:
			ok = !m.hasSync && !m.hasSyncSRCU
		case OpSRCULock:
			ok = e.srcuLockPrivate(s, c, in)
		case OpLoad:
			if in.Access == Acquire || in.Addr.Op != EConst {
				break
			}
			var isLoc bool
			l, isLoc = in.Addr.Val.AsLoc()
			ok = isLoc && !e.writtenByOthers(s, c, l) && (m.Mode == TSO || m.fut.addrRegs[c]&(1<<in.Dst) == 0)
			// With the line's invalidation queued, the load may read the
			// stale copy or apply it first: both moves are the CPU's own,
			// and together they form the persistent set.
			stale = ok && s.iqIndex(c, l) >= 0 && !hasEntryFor(cs.sb, l)
		}
		if !ok || stale && !e.on(redLazy) {
			continue
		}
		if !m.enabledExec(s, c) {
			continue
		}
		mvs := append(w.privMvs[:0], macro{step: Step{Kind: StepExec, CPU: uint8(c)}})
		if stale {
			mvs = append(mvs, macro{step: mvs[0].step, pre: preOne, preLoc: l})
		}
		w.privMvs = mvs
		local := true
		// Only a fence or an SRCU lock or unlock folded after the step can
		// make it not local: when none can be, or an SRCU unlock certainly
		// is (foldWalk), the copy and the step are not needed.
		may, sure := m.foldWalk(s, c)
		if sure {
			continue
		}
		for _, mv := range mvs {
			if !may {
				break
			}
			t := w.load(&w.sc, s)
			if mv.pre == preOne {
				m.applyInval(t, c, t.iqIndex(c, l))
			}
			local = local && e.foldsOnlyLocal(t, mv.step, w)
		}
		if local {
			return mvs, true
		}
	}
	if k, c, ok := e.earlyStore(s); ok && e.on(redEarlyStore) {
		w.privMvs = append(w.privMvs[:0], macro{step: Step{Kind: StepEarly, CPU: uint8(c), Arg: uint8(k)}})
		return w.privMvs, true
	}
	if mv, ok := e.reservedCommit(s); ok {
		w.privMvs = append(w.privMvs[:0], mv)
		return w.privMvs, true
	}
	for c := range s.cpus {
		if !e.on(redPrivate) {
			break
		}
		for i, en := range s.cpus[c].sb {
			if en.Kind.IsRelease() || en.Kind == EntryWmb || e.shared(s, c, en.Loc) || !m.canCommit(s, c, i) {
				continue
			}
			w.privMvs = append(w.privMvs[:0], macro{step: Step{Kind: StepCommit, CPU: uint8(c), Arg: en.Instr}})
			return w.privMvs, true
		}
	}
	return nil, false
}

// reservedCommit finds the commit of an exclusive entry (the write of an
// ARM-like relaxed or acquire RMW) that may be taken alone: some CPU c
// holds a committable EntryExclusive entry of line l, c has no
// invalidation of l queued, every other CPU either may not load l any
// more (futureReads: no plain or acquire load, conditional RMW or
// trylock of l from its pc on) or loads it only by conditional RMWs that
// wait for the reservation and holds no copy of l the commit would
// invalidate (waitsForReserved: a cmpxchg_acquire lock whose copy of the
// lock word is stale, in a lock cycle), no CPU may load l twice more
// (futureRereads), and no grace period is possible (the program has no
// synchronize_rcu() or synchronize_srcu()). perform then applies the
// invalidations the commit queues at once (redUnreadable, required:
// their CPUs never load l, and no CPU loads it twice more), and it
// queues none at the others, so what the commit changes outside c's
// store buffer and cache is line l alone: its latest value, and the
// other caches' valid copies, dropped to I.
//
// It is a persistent set of one move. Along any path from s that leaves
// it out:
//   - it stays enabled: c's own moves only append younger entries and
//     markers behind it, commit other lines or, for a release, wait for
//     it to be the oldest; no other CPU can reserve l (its RMWs and locks
//     of l wait for the reservation: reservedWait, exclusiveWait, and
//     spin_lock's check), so canCommit keeps holding;
//   - every move b commutes with it (the same state both ways): no
//     other CPU's move touches line l — its loads of l are excluded, or
//     fail by reading its stale copy, which the commit does not change
//     (the entry is queued already), while from l's latest value they
//     take the RMW path and wait; its commits, RMWs and locks of l wait
//     for the reservation, so b is not on such a path; storing to l
//     into its own buffer touches no line; c's own moves see l only through the pending entry (its
//     loads of l forward from the buffer; after the commit they read
//     its own line in M, the same value, changing nothing), and the
//     commit changes nothing they read (its queue included: c has no
//     entry of l to apply). The invalidations the commit queues are
//     applied at once however late it comes (futureReads and
//     futureRereads only shrink along a path), and a move's own eager
//     steps are the same after
//     the commit as before: the commit changes only line l and, at the
//     other CPUs, no queue.
//
// So every end reached by a path from s is reached by one that takes the
// commit first (persistentset.go's argument with P = {c} holding the one
// move); a path without it ends in no stuck state, since the commit stays
// enabled. What it removes is the interleaving of the window while a lock
// word is reserved with everything else: with the lock taken by
// xchg_acquire, the 6-CPU lock cycle explored without pruning stores
// less than half the states (issue 24).
func (e *explorer) reservedCommit(s *State) (macro, bool) {
	m := e.m
	if m.Mode != ARM || m.hasSync || m.hasSyncSRCU || !e.on(redReservedCommit) {
		return macro{}, false
	}
	for c := range s.cpus {
		for i, en := range s.cpus[c].sb {
			if en.Kind != EntryExclusive || s.iqIndex(c, en.Loc) >= 0 || !m.canCommit(s, c, i) {
				continue
			}
			bit := uint64(1) << en.Loc
			read := false
			for d := range s.cpus {
				read = read || m.fut.futureRereads[d][s.cpus[d].pc]&bit != 0 ||
					d != c && m.fut.futureReads[d][s.cpus[d].pc]&bit != 0 && !m.waitsForReserved(s, d, en.Loc)
			}
			if !read {
				return macro{step: Step{Kind: StepCommit, CPU: uint8(c), Arg: en.Instr}}, true
			}
		}
	}
	return macro{}, false
}

// waitsForReserved reports whether every load of line l CPU d may still
// perform waits while another CPU's exclusive entry reserves l, and
// whether d's copy of l, if any, is already stale (its invalidation
// queued), so that committing that entry queues nothing at d: each such
// load is a conditional RMW of l (cmpxchg, atomic_add_unless) with a
// constant expected value that would succeed on l's latest value, which
// no commit changes while l is reserved — from its latest value it takes
// the RMW path, which waits for the reservation; it fails only by
// reading d's stale copy, which the commit leaves as it is.
func (m *Machine) waitsForReserved(s *State, d int, l Loc) bool {
	cs := &s.cpus[d]
	if st := cs.cache[l].State; st != Invalid && (st != Shared || s.iqIndex(d, l) < 0) {
		return false
	}
	code := m.code(d)
	latest := s.Latest(l)
	for r := m.fut.reach[d][cs.pc]; r != 0; r &= r - 1 {
		k := bits.TrailingZeros64(r)
		in := &code[k]
		if !readsLine(in) || m.fut.instrReads[d][k]&(1<<l) == 0 {
			continue
		}
		if !in.isConditional() || in.Addr.Op != EConst || in.Exp == nil || in.Exp.Op != EConst || rmwFails(in, latest, nil) {
			return false
		}
	}
	return true
}

// earlyStore finds a plain store some CPU may issue early (ARM-like mode)
// while no grace period is running or may start, and returns it (its
// instruction and CPU) to be taken alone. Issuing it early adds an entry
// to the CPU's own store buffer, which no other CPU can see; what it adds
// is only the freedom to commit the entry before the loads it passes. Every
// execution that does not issue it now (one that runs the passed loads
// first and then the store in order, or issues it later) is matched by one
// that issues it now and then takes the same steps: the passed loads read
// other locations, so the entry changes no value they read, and once the
// store's turn comes the two reach the same state. (Not past a _release
// RMW: that RMW waits for every buffered store, so the early entry would
// commit before the RMW's write in every execution that issues it now.)
// Without grace periods
// an entry in the buffer delays nothing (rule 7 of persistent.go does not
// apply).
func (e *explorer) earlyStore(s *State) (k, c int, ok bool) {
	m := e.m
	if m.Mode != ARM || e.gpPossible(s) {
		return 0, 0, false
	}
	for c := range s.cpus {
		if m.finished(s, c) {
			continue
		}
		k := -1
		m.earlyCandidates(s, c, func(e earlyCand) {
			// Not a store past an unresolved branch: issuing it is a
			// guess of the branch's direction, which executions that
			// go the other way must not be made to take. Nor one past a
			// _release RMW, which would then wait for the store to
			// commit: issuing it would order the store before the RMW's
			// write, which executions issuing it in order need not be.
			if e.kind == earlyStore && e.guess < 0 && !e.pastRelease && k < 0 {
				k = e.k
			}
		})
		if k >= 0 {
			return k, c, true
		}
	}
	return 0, 0, false
}

// gracePeriodStep finds a CPU that can start an RCU grace period (or an
// SRCU one, below) or end a grace period now, without applying any
// invalidation, and takes that alone. Why no outcome is lost by taking
// it before any other CPU's step:
//   - ending a grace period affects no other CPU; the owner's later
//     instructions can still wait as long as any order needs, and a step of
//     another CPU that would disable the end (a commit queueing an
//     invalidation here) only forces that invalidation to be applied,
//     which drops a stale copy, never adds a behaviour;
//   - starting an RCU grace period only makes every CPU owe a report; with
//     reports taken eagerly, a CPU that can report at once does so, and a
//     step another CPU takes first can only make it owe more (a store into
//     its buffer, entering a reader) or change nothing (a commit after which
//     it reports anyway, leaving a reader it reports on after): starting
//     first waits for no more than starting later;
//   - starting an SRCU grace period of domain D, when every section of
//     D is bracketed (Machine.srcuBracketed) and, in ARM-like mode,
//     every other CPU that may still perform an srcu_read_lock of D is
//     drained and outside the open sections of D (startAlone),
//     likewise. Take an execution E that runs steps b1…bn of other CPUs
//     first and then the start (the starting CPU has no other step but
//     applying invalidations queued at it, which commutes with the
//     start: a full barrier with an empty buffer), and E' that starts
//     first and then runs the same steps. The only rule that reads
//     another CPU's grace period is the late-section wait (ARM-like: an
//     srcu_read_lock of D by a CPU the grace period waits for waits for
//     an empty queue); under the condition every CPU that may lock D
//     reports at the start of E' and is never re-added (an unlock
//     re-adds only a section's closer and opener, for a bracketed
//     section one CPU, inside it until then), so no lock of E waits in
//     E' for this grace period. So E' is an execution and its states
//     differ from E's only in this grace period's gpSecs and gpWait,
//     and E' waits for no more: its gpSecs are the sections open before
//     b1…bn, so gpSecs'∩open ⊆ gpSecs∩open from then on (a section is
//     an instruction: it never reopens); a CPU owes E' a report only
//     while it has not been quiescent since the start or since an
//     unlock re-added it, and quiescence (outside the open gpSecs
//     sections it opened, drained when qsDrains) under gpSecs' is
//     implied by quiescence under gpSecs; an unlock that re-adds in E'
//     closes a section open before b1…bn, in gpSecs too, and re-adds
//     the same CPUs in E when it comes after the start there. So the
//     end is enabled in E' wherever it is in E, and E' reaches E's
//     final states. Stuck states: in one the buffers are empty, so the
//     grace period waits only for open sections of gpSecs (a CPU inside
//     one cannot report); those E waits for and E' does not were opened
//     by b1…bn, and a bracketed section is closed by the time its CPU
//     is stuck or finished, so E waits for nothing E' does not and E'
//     is stuck too. Faults end both alike. Without the conditions: a
//     section opened just before the start and left open for ever
//     deadlocks E while E' ends (regressions
//     srcu-gp-start-skipped-unlock, srcu-gp-start-lock-in-section);
//     and, ARM-like, a CPU owing the start-first grace period opens its
//     section late, after its queue is applied, so the stale reads of a
//     section begun before the start are lost
//     (srcu-gp-start-stale-section).
//
// For RCU too, stuck states need that no reader can stay inside its
// section for ever (futures.readerCanHang): a reader that enters after
// the start would be waited for by a later start but not by this one,
// so a deadlock in which it blocks inside on a lock the starting CPU
// holds, entered once a value the starting CPU stored was seen, was
// lost (regression gp-start-after-data).
func (e *explorer) gracePeriodStep(s *State, w *worker) ([]macro, bool) {
	m := e.m
	if !m.hasSync && !m.hasSyncSRCU {
		return nil, false
	}
	for c := range s.cpus {
		cs := &s.cpus[c]
		if m.finished(s, c) || cs.fault {
			continue
		}
		in := &m.code(c)[cs.pc]
		if (!cs.syncWait && e.startAlone(s, c, in) || (in.Op == OpSyncRCU || in.Op == OpSyncSRCU) && cs.syncWait) && m.IsEnabled(s, Step{Kind: StepExec, CPU: uint8(c)}) {
			w.gpMvs = append(w.gpMvs[:0], macro{step: Step{Kind: StepExec, CPU: uint8(c)}})
			return w.gpMvs, true
		}
	}
	return e.srcuStartsWithLocks(s, w)
}

// srcuStartsWithLocks is the SRCU grace period's start when startAlone
// fails only because some CPUs that may open a section of its domain D
// have invalidations queued or stores buffered, or are inside open
// sections of D (ARM-like): the starts of D together with those CPUs'
// srcu_read_lock of D. It applies when D is bracketed and no CPU may
// write D's srcu_struct. Every CPU at an enabled start of D is a starter,
// whose start the set takes; CPUs that may start one later need nothing.
// A CPU x that may open a section of D and is not drained, or is inside
// D's open sections, is left out, as a drained CPU outside them is, when
// a grace period of D already running waits for x's report and recorded
// every section of D x has open (Machine.waitsAsLong; none when x is
// outside them): x's locks then wait for its report in either order.
// Otherwise x is a locker, whose next move must be an enabled
// srcu_read_lock of D, which the set takes; else the set is not taken.
//
// Why the set keeps every end: take an execution E from s. If its first
// move of the set is a start, the moves b1…bn before it are of other CPUs
// and hold no lock of a locker and no other start of D, so
// gracePeriodStep's argument for a start taken first applies as it is: it
// needs its condition only for the locks among b1…bn (a lock after the
// start finds its CPU reported no later in the start-first execution E',
// whose grace period waits for no more), and for the lockers inside
// sections, whose locks come after the start in both E and E', it needs
// nothing: such a CPU owes both starts a report until it closes the
// sections it has open at s (in gpSecs either way, and no move of b1…bn
// closes them: its next move is its lock), so its lock finds the same
// wait in both. A lock among b1…bn is one of a CPU left out: drained and
// outside D's open sections (gracePeriodStep's condition), or owing its
// report to a running grace period G0 of D that recorded every section of
// D it has open. If it is outside them, such a CPU x owes G0 only until
// it is drained (it has no section of D open, opens none before its next
// lock, and only its own unlock could re-add it); at s it is not drained,
// so the start first in E' makes it owe that grace period too, also only
// until it is drained; so it reports to both at the same moment and its
// lock waits in E' exactly where it waits in E (by a grace period started
// later, in E, it may be made to owe more, never less; nor does the
// argument mind starts of D among b1…bn, of CPUs that were not at one at
// s). If x is inside D's open sections, G0 and the start first in E'
// record the same sections of x, which stay open until x's own unlocks
// (bracketed), so x owes both until it has closed them and is drained
// after, and each unlock of them re-adds x to both; again its locks wait
// in E' exactly where they wait in E, and moves of x before its locks are
// no locks of D. If the first move of the set is a lock of a locker x and
// the moves before it start no grace period of D, they write no
// srcu_struct either; x's lock reads D's srcu_struct and opens a section
// no running grace period waits for (its sections were recorded when it
// started), and it stays enabled along them (its late-section wait needs
// a grace period of D waiting for x's report, which only a start or x's
// own unlock brings: an unlock of another CPU re-adds only that CPU,
// sections being bracketed); so it commutes with each of them and can be
// taken first.
//
// If instead a start F of D comes before the first move of the set (F
// is a CPU's that reached its synchronize_srcu after s), the set's start
// A goes first: E' runs A at s and then E without it. Only locks can
// tell the two apart (the late-section wait), and only those before A's
// place in E. A lock before F is a left-out CPU's, and a left-out CPU's
// lock is fine wherever it comes, as above. A locker y's lock after F
// waits in E' only when A still waits for y's
// report, and then F does in E: if y is outside D's open sections at s,
// A waits for y until y is first drained after s, F (started later,
// with y outside every section it records) at least until y is first
// drained after F; if y is inside one, it stays inside until after its
// lock (its next move), and F recorded that section as A did, so both
// wait until y closes it and is drained after (its unlock re-adds y to
// both), and the same holds for a later lock of y. A grace period that
// waits for y's report cannot end before it, so F still runs when y
// locks. The wait itself is the same in both: an empty queue. So every
// lock of E is enabled in E' where it is in E, which does the same
// steps with the same values, A's grace period waiting for no more than
// in E (gracePeriodStep's argument, whose stuck states have empty queues
// and so no lock that waits). An execution with neither a move of the
// set nor F ends with a start still enabled: no end but a fault, which
// the moves of the set leave as it is (they touch nothing of the
// faulting CPU); one with F and no move of the set ends in a fault too,
// and E' = A·E reaches it by the argument just made.
// Regressions: srcu-gp-start-nested-lock (a locker inside its section),
// srcu-gp-start-blocked-lock (a lock waiting for G0),
// srcu-gp-start-stale-section; cases srcu-gp-start-later-starter (the
// last case) and srcu-gp-start-blocked-nested-lock (a reader left out
// inside its section, TestSRCUStartsWithBlockedNestedLock).
func (e *explorer) srcuStartsWithLocks(s *State, w *worker) ([]macro, bool) {
	m := e.m
	if m.Mode != ARM || !m.hasSyncSRCU || m.hasSync {
		return nil, false
	}
	exec := func(c int) Step { return Step{Kind: StepExec, CPU: uint8(c)} }
	var starters uint32
	d := Loc(0)
	for c := range s.cpus {
		cs := &s.cpus[c]
		if m.finished(s, c) || cs.fault || cs.syncWait {
			continue
		}
		in := &m.code(c)[cs.pc]
		if in.Op != OpSyncSRCU || !m.IsEnabled(s, exec(c)) {
			continue
		}
		if starters == 0 {
			d = m.srcuDomain(in)
		}
		if m.srcuDomain(in) == d {
			starters |= 1 << c
		}
	}
	if starters == 0 || m.srcuBracketed&(1<<d) == 0 {
		return nil, false
	}
	open := s.srcuOpen & m.srcuDomainSecs(d)
	var lockers uint32
	for x := range s.cpus {
		if starters&(1<<x) != 0 {
			continue
		}
		xs := &s.cpus[x]
		if xs.fault || hasEntryFor(xs.sb, d) || m.fut.futureWrites[x][min(int(xs.pc), len(m.fut.futureWrites[x])-1)]&(1<<d) != 0 {
			return nil, false // it may write the srcu_struct
		}
		if m.srcuLockReads(s, x)&(1<<d) == 0 || m.drained(s, x) && !m.inSections(s, x, open) {
			continue
		}
		if m.waitsAsLong(s, x, d, open) {
			continue // its locks wait for its report in either order
		}
		if m.finished(s, x) {
			return nil, false
		}
		in := &m.code(x)[xs.pc]
		if in.Op != OpSRCULock || m.srcuDomain(in) != d || !m.IsEnabled(s, exec(x)) {
			return nil, false
		}
		lockers |= 1 << x
	}
	mvs := w.gpMvs[:0]
	for c := range s.cpus {
		if (starters|lockers)&(1<<c) != 0 {
			mvs = append(mvs, macro{step: exec(c)})
		}
	}
	w.gpMvs = mvs
	return mvs, true
}

// startAlone reports whether the grace period instruction in starts
// may be taken alone (gracePeriodStep).
func (e *explorer) startAlone(s *State, c int, in *Instr) bool {
	m := e.m
	switch in.Op {
	case OpSyncRCU:
		return !m.fut.readerCanHang
	case OpSyncSRCU:
		d := m.srcuDomain(in)
		if m.srcuBracketed&(1<<d) == 0 {
			return false
		}
		if m.Mode == TSO {
			return true
		}
		// ARM-like: every CPU that may still open a section of d reports
		// at the start and is never re-added, so none of its locks waits
		// for this grace period (gracePeriodStep). A bracketed section is
		// closed only by its opener, so a CPU outside every open section
		// of d is re-added by no unlock.
		open := s.srcuOpen & m.srcuDomainSecs(d)
		for x := range s.cpus {
			if x != c && m.srcuLockReads(s, x)&(1<<d) != 0 && (!m.drained(s, x) || m.inSections(s, x, open)) {
				return false
			}
		}
		return true
	}
	return false
}

// foldWalk bounds foldsOnlyLocal for the exec step of CPU c from s (a
// load, a store or an unlock, none of which jumps) without taking it.
// advance folds from the next instruction on, skipping those issued
// early, while they are local (isLocal), so the walk follows the same
// instructions and stops at the first that is never local; it gives up
// at a branch or a jump, whose target depends on registers. may is false
// only when no fence and no SRCU lock or unlock can be folded (then
// srcuLockPrivate reports whether CPU c's next instruction in, an
// srcu_read_lock, is a private step (privateStep): when no grace period
// can start any more, none that is running waits for c's report, and no
// CPU may write the lock's srcu_struct. The lock then reads a value no
// step changes (its srcu_struct's latest value), writes its own
// registers, and opens its section, a bit of srcuOpen that only three
// rules read: a grace period's start, which records the open sections
// (none can start); whether a CPU is quiescent for a running grace
// period and whether it may end, which look only at the sections it
// recorded (the new section is not among them); and an unlock, which
// closes only sections its index carries (no value carries this one
// before the lock runs). Nothing disables it: its only wait, the
// late-section one (ARM-like), needs a running grace period of its
// domain waiting for c's report, and none is, nor can one start or come
// to wait for c again (an unlock re-adds the CPUs of the section it
// closes, which for a section of c is c's own move or one of c's sections
// a running grace period recorded, and c, inside it, would owe that
// grace period its report).
func (e *explorer) srcuLockPrivate(s *State, c int, in *Instr) bool {
	m := e.m
	d := m.srcuDomain(in)
	for x := range s.cpus {
		xs := &s.cpus[x]
		if xs.fault {
			continue
		}
		next := int(xs.pc)
		if xs.syncWait {
			if xs.gpWait&(1<<c) != 0 || m.inSections(s, c, xs.gpSecs) {
				return false
			}
			next++ // the grace period it waits in has started
		}
		if fs := m.fut.futureSync[x]; next < len(fs) && fs[next] {
			return false
		}
		fw := m.fut.futureWrites[x]
		if hasEntryFor(xs.sb, d) || fw[min(int(xs.pc), len(fw)-1)]&(1<<d) != 0 {
			return false
		}
	}
	return true
}

// foldsOnlyLocal is true); sure is true only when an srcu_read_unlock
// certainly is (then it is false): advance folds every one it reaches,
// and reaches one when only register arithmetic, rcu_read_unlock and
// instructions issued early lie before it. Between the two, only
// foldsOnlyLocal decides.
func (m *Machine) foldWalk(s *State, c int) (may, sure bool) {
	cs := &s.cpus[c]
	code := m.code(c)
	certain := !m.noFold // every instruction passed so far is folded
	for k := int(cs.pc) + 1; k < len(code); k++ {
		if k < 64 && cs.early&(1<<uint(k)) != 0 {
			continue
		}
		switch code[k].Op {
		case OpAssign, OpRCUUnlock:
		case OpRCULock:
			certain = false // local only without grace periods
		case OpFence:
			if fk := m.fenceKind(code[k].Fence); fk == fenceFull || fk == fenceRead {
				return true, false
			}
			certain = false // local only while its condition holds
		case OpSRCUUnlock:
			return true, certain
		case OpBranch, OpJump, OpSRCULock:
			return true, false
		default:
			return false, false // never local: advance stops here
		}
	}
	return false, false
}

// foldsOnlyLocal takes an exec step on t and reports whether nothing
// folded after it is a barrier that waits on other CPUs, or an SRCU lock
// or unlock: those open and close sections grace periods of other CPUs
// wait for, and an unlock makes them wait for reports again, so when it
// runs relative to other CPUs' steps matters (an unlock folded after a
// private load once lost an outcome: testdata/rapid's
// srcu-unlock-folded-after-private-load, found by -random.srcu 1500).
func (e *explorer) foldsOnlyLocal(t *State, st Step, w *worker) bool {
	m := e.m
	w.ev.Folded = w.ev.Folded[:0]
	m.apply(t, st, &w.ev)
	w.ev.Load, w.ev.Commit, w.ev.Applied = nil, nil, nil
	for _, i := range w.ev.Folded {
		f := &m.code(int(st.CPU))[i]
		if f.Op == OpFence && (m.fenceKind(f.Fence) == fenceFull || m.fenceKind(f.Fence) == fenceRead) || f.Op == OpSRCULock || f.Op == OpSRCUUnlock {
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
		if d != c && (e.m.fut.futureWrites[d][s.cpus[d].pc]&(1<<l) != 0 || hasEntryFor(s.cpus[d].sb, l)) {
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
		if e.m.fut.futureAccess[d][s.cpus[d].pc]&(1<<l) != 0 || hasEntryFor(s.cpus[d].sb, l) {
			return true
		}
	}
	return false
}

// stuckWitness is the witness of a deadlock or fault at node idx: as
// witness, and for the first of each also with StuckWitnesses.
func (e *explorer) stuckWitness(idx int32, first bool) []Step {
	if e.opts.NoWitnesses && first && e.opts.StuckWitnesses {
		return e.path(idx)
	}
	return e.witness(idx)
}

// witness rebuilds the ordinary step sequence that leads to node idx.
func (e *explorer) witness(idx int32) []Step {
	if e.opts.NoWitnesses {
		return nil
	}
	return e.path(idx)
}

// pruneAll prunes the witnesses of nodes (Machine.prune) in paths, in
// parallel on the search's workers: replaying a witness once per step it
// might drop, it took half the time of a search with four thousand
// outcomes, one after the other (RR-W G+G+R+R+R+R, ARM-like: 2.9 s
// after a 2.3 s search). Each goroutine reads only the machine.
func (e *explorer) pruneAll(paths map[int32][]Step, nodes []int32) {
	out := make([][]Step, len(nodes))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(e.opts.Workers, 1), len(nodes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b pruneBuf
			for i := int(next.Add(1) - 1); i < len(nodes); i = int(next.Add(1) - 1) {
				out[i] = e.m.pruneWith(paths[nodes[i]], &b)
			}
		}()
	}
	wg.Wait()
	for i, n := range nodes {
		paths[n] = out[i]
	}
}

// path rebuilds the ordinary step sequence that leads to node idx (a
// pair's with outcome registers left out, outregs.go).
func (e *explorer) path(idx int32) []Step {
	return e.m.prune(e.unpruned(idx))
}

// unpruned is path before Machine.prune.
func (e *explorer) unpruned(idx int32) []Step {
	var mvs []macro
	if e.or.on {
		for i := idx; e.or.pair(i).parent >= 0; i = e.or.pair(i).parent {
			mvs = append(mvs, unpackMacro(e.or.pair(i).via))
		}
	} else {
		for i := idx; int32(e.nodes.parent.at(int(i))) >= 0; i = int32(e.nodes.parent.at(int(i))) {
			mvs = append(mvs, unpackMacro(e.nodes.via.at(int(i))))
		}
	}
	s := e.m.Initial()
	var steps []Step
	if !e.symmetric() {
		w := &worker{}
		for i := len(mvs) - 1; i >= 0; i-- {
			e.perform(s, mvs[i], nil, func(st Step) { steps = append(steps, st) })
			e.chain(s, w, func(st Step) { steps = append(steps, st) })
		}
		return steps
	}
	// Each move is one of the representative its parent was stored as:
	// s is kept as that representative, and g maps the path's own
	// states (the steps before renaming) onto it (symmetry.go).
	s.coh, s.memCo = nil, nil
	w := &worker{}
	g := identityPerm(len(s.cpus), len(s.mem))
	for i := len(mvs) - 1; i >= 0; i-- {
		inv := g.inverse()
		e.perform(s, mvs[i], nil, func(st Step) { steps = append(steps, inv.step(st)) })
		e.chain(s, w, func(st Step) { steps = append(steps, inv.step(st)) })
		if _, h := e.canonical(s, w); h >= 0 {
			s = e.m.sym[h].permute(&w.symSc, s, &w.symBuf).clone()
			g = g.then(&e.m.sym[h])
		}
	}
	for i, st := range steps {
		steps[i] = g.step(st)
	}
	return steps
}

// prune drops from a witness the invalidation and quiescent-state steps
// the search took eagerly but the execution does not need: each is left
// out when the steps without it still replay to a state with the same
// outcome (or the same kind of end: a deadlock, a fault). People follow
// witnesses step by step; a step that changes nothing they look at only
// gets in the way.
func (m *Machine) prune(steps []Step) []Step {
	return m.pruneWith(steps, &pruneBuf{})
}

// pruneBuf is prune's states, reused from witness to witness.
type pruneBuf struct {
	prefix []scratch
	run    scratch
}

// pruneWith is prune with its states in b.
func (m *Machine) pruneWith(steps []Step, b *pruneBuf) []Step {
	// Candidates are tried from the last step back, so the steps before
	// a candidate never change: the states before them are replayed
	// once (prefix[i] is the state before candidate steps[i]), and a
	// candidate's trial replays only what follows it.
	candidate := func(st Step) bool { return st.Kind == StepInvalidate || st.Kind == StepReportQS }
	if !slices.ContainsFunc(steps, candidate) {
		return steps
	}
	prefix := make([]*State, len(steps))
	s := m.Initial()
	s.coh, s.memCo = nil, nil // witnesses end the same without history
	k := 0
	for i, st := range steps {
		if !m.IsEnabled(s, st) {
			return steps
		}
		if candidate(st) {
			if k == len(b.prefix) {
				b.prefix = append(b.prefix, scratch{})
			}
			prefix[i] = b.prefix[k].load(s)
			k++
		}
		m.apply(s, st, nil)
	}
	end := func(from *State, rest []Step) (string, bool) {
		s := b.run.load(from)
		for _, st := range rest {
			if !m.IsEnabled(s, st) {
				return "", false
			}
			m.apply(s, st, nil)
		}
		if m.faulted(s) {
			return "fault", true
		}
		switch {
		case m.Final(s):
			return "outcome " + m.Outcome(s).Key(), true
		case m.Deadlocked(s):
			return "deadlock", true
		}
		return "", false
	}
	want, ok := end(s, nil)
	if !ok {
		return steps
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if prefix[i] == nil {
			continue
		}
		if got, ok := end(prefix[i], steps[i+1:]); ok && got == want {
			steps = append(steps[:i:i], steps[i+1:]...)
		}
	}
	return steps
}

package machine

import "slices"

// An Event is what one step did, as facts: which instruction ran, what a
// load read and from which store, which store became visible, what older
// entries it overtook, which invalidations were queued and applied and
// why, what a barrier did, what a CPU now waits for. The machine states no
// sentences; package scenarios/words says them, and pictures of an
// execution (a timeline of each store's journey, an event graph of po, rf,
// co and fr) are drawn from the same facts.

// LoadSource is where a load's value came from.
type LoadSource uint8

// Load sources.
const (
	FromStoreBuffer LoadSource = iota // the CPU's own store buffer
	FromCache                         // the CPU's cache line (a hit)
	FromMiss                          // a miss: the latest committed value was fetched
)

func (s LoadSource) String() string {
	return [...]string{"store buffer", "cache", "miss"}[s]
}

// ReadClass is the classification of a load that the UI shows.
type ReadClass uint8

// Read classifications (RULES.md, "Loads").
const (
	Forwarded    ReadClass = iota // from the CPU's own store buffer; no other CPU can see it yet
	UpToDate                      // equals the latest committed value
	Stale                         // an older value from a line whose invalidation is still queued
	NewerPending                  // up to date, but another CPU's store buffer holds a newer store
)

func (r ReadClass) String() string {
	return [...]string{"forwarded", "up to date", "stale", "newer value pending"}[r]
}

// StoreID names a store: the CPU and the instruction that made it
// (instructions run at most once, so the pair is one store of an
// execution). CPU -1 is a location's initial value.
type StoreID struct{ CPU, Instr int }

// Initial reports whether the store is the initial value.
func (id StoreID) Initial() bool { return id.CPU < 0 }

var initialStore = StoreID{CPU: -1, Instr: -1}

// LoadEvent describes the load a step performed.
type LoadEvent struct {
	Loc    Loc
	Val    Value
	Source LoadSource
	Class  ReadClass
	// Co is the position of the value read in the location's coherence
	// order (0 is the initial value), or -1 for a forwarded value that is
	// not yet committed.
	Co int
	// From is the store whose value the load read (rf): the CPU's own
	// buffered store when forwarded, else the committed store at Co.
	From StoreID
	// Newer is, for Stale, the newest committed store (the one the load
	// missed: NewerStep is the step that committed it); for NewerPending,
	// the newer store in another CPU's store buffer. NewerVal is its
	// value.
	Newer     StoreID
	NewerVal  Value
	NewerStep int
	// WroteBack is the CPU whose modified line a miss made write back
	// first (it keeps a shared copy), or -1.
	WroteBack int
	// OwnBuffered lists the CPU's own earlier stores to other locations
	// that were still in its store buffer when this load read the memory
	// system (not set for a forwarded load): to other CPUs the load
	// happens before them. This is the store->load reordering of SB.
	OwnBuffered []SBEntry
	// ArrivedAfterBarrier is set for a stale read whose invalidation
	// arrived after a barrier of the same CPU had passed (ARM-like).
	ArrivedAfterBarrier *LateInvalidation
}

// LateInvalidation says why a barrier did not prevent a stale read: the
// barrier passed with an empty invalidation queue, and the invalidation of
// the line read arrived only afterwards.
type LateInvalidation struct {
	// Barrier is the CPU's latest barrier before the load that waited
	// for an empty invalidation queue (an index into its code).
	Barrier int
	// Arrived is the step at which the invalidation arrived. The step at
	// which the barrier ran is not in the state; InstrStep finds it in a
	// history.
	Arrived int
}

// CommitEvent describes a store that became visible: a store-buffer
// entry's commit, or an RMW or lock written at once (AtOnce).
type CommitEvent struct {
	Store StoreID
	Loc   Loc
	Val   Value
	Kind  EntryKind // the entry's kind (EntryPlain for a write at once)
	// AtOnce: a locked (TSO), fully ordered or release RMW, or a TSO
	// spin_lock, wrote the line in M at once, not through the buffer.
	AtOnce bool
	// Co is the store's position in the location's coherence order (co):
	// the stores before it in that order are the ones it overwrote.
	Co        int
	WroteBack int   // CPU whose modified line was written back first, or -1
	Dropped   []int // CPUs whose copies dropped to I at once
	Queued    []int // CPUs that got an invalidation queued (ARM-like)
	// Overtook lists the older stores still in the CPU's store buffer
	// when this entry committed ahead of them (ARM-like: entries to
	// different locations commit in any order).
	Overtook []SBEntry
}

// ApplyCause is why a queued invalidation was applied.
type ApplyCause uint8

// Causes of applying an invalidation.
const (
	ApplyStep    ApplyCause = iota // the CPU's own invalidate step
	ApplyOwn                       // the CPU writes or reads the latest value of the line (a commit, an RMW, a lock)
	ApplyAddrDep                   // a load's address came from an earlier load, before which it arrived
	ApplyAcquire                   // an acquire applies the invalidations its CPU's release marked
)

// Applied is one queued invalidation a step applied.
type Applied struct {
	Loc   Loc
	Cause ApplyCause
	// Stale is the value of the copy the invalidation dropped (when the
	// line was readable; Readable says whether it was).
	Stale    Value
	Readable bool
}

// FaultKind is why an instruction cannot be performed.
type FaultKind uint8

// Faults.
const (
	FaultAddress FaultKind = iota // its address is not a location (only a pointer plus 0 is)
)

// Fault is an instruction that cannot be performed: the execution ends
// there.
type Fault struct {
	CPU, Instr int
	Kind       FaultKind
	Addr       Value // FaultAddress: the value used as an address
}

// GracePeriod says which grace period a synchronize_rcu or
// synchronize_srcu started or saw end.
type GracePeriod struct {
	SRCU   bool
	Domain Loc // SRCU: the srcu_struct's location
	// Sections are the SRCU read-side sections open when it started,
	// which it waits for (GPStart).
	Sections []SRCUSection
}

// QSReport is one quiescent state a report-qs step reported.
type QSReport struct {
	// GP is the CPU whose grace period it reported to, and Instr that
	// CPU's synchronize_rcu or synchronize_srcu.
	GP, Instr int
	SRCU      bool
	Domain    Loc
	// Owe lists the CPUs that grace period still waits for; Sections
	// says it still waits for SRCU read-side sections to end.
	Owe      []int
	Sections bool
	// Undrained: the CPU has no read-side section of the grace period's
	// kind in its program, so it reported without draining; Buffered and
	// Queued count the store-buffer entries and (ARM-like) queued
	// invalidations it still had.
	Undrained        bool
	Buffered, Queued int
}

// RMWFact says how a read-modify-write or lock performed.
type RMWFact struct {
	// AsLoad: in ARM-like mode it failed on the value its load returned,
	// so it was a plain load (an acquire load for _acquire).
	AsLoad bool
	// Expected is a conditional RMW's operand of comparison: cmpxchg's
	// expected value, atomic_add_unless's "unless".
	Expected Value
	// ReservedBy is, for a spin_trylock that failed (ARM-like), the CPU
	// whose pending exclusive store reserves the lock, or -1.
	ReservedBy int
	// Guessed is, for a fully ordered cmpxchg or atomic_add_unless, or a
	// cmpxchg_release, that failed (ARM-like), the instructions after it
	// its CPU had performed early on the guess that it would fail (for a
	// release one, the acquires): the guess was right.
	Guessed []int
}

// Event records what one step did.
type Event struct {
	Step  Step
	Instr int  // the instruction performed or whose store committed; -1 if none
	Early bool // the instruction was issued early
	// Guess is, for an instruction issued early, the first one it was
	// performed past whose outcome was not yet known: a branch whose
	// condition was not known (a guess of its direction), or a fully
	// ordered cmpxchg guessed to fail; else -1.
	Guess int
	// Misspec is set when the step's branch went the other way than
	// reads performed early had guessed, or its fully ordered cmpxchg
	// succeeded where accesses performed early guessed it would fail:
	// the state is no execution.
	Misspec *Misspec
	Failed  bool // a cmpxchg or trylock that failed
	GPStart bool // synchronize_rcu started a grace period
	GPEnd   bool // synchronize_rcu saw its grace period end
	// GP says which grace period started or ended.
	GP *GracePeriod
	// Fault is set when the step's instruction could not be performed:
	// the execution ends here.
	Fault  *Fault
	Load   *LoadEvent
	Commit *CommitEvent
	// RMW says how an RMW or lock performed.
	RMW *RMWFact
	// Applied lists the queued invalidations this step applied, each
	// with its cause.
	Applied []Applied
	// Folded lists the instructions that touch nothing shared and were
	// performed as part of this step.
	Folded []int
	// Folds says what each folded instruction did, in the order of Folded.
	Folds []InstrFact
	// Fact says what the step's own instruction did when it touches
	// nothing shared (a fence, barrier(), register arithmetic, an if, an
	// RCU or SRCU marker).
	Fact *InstrFact
	// Stored is the entry a store, exclusive RMW or lock put in the
	// store buffer.
	Stored *SBEntry
	// Behind lists, for a store put in the store buffer (ARM-like), the
	// entries it may not commit before: all earlier entries for a release
	// store, else those ahead of a wmb marker; for an exclusive RMW's
	// write, those ahead of a wmb marker (it read before they committed).
	Behind []SBEntry
	// Marked lists the invalidations queued at the CPU that a release
	// write of this step marked: a later acquire of the CPU applies them
	// before it reads (ARM-like).
	Marked []Loc
	// AcqWait lists the invalidations still queued after an acquire of
	// this step: the CPU may not execute its next instruction until they
	// are applied (ARM-like).
	AcqWait []Loc
	// Freed lists, for a commit, the stores that were held behind a wmb
	// marker this commit removed and may commit now.
	Freed []SBEntry
	// Skipped lists, for an early issue, the unexecuted accesses the
	// instruction overtook: loads, and stores (release stores and unlocks
	// among them) or relaxed RMWs that could not go ahead themselves.
	Skipped []int
	// Reports lists the quiescent states a report-qs step reported.
	Reports []QSReport
	// explain asks exec to record Folds and the facts only people and
	// pictures need. Apply sets it: the explorer folds with an Event
	// too, and must not pay for them.
	explain bool
}

// explains reports whether ev records the facts of a step for people
// (the load's classification, the commit's effects, the invalidations
// applied): Apply's events do. The explorer's events only collect what
// was folded, and building those facts per load and commit was the
// largest allocation of a batch of small explorations (issue 24).
func (ev *Event) explains() bool { return ev != nil && ev.explain }

// FactKind is the kind of an instruction described by an InstrFact.
type FactKind uint8

// Instruction facts.
const (
	FactAssign     FactKind = iota // register arithmetic; Val is the value written
	FactBranch                     // an if; Taken says which way it went
	FactElse                       // the jump over an else branch: the if was taken
	FactRCULock                    // rcu_read_lock; Depth is the nesting depth before it
	FactRCUUnlock                  // rcu_read_unlock; Depth is the nesting depth before it
	FactSRCULock                   // srcu_read_lock or srcu_down_read; Val is the index
	FactSRCUUnlock                 // srcu_read_unlock or srcu_up_read; Opener opened the section
	FactNoEffect                   // a fence with no effect in this mode, or barrier()
	FactPassed                     // a fence whose condition holds: it passes
	FactWmb                        // smp_wmb; Stores lists the stores ahead of its marker
	FactFault                      // the instruction cannot be performed: the execution ends
)

// RegValue is a register and the value it held.
type RegValue struct {
	Reg Reg
	Val Value
}

// InstrFact says what one instruction that touches nothing shared, or a
// fence, did.
type InstrFact struct {
	Instr int
	Kind  FactKind
	Taken bool  // FactBranch: the if was taken
	Val   Value // FactAssign: the value written; FactSRCULock: the index
	// Stores lists, for FactWmb, the stores in the store buffer ahead of
	// the marker: no later store of the CPU may commit before them. Empty
	// when every earlier store had committed (the marker orders nothing).
	Stores []SBEntry
	// Regs lists, for FactBranch, the registers its condition reads and
	// their values.
	Regs []RegValue
	// Depth is, for FactRCULock and FactRCUUnlock, the CPU's RCU nesting
	// depth before the instruction.
	Depth int
	// Opener is, for FactSRCUUnlock, the CPU that opened the section it
	// closed.
	Opener int
	// NoSection is set for an FactSRCULock whose index can reach no
	// srcu_read_unlock of its domain (it opens no section: LKMM pairs it
	// with nothing) and for an FactSRCUUnlock whose index carries no open
	// section of its domain (it closes none: an unmatched unlock).
	NoSection bool
	// StillOpen is set for an FactSRCUUnlock whose section stays open:
	// another srcu_read_unlock its index may reach can still run, and the
	// section ends at the last of them (herd7: multiple-srcu-matches).
	StillOpen bool
	// Fault is set for FactFault.
	Fault *Fault
}

// InstrStep returns the 1-based step of events that performed instruction
// instr of CPU cpu (as its own instruction or folded), or 0. With
// LateInvalidation.Barrier it gives the step at which the barrier ran.
func InstrStep(events []Event, cpu, instr int) int {
	for i, ev := range events {
		if int(ev.Step.CPU) != cpu || (ev.Step.Kind != StepExec && ev.Step.Kind != StepEarly) {
			continue
		}
		if ev.Instr == instr || slices.Contains(ev.Folded, instr) {
			return i + 1
		}
	}
	return 0
}

package words

import (
	"fmt"
	"slices"
	"strings"

	"smpscope/machine"
)

// Event explains what a step did, for people: one statement per fact,
// each fact stated once, in plain sentences. ev must come from
// [machine.Machine.Apply], which records every fact.
func Event(m *machine.Machine, ev *machine.Event) string {
	return strings.Join(eventSentences(m, ev), " ")
}

func eventSentences(m *machine.Machine, ev *machine.Event) []string {
	x := explainer{namer: newNamer(m.Prog), mode: m.Mode, ev: ev, c: int(ev.Step.CPU)}
	switch ev.Step.Kind {
	case machine.StepExec, machine.StepEarly:
		return x.exec()
	case machine.StepCommit:
		return x.commitStep()
	case machine.StepInvalidate:
		return x.invalidate()
	case machine.StepReportQS:
		return x.report()
	}
	return nil
}

// Tags names the causes a step shows that a reviewer looks for: "store→load
// reordering" for a load made while its CPU's own earlier store was still
// buffered, and "invalidation arrived after smp_mb()" for a stale read
// whose invalidation came in after the CPU's barrier had passed. Event
// says each in full; these mark the step in traces and on screen.
func Tags(m *machine.Machine, ev *machine.Event) []string {
	ld := ev.Load
	if ld == nil {
		return nil
	}
	var tags []string
	if len(ld.OwnBuffered) > 0 {
		tags = append(tags, "store→load reordering")
	}
	if late := ld.ArrivedAfterBarrier; late != nil {
		tags = append(tags, "invalidation arrived after "+newNamer(m.Prog).instr(int(ev.Step.CPU), late.Barrier))
	}
	return tags
}

// Fold is the sentence of a folded instruction ("if (r0): r0 = 1, so the
// if is taken."), "" for compiler-internal moves (temporaries, the jumps
// of ?: and &&), which nobody wrote.
func Fold(m *machine.Machine, cpu int, f *machine.InstrFact) string {
	x := explainer{namer: newNamer(m.Prog), mode: m.Mode, c: cpu}
	what := x.factWhat(f, true)
	if what == "" {
		return ""
	}
	return x.instr(cpu, f.Instr) + what + "."
}

// explainer words one event.
type explainer struct {
	namer
	mode machine.Mode
	ev   *machine.Event
	c    int
}

func (x *explainer) arm() bool { return x.mode == machine.ARM }

func (x *explainer) exec() []string {
	ev, c := x.ev, x.c
	if ev.Instr < 0 {
		return nil
	}
	cpu := x.cpu(c)
	in := &x.code(c)[ev.Instr]
	text := x.instr(c, ev.Instr)
	if ev.Fault != nil {
		return []string{fmt.Sprintf("%s cannot perform %s, and the execution ends here: %s.", cpu, text, x.fault(ev.Fault))}
	}
	lead := fmt.Sprintf("%s executes %s", cpu, text)
	var out []string
	if ev.Step.Kind == machine.StepEarly {
		lead = fmt.Sprintf("%s issues %s early", cpu, text)
		if ev.Guess >= 0 {
			way := "is taken"
			if x.code(c)[ev.Guess].Op == machine.OpRMW {
				way = "fails" // a fully ordered cmpxchg, passed on the guess that it fails
			}
			lead = fmt.Sprintf("%s performs %s before it knows whether %s %s", cpu, text, x.instr(c, ev.Guess), way)
		}
		if len(ev.Skipped) > 0 {
			var names []string
			for _, i := range ev.Skipped {
				names = append(names, x.instr(c, i))
			}
			lead += ", ahead of " + joinAnd(names) + ", which it does not depend on"
		}
	}
	switch in.Op {
	case machine.OpFence, machine.OpAssign, machine.OpBranch, machine.OpJump, machine.OpRCULock, machine.OpRCUUnlock, machine.OpSRCULock, machine.OpSRCUUnlock:
		what := ""
		if ev.Fact != nil {
			what = x.factWhat(ev.Fact, false)
		}
		out = append(out, lead+what+".")
	case machine.OpLoad:
		out = append(out, lead+".")
		if in.Access == machine.Acquire && x.mode == machine.TSO {
			out = append(out, "In TSO mode an acquire is an ordinary load: no load is reordered with later loads or stores.")
		}
		out = append(out, x.applied(true)...)
		out = append(out, x.load()...)
	case machine.OpStore, machine.OpUnlock:
		out = append(out, lead+".")
		out = append(out, x.store(in)...)
	case machine.OpSyncRCU, machine.OpSyncSRCU:
		out = append(out, x.sync(in)...)
	case machine.OpLock, machine.OpTryLock:
		out = append(out, lead+".")
		out = append(out, x.lock(in)...)
	case machine.OpRMW:
		out = append(out, lead+".")
		out = append(out, x.rmwStep(in)...)
	}
	if ev.Step.Kind == machine.StepEarly && len(out) > 0 {
		// Why it may go ahead follows the sentence that says it did.
		out = slices.Insert(out, 1, x.earlyWhy(in)...)
	}
	if len(ev.AcqWait) > 0 && ev.Instr+1 < len(x.code(c)) { // the last instruction has no next one to wait
		out = append(out, fmt.Sprintf("Its invalidation queue still holds %s: as after every acquire, %s may not execute its next instruction until it has applied %s.", x.locs(ev.AcqWait), cpu, pronoun(len(ev.AcqWait))))
	}
	// Folded instructions: a compiler-internal part of a statement already
	// named says only what it did, without naming the statement again.
	named := &x.code(c)[ev.Instr] // the last instruction a sentence named
	for i := range ev.Folds {
		f := &ev.Folds[i]
		what := x.factWhat(f, true)
		if what == "" {
			continue
		}
		fin := &x.code(c)[f.Instr]
		if sameStatement(fin, named) {
			out = append(out, strings.TrimPrefix(strings.TrimPrefix(what, ": "), " ")+".")
			continue
		}
		out = append(out, x.stmt(c, f.Instr)+what+".") // what says which part
		named = fin
	}
	if ev.Misspec != nil {
		out = append(out, Misspec(x.p, ev.Misspec))
	}
	return out
}

// earlyWhy says why ARM-like mode lets an early issue pass what it
// passed, and what would have kept it in order: the reordering of LB, S
// and of loads with loads, said at the step that performs it.
func (x *explainer) earlyWhy(in *machine.Instr) []string {
	var loads, stores, rmws, relaxed, release, full bool
	var releases []string // release stores and unlocks passed
	first := x.ev.Instr
	for _, i := range x.ev.Skipped {
		first = min(first, i)
		switch in := &x.code(x.c)[i]; in.Op {
		case machine.OpStore, machine.OpUnlock:
			if in.Op == machine.OpUnlock || in.Access.IsRelease() {
				releases = append(releases, x.instr(x.c, i))
			} else {
				stores = true
			}
		case machine.OpRMW:
			rmws = true
			switch in.Order {
			case machine.OrderRelease:
				release = true
			case machine.OrderFull:
				full = true // passed on the guess that it fails: said below
			default:
				relaxed = true
			}
		default:
			loads = true
		}
	}
	rmb := false
	for i := first; i < x.ev.Instr; i++ {
		if f := &x.code(x.c)[i]; f.Op == machine.OpFence && f.Fence == machine.FenceRmb {
			rmb = true
		}
	}
	var out []string
	// The guess is of a branch's direction, or that a fully ordered
	// cmpxchg fails (the first of them it passed).
	branchGuess := x.ev.Guess >= 0 && x.code(x.c)[x.ev.Guess].Op != machine.OpRMW
	if full {
		out = append(out, "A fully ordered cmpxchg orders nothing when it fails (it is then a plain load) and everything after it when it succeeds, which is known only once it reads: this is performed on the guess that it fails, and if it succeeds, this path is no execution (smpscope ends it there).")
	}
	if branchGuess && in.Op == machine.OpStore {
		out = append(out, "The core guesses which way the branch goes and puts the store in its store buffer ahead, where only its own later loads see it. If the branch goes the other way, the store is discarded and this path is no execution (smpscope ends it there).")
	} else if branchGuess {
		out = append(out, "ARMv8 orders only stores after a branch, not loads: the core guesses which way the branch goes and reads ahead. If the branch goes the other way, the read is discarded and this path is no execution (smpscope ends it there).")
	}
	isLoad := in.Op == machine.OpLoad || in.Op == machine.OpRMW || in.Op == machine.OpTryLock || in.Op == machine.OpLock
	acquire := in.Op == machine.OpLock || in.Op == machine.OpTryLock || in.Op == machine.OpLoad && in.Access == machine.Acquire ||
		in.Op == machine.OpRMW && in.Order == machine.OrderAcquire
	switch {
	case !loads && !rmws:
	case branchGuess && in.Op == machine.OpStore:
		// Said above: it goes ahead into its own store buffer only.
	case in.Op == machine.OpFence:
		out = append(out, "ARM-like mode lets smp_wmb() go ahead of earlier loads: it orders stores only.")
	case acquire:
		out = append(out, "An acquire orders what follows it, not what precedes it: ARM-like mode lets it be satisfied before earlier loads it does not depend on. An smp_rmb() or smp_mb() before it, or an acquire on the earlier load, would have kept it in order.")
	case in.Op == machine.OpRMW && !x.ev.Failed:
		out = append(out, "ARM-like mode lets a relaxed RMW be performed before earlier loads it does not depend on: an smp_mb() between them, an acquire on the earlier load, or making this RMW fully ordered or _release would have kept it in order.")
	case !loads: // only relaxed RMWs: said below
	case isLoad:
		out = append(out, "ARM-like mode lets a load be performed before earlier loads it does not depend on (load→load reordering): an smp_rmb() between them, or an acquire on the earlier load (smp_load_acquire), would have kept it in order.")
	default:
		out = append(out, "ARM-like mode lets a store go ahead of earlier loads it does not depend on (load→store reordering): an smp_mb() between them, a release store (smp_store_release), an acquire on the earlier load, or a dependency on the value it loads would have kept it in order.")
	}
	if relaxed {
		out = append(out, "It passes an earlier relaxed RMW of another location: a load and an exclusive store, which ARMv8 orders before nothing later of other locations.")
	}
	switch {
	case release && acquire:
		// Passed only when it is conditional, on the guess that it fails
		// (early.go).
		out = append(out, "It passes an earlier _release cmpxchg of another location on the guess that it fails: a failed one makes no release write, and it is that write that orders a later acquire after it (release→acquire). Whether it fails is known only once it reads: if it succeeds, this path is no execution (smpscope ends it there).")
	case release:
		out = append(out, "It passes an earlier _release RMW of another location: the release orders what precedes that RMW's write, not what follows its read. An smp_mb() between them, or a fully ordered RMW, would have kept it behind.")
	}
	if rmb {
		out = append(out, "It passes smp_rmb(), which orders earlier loads only, and a no-return atomic's read (atomic_inc(), atomic_add(), ...) is not one: its queue is empty, so the barrier's condition holds.")
	}
	if len(releases) > 0 {
		out = append(out, fmt.Sprintf("It passes %s, a release of another location: a release orders what precedes it, not what follows it, so it waits for the loads before it and this store need not. An smp_mb() between them, or making this store a release too, would have kept it behind.", joinAnd(releases)))
	}
	if stores {
		out = append(out, "It also passes an earlier store to another location that cannot go ahead itself: an smp_wmb() between them would have kept it behind.")
	}
	return out
}

// factWhat says what an instruction that touches nothing shared did,
// following its lead ("P0 executes smp_rmb()", or for a folded one the
// instruction itself): ": it passes", " has no effect", ...; "" for
// compiler-internal moves, which nobody wrote.
func (x *explainer) factWhat(f *machine.InstrFact, folded bool) string {
	c := x.c
	text := x.instr(c, f.Instr)
	subj := "it"
	if folded {
		subj = x.cpu(c)
	}
	in := &x.code(c)[f.Instr]
	switch f.Kind {
	case machine.FactAssign:
		if in.HasDst && !x.internalReg(c, in.Dst) {
			return fmt.Sprintf(": %s is now %s", x.p.Threads[c].Regs[in.Dst], x.val(f.Val))
		}
	case machine.FactBranch:
		if strings.HasPrefix(text, "if") {
			return ": " + x.branchWhat(in, text, f)
		}
	case machine.FactElse:
		if text == "else" {
			return ": skipped, because the if was taken"
		}
	case machine.FactRCULock:
		if f.Depth > 0 {
			return fmt.Sprintf(": %s enters a nested RCU read-side critical section (depth %d)", subj, f.Depth+1)
		}
		return fmt.Sprintf(": %s enters an RCU read-side critical section", subj)
	case machine.FactRCUUnlock:
		switch f.Depth {
		case 0:
			return fmt.Sprintf(": it has no effect, as %s is in no RCU read-side critical section", x.cpu(c))
		case 1:
			return fmt.Sprintf(": %s leaves its RCU read-side critical section", subj)
		}
		return fmt.Sprintf(": %s leaves a nested RCU read-side critical section (depth now %d)", subj, f.Depth-1)
	case machine.FactSRCULock:
		d, _ := in.Addr.Val.AsLoc()
		what := fmt.Sprintf(": %s enters an SRCU read-side section of %s", subj, x.loc(d))
		switch {
		case f.NoSection:
			what = fmt.Sprintf(": its index reaches no srcu_read_unlock of %s, so it opens no section (LKMM pairs it with none)", x.loc(d))
		case in.Cross:
			what = fmt.Sprintf(": %s opens an SRCU read-side section of %s, which any CPU may close", subj, x.loc(d))
		}
		if in.HasDst {
			what += fmt.Sprintf("; the index is %s", x.val(f.Val))
		}
		return what
	case machine.FactSRCUUnlock:
		d, _ := in.Addr.Val.AsLoc()
		if f.NoSection {
			return fmt.Sprintf(": its index comes from no open SRCU read-side section of %s, so it closes none (LKMM: an unmatched srcu_read_unlock)", x.loc(d))
		}
		if f.StillOpen {
			return fmt.Sprintf(": the section of %s its index comes from stays open, as another srcu_read_unlock its index may reach can still run (the section ends at the last)", x.loc(d))
		}
		if f.Opener != c {
			return fmt.Sprintf(": %s closes the SRCU read-side section of %s that %s opened", subj, x.loc(d), x.cpu(f.Opener))
		}
		return fmt.Sprintf(": %s leaves its SRCU read-side section of %s", subj, x.loc(d))
	case machine.FactFault:
		return " cannot be performed, and the execution ends here: " + x.fault(f.Fault)
	case machine.FactNoEffect, machine.FactPassed, machine.FactWmb:
		return x.fenceWhat(in, f, folded)
	}
	return ""
}

// branchWhat says which way an if went and why: the values of the
// registers people wrote that its condition reads.
func (x *explainer) branchWhat(in *machine.Instr, text string, f *machine.InstrFact) string {
	var vals []string
	for _, rv := range f.Regs {
		if !x.internalReg(x.c, rv.Reg) {
			vals = append(vals, fmt.Sprintf("%s = %s", x.p.Threads[x.c].Regs[rv.Reg], x.val(rv.Val)))
		}
	}
	why := "the condition is false"
	if f.Taken {
		why = "the condition is true"
	}
	so := ", so"
	if len(vals) > 0 {
		why = joinAnd(vals)
		// Name the condition's truth when it is more than a register.
		if cond := ifCondition(text); in.Cond.Op != machine.EReg && cond != "" {
			so = fmt.Sprintf(", so %s is %v and", cond, f.Taken)
		}
	}
	if f.Taken {
		return why + so + " the if is taken"
	}
	code := x.code(x.c)
	if j := in.Target - 1; j >= 0 && j < len(code) && code[j].Op == machine.OpJump && code[j].Text == "else" {
		return why + so + " the if is not taken; the else branch runs"
	}
	return why + so + " the if is not taken"
}

// ifCondition returns the condition of "if (cond)", or "".
func ifCondition(text string) string {
	if strings.HasPrefix(text, "if (") && strings.HasSuffix(text, ")") {
		return text[len("if (") : len(text)-1]
	}
	return ""
}

// fenceWhat says what a fence did.
func (x *explainer) fenceWhat(in *machine.Instr, f *machine.InstrFact, folded bool) string {
	cpu := x.cpu(x.c)
	already, atOnce := "", ""
	if folded {
		already, atOnce = "already ", " at once"
	}
	switch f.Kind {
	case machine.FactNoEffect:
		verb := " has no effect"
		if !folded {
			verb = ", which has no effect"
		}
		if in.Fence == machine.FenceBarrier {
			return verb + " on the hardware: it only stops the compiler from moving accesses across it"
		}
		if x.arm() {
			// Only smp_mb__after_unlock_lock is a no-op in ARM-like mode.
			return verb + ": an unlock followed by a lock is already ordered (a release, then an acquire)"
		}
		return verb + " in TSO mode: " + tsoNoEffect[in.Fence]
	case machine.FactWmb:
		if len(f.Stores) == 0 {
			return fmt.Sprintf(": every earlier store of %s has committed, so it orders nothing yet", cpu)
		}
		them := x.entries(f.Stores)
		if len(f.Stores) > 1 {
			them = "them"
		}
		return fmt.Sprintf(": wmb marker placed after %s, so no later store of %s can commit before %s", x.entries(f.Stores), cpu, them)
	}
	// FactPassed.
	if in.Fence == machine.FenceRmb {
		return fmt.Sprintf(": its invalidation queue is %sempty, so it passes%s: later reads cannot be satisfied from copies that were stale when it ran", already, atOnce)
	}
	if x.mode == machine.TSO {
		return fmt.Sprintf(": its store buffer is %sempty, so it passes%s: every earlier store has committed before any later load", already, atOnce)
	}
	return fmt.Sprintf(": its store buffer and invalidation queue are %sempty, so it passes%s: every earlier store has committed, and later reads cannot be satisfied from copies that were stale when it ran", already, atOnce)
}

// tsoNoEffect says why a fence does nothing on x86-TSO.
var tsoNoEffect = map[machine.Fence]string{
	machine.FenceRmb:               "loads are never reordered with other loads",
	machine.FenceWmb:               "stores already commit in program order",
	machine.FenceMbBeforeAtomic:    "every atomic RMW is already a full barrier",
	machine.FenceMbAfterAtomic:     "every atomic RMW is already a full barrier",
	machine.FenceMbAfterSpinlock:   "spin_lock is already a full barrier",
	machine.FenceMbAfterUnlockLock: "an unlock followed by a lock is already ordered",
}

// applied explains the queued invalidations a step applied before its
// instruction read or wrote, by cause. viaLoad: the instruction read like
// a load (a load, a failed RMW or trylock in ARM-like mode), whose
// address-dependency and acquire rules apply.
func (x *explainer) applied(viaLoad bool) []string {
	var dep, marked, own []machine.Loc
	for _, a := range x.ev.Applied {
		switch {
		case viaLoad && a.Cause == machine.ApplyAcquire:
			marked = append(marked, a.Loc)
		case viaLoad && a.Cause == machine.ApplyAddrDep:
			dep = append(dep, a.Loc)
		default:
			own = append(own, a.Loc)
		}
	}
	var out []string
	if len(marked) > 0 {
		out = append(out, fmt.Sprintf("As an acquire, it first applies the %s marked by its release (%s): it must not return a value already overwritten when its release became visible.", plural(len(marked), "invalidation", "invalidations"), x.locs(marked)))
	}
	if len(dep) > 0 {
		out = append(out, fmt.Sprintf("Its address comes from an earlier load, so it first applies the queued %s of %s, which arrived before that load.", pluralWord(len(dep), "invalidation", "invalidations"), x.locs(dep)))
	}
	if len(own) > 0 {
		out = append(out, fmt.Sprintf("It first applies its queued invalidation of %s: it works on the latest value, never on a stale copy.", x.locs(own)))
	}
	return out
}

// load explains the load of an exec step: where its value came from,
// how it classifies, and why.
func (x *explainer) load() []string {
	ev := x.ev
	ld := ev.Load
	if ld == nil {
		return nil
	}
	name, val := x.loc(ld.Loc), x.val(ld.Val)
	var out []string
	switch ld.Class {
	case machine.Forwarded:
		out = append(out, fmt.Sprintf("It reads %s=%s forwarded from its own store buffer: no other CPU can see that value yet.", name, val))
	case machine.Stale:
		who := "the initial value"
		if !ld.Newer.Initial() {
			who = fmt.Sprintf("%s at step %d", x.cpu(ld.Newer.CPU), ld.NewerStep)
		}
		out = append(out, fmt.Sprintf("It reads %s=%s from its cache: STALE. %s=%s was committed by %s; its invalidation is still queued at %s, so the old copy is still readable.", name, val, name, x.val(ld.NewerVal), who, x.cpu(x.c)))
		if ld.ArrivedAfterBarrier == nil { // else the late invalidation's sentence says it
			out = append(out, "ARM-like mode lets a CPU read a copy whose invalidation it has not applied yet: an smp_rmb() or smp_mb() performed after the invalidation arrived and before this load, or an acquire load between them, would have applied it first.")
		}
	case machine.NewerPending:
		out = append(out, fmt.Sprintf("It reads %s=%s %s: up to date, but a newer value is pending: %s=%s sits in %s's store buffer, not yet visible.", name, val, sourceText(ld.Source), name, x.val(ld.NewerVal), x.cpu(ld.Newer.CPU)))
	default:
		out = append(out, fmt.Sprintf("It reads %s=%s %s: up to date.", name, val, sourceText(ld.Source)))
	}
	if ld.WroteBack >= 0 {
		out = append(out, fmt.Sprintf("%s held the line modified: it writes it back first and keeps a shared copy.", x.cpu(ld.WroteBack)))
	}
	if n := len(ld.OwnBuffered); n > 0 {
		store, that, is := "store", "that store", "is"
		if n > 1 {
			store, that, is = "stores", "those stores", "are"
		}
		out = append(out, fmt.Sprintf("This read happens while its own earlier %s %s %s still in its store buffer, so to other CPUs it comes before %s (store→load reordering).", store, x.entries(ld.OwnBuffered), is, that))
		if x.arm() {
			out = append(out, fmt.Sprintf("Both modes allow it, since a load does not wait for the store buffer: an smp_mb() between them would have made it wait for %s to commit, and so would a release store followed by an acquire load.", that))
		} else {
			out = append(out, fmt.Sprintf("Both modes allow it, since a load does not wait for the store buffer: only an smp_mb() (or a fully ordered RMW) between them would have made it wait for %s to commit.", that))
		}
	}
	if late := ld.ArrivedAfterBarrier; late != nil {
		out = append(out, fmt.Sprintf("The invalidation of %s arrived at step %d, after %s's %s had passed: a barrier waits only for invalidations already queued, so it could not prevent this stale read (an smp_rmb() or smp_mb() after step %d, before this load, would have).", name, late.Arrived, x.cpu(x.c), x.instr(x.c, late.Barrier), late.Arrived))
	}
	return out
}

func sourceText(s machine.LoadSource) string {
	if s == machine.FromMiss {
		return "on a cache miss"
	}
	return "from its cache"
}

// store explains a store put in the store buffer (exec or early).
func (x *explainer) store(in *machine.Instr) []string {
	e := x.ev.Stored
	if e == nil {
		return nil
	}
	st := x.entry(*e)
	out := []string{fmt.Sprintf("%s goes into its store buffer; no other CPU can see it yet.", st)}
	if x.mode == machine.TSO {
		if in.Op == machine.OpUnlock || in.Access.IsRelease() {
			out = append(out, "In TSO mode the store buffer commits in order, so every store is already a release.")
		}
		return out
	}
	behind := x.ev.Behind
	if e.Kind.IsRelease() {
		if len(behind) == 0 {
			return append(out, "It is a release: it may commit only as the oldest entry, which it is.")
		}
		return append(out, fmt.Sprintf("It is a release: it may commit only after every earlier entry (%s).", x.entries(behind)))
	}
	if len(behind) > 0 {
		out = append(out, fmt.Sprintf("The wmb marker ahead of it means %s cannot commit before %s.", st, x.entries(behind)))
	}
	if e.Guard != 0 {
		out = append(out, fmt.Sprintf("It may not commit before %s has executed: no store is made visible past a branch whose condition is not known yet. Until then only %s's own later loads of %s can read it (store forwarding).", x.instr(x.c, int(e.Guard)-1), x.cpu(x.c), x.loc(e.Loc)))
	}
	return out
}

// exclusive explains an exclusive entry an RMW or lock appended.
func (x *explainer) exclusive() string {
	e := x.ev.Stored
	if e == nil {
		return ""
	}
	name := x.loc(e.Loc)
	what := "an exclusive entry"
	if e.Kind == machine.EntryReleaseExclusive {
		what = "an exclusive release entry"
	}
	out := fmt.Sprintf("%s goes into its store buffer as %s: until it commits, %s is reserved, and no other CPU may store to %s or perform an RMW on it.", x.entry(*e), what, name, name)
	if len(x.ev.Behind) > 0 {
		// exclusiveWait let it read past a wmb marker.
		out += fmt.Sprintf(" It read %s before %s committed: smp_wmb orders its write after %s, not its read. No other CPU can still write %s, so the reservation holds nobody up (and the store-exclusive cannot fail).", name, x.entries(x.ev.Behind), pronoun(len(x.ev.Behind)), name)
	}
	return out
}

func (x *explainer) lock(in *machine.Instr) []string {
	ev := x.ev
	l, _ := in.Addr.Val.AsLoc() // locks name their lock word
	name := x.loc(l)
	if ev.Load != nil {
		name = x.loc(ev.Load.Loc)
	}
	var out []string
	if ev.Failed {
		out = append(out, x.applied(true)...)
		out = append(out, x.load()...)
		fail := fmt.Sprintf("It fails: %s is held, so it returns 0.", name)
		if d := ev.RMW.ReservedBy; x.arm() && d >= 0 && (ev.Load == nil || ev.Load.Val == 0) {
			fail = fmt.Sprintf("It fails: %s is taking %s (its exclusive store to it is pending), so it returns 0.", x.cpu(d), name)
		}
		if x.arm() {
			fail += " A failed spin_trylock is a plain load: it orders nothing."
		}
		return append(out, fail)
	}
	if !x.arm() {
		out = append(out, fmt.Sprintf("Its store buffer is empty and %s is free, so this locked instruction takes the lock; it is a full barrier.", name))
	} else {
		out = append(out, fmt.Sprintf("The lock %s is free, so it takes it with an acquire, exclusive RMW.", name))
	}
	out = append(out, x.applied(false)...)
	out = append(out, x.load()...)
	if ce := ev.Commit; ce != nil {
		out = append(out, x.commit(ce, true))
	} else if t := x.exclusive(); t != "" {
		out = append(out, t)
	}
	return out
}

func (x *explainer) rmwStep(in *machine.Instr) []string {
	ev := x.ev
	arm := x.arm()
	// In ARM-like mode an RMW that fails on the value it would read is a
	// plain load (an acquire load for _acquire), with no barrier.
	asLoad := ev.RMW != nil && ev.RMW.AsLoad
	var out []string
	switch {
	case !arm:
		out = append(out, "Its store buffer is empty: this locked instruction reads and writes the line at once, a full barrier.")
	case asLoad:
	case in.Order == machine.OrderFull:
		out = append(out, "Its store buffer and invalidation queue are empty, so this fully ordered RMW is a full barrier before and after.")
	case in.Order == machine.OrderRelease:
		out = append(out, "Its store buffer is empty, so this release RMW reads and then writes after every earlier access: its write is a release, as the oldest entry of its store buffer (later stores may still commit before it).")
	}
	out = append(out, x.applied(asLoad)...)
	out = append(out, x.load()...)
	switch {
	case ev.Failed:
		var old machine.Value
		name := "?"
		if ev.Load != nil {
			old, name = ev.Load.Val, x.loc(ev.Load.Loc)
		}
		var exp machine.Value
		if ev.RMW != nil {
			exp = ev.RMW.Expected
		}
		if in.RMW == machine.RMWAddUnless {
			out = append(out, fmt.Sprintf("It fails: %s=%s is the value it must not add to, so nothing is written.", name, x.val(old)))
		} else {
			out = append(out, fmt.Sprintf("It fails: %s=%s is not the expected %s, so nothing is written.", name, x.val(old), x.val(exp)))
		}
		switch {
		case asLoad && in.Order == machine.OrderAcquire:
			out = append(out, fmt.Sprintf("A failed %s is only an acquire load.", x.rmw(in)))
		case asLoad:
			out = append(out, fmt.Sprintf("A failed %s is a plain load: it orders nothing.", x.rmw(in)))
		}
		if ev.RMW != nil && len(ev.RMW.Guessed) > 0 {
			var names []string
			for _, i := range ev.RMW.Guessed {
				names = append(names, x.instr(x.c, i))
			}
			out = append(out, fmt.Sprintf("%s guessed it would fail when it performed %s before it: the guess was right.", x.cpu(x.c), joinAnd(names)))
		}
	case ev.Commit != nil:
		out = append(out, x.commit(ev.Commit, true))
		out = append(out, x.marked()...)
	default:
		if t := x.exclusive(); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// marked explains the invalidations a release write marked.
func (x *explainer) marked() []string {
	ms := x.ev.Marked
	if len(ms) == 0 {
		return nil
	}
	cpu := x.cpu(x.c)
	return []string{fmt.Sprintf("As a release, it marks the %s queued at %s (%s): a later acquire of %s applies %s before it reads.", pluralWord(len(ms), "invalidation", "invalidations"), cpu, x.locs(ms), cpu, pronoun(len(ms)))}
}

func (x *explainer) sync(in *machine.Instr) []string {
	ev := x.ev
	cpu := x.cpu(x.c)
	text := x.instr(x.c, ev.Instr)
	empty := "Its store buffer is empty"
	if x.arm() {
		empty = "Its store buffer and invalidation queue are empty"
	}
	if ev.GPEnd {
		what := "every CPU has reported a quiescent state"
		if in.Op == machine.OpSyncSRCU {
			what = "the SRCU read-side sections it waited for have ended, and every CPU has reported a quiescent state"
		}
		return []string{fmt.Sprintf("%s finishes %s: %s.", cpu, text, what), empty + ", so the full barrier at its end passes."}
	}
	out := []string{fmt.Sprintf("%s starts %s.", cpu, text), empty + ", so the full barrier at its start passes."}
	gp := ev.GP
	if gp == nil || !gp.SRCU {
		return append(out, fmt.Sprintf("A grace period begins: every CPU, %s included, must report a quiescent state.", cpu))
	}
	s := fmt.Sprintf("A grace period of %s begins: every CPU must report a quiescent state", x.loc(gp.Domain))
	if n := len(gp.Sections); n > 0 {
		s += fmt.Sprintf(", and the %s of %s open now (%s) must end", plural(n, "SRCU read-side section", "SRCU read-side sections"), x.loc(gp.Domain), x.openers(gp.Sections))
	}
	return append(out, s+".")
}

func (x *explainer) commitStep() []string {
	ev := x.ev
	ce := ev.Commit
	if ce == nil {
		return nil
	}
	kind := ""
	if k := entryKind(ce.Kind); k != "" {
		kind = "the " + k + "store "
	}
	out := []string{fmt.Sprintf("%s commits %s%s=%s from its store buffer (%s).", x.cpu(x.c), kind, x.loc(ce.Loc), x.val(ce.Val), x.instr(x.c, ev.Instr))}
	if len(ev.Applied) > 0 {
		var ls []machine.Loc
		for _, a := range ev.Applied {
			ls = append(ls, a.Loc)
		}
		out = append(out, fmt.Sprintf("It first applies its own queued invalidation of %s: a CPU never writes over a stale copy.", x.locs(ls)))
	}
	if len(ce.Overtook) > 0 {
		// The reordering of MP and 2+2W: say what it passed, and why
		// the mode allows it.
		older := x.entries(ce.Overtook)
		out = append(out, fmt.Sprintf("It overtakes the older %s, still buffered: ARM-like store buffers commit stores to different locations in any order. An smp_wmb() between them, or making %s=%s a release (smp_store_release), would have kept it behind %s.", older, x.loc(ce.Loc), x.val(ce.Val), older))
		for _, e := range ce.Overtook {
			if e.Kind == machine.EntryRelease {
				// The ext4 lesson: the release was on the wrong store.
				out = append(out, fmt.Sprintf("The release %s orders only the accesses before it, not the stores after it.", x.entry(e)))
				break
			}
		}
	}
	out = append(out, x.commit(ce, false))
	switch ce.Kind {
	case machine.EntryRelease:
		out = append(out, x.marked()...)
	case machine.EntryExclusive:
		out = append(out, fmt.Sprintf("The exclusive write is done: %s is no longer reserved.", x.loc(ce.Loc)))
	case machine.EntryReleaseExclusive:
		out = append(out, fmt.Sprintf("The exclusive write is done: %s is no longer reserved.", x.loc(ce.Loc)))
		out = append(out, x.marked()...)
	}
	if n := len(ev.Freed); n > 0 {
		may := "it may now commit"
		if n > 1 {
			may = "they may now commit"
		}
		out = append(out, fmt.Sprintf("The wmb marker ahead of %s is gone: %s.", x.entries(ev.Freed), may))
	}
	return out
}

// commit says what a store becoming visible did to the other caches.
func (x *explainer) commit(ce *machine.CommitEvent, atOnce bool) string {
	var parts []string
	if atOnce {
		parts = append(parts, fmt.Sprintf("%s=%s is written to its cache at once (line in M).", x.loc(ce.Loc), x.val(ce.Val)))
	} else {
		parts = append(parts, "The line is now M in its cache.")
	}
	var dropped []int
	for _, d := range ce.Dropped {
		if d != ce.WroteBack {
			dropped = append(dropped, d)
		}
	}
	if ce.WroteBack >= 0 {
		parts = append(parts, fmt.Sprintf("%s held the line modified: it writes it back and drops to I.", x.cpu(ce.WroteBack)))
	}
	if len(dropped) > 0 {
		parts = append(parts, fmt.Sprintf("%s dropped to I.", x.cpus(dropped)))
	}
	switch len(ce.Queued) {
	case 0:
	case 1:
		parts = append(parts, fmt.Sprintf("Invalidation queued at %s, which can still read the old copy until it applies it.", x.cpus(ce.Queued)))
	default:
		parts = append(parts, fmt.Sprintf("Invalidation queued at %s, which can still read their old copies until they apply it.", x.cpus(ce.Queued)))
	}
	return strings.Join(parts, " ")
}

func (x *explainer) invalidate() []string {
	l := machine.Loc(x.ev.Step.Arg)
	var stale machine.Value
	for _, a := range x.ev.Applied {
		if a.Loc == l {
			stale = a.Stale
		}
	}
	name := x.loc(l)
	return []string{fmt.Sprintf("%s applies its queued invalidation of %s: its stale copy %s=%s is dropped; its next read of %s will miss and fetch the latest value.", x.cpu(x.c), name, name, x.val(stale), name)}
}

func (x *explainer) report() []string {
	cpu := x.cpu(x.c)
	empty := "its store buffer is empty"
	if x.arm() {
		empty = "its store buffer and invalidation queue are empty"
	}
	var out []string
	for _, r := range x.ev.Reports {
		sync := x.instr(r.GP, r.Instr)
		outside := "it is outside any RCU read-side critical section"
		if r.SRCU {
			outside = fmt.Sprintf("it is outside every SRCU read-side section of %s that the grace period waits for", x.loc(r.Domain))
		}
		who := x.cpu(r.GP) + "'s "
		if r.GP == x.c {
			who = "its own "
		}
		if r.Undrained {
			kind := "RCU read-side critical section"
			if r.SRCU {
				kind = "SRCU read-side section"
			}
			var left []string
			if r.Buffered > 0 {
				left = append(left, plural(r.Buffered, "store", "stores")+" still in its store buffer")
			}
			if r.Queued > 0 {
				left = append(left, plural(r.Queued, "invalidation", "invalidations")+" still queued")
			}
			out = append(out, fmt.Sprintf("%s reports a quiescent state to %s%s with %s: its program has no %s, so no rule of RCU orders its accesses against the grace period and it owes it no barrier.", cpu, who, sync, strings.Join(left, " and "), kind))
		} else {
			out = append(out, fmt.Sprintf("%s reports a quiescent state to %s%s: %s, and %s.", cpu, who, sync, outside, empty))
		}
		switch {
		case len(r.Owe) > 0:
			out = append(out, fmt.Sprintf("That grace period still waits for %s.", x.cpus(r.Owe)))
		case r.Sections:
			out = append(out, "That grace period still waits for SRCU read-side sections to end.")
		default:
			out = append(out, fmt.Sprintf("That grace period has every report it needs: %s can finish %s.", x.cpu(r.GP), sync))
		}
	}
	return out
}

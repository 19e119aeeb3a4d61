package words

import (
	"fmt"
	"strings"

	"smpscope/machine"
)

// Detail is how much a wait's words name.
type Detail uint8

// Levels of detail.
const (
	Full  Detail = iota // name the entries, invalidations, CPUs and sections waited for
	Brief               // only how many, for panes too narrow for Full
)

// Wait says what w waits for: "smp_mb waits for 1 store-buffer entry
// (x=1) to commit". A CPU that is not blocked has no words ("finished"
// for one that has finished).
func Wait(p *machine.Program, w *machine.Wait, d Detail) string {
	n := newNamer(p)
	brief := d == Brief
	switch w.Kind {
	case machine.WaitNone:
		return ""
	case machine.WaitFinished:
		return "finished"
	case machine.WaitFault:
		if w.Fault == nil {
			return "stopped"
		}
		return "stopped: " + n.fault(w.Fault)
	case machine.WaitMisspec:
		if brief || w.Misspec == nil {
			return "guessed a branch wrong: no execution"
		}
		return "guessed " + n.instr(w.CPU, w.Misspec.Guessed) + " wrong: no execution (" + n.misspecReads(w.Misspec) + ")"
	case machine.WaitAfterAcquire:
		if brief {
			return "after an acquire, waits for " + plural(len(w.Invals), "queued invalidation", "queued invalidations")
		}
		return "after an acquire, waits for " + n.invalsWait(w.Invals) + " before its next instruction"
	}
	subj := n.waitSubject(w)
	switch w.Kind {
	case machine.WaitRelease:
		if brief {
			return subj + " waits for its earlier release stores to commit"
		}
		return subj + " waits for its earlier " + pluralWord(len(w.Entries), "release store ", "release stores ") + n.entries(w.Entries) + " to commit"
	case machine.WaitDrain:
		var parts []string
		if len(w.Entries) > 0 {
			if brief {
				parts = append(parts, plural(len(w.Entries), "store-buffer entry", "store-buffer entries"))
			} else {
				parts = append(parts, n.entriesWait(w.Entries))
			}
		}
		if len(w.Invals) > 0 {
			if brief {
				parts = append(parts, plural(len(w.Invals), "queued invalidation", "queued invalidations"))
			} else {
				parts = append(parts, n.invalsWait(w.Invals))
			}
		}
		t := subj + " waits for " + strings.Join(parts, " and ")
		if w.Rule == machine.RuleLateSection && !brief {
			t += fmt.Sprintf(": %s's grace period of %s started before this section, which may read nothing older (Tree SRCU's srcu_read_lock is a full barrier)", n.cpu(w.Holder), n.loc(w.Loc))
		}
		return t
	case machine.WaitQuiescent:
		var owe []string
		for i, d := range w.CPUs {
			name := n.cpu(d)
			if !brief {
				name += n.hold(w, w.Holds[i])
			}
			owe = append(owe, name)
		}
		return subj + " waits for a quiescent state from " + strings.Join(owe, ", ")
	case machine.WaitSections:
		t := subj + " waits for " + plural(len(w.Sections), "SRCU read-side section", "SRCU read-side sections") + " to end"
		if !brief {
			t += " (" + n.openers(w.Sections) + ")"
		}
		return t
	case machine.WaitLockHeld:
		return "spin_lock waits: " + n.loc(w.Loc) + " is held"
	case machine.WaitReserved:
		name, holder := n.loc(w.Loc), n.cpu(w.Holder)
		if w.Rule == machine.RuleFullRMW || w.Rule == machine.RuleReleaseRMW {
			return fmt.Sprintf("RMW waits: %s is reserved by %s", name, holder)
		}
		return fmt.Sprintf("%s waits: %s is reserved by %s's pending exclusive store", subj, name, holder)
	case machine.WaitOwnStore:
		if brief {
			return "exclusive RMW waits for its own pending store to " + n.loc(w.Loc)
		}
		return "exclusive RMW waits for its own pending store " + n.entries(w.Entries) + " to commit"
	case machine.WaitMarker:
		if brief {
			return "exclusive RMW waits for the stores before its smp_wmb to commit"
		}
		return "exclusive RMW waits for the stores before its smp_wmb (" + n.entries(w.Entries) + ") to commit: another CPU may still write " + n.loc(w.Loc)
	}
	return ""
}

// waitSubject names what waits, for a sentence about w: the rule it
// waits under, or the instruction when it waits under its own.
func (n namer) waitSubject(w *machine.Wait) string {
	in := &n.code(w.CPU)[w.Instr]
	switch w.Rule {
	case machine.RuleLocked:
		return "locked instruction"
	case machine.RuleFullRMW:
		return "fully ordered RMW"
	case machine.RuleReleaseRMW:
		return "release RMW"
	case machine.RuleLock:
		return "spin_lock"
	case machine.RuleFailedRMW:
		return n.rmw(in)
	case machine.RuleExclusive:
		if w.Kind == machine.WaitRelease {
			return "acquire RMW"
		}
		return "exclusive RMW"
	case machine.RuleLateSection:
		if in.Cross {
			return "srcu_down_read"
		}
		return "srcu_read_lock"
	}
	switch in.Op {
	case machine.OpFence:
		return in.Fence.String()
	case machine.OpSyncRCU:
		return "synchronize_rcu"
	case machine.OpSyncSRCU:
		return "synchronize_srcu"
	}
	return "smp_load_acquire"
}

// hold says why a CPU has not yet reported a quiescent state to w's grace
// period, or "" when it can report now.
func (n namer) hold(w *machine.Wait, h machine.QSHold) string {
	switch h {
	case machine.HoldReader:
		if w.SRCU {
			return " (inside an SRCU read-side section of " + n.loc(w.Domain) + ")"
		}
		return " (inside an RCU read-side critical section)"
	case machine.HoldStoreBuffer:
		return " (its store buffer is not empty)"
	case machine.HoldQueue:
		return " (its invalidation queue is not empty)"
	}
	return ""
}

// openers names the CPUs that opened SRCU sections: "opened by P0,
// opened by P1".
func (n namer) openers(secs []machine.SRCUSection) string {
	var names []string
	for _, sec := range secs {
		names = append(names, "opened by "+n.cpu(sec.CPU))
	}
	return strings.Join(names, ", ")
}

// entriesWait: "2 store-buffer entries (x=1, y=1) to commit".
func (n namer) entriesWait(st []machine.SBEntry) string {
	return fmt.Sprintf("%s (%s) to commit", plural(len(st), "store-buffer entry", "store-buffer entries"), n.entries(st))
}

// invalsWait: "1 queued invalidation (x) to be applied".
func (n namer) invalsWait(ls []machine.Loc) string {
	return fmt.Sprintf("%s (%s) to be applied", plural(len(ls), "queued invalidation", "queued invalidations"), n.locs(ls))
}

// Status is what CPU c of s is doing, in words at detail d: what it waits
// for if it is blocked, "finished", or "" when it may run.
func Status(m *machine.Machine, s *machine.State, c int, d Detail) string {
	w := m.Wait(s, c)
	return Wait(m.Prog, &w, d)
}

// Fault says where and why an execution faulted, the instruction by its
// address as the CPU columns number it: "P0:3, r0 = READ_ONCE(*p): the
// address x+8 is not a location (only a pointer plus 0 is)".
func Fault(p *machine.Program, f *machine.Fault) string { return newNamer(p).fault(f) }

func (n namer) fault(f *machine.Fault) string {
	where := fmt.Sprintf("%s, %s", Instr(n.p, f.CPU, f.Instr), n.instr(f.CPU, f.Instr))
	return fmt.Sprintf("%s: the address %s is not a location (only a pointer plus 0 is)", where, n.val(f.Addr))
}

// Misspec says why a path ended as no execution: a CPU performed reads
// inside one side of a branch before it knew the branch's direction (a
// guess ARMv8 allows, since it orders only stores after a branch), and
// the branch went the other way; or it performed accesses ahead of a
// fully ordered cmpxchg (an acquire ahead of a cmpxchg_release) on the
// guess that the cmpxchg would fail (a failed one orders nothing), and it
// succeeded.
func Misspec(p *machine.Program, ms *machine.Misspec) string {
	n := newNamer(p)
	if ms.Succeeded {
		orders := "A failed cmpxchg orders nothing, but a successful one orders everything after it"
		if n.p.Threads[ms.CPU].Code[ms.Guessed].Order == machine.OrderRelease {
			orders = "A failed cmpxchg_release makes no release write, but a successful one orders every acquire after its write"
		}
		return fmt.Sprintf("%s guessed wrong: it performed %s before %s, on the guess that it would fail, and it succeeded. "+
			"%s, and the executions that perform "+
			"it first already show those: this path is not an execution (no outcome, no deadlock), so no step follows. Step back to try another.",
			n.cpu(ms.CPU), n.misspecReads(ms), n.instr(ms.CPU, ms.Guessed), orders)
	}
	way := "is not taken"
	if ms.Taken {
		way = "is taken"
	}
	return fmt.Sprintf("%s guessed wrong: it performed %s before it knew whether %s is taken, and the branch %s. "+
		"A real core discards such a read and goes down the right path, which the executions without the guess already show: "+
		"this path is not an execution (no outcome, no deadlock), so no step follows. Step back to try another.",
		n.cpu(ms.CPU), n.misspecReads(ms), n.instr(ms.CPU, ms.Guessed), way)
}

func (n namer) misspecReads(ms *machine.Misspec) string {
	var names []string
	for _, i := range ms.Instrs {
		names = append(names, n.instr(ms.CPU, i))
	}
	return joinAnd(names)
}

// Deadlock says what each unfinished CPU of a stuck state waits for, one
// "P0: spin_lock waits: l is held" per CPU.
func Deadlock(p *machine.Program, d *machine.DeadlockResult) []string {
	var out []string
	for i := range d.Waits {
		w := &d.Waits[i]
		out = append(out, p.Threads[w.CPU].Name+": "+Wait(p, w, Full))
	}
	return out
}

package machine

import (
	"fmt"
	"strings"
)

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

// Read classifications (machine.md, "Reads a person should notice").
const (
	Forwarded    ReadClass = iota // from the CPU's own store buffer; no other CPU can see it yet
	UpToDate                      // equals the latest committed value
	Stale                         // an older value from a line whose invalidation is still queued
	NewerPending                  // up to date, but another CPU's store buffer holds a newer store
)

func (r ReadClass) String() string {
	return [...]string{"forwarded", "up to date", "stale", "newer value pending"}[r]
}

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
	// For Stale: the newest committed value and the CPU and step that
	// committed it. For NewerPending: the CPU whose store buffer holds the
	// newer value, and the value.
	NewerVal  Value
	NewerCPU  int
	NewerStep int
}

// CommitEvent describes a store that became visible.
type CommitEvent struct {
	Loc       Loc
	Val       Value
	WroteBack int   // CPU whose modified line was written back first, or -1
	Dropped   []int // CPUs whose copies dropped to I at once
	Queued    []int // CPUs that got an invalidation queued (ARM-like)
}

// Event records what one step did.
type Event struct {
	Step    Step
	Instr   int  // the instruction performed or whose store committed; -1 if none
	Early   bool // the instruction was issued early
	Failed  bool // a cmpxchg or trylock that failed
	GPStart bool // synchronize_rcu started a grace period
	GPEnd   bool // synchronize_rcu saw its grace period end
	Fault   bool // the instruction faulted and ended the execution
	Load    *LoadEvent
	Commit  *CommitEvent
	// WroteBack is the CPU whose modified line a load miss wrote back, or
	// -1.
	WroteBack int
	// Applied lists the queued invalidations this step applied (its own
	// invalidation step, an acquire's marked entries, an address
	// dependency, or a commit taking the line).
	Applied []Loc
	// Folded lists the instructions that touch nothing shared and were
	// performed as part of this step.
	Folded []int
	// Text is a one- or two-sentence explanation for people.
	Text string
}

func (m *Machine) cpuName(c int) string { return m.Prog.Threads[c].Name }

// instrText is instruction i of CPU c as written, without the final
// semicolon, for use inside sentences.
func (m *Machine) instrText(c, i int) string {
	code := m.code(c)
	if i < 0 || i >= len(code) {
		return "?"
	}
	if t := strings.TrimSuffix(strings.TrimSpace(code[i].Text), ";"); t != "" {
		return t
	}
	return fmt.Sprintf("instruction %d", i)
}

// Describe returns a one-line description of an enabled step, for the list
// of steps a person chooses from.
func (m *Machine) Describe(s *State, st Step) string {
	c := int(st.CPU)
	cpu := m.cpuName(c)
	switch st.Kind {
	case StepExec:
		pc := s.PC(c)
		in := &m.code(c)[pc]
		if in.Op == OpSyncRCU {
			if s.cpus[c].syncWait {
				return fmt.Sprintf("%s: finish %s (grace period over)", cpu, m.instrText(c, pc))
			}
			return fmt.Sprintf("%s: start %s (begin a grace period)", cpu, m.instrText(c, pc))
		}
		return fmt.Sprintf("%s: execute %s", cpu, m.instrText(c, pc))
	case StepEarly:
		return fmt.Sprintf("%s: issue %s early, before the loads ahead of it", cpu, m.instrText(c, int(st.Arg)))
	case StepCommit:
		for _, e := range s.cpus[c].sb {
			if e.Instr == st.Arg && e.Kind != EntryWmb {
				kind := ""
				switch e.Kind {
				case EntryRelease:
					kind = "release "
				case EntryExclusive:
					kind = "exclusive "
				}
				return fmt.Sprintf("%s: commit %sstore %s=%s from its store buffer", cpu, kind, m.Prog.LocName(e.Loc), m.Prog.FormatValue(e.Val))
			}
		}
	case StepInvalidate:
		l := Loc(st.Arg)
		return fmt.Sprintf("%s: apply the queued invalidation of %s (drop its stale copy %s=%s)", cpu, m.Prog.LocName(l), m.Prog.LocName(l), m.Prog.FormatValue(s.cpus[c].cache[l].Val))
	case StepReportQS:
		return fmt.Sprintf("%s: report a quiescent state to the grace period", cpu)
	}
	return m.ID(st)
}

// CPUStatus is what a CPU is doing, for display.
type CPUStatus struct {
	Finished bool
	Blocked  bool
	Reason   string // why it is blocked, in words
}

// Status returns CPU c's status in s.
func (m *Machine) Status(s *State, c int) CPUStatus {
	if m.finished(s, c) {
		return CPUStatus{Finished: true, Reason: "finished"}
	}
	if ok, why := m.canExec(s, c); !ok {
		return CPUStatus{Blocked: true, Reason: why}
	}
	return CPUStatus{}
}

func (m *Machine) describeEvent(before *State, ev *Event) string {
	c := int(ev.Step.CPU)
	cpu := m.cpuName(c)
	p := m.Prog
	var b strings.Builder
	switch ev.Step.Kind {
	case StepExec, StepEarly:
		text := m.instrText(c, ev.Instr)
		switch {
		case ev.Fault:
			fmt.Fprintf(&b, "%s cannot perform %s, and the execution ends here: %s.", cpu, text, m.faultText(before, c))
			return b.String()
		case ev.GPStart:
			fmt.Fprintf(&b, "%s starts %s: a grace period begins; every CPU must report a quiescent state.", cpu, text)
		case ev.GPEnd:
			fmt.Fprintf(&b, "%s finishes %s: every CPU has reported a quiescent state.", cpu, text)
		case ev.Early:
			fmt.Fprintf(&b, "%s issues %s early, ahead of the loads before it.", cpu, text)
		default:
			fmt.Fprintf(&b, "%s executes %s", cpu, text)
			if ev.Failed {
				b.WriteString(" (it fails)")
			}
			b.WriteString(".")
		}
		if len(ev.Applied) > 0 {
			fmt.Fprintf(&b, " It first applies its queued invalidation of %s.", m.locList(ev.Applied))
		}
		if ld := ev.Load; ld != nil {
			b.WriteString(" ")
			b.WriteString(m.describeLoad(c, ld))
		}
		if ce := ev.Commit; ce != nil {
			b.WriteString(" ")
			b.WriteString(m.describeCommit(ce, true))
		} else if in := &m.code(c)[max(ev.Instr, 0)]; ev.Instr >= 0 && (in.Op == OpStore || in.Op == OpUnlock || (in.Op == OpRMW && !ev.Failed && ev.Commit == nil) || (in.Op == OpLock && m.Mode == ARM) || (in.Op == OpTryLock && m.Mode == ARM && !ev.Failed)) {
			b.WriteString(" The store waits in its store buffer; no other CPU can see it yet.")
		}
	case StepCommit:
		if ce := ev.Commit; ce != nil {
			fmt.Fprintf(&b, "%s commits %s=%s from its store buffer (%s).", cpu, p.LocName(ce.Loc), p.FormatValue(ce.Val), m.instrText(c, ev.Instr))
			b.WriteString(" ")
			b.WriteString(m.describeCommit(ce, false))
		}
	case StepInvalidate:
		l := Loc(ev.Step.Arg)
		fmt.Fprintf(&b, "%s applies its queued invalidation of %s: its stale copy %s=%s is dropped; its next read of %s will miss and fetch the latest value.", cpu, p.LocName(l), p.LocName(l), p.FormatValue(before.cpus[c].cache[l].Val), p.LocName(l))
	case StepReportQS:
		fmt.Fprintf(&b, "%s reports a quiescent state: it is outside any RCU read-side critical section with nothing buffered.", cpu)
	}
	return b.String()
}

func (m *Machine) locList(ls []Loc) string {
	var names []string
	for _, l := range ls {
		names = append(names, m.Prog.LocName(l))
	}
	return strings.Join(names, ", ")
}

func (m *Machine) cpuList(cs []int) string {
	var names []string
	for _, c := range cs {
		names = append(names, m.cpuName(c))
	}
	return strings.Join(names, ", ")
}

func (m *Machine) describeLoad(c int, ld *LoadEvent) string {
	p := m.Prog
	name := p.LocName(ld.Loc)
	val := p.FormatValue(ld.Val)
	switch ld.Class {
	case Forwarded:
		return fmt.Sprintf("Read %s=%s forwarded from its own store buffer (no other CPU can see that value yet).", name, val)
	case Stale:
		who := "the initial value"
		if ld.NewerCPU >= 0 {
			who = fmt.Sprintf("%s at step %d", m.cpuName(ld.NewerCPU), ld.NewerStep)
		}
		return fmt.Sprintf("Read %s=%s: STALE. The cache still holds the old copy because the invalidation is queued; %s=%s was committed by %s.", name, val, name, p.FormatValue(ld.NewerVal), who)
	case NewerPending:
		return fmt.Sprintf("Read %s=%s: up to date, but a newer value is pending: %s=%s sits in %s's store buffer, not yet visible.", name, val, name, p.FormatValue(ld.NewerVal), m.cpuName(ld.NewerCPU))
	}
	src := "from its cache"
	if ld.Source == FromMiss {
		src = "on a cache miss"
	}
	return fmt.Sprintf("Read %s=%s %s: up to date.", name, val, src)
}

func (m *Machine) describeCommit(ce *CommitEvent, atOnce bool) string {
	var parts []string
	if atOnce {
		parts = append(parts, fmt.Sprintf("%s=%s is written to its cache at once (line in M).", m.Prog.LocName(ce.Loc), m.Prog.FormatValue(ce.Val)))
	} else {
		parts = append(parts, "The line is now M in its cache.")
	}
	if len(ce.Dropped) > 0 {
		parts = append(parts, fmt.Sprintf("%s dropped to I.", m.cpuList(ce.Dropped)))
	}
	if len(ce.Queued) > 0 {
		parts = append(parts, fmt.Sprintf("Invalidation queued at %s, which can still read the old copy until it applies it.", m.cpuList(ce.Queued)))
	}
	return strings.Join(parts, " ")
}

package words

import (
	"fmt"

	"smpscope/machine"
)

// StepID names a step the way the screen, the trace reports and trace
// files name it: by its CPU and kind, and for a commit or an early issue
// by its instruction, numbered as the CPU columns and the edit syntax
// number it (from 1 in each CPU's listing): "P0 exec", "P0:2 commit",
// "P1:3 early", "P1 inv x", "P0 qs". (machine.Machine.ID is the
// machine's own compact identity, numbered from 0; no person reads it.)
func StepID(m *machine.Machine, st machine.Step) string {
	switch st.Kind {
	case machine.StepEarly, machine.StepCommit:
		return Instr(m.Prog, int(st.CPU), int(st.Arg)) + " " + st.Kind.String()
	}
	return m.ID(st)
}

// Instr is the address of instruction i (an index into CPU c's code) in
// the one numbering people see: "P0:2", the CPU's name and the
// instruction's number from 1, as the CPU columns show it and --edit
// takes it.
func Instr(p *machine.Program, c, i int) string {
	return fmt.Sprintf("%s:%d", p.Threads[c].Name, i+1)
}

// Step describes an enabled step of s in one line, for the list of steps
// a person chooses from: "P1: commit store x=1 from its store buffer".
func Step(m *machine.Machine, s *machine.State, st machine.Step) string {
	n := newNamer(m.Prog)
	c := int(st.CPU)
	cpu := n.cpu(c)
	switch st.Kind {
	case machine.StepExec:
		pc := s.PC(c)
		if n.code(c)[pc].Op == machine.OpSyncRCU {
			if waiting, _ := s.GracePeriodWaiting(c); waiting {
				return fmt.Sprintf("%s: finish %s (grace period over)", cpu, n.instr(c, pc))
			}
			return fmt.Sprintf("%s: start %s (begin a grace period)", cpu, n.instr(c, pc))
		}
		return fmt.Sprintf("%s: execute %s", cpu, n.instr(c, pc))
	case machine.StepEarly:
		if g := m.Guess(s, st); g >= 0 {
			return fmt.Sprintf("%s: perform %s before %s is known (a guess)", cpu, n.instr(c, int(st.Arg)), n.instr(c, g))
		}
		return fmt.Sprintf("%s: issue %s early, ahead of earlier loads", cpu, n.instr(c, int(st.Arg)))
	case machine.StepCommit:
		for _, e := range s.StoreBuffer(c) {
			if e.Instr == st.Arg && e.Kind != machine.EntryWmb {
				return fmt.Sprintf("%s: commit %sstore %s=%s from its store buffer", cpu, entryKind(e.Kind), n.loc(e.Loc), n.val(e.Val))
			}
		}
	case machine.StepInvalidate:
		l := machine.Loc(st.Arg)
		// What changes first (a narrow steps pane cuts the end).
		return fmt.Sprintf("%s: drop stale %s=%s (apply its queued invalidation of %s)", cpu, n.loc(l), n.val(s.Cache(c, l).Val), n.loc(l))
	case machine.StepReportQS:
		return fmt.Sprintf("%s: report a quiescent state to the grace period", cpu)
	}
	return StepID(m, st)
}

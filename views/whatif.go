package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
)

// What the scenario screen shows of a what-if: the edit cursor and the
// ~ marks in the CPU columns, the verdict before → after in the outcomes
// pane (with the outcomes that appeared or vanished), and the diff page.

// EditCursor is the what-if edit cursor in the CPU columns.
type EditCursor struct {
	On  bool // shown: the CPUs pane has the focus
	CPU int  // the thread
	At  int  // the instruction, an index into the thread's code
}

// WhatIfInput is what the screen shows of an edited scenario.
type WhatIfInput struct {
	Base  *scenarios.Spec // the scenario as opened
	Edits []scenarios.Edit
	// Changed marks the edited program's instructions that are new or
	// changed (the ~ of the CPU columns), per thread.
	Changed [][]bool
	// Before and After are the explorations of the original and of the
	// edited program, per mode (nil: not done); the Running ones are
	// being computed.
	Before, After               [2]*machine.Result
	BeforeRunning, AfterRunning [2]bool
	Spinner                     string
	Diff                        []scenarios.DiffLine
}

// gutter reports whether the code lines carry the one-cell gutter of the
// edit cursor and the ~ marks.
func (in ScenarioInput) gutter() bool { return in.Edit.On || in.WhatIf != nil }

// editGutter is the gutter of instruction i of CPU c: › under the cursor,
// ~ on a changed instruction, else a space.
func editGutter(in ScenarioInput, st Styles, c, i int) string {
	switch {
	case in.Edit.On && in.Edit.CPU == c && in.Edit.At == i:
		return "›"
	case in.WhatIf != nil && c < len(in.WhatIf.Changed) && i < len(in.WhatIf.Changed[c]) && in.WhatIf.Changed[c][i]:
		return st.EditedLine.Render("~")
	}
	return " "
}

// cpusTitle is the CPUs pane's title: how many edits, and where the
// cursor is (the instruction's address in the --edit syntax).
func cpusTitle(in ScenarioInput) string {
	t := "CPUs"
	if wi := in.WhatIf; wi != nil {
		t += fmt.Sprintf(" · ~%d edit", len(wi.Edits))
		if len(wi.Edits) != 1 {
			t += "s"
		}
	}
	if in.Edit.On && in.Mach != nil && in.Edit.CPU < len(in.Mach.Prog.Threads) {
		t += fmt.Sprintf(" · cursor %s:%d", in.Mach.Prog.Threads[in.Edit.CPU].Name, in.Edit.At+1)
	}
	return t
}

func (in ScenarioInput) otherModeShown() bool {
	wi := in.WhatIf
	if wi == nil || in.Mach == nil {
		return false
	}
	o := otherMode(in.Mach.Mode)
	return wi.After[o] != nil || wi.AfterRunning[o] // asked for (d), or visited (m)
}

func otherMode(md machine.Mode) machine.Mode {
	if md == machine.ARM {
		return machine.TSO
	}
	return machine.ARM
}

// verdictWords is a verdict in a word and its counts, "Never 0/3"; "?"
// before it is known (with the spinner while it is computed).
func verdictWords(sp *scenarios.Spec, res *machine.Result, running bool, spin string, counts bool) string {
	switch {
	case res == nil && running:
		return spin
	case res == nil:
		return "?"
	case sp.Final == nil:
		return fmt.Sprintf("%d outcomes", len(res.Outcomes))
	}
	v := sp.Verdict(res)
	s := string(v.Observation)
	if counts {
		s += fmt.Sprintf(" %d/%d", v.Positive, v.Positive+v.Negative)
	}
	if !res.Complete {
		s += " (incomplete)"
	}
	return s
}

// whatIfVerdict is one mode's verdict before → after the edits, in at
// most w cells: "ARM-like: Sometimes 1/4 → Never 0/3", shortened as
// needed to "ARM-like: Sometimes → Never" or "Sometimes → Never".
func whatIfVerdict(in ScenarioInput, st Styles, md machine.Mode, w int) string {
	wi := in.WhatIf
	var try []string
	for _, counts := range []bool{true, false} {
		before := verdictWords(wi.Base, wi.Before[md], wi.BeforeRunning[md], wi.Spinner, counts)
		after := verdictWords(in.Spec, wi.After[md], wi.AfterRunning[md], wi.Spinner, counts)
		core := before + " → " + st.Verdict.Render(after)
		try = append(try, md.Title()+": "+core)
		if !counts {
			try = append(try, core)
		}
	}
	for _, t := range try {
		if ansi.StringWidth(t) <= w {
			return t
		}
	}
	return try[len(try)-1]
}

// whatIfHead is the outcomes pane's verdict lines for an edited
// scenario: the current mode's before → after, then the other mode's
// when it was explored too.
func whatIfHead(in ScenarioInput, st Styles, w int) []string {
	lines := []string{whatIfVerdict(in, st, in.Mach.Mode, w)}
	if in.otherModeShown() {
		lines = append(lines, st.Dim.Render(whatIfVerdict(in, st, otherMode(in.Mach.Mode), w)))
	}
	return lines
}

// outcomeSet is the outcomes of a result as OutcomeLine writes them.
func outcomeSet(sp *scenarios.Spec, res *machine.Result) map[string]bool {
	set := map[string]bool{}
	if res != nil {
		for _, o := range res.Outcomes {
			set[OutcomeLine(sp, o.Outcome)] = true
		}
	}
	return set
}

// beforeOutcomes are the original's outcomes in the current mode, as
// OutcomeLine writes them: an outcome row not among them is new with the
// edits. Nil when unedited or not explored yet.
func (in ScenarioInput) beforeOutcomes() map[string]bool {
	wi := in.WhatIf
	if wi == nil || wi.Before[in.Mach.Mode] == nil {
		return nil
	}
	return outcomeSet(wi.Base, wi.Before[in.Mach.Mode])
}

// vanished lists the outcomes of the original that the edited program no
// longer reaches in mode md (once both are explored).
func (in ScenarioInput) vanished(md machine.Mode) []string {
	wi := in.WhatIf
	if wi == nil || wi.Before[md] == nil || wi.After[md] == nil {
		return nil
	}
	now := outcomeSet(in.Spec, wi.After[md])
	var out []string
	for _, o := range wi.Before[md].Outcomes {
		if t := OutcomeLine(wi.Base, o.Outcome); !now[t] {
			out = append(out, t)
		}
	}
	return out
}

// vanishedLines are the outcomes pane's rows after the outcomes and
// deadlocks: what the edits made unreachable (not selectable: their
// witnesses run the original).
func vanishedLines(in ScenarioInput, st Styles) []string {
	var lines []string
	for _, t := range in.vanished(in.Mach.Mode) {
		lines = append(lines, st.Vanished.Render("  − "+t)+" gone")
	}
	return lines
}

// diffContext is how many unchanged lines the diff page shows around a
// change.
const diffContext = 3

// expandTabs makes a source line safe to measure: tabs become four
// spaces.
func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// diffPageLines is the what-if page (d): the edits as flags, the verdicts
// before → after in both modes, the outcomes that appeared or vanished,
// and the source against the original.
func diffPageLines(in ScenarioInput, st Styles, w int) []string {
	wi := in.WhatIf
	tw := max(w-2, 20)
	if wi == nil {
		return wrapIndented(" ", "No edits yet. Put the edit cursor on an instruction (tab to the CPUs, ↑/↓, h/l, or a click) and press o to change its ordering or b to insert a barrier after it.", tw)
	}
	var lines []string
	n := fmt.Sprintf("%d edits", len(wi.Edits))
	if len(wi.Edits) == 1 {
		n = "1 edit"
	}
	lines = append(lines, " "+st.Bold.Render("What if? ")+wi.Base.Name+" with "+n)
	lines = append(lines, wrapIndented("   ", st.Dim.Render("as flags: ")+scenarios.EditFlags(wi.Edits), tw)...)
	lines = append(lines, "")
	cond := in.Spec.Condition()
	if cond == "" {
		cond = "no condition"
	}
	lines = append(lines, wrapIndented(" ", st.Condition.Render(cond), tw)...)
	for _, md := range []machine.Mode{machine.TSO, machine.ARM} {
		lines = append(lines, "   "+whatIfVerdict(in, st, md, tw-2))
	}
	for _, md := range []machine.Mode{machine.TSO, machine.ARM} {
		if wi.Before[md] == nil || wi.After[md] == nil {
			continue
		}
		before := outcomeSet(wi.Base, wi.Before[md])
		var appeared []string
		for _, o := range wi.After[md].Outcomes {
			if t := OutcomeLine(in.Spec, o.Outcome); !before[t] {
				appeared = append(appeared, t)
			}
		}
		for _, t := range appeared {
			lines = append(lines, "   "+st.Appeared.Render("+ "+t)+" appeared in "+md.Title()+" mode")
		}
		for _, t := range in.vanished(md) {
			lines = append(lines, "   "+st.Vanished.Render("− "+t)+" gone in "+md.Title()+" mode")
		}
	}
	lines = append(lines, "", " "+st.Bold.Render("Source")+st.Dim.Render(" against the original (− removed, + added)"))
	// The changed lines with diffContext lines around them; the rest (the
	// leading comment, mostly) is counted, not shown.
	show := make([]bool, len(wi.Diff))
	for i, d := range wi.Diff {
		if d.Op != ' ' {
			for j := max(i-diffContext, 0); j <= min(i+diffContext, len(wi.Diff)-1); j++ {
				show[j] = true
			}
		}
	}
	for i := 0; i < len(wi.Diff); i++ {
		if !show[i] {
			j := i
			for j < len(wi.Diff) && !show[j] {
				j++
			}
			if j-i > 1 { // a marker for one line would save nothing
				lines = append(lines, "   "+st.Dim.Render(fmt.Sprintf("⋯ %d unchanged lines", j-i)))
				i = j - 1
				continue
			}
		}
		d := wi.Diff[i]
		text := expandTabs(d.Text)
		switch d.Op {
		case '+':
			lines = append(lines, " "+st.DiffAdded.Render("+ "+text))
		case '-':
			lines = append(lines, " "+st.DiffGone.Render("− "+text))
		default:
			lines = append(lines, "   "+text)
		}
	}
	lines = append(lines, "")
	lines = append(lines, wrapIndented(" ", st.Dim.Render("S saves the edited test as a new .litmus file; u undoes the last edit, U redoes it; e writes a trace that replays the edited program."), tw)...)
	return lines
}

// InstrAt returns the instruction drawn at cell (x, y) of the CPU
// columns scrolled to off (a thread and an index into its code), for
// clicks.
func (f Frame) InstrAt(x, y int, off Offsets) (cpu, instr int, ok bool) {
	if !f.ok || f.Presenting || f.in.Page != PagePanes {
		return 0, 0, false
	}
	inner := f.Regions.Panes[PaneCPUs].Inner()
	if !inner.Contains(x, y) {
		return 0, 0, false
	}
	col := (x - inner.X) / (f.cpus.colW + 1)
	if col >= f.cpus.k {
		return 0, 0, false
	}
	cpu = f.CPUOff + col
	if cpu >= len(f.in.Mach.Prog.Threads) {
		return 0, 0, false
	}
	instr, ok = f.cpus.instrAt(cpu, y-inner.Y+off.Panes[PaneCPUs])
	return cpu, instr, ok
}

// CodeRow is the line of the CPUs pane where instruction i of CPU c
// starts (the model scrolls it into view).
func (f Frame) CodeRow(c, i int) int { return f.cpus.codeRow(c, i) }

// CodeLines returns instruction i of CPU c as its column draws it, one
// string per line it takes (wrapped, never cut), without styling; nil
// when there is no such instruction. Tests check that no primitive's
// name is cut.
func (f Frame) CodeLines(c, i int) []string {
	b := f.cpus
	if c < 0 || c >= len(b.code) || i < 0 || i >= len(b.code[c].starts) {
		return nil
	}
	code := b.secs[c][secCode]
	end := len(code)
	if i+1 < len(b.code[c].starts) {
		end = b.code[c].starts[i+1]
	}
	var out []string
	for _, l := range code[b.code[c].starts[i]:end] {
		out = append(out, ansi.Strip(fit(l, b.colW)))
	}
	return out
}

// CPUsShown is how many CPU columns fit side by side.
func (f Frame) CPUsShown() int { return max(f.cpus.k, 1) }

// OutcomeHeadLines is how many lines the outcomes pane's header takes
// (the condition, the verdict and, for a what-if, the other mode's
// before → after; each wraps), above the rows: mouse hit-tests use it.
func (f Frame) OutcomeHeadLines() int { return len(f.outcomes.head) }

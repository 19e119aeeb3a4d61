package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
	"smpscope/views/textwrap"
)

// ScenarioInput is everything the scenario screen shows. The model fills
// it; the views only read it.
type ScenarioInput struct {
	Spec     *scenarios.Spec
	Variants []string // the family's variants in order (for "2/3")

	Mach    *machine.Machine
	Initial *machine.State
	State   *machine.State // the state shown: after Steps[:Cursor]
	// Steps is the whole recorded history, including steps ahead of the
	// cursor (redo, or a witness being replayed); Events[i] explains
	// Steps[i].
	Steps  []machine.Step
	Events []machine.Event
	// States are the history's states (len(Steps)+1; States[0] is
	// Initial), for the picture page.
	States  []*machine.State
	Cursor  int
	Enabled []machine.Step // enabled in State, numbered from 1 on screen

	Focus   Pane
	SideTab Pane          // PaneHistory or PaneOutcomes: the tab shown when they share a box
	Sel     [NumPanes]int // selected row of list panes
	CPUOff  int           // first CPU column shown (the frame clamps it)
	Digits  string        // step number being typed
	Notice  string        // transient message for the header
	Outcome OutcomesInput // the outcomes pane
	Page    Page          // what the body shows
	Help    []HelpSection // the full help (PageHelp)
	Legend  [][2]string   // marks and their meaning (PageHelp)
	HelpBar string        // the rendered short-help line
	// Analysis is what the compare and necessity pages show.
	Analysis AnalysisInput
	// Present, when set, draws presentation mode instead of the panes
	// (pages still show over it).
	Present *PresentInput
	// Attempt, when set, says that Steps are the closest attempt at an
	// outcome that is unreachable; the end of it says how far it got and
	// why.
	Attempt *scenarios.Attempt
	// Edit is the what-if edit cursor; WhatIf, when set, what the edits
	// of an edited scenario changed (whatif.go).
	Edit   EditCursor
	WhatIf *WhatIfInput
}

// Page is what the body of the scenario screen shows.
type Page int

// Pages.
const (
	PagePanes     Page = iota // the normal panes
	PageHelp                  // full key help and the legend of marks
	PageStory                 // the scenario's story
	PageCompare               // the family's variants in both modes (c)
	PageNecessity             // which ordering annotations are needed (n)
	PageDiff                  // the what-if: edits, verdicts, source diff (d)
	PagePicture               // the picture of the history: a timeline (p)
	PageSource                // the litmus source, each line with its instructions (i)
	PageFix                   // the minimal fixes (f)
)

// HelpSection is one column of the full help.
type HelpSection struct {
	Title string
	Keys  [][2]string // key, description
}

// OutcomesInput is the outcomes pane's data.
type OutcomesInput struct {
	Running bool
	Spinner string // the spinner's current frame
	Result  *machine.Result
	Err     string
	// Loaded is the row whose witness was loaded last, or -1.
	Loaded int
}

// Rows returns the number of selectable rows: outcomes, then deadlocks,
// then faults.
func (o OutcomesInput) Rows() int {
	if o.Result == nil {
		return 0
	}
	return len(o.Result.Outcomes) + len(o.Result.Deadlocks) + len(o.Result.Faults)
}

// Witness returns the witness of row i (an outcome, a deadlock or a
// fault).
func (o OutcomesInput) Witness(i int) ([]machine.Step, bool) {
	if o.Result == nil || i < 0 {
		return nil, false
	}
	if i < len(o.Result.Outcomes) {
		return o.Result.Outcomes[i].Witness, true
	}
	i -= len(o.Result.Outcomes)
	if i < len(o.Result.Deadlocks) {
		return o.Result.Deadlocks[i].Witness, true
	}
	i -= len(o.Result.Deadlocks)
	if i < len(o.Result.Faults) {
		return o.Result.Faults[i].Witness, true
	}
	return nil, false
}

// noEnd words, for a complete search no execution of which reached the
// end, how they ended ("no execution reached the end: 2 deadlocked"), or
// is "" (the filter pruning executions is not their end).
func noEnd(r *machine.Result) string {
	if r == nil || !r.Complete || len(r.Outcomes) > 0 || r.Pruned > 0 || r.DeadlockStates+r.FaultStates == 0 {
		return ""
	}
	var parts []string
	if r.DeadlockStates > 0 {
		parts = append(parts, fmt.Sprintf("%d deadlocked", r.DeadlockStates))
	}
	if r.FaultStates > 0 {
		parts = append(parts, fmt.Sprintf("%d faulted", r.FaultStates))
	}
	return "no execution reached the end: " + strings.Join(parts, ", ")
}

// OutcomeLine renders an outcome on one line, the litmus way without the
// semicolons: "1:r0=1 1:r1=0". It names the registers and locations the
// scenario's clauses mention, or, when they mention none, every location
// and declared register.
func OutcomeLine(sp *scenarios.Spec, o machine.Outcome) string {
	f := o.Format(sp.Program, sp.Shown)
	if f == "" {
		f = o.Format(sp.Program, func(t int, r machine.Reg, _ machine.Loc, isLoc bool) bool {
			return isLoc || sp.HideReg == nil || !sp.HideReg(t, r)
		})
	}
	return strings.ReplaceAll(strings.TrimSuffix(f, ";"), "; ", " ")
}

// ShownOutcomes is r with the outcomes that read the same on screen
// (OutcomeLine: they differ only in what the clauses do not name, the
// compiler's temporaries among them) made one row, as the verdict counts
// them: in the first one's place, with the final states of all and the
// shortest witness ([scenarios.Spec.ShortestWitness]'s measure). It is r
// itself when no two read the same.
func ShownOutcomes(sp *scenarios.Spec, r *machine.Result) *machine.Result {
	if r == nil || len(r.Outcomes) < 2 {
		return r
	}
	row := make(map[string]int, len(r.Outcomes))
	var merged []machine.OutcomeResult
	for i, o := range r.Outcomes {
		line := OutcomeLine(sp, o.Outcome)
		j, seen := row[line]
		if !seen {
			row[line] = len(row)
			if merged != nil {
				merged = append(merged, o)
			}
			continue
		}
		if merged == nil {
			merged = append(make([]machine.OutcomeResult, 0, len(r.Outcomes)), r.Outcomes[:i]...)
		}
		m := &merged[j]
		m.States += o.States
		if len(o.Witness) < len(m.Witness) || len(o.Witness) == len(m.Witness) && o.Cost < m.Cost {
			m.Witness, m.Cost = o.Witness, o.Cost
		}
	}
	if merged == nil {
		return r
	}
	out := *r
	out.Outcomes = merged
	return &out
}

// finalOutcome is what the last event says in a final state: "Final
// outcome: 1:r0=1 1:r1=0" and, when the scenario has a final clause
// (hasCond), whether its proposition holds there.
func finalOutcome(in ScenarioInput) (text string, hasCond, holds bool) {
	o := in.Mach.Outcome(in.State)
	return "Final outcome: " + OutcomeLine(in.Spec, o), in.Spec.Final != nil, in.Spec.Satisfies(o)
}

// Status is the scenario's state in words: "running", "final",
// "deadlock" or "no execution" (a CPU guessed a branch wrong:
// Machine.Misspeculated).
func Status(m *machine.Machine, s *machine.State) string {
	if _, ok := m.Misspeculated(s); ok {
		return "no execution"
	}
	switch {
	case m.Final(s):
		return "final"
	case m.Deadlocked(s):
		return "deadlock"
	}
	return "running"
}

func itoa(n int) string { return strconv.Itoa(n) }

func renderHeader(in ScenarioInput, st Styles, w int) string {
	sep := st.HeaderDim.Render(" │ ")
	// The parser rejects unprintable names; programs built elsewhere are
	// made safe here all the same.
	name := syntax.Printable(in.Spec.Name)
	if name == "" {
		name = syntax.Printable(in.Spec.Title)
	}
	variant := ""
	if in.Spec.Variant != "" {
		variant = syntax.Printable(in.Spec.Variant)
		for i, x := range in.Variants {
			if x == in.Spec.Variant && len(in.Variants) > 1 {
				variant += fmt.Sprintf(" %d/%d", i+1, len(in.Variants))
			}
		}
	}
	label := "variant "
	if variant == "" && in.Spec.From != "" {
		// A test found in a mail says where: "from <stdin>:12".
		variant, label = "from "+syntax.Printable(in.Spec.From), ""
	}
	mode := "?"
	if in.Mach != nil {
		mode = in.Mach.Mode.Title()
	}
	stepTxt := itoa(in.Cursor)
	if len(in.Steps) > in.Cursor {
		stepTxt += " of " + itoa(len(in.Steps))
	}
	status := ""
	if in.Mach != nil && in.State != nil {
		s := st.Running
		switch Status(in.Mach, in.State) {
		case "final":
			s, status = st.Final, "■ final"
		case "deadlock":
			s, status = st.Deadlock, "✗ deadlock"
		case "no execution":
			s, status = st.Deadlock, "✗ wrong guess"
		default:
			status = "● in progress"
		}
		status = sep + s.Render(status)
	}
	// The tail (mode, step, status) always shows, and the variant whole:
	// what gives way, in turn, is the word "variant", the variant's
	// repetition at the end of the name (ext4-last-group+rel-acq shows
	// as ext4-last-group), the step's words (3/10), and last the name.
	short := strings.TrimSuffix(name, "+"+syntax.Printable(in.Spec.Variant))
	if short == "" || in.Spec.Variant == "" {
		short = name
	}
	stepShort := itoa(in.Cursor)
	if len(in.Steps) > in.Cursor {
		stepShort += "/" + itoa(len(in.Steps))
	}
	tail := func(stepTxt string) string {
		return sep + st.Mode.Render(" "+mode+" ") + sep + st.Header.Render(stepTxt) + status
	}
	head := func(name, label string) string {
		h := st.HeaderTitle.Render(" " + name)
		if variant != "" {
			h += sep + st.Header.Render(label+variant)
		}
		return h
	}
	for _, f := range []struct{ name, label, step string }{
		{name, label, "step " + stepTxt},
		{name, "", "step " + stepTxt},
		{short, "", "step " + stepTxt},
		{short, "", "step " + stepShort},
	} {
		if h := head(f.name, f.label) + tail(f.step); ansi.StringWidth(h) <= w {
			return h
		}
	}
	// Still too wide: the name is cut, never the variant or the tail.
	t := tail("step " + stepShort)
	v := ""
	if variant != "" {
		v = sep + st.Header.Render(variant)
	}
	room := w - ansi.StringWidth(t) - ansi.StringWidth(v)
	return ansi.Truncate(st.HeaderTitle.Render(" "+short), max(room, 2), "…") + v + t
}

func memoryLines(in ScenarioInput, st Styles, w int) []string {
	s := in.State
	p := in.Mach.Prog
	var lines []string
	for l := range p.Locs {
		loc := machine.Loc(l)
		name := p.LocName(loc)
		// Coherence history: x: 0 → 1 (P0, step 3) → 2 (P1, step 7)
		var parts [][]string
		for i, cs := range s.Coherence(loc) {
			v := p.FormatValue(cs.Val)
			if cs.CPU >= 0 {
				v += fmt.Sprintf(" (%s, step %d)", p.Threads[cs.CPU].Name, cs.Step)
			}
			if i > 0 {
				v = "→ " + v
			}
			parts = append(parts, styledWords(st.Coherence.Render, v))
		}
		// A step of the history that does not fit after the name goes on
		// the next line whole: "waiters: 0" / "  → 1 (P1, step 4)".
		lines = append(lines, flowHang(st.LocName.Render(name+":")+" ", parts, w, " ", 2)...)
		owner := "in memory"
		if o := s.Owner(loc); o >= 0 {
			owner = "owner " + p.Threads[o].Name + " (" + s.Cache(o, loc).State.String() + ")"
		}
		info := [][]string{styledWords(st.Latest.Render, "latest "+p.FormatValue(s.Latest(loc))), styledWords(st.Owner.Render, owner)}
		for c := range p.Threads {
			for _, e := range s.StoreBuffer(c) {
				if e.Kind != machine.EntryWmb && e.Loc == loc {
					info = append(info, styledWords(st.Pending.Render, fmt.Sprintf("pending %s=%s in %s", name, p.FormatValue(e.Val), p.Threads[c].Name)))
				}
			}
		}
		lines = append(lines, flowGroups("  ", info, w, " · ")...)
	}
	return lines
}

func renderMemory(in ScenarioInput, st Styles, r Rect, lines []string, off int) string {
	return renderBox(boxSpec{title: "memory", focused: in.Focus == PaneMemory, lines: lines, offset: off}, st, r.W, r.H)
}

func stepLines(in ScenarioInput, st Styles) []string {
	var lines []string
	numW := len(itoa(len(in.Enabled)))
	var redo *machine.Step
	if in.Cursor < len(in.Steps) {
		redo = &in.Steps[in.Cursor]
	}
	for i, step := range in.Enabled {
		sel := "  "
		if in.Focus == PaneSteps && i == in.Sel[PaneSteps] {
			sel = "› "
		}
		num := fmt.Sprintf("%*d", numW, i+1)
		line := sel + st.StepNumber.Render(num) + " " + words.Step(in.Mach, in.State, step)
		if redo != nil && *redo == step {
			line = sel + st.StepNumber.Render(num) + " " + st.StepRedo.Render("→ "+words.Step(in.Mach, in.State, step))
		}
		if in.Focus == PaneSteps && i == in.Sel[PaneSteps] {
			line = st.Selected.Render(ansi.Strip(line))
		}
		lines = append(lines, line)
	}
	if len(in.Enabled) == 0 {
		switch Status(in.Mach, in.State) {
		case "final":
			lines = append(lines, st.Final.Render("■ final state: no steps left"), st.Dim.Render("← to step back, r to reset"))
		case "no execution":
			ms, _ := in.Mach.Misspeculated(in.State)
			lines = append(lines, st.Deadlock.Render("✗ wrong guess: not an execution"),
				st.Dim.Render(in.Mach.Prog.Threads[ms.CPU].Name+" "+words.Wait(in.Mach.Prog, &machine.Wait{Kind: machine.WaitMisspec, CPU: ms.CPU, Misspec: &ms}, words.Full)),
				st.Dim.Render("← to step back, r to reset"))
		default:
			lines = append(lines, st.Deadlock.Render("✗ deadlock: no CPU can move"), st.Dim.Render("← to step back, r to reset"))
		}
	}
	return lines
}

func renderSteps(in ScenarioInput, st Styles, r Rect, lines []string, off int) string {
	title := "steps"
	if in.Digits != "" {
		title += " · take " + in.Digits + "_"
	}
	right := ""
	if in.Cursor < len(in.Steps) {
		right = "→ replays " + itoa(len(in.Steps)-in.Cursor)
	}
	return renderBox(boxSpec{title: title, right: right, focused: in.Focus == PaneSteps, lines: lines, offset: off}, st, r.W, r.H)
}

// eventTagLabels marks the causes a step shows (words.Tags) as labels
// after its read classification: " [STORE→LOAD REORDERING]".
func eventTagLabels(m *machine.Machine, ev machine.Event, st Styles) string {
	out := ""
	for _, t := range words.Tags(m, &ev) {
		// Capitals, but not the instruction named after "after".
		if i := strings.Index(t, " after "); i >= 0 {
			t = strings.ToUpper(t[:i+len(" after ")]) + t[i+len(" after "):]
		} else {
			t = strings.ToUpper(t)
		}
		out += " " + st.NewerPending.Render("["+t+"]")
	}
	return out
}

// readClass returns the label and style of a load's classification.
func readClass(st Styles, c machine.ReadClass) (string, func(...string) string) {
	switch c {
	case machine.Forwarded:
		return "FORWARDED", st.Forwarded.Render
	case machine.Stale:
		return "STALE READ", st.StaleRead.Render
	case machine.NewerPending:
		return "NEWER VALUE PENDING", st.NewerPending.Render
	}
	return "UP TO DATE", st.UpToDate.Render
}

// eventLines is the explanation of the step shown (the last event), its
// title and its lines wrapped at w: what the step did, with the read
// classification; in a final state the outcome (and, at the end of a
// closest attempt, why it gets no nearer, first); the CPUs a closest
// attempt makes wait. The pane scrolls: nothing of it is cut.
func eventLines(in ScenarioInput, st Styles, w int) (string, []string) {
	title := "last event"
	var text string
	if in.Cursor == 0 || in.Cursor > len(in.Events) {
		title = "initial state"
		text = "Every CPU holds every location in S (warm caches); store buffers and queues are empty. Press a step's number to take it, space for a random step, w to load the witness of the condition."
		if in.Attempt != nil {
			text = attemptStart(in.Attempt) + " → steps through it. Every CPU holds every location in S (warm caches); store buffers and queues are empty."
		}
	} else {
		ev := in.Events[in.Cursor-1]
		title = fmt.Sprintf("step %d · %s", in.Cursor, words.StepID(in.Mach, ev.Step))
		text = words.Event(in.Mach, &ev)
		if ev.Load != nil {
			label, render := readClass(st, ev.Load.Class)
			text = render("["+label+"]") + eventTagLabels(in.Mach, ev, st) + " " + text
		}
	}
	var lines []string
	if end := attemptEnd(in); end != nil && in.Mach.Final(in.State) {
		// The end of a closest attempt: why it gets no nearer comes
		// first, in its own paragraph.
		lines = append(lines, wrap(st.Bold.Render(strings.Join(end, " ")), w)...)
	}
	if in.Mach.Final(in.State) {
		out, hasCond, holds := finalOutcome(in)
		switch {
		case holds:
			out += " — " + st.OutcomeMatch.Render("✓ the condition holds")
		case hasCond:
			out += " — the condition does not hold"
		}
		text += " " + out + "."
	}
	for _, wt := range attemptWaits(in) {
		text += " " + st.CPUBlocked.Render("⏸ "+wt+".")
	}
	lines = append(lines, wrap(text, w)...)
	return title, lines
}

func renderEvent(in ScenarioInput, st Styles, r Rect, title string, lines []string, off int) string {
	b := boxSpec{title: title, focused: in.Focus == PaneEvent, lines: lines, offset: off}
	if in.Notice != "" {
		b.right, b.notice = "» "+in.Notice, true
	}
	if in.Focus != PaneEvent && len(lines) > r.H-2 {
		b.bottom = "· shift+tab, ↓" // how to reach it and scroll
	}
	return renderBox(b, st, r.W, r.H)
}

func historyLines(in ScenarioInput, st Styles, w int) []string {
	numW := len(itoa(len(in.Steps)))
	var lines []string
	for i := 0; i <= len(in.Steps); i++ {
		sel := "  "
		if in.Focus == PaneHistory && i == in.Sel[PaneHistory] {
			sel = "› "
		}
		cur := "  "
		switch {
		case i == in.Cursor:
			cur = "▶ "
		case i > in.Cursor:
			cur = "· "
		}
		var text string
		if i == 0 {
			text = "initial state"
		} else {
			step := in.Steps[i-1]
			text = words.StepID(in.Mach, step)
			if i-1 < len(in.Events) {
				ev := &in.Events[i-1]
				if ev.Load != nil && ev.Load.Class == machine.Stale {
					text += " " + st.StaleRead.Render("STALE")
				}
				if ev.Load != nil && len(ev.Load.OwnBuffered) > 0 {
					text += " " + st.NewerPending.Render("S→L") // store→load reordering
				}
				if ev.Instr >= 0 && (step.Kind == machine.StepExec || step.Kind == machine.StepEarly) {
					text += "  " + strings.TrimSpace(in.Mach.Prog.Threads[step.CPU].Code[ev.Instr].Text)
				}
				if ev.Commit != nil && step.Kind == machine.StepCommit {
					text += "  " + in.Mach.Prog.LocName(ev.Commit.Loc) + "=" + in.Mach.Prog.FormatValue(ev.Commit.Val)
				}
			}
		}
		line := sel + cur + fmt.Sprintf("%*d ", numW, i) + text
		switch {
		case in.Focus == PaneHistory && i == in.Sel[PaneHistory]:
			line = st.Selected.Render(ansi.Strip(line))
		case i == in.Cursor:
			line = st.HistoryNow.Render(line)
		case i > in.Cursor:
			line = st.HistoryFuture.Render(ansi.Strip(line))
		}
		lines = append(lines, line)
	}
	return lines
}

func renderHistory(in ScenarioInput, st Styles, r Rect, title string, lines []string, off int) string {
	if title == "" {
		title = "history"
	}
	return renderBox(boxSpec{title: title, focused: in.Focus == PaneHistory, lines: lines, offset: off}, st, r.W, r.H)
}

// outcomeRows is the outcomes pane's content: the header (the condition
// and the verdict, which stay in view), the rows' lines below it (a row
// that does not fit the width wraps under itself rather than being cut)
// and where each row starts among them, and the text of the bottom
// border.
type outcomeRows struct {
	head, lines []string
	start       []int // start[i] is the first line of row i
	rowLines    int   // the lines that belong to rows (others follow)
	bottom      string
}

// rowOf returns the row that line l of the rows belongs to.
func (o outcomeRows) rowOf(l int) (int, bool) {
	if l < 0 || l >= o.rowLines {
		return 0, false
	}
	return lineItem(o.start, l), true
}

// linesOf returns the first and last line of row i.
func (o outcomeRows) linesOf(i int) (first, last int) {
	if i < 0 || i >= len(o.start) {
		return 0, 0
	}
	first, last = o.start[i], o.rowLines-1
	if i+1 < len(o.start) {
		last = o.start[i+1] - 1
	}
	return first, last
}

func outcomeLines(in ScenarioInput, st Styles, w int) outcomeRows {
	var out outcomeRows
	// The verdict first, then the condition it is about: a long
	// condition in a short pane leaves the verdict in view.
	out.head = append(outcomeVerdict(in, st, w), conditionLines(in, st, w)...)
	if r := in.Outcome.Result; r != nil {
		out.addRows(in, st, w)
		// Outcomes an edit made vanish follow the rows; they are no rows.
		out.rowLines = len(out.lines)
		out.lines = append(out.lines, vanishedLines(in, st)...)
		out.bottom = outcomeBottom(r, w)
	}
	return out
}

// conditionLines is the condition the outcomes are about, wrapped.
func conditionLines(in ScenarioInput, st Styles, w int) []string {
	cond := in.Spec.Condition()
	if cond == "" {
		cond = "no condition"
	}
	var condLines []string
	for _, l := range textwrap.Words(cond, w, w-2, false) {
		if len(condLines) > 0 {
			l = "  " + l
		}
		condLines = append(condLines, st.Condition.Render(l))
	}
	return condLines
}

// outcomeVerdict is the verdict line (or what stands in for it: an
// error, the search running, a what-if's comparison), wrapped.
func outcomeVerdict(in ScenarioInput, st Styles, w int) []string {
	o := in.Outcome
	mode := in.Mach.Mode.Title()
	var head []string
	switch {
	case in.WhatIf != nil && o.Err == "":
		head = append(head, whatIfHead(in, st, w)...)
	case o.Err != "":
		head = append(head, wrapIndented("", st.Error.Render("✗ "+o.Err), w)...)
	case o.Running:
		head = append(head, st.Spinner.Render(o.Spinner)+" exploring every "+mode+" execution…")
	case o.Result == nil:
		head = append(head, st.Dim.Render("not explored yet"))
	default:
		var core string
		var v scenarios.Verdict
		switch {
		case !o.Result.Complete:
			// A limit stopped the search: what it found, and no verdict
			// (the bottom border says where it stopped).
			core = st.Error.Render("verdict unknown") + fmt.Sprintf(" · %d outcomes so far", len(o.Result.Outcomes))
			if in.Spec.Final != nil {
				v = in.Spec.Verdict(o.Result)
				core = st.Error.Render("verdict unknown") + fmt.Sprintf(" · %d so far, %d ✓", v.Positive+v.Negative, v.Positive)
			}
		case in.Spec.Final == nil:
			core = itoa(len(o.Result.Outcomes)) + " outcomes"
		default:
			v = in.Spec.Verdict(o.Result)
			core = st.Verdict.Render(string(v.Observation)) + fmt.Sprintf(" %d/%d", v.Positive, v.Positive+v.Negative)
		}
		// One form everywhere: "ARM-like: Sometimes 1/4 · LKMM:
		// Sometimes", wrapped between its parts rather than shortened.
		expected := in.Spec.Expected
		if !o.Result.Complete {
			expected = "" // no verdict anywhere, not even the one to compare with
		}
		for i, l := range textwrap.Items(verdictParts(mode, core, expected, st, w-2), " ", w, w-2, false) {
			if i > 0 {
				l = "  " + l
			}
			head = append(head, l)
		}
		if ne := noEnd(o.Result); ne != "" {
			head = append(head, wrapIndented("", st.Error.Render("✗ "+ne), w)...)
		}
	}
	return head
}

// addRows adds the outcome rows: a selection mark and an outcome mark,
// then its text, wrapping under itself; the deadlocks and faults follow.
func (out *outcomeRows) addRows(in ScenarioInput, st Styles, w int) {
	o := in.Outcome
	add := func(selected bool, mark string, items []string, style func(...string) string) {
		sel := "  "
		if selected {
			sel = "› "
		}
		out.start = append(out.start, len(out.lines))
		for j, l := range textwrap.Items(items, " ", w-4, w-4, false) {
			lead := sel + mark
			if j > 0 {
				lead = "    "
			}
			if selected {
				out.lines = append(out.lines, st.Selected.Render(lead+l))
			} else {
				out.lines = append(out.lines, style(lead+l))
			}
		}
	}
	row := 0
	before := in.beforeOutcomes()
	for _, or := range o.Result.Outcomes {
		mk := "  "
		holds := in.Spec.Satisfies(or.Outcome)
		kept := in.Spec.Kept(or.Outcome)
		if holds && kept {
			mk = "✓ "
		}
		if row == o.Loaded {
			mk = "▶ "
		}
		items := strings.Fields(OutcomeLine(in.Spec, or.Outcome))
		style := func(x ...string) string { return strings.Join(x, "") }
		if before != nil && !before[OutcomeLine(in.Spec, or.Outcome)] {
			items = append(items, "new")
		}
		switch {
		case !kept:
			items = append(items, "(filtered)")
			style = st.Dim.Render
		case holds:
			style = st.OutcomeMatch.Render
		}
		add(in.Focus == PaneOutcomes && row == in.Sel[PaneOutcomes], mk, items, style)
		row++
	}
	for _, d := range o.Result.Deadlocks {
		mk := "✗ "
		if row == o.Loaded {
			mk = "▶ "
		}
		add(in.Focus == PaneOutcomes && row == in.Sel[PaneOutcomes], mk, strings.Fields("deadlock: "+strings.Join(words.Deadlock(in.Mach.Prog, &d), "; ")), st.Deadlock.Render)
		row++
	}
	for _, f := range o.Result.Faults {
		mk := "✗ "
		if row == o.Loaded {
			mk = "▶ "
		}
		add(in.Focus == PaneOutcomes && row == in.Sel[PaneOutcomes], mk, strings.Fields("fault: "+words.Fault(in.Mach.Prog, &f.Fault)), st.Deadlock.Render)
		row++
	}
}

// outcomeBottom is the bottom border's text: the states explored, or
// where the search stopped, as much as the border holds.
func outcomeBottom(r *machine.Result, w int) string {
	if r.Complete {
		return fmt.Sprintf("%d states", r.States)
	}
	bottom := words.Summary(r)
	if ansi.StringWidth(bottom)+3 > w {
		bottom = "stopped: " + words.Stop(r.Stop)
	}
	return bottom
}

// verdictParts is the one form of a verdict on screen, in the parts it
// wraps between: the mode and the verdict with its counts ("ARM-like:
// Sometimes 1/4"), then LKMM's when the scenario records it ("· LKMM:
// Sometimes"). The what-if's before → after and the compare table use
// the same words (whatif.go, analysis.go).
func verdictParts(mode, core string, expected syntax.Observation, st Styles, w int) []string {
	var parts []string
	for _, p := range strings.Split(mode+": "+core, " · ") {
		if len(parts) > 0 {
			p = "· " + p
		}
		parts = append(parts, p)
	}
	if expected != "" {
		parts = append(parts, st.Dim.Render("· LKMM: "+string(expected)))
	}
	// A part wider than a line breaks between its words.
	var out []string
	for _, p := range parts {
		if ansi.StringWidth(p) > w {
			out = append(out, strings.Fields(p)...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// renderOutcomes draws the outcomes pane: the header stays in view, the
// rows' lines below it scroll.
func renderOutcomes(in ScenarioInput, st Styles, r Rect, title string, o outcomeRows, off int) string {
	if title == "" {
		title = "outcomes"
	}
	off = clamp(off, 0, max(len(o.lines)-(r.H-2-len(o.head)), 0))
	lines := append(append([]string{}, o.head...), o.lines[off:]...)
	right := ""
	if off > 0 {
		right = "▲"
	}
	return renderBox(boxSpec{title: title, right: right, focused: in.Focus == PaneOutcomes, lines: lines, bottom: o.bottom}, st, r.W, r.H)
}

func helpPageLines(in ScenarioInput, st Styles, w int) []string {
	// Each section is a column: keys padded to the section's widest key,
	// then descriptions. Columns are packed into rows that fit w.
	type column struct {
		lines []string
		width int
	}
	var cols []column
	for _, sec := range in.Help {
		keyW, width := 0, ansi.StringWidth(sec.Title)
		for _, k := range sec.Keys {
			keyW = max(keyW, ansi.StringWidth(k[0]))
		}
		c := column{lines: []string{st.HelpSection.Render(sec.Title)}}
		for _, k := range sec.Keys {
			line := st.HelpKey.Render(fit(k[0], keyW)) + "  " + st.HelpDesc.Render(k[1])
			c.lines = append(c.lines, line)
			width = max(width, ansi.StringWidth(line))
		}
		c.width = width + 4
		cols = append(cols, c)
	}
	var lines []string
	for i := 0; i < len(cols); {
		j, used := i, 0
		for j < len(cols) && (j == i || used+cols[j].width <= w-2) {
			used += cols[j].width
			j++
		}
		rows := 0
		for _, c := range cols[i:j] {
			rows = max(rows, len(c.lines))
		}
		for y := 0; y < rows; y++ {
			var b strings.Builder
			for _, c := range cols[i:j] {
				cell := ""
				if y < len(c.lines) {
					cell = c.lines[y]
				}
				b.WriteString(fit(cell, c.width))
			}
			lines = append(lines, " "+b.String())
		}
		lines = append(lines, "")
		i = j
	}
	if len(in.Legend) > 0 {
		lines = append(lines, " "+st.HelpSection.Render("Marks"))
		keyW := 0
		for _, l := range in.Legend {
			keyW = max(keyW, ansi.StringWidth(l[0]))
		}
		for _, l := range in.Legend {
			lines = append(lines, wrapIndented(" "+st.HelpKey.Render(fit(l[0], keyW))+"  ", l[1], w-2)...)
		}
	}
	return lines
}

func storyPageLines(in ScenarioInput, st Styles, w int) []string {
	tw := min(w-4, 76)
	var lines []string
	sp := in.Spec
	if sp.Title != "" {
		lines = append(lines, wrap(st.Bold.Render(sp.Title), tw)...)
	}
	meta := sp.Name
	if sp.Family != "" {
		meta += " · family " + sp.Family
	}
	if len(in.Variants) > 0 {
		meta += " · variants " + strings.Join(in.Variants, ", ")
	}
	lines = append(lines, wrap(st.Dim.Render(meta), tw)...)
	if sp.Source != "" {
		lines = append(lines, wrapIndented(st.Label.Render("source "), sp.Source, tw)...)
	}
	if c := sp.Condition(); c != "" {
		if sp.Expected != "" {
			c += "   (LKMM: " + string(sp.Expected) + ")"
		}
		lines = append(lines, wrapIndented(st.Label.Render("asks   "), st.Condition.Render(c), tw)...)
	}
	lines = append(lines, "")
	story := sp.Story
	if strings.TrimSpace(story) == "" {
		// A file without a Story: line: its comment and its source say
		// what it is about.
		lines = append(lines, wrap(st.Dim.Render("This test has no Story: line; here are its comment and its source, each line with the instructions compiled from it (i shows the source alone)."), tw)...)
		lines = append(lines, "")
		for i := range lines {
			lines[i] = " " + lines[i]
		}
		return append(lines, sourceLines(in, st, w)...)
	}
	for _, para := range strings.Split(strings.TrimSpace(story), "\n\n") {
		para = strings.Join(strings.Fields(para), " ")
		lines = append(lines, wrap(para, tw)...)
		lines = append(lines, "")
	}
	for i := range lines {
		lines[i] = " " + lines[i]
	}
	return lines
}

// sourceLines is the source page: the scenario's litmus source (the
// edited one, for a what-if) as Format writes it, each line with the
// instructions compiled from it in a gutter, by the numbers the CPU
// columns, the edits and the step IDs use ("P0:2"); its leading comment
// only when it has no story (the story page shows that). A program
// built without litmus source lists its instructions.
func sourceLines(in ScenarioInput, st Styles, w int) []string {
	listing := in.Spec.Listing()
	if listing == nil {
		for c, th := range in.Mach.Prog.Threads {
			listing = append(listing, scenarios.ListingLine{Text: th.Name + ":"})
			for i, ins := range th.Code {
				listing = append(listing, scenarios.ListingLine{Text: "\t" + strings.TrimSpace(ins.Text), Instrs: []string{words.Instr(in.Mach.Prog, c, i)}})
			}
		}
	}
	gw := 0
	for _, l := range listing {
		gw = max(gw, ansi.StringWidth(strings.Join(l.Instrs, ",")))
	}
	var lines []string
	for _, l := range listing {
		if l.Header && strings.TrimSpace(in.Spec.Story) != "" {
			continue // the story page has it; the code comes first here
		}
		gutter := st.InstrNumber.Render(fit(strings.Join(l.Instrs, ","), gw))
		text := syntax.Printable(expandTabs(l.Text))
		for j, part := range wrapCode(text, max(w-gw-4, 10)) {
			if j > 0 {
				gutter = strings.Repeat(" ", gw)
				part = "  " + part
			}
			lines = append(lines, strings.TrimRight(" "+gutter+"  "+part, " "))
		}
	}
	return lines
}

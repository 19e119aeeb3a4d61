package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
	"smpscope/views/textwrap"
)

// The two analyses (compare: a family's variants in both modes; why: which
// ordering annotations are needed) are worded once, as a document of
// blocks, and rendered twice: for the UI's panels (styled, any width)
// and as plain text for a mail (72 columns) or markdown.

// AnalysisInput is what the compare and necessity pages show: a result,
// or the spinner while it is computed in the background.
type AnalysisInput struct {
	Running bool
	Spinner string // the spinner's current frame
	Err     string
	// What says what is being computed, e.g. "4 variants × 2 modes".
	What      string
	Compare   *scenarios.CompareTable
	Necessity *scenarios.NecessityReport
	Fix       *scenarios.FixReport
	// Current is the name of the scenario open now (its row of the
	// compare table is marked).
	Current string
	// Sel is the item selected on the necessity page (an annotation) or
	// the fix page (a fix, in FixItems order): enter acts on it.
	Sel int
}

// SelMark starts the line of the item selected on a panel.
const SelMark = "›"

// FixItems are the fixes of a report in the order the fix page lists
// them: those of both modes, then each mode's.
func FixItems(r *scenarios.FixReport) []scenarios.Fix {
	items := append([]scenarios.Fix(nil), r.Both...)
	for _, fm := range r.Modes {
		items = append(items, fm.Fixes...)
	}
	return items
}

// ReportWidth is the width of the plain-text reports: what mail clients
// and patch reviews expect.
const ReportWidth = 72

// blockKind says how a block of a document is set.
type blockKind uint8

const (
	bodyBlock    blockKind = iota // a paragraph
	titleBlock                    // the document's title (bold)
	noteBlock                     // a secondary paragraph (dim)
	blankBlock                    // an empty line
	tableBlock                    // a table
	commandBlock                  // a command line to paste: its words (steps) wrap with "\" continuations
)

// command is a block that sets a shell command ready to paste: lead
// ("Replay:"), then the command, its words (each kept whole, "--edit
// P0:2-wmb" one word) wrapped with a backslash ending each line but the
// last, as shells read them.
func command(indent int, lead string, words ...string) block {
	return block{kind: commandBlock, indent: indent, text: lead, steps: words}
}

// lead is the space after a command's lead, if it has one.
func lead(text string) string {
	if text == "" {
		return ""
	}
	return " "
}

// commandLines sets a command's words in lines of at most w cells after
// the first line's prefix first and the others' rest.
func commandLines(first, rest string, words []string, w int) []string {
	var out []string
	line := first
	for i, word := range words {
		sep := " "
		if i == 0 || line == rest {
			sep = ""
		}
		if line != first && line != rest && ansi.StringWidth(line+sep+word)+2 > w {
			out = append(out, line+" \\")
			line, sep = rest, ""
		}
		line += sep + word
	}
	return append(out, line)
}

// block is one part of an analysis document.
type block struct {
	kind blockKind
	head string // set in bold before text on the panels
	text string
	// indent is the nesting level: 0 for top-level paragraphs.
	indent int
	// steps, when set, is a witness listed under text, step IDs kept
	// whole.
	steps []string
	tbl   *table
}

func para(text string) block { return block{text: text} }
func note(text string) block { return block{kind: noteBlock, text: text} }
func blank() block           { return block{kind: blankBlock} }

// stepItems lists a witness as step IDs, comma-separated:
// "P0 exec,", "P0 commit #2,", …, "P1 exec".
func stepItems(p *machine.Program, mode machine.Mode, steps []machine.Step) []string {
	m, err := machine.New(p, mode)
	if err != nil {
		return []string{fmt.Sprintf("(%d steps)", len(steps))}
	}
	ids := make([]string, len(steps))
	for i, s := range steps {
		ids[i] = words.StepID(m, s)
		if i < len(steps)-1 {
			ids[i] += ","
		}
	}
	return ids
}

// textLines renders a document as plain text in w columns: a headed or
// nested paragraph (and the title) hangs its continuation lines by two,
// and step lists are indented by four.
func textLines(doc []block, w int) []string {
	var out []string
	for _, b := range doc {
		ind := strings.Repeat("  ", b.indent)
		hang := ind
		if b.head != "" || b.indent > 0 || b.kind == titleBlock {
			hang += "  "
		}
		switch b.kind {
		case blankBlock:
			out = append(out, "")
		case tableBlock:
			out = append(out, b.tbl.text(true)...)
		case commandBlock:
			out = append(out, commandLines(strings.TrimRight(ind+b.text+" ", " ")+lead(b.text), ind+"    ", b.steps, w)...)
			continue
		default:
			text := b.text
			if b.head != "" {
				text = b.head + ": " + text
			}
			out = append(out, paragraph(ind, hang, text, w, false)...)
		}
		if len(b.steps) > 0 {
			const step = "    "
			for _, l := range textwrap.Items(b.steps, " ", w-len(step), w-len(step), false) {
				out = append(out, step+l)
			}
		}
	}
	return out
}

// panelLines renders a document for a panel w cells wide: a margin of
// one cell, styled.
func panelLines(doc []block, st Styles, w int) []string {
	tw := w - 2
	var out []string
	for _, b := range doc {
		ind := " " + strings.Repeat("  ", b.indent)
		switch b.kind {
		case blankBlock:
			out = append(out, "")
		case tableBlock:
			out = append(out, b.tbl.text(false)...)
		case titleBlock:
			out = append(out, wrapIndented(ind, st.Bold.Render(b.text), tw)...)
		case noteBlock:
			out = append(out, wrapIndented(ind, st.Dim.Render(b.text), tw)...)
		case commandBlock:
			out = append(out, commandLines(strings.TrimRight(ind+b.text+" ", " ")+lead(b.text), ind+"    ", b.steps, tw)...)
			continue
		default:
			text := b.text
			if b.head != "" {
				text = st.Bold.Render(b.head) + ": " + text
			}
			out = append(out, wrapIndented(ind, text, tw)...)
		}
		if len(b.steps) > 0 {
			step := ind + "  "
			for _, l := range textwrap.Items(b.steps, " ", tw-len(step), tw-len(step), false) {
				out = append(out, step+l)
			}
		}
	}
	return out
}

// ---- Compare ----

// compareTable is the family's table: a row per variant, a cell per
// mode, and the LKMM verdict when any variant records one. style styles
// a cell (the panel marks answers; plain text does not).
func compareTable(t scenarios.CompareTable, style func(scenarios.CompareCell, string) string) table {
	tb := table{header: []string{"Variant"}}
	for _, m := range t.Modes {
		tb.header = append(tb.header, m.Title())
	}
	lkmm := t.HasExpected()
	if lkmm {
		tb.header = append(tb.header, "LKMM")
	}
	for _, r := range t.Rows {
		row := []string{r.Label}
		for _, c := range r.Cells {
			row = append(row, style(c, c.Text()))
		}
		if lkmm {
			res := string(r.Spec.Expected)
			if res == "" {
				res = "-"
			}
			row = append(row, res)
		}
		tb.rows = append(tb.rows, row)
	}
	return tb
}

// compareNotes explains the table's cells.
func compareNotes(t scenarios.CompareTable) []string {
	notes := []string{"Cells: how often the condition holds (Never / Sometimes / Always), then the final states satisfying it out of all final states."}
	if t.Deadlock() {
		notes = append(notes, "*: the search also reached deadlocked states.")
	}
	if t.Fault() {
		notes = append(notes, "!: some executions faulted (an instruction the machine cannot perform); they are no outcomes.")
	}
	if t.NoEnd() {
		notes = append(notes, "no final state: no execution reached the end, so the verdict holds of none.")
	}
	if t.Incomplete() {
		notes = append(notes, "?: a limit stopped the search, so the verdict is unknown; the counts are what it found so far.")
	}
	return notes
}

// compareConditions are the variants' final clauses when they differ
// (when they are the same, the title names it).
func compareConditions(t scenarios.CompareTable) [][2]string {
	if _, shared := t.Condition(); shared {
		return nil
	}
	var out [][2]string
	for _, r := range t.Rows {
		out = append(out, [2]string{r.Label, r.Spec.Condition()})
	}
	return out
}

// compareTitle is "Family mp: exists (…)", or the family alone when the
// variants ask different questions.
func compareTitle(t scenarios.CompareTable, current string) string {
	head := t.Title
	if head == "" {
		head = current
	}
	if cond, shared := t.Condition(); shared {
		head += ": " + cond
	}
	return head
}

// CompareReport renders a family's table for a mail: plain text in 72
// columns, or markdown.
func CompareReport(t scenarios.CompareTable, markdown bool) string {
	tb := compareTable(t, func(_ scenarios.CompareCell, s string) string { return s })
	var out []string
	if markdown {
		head := "**" + t.Title + "**"
		if t.Family != "" {
			head = "**" + t.Family + "**"
		}
		if cond, shared := t.Condition(); shared {
			head += ": " + mdCode(cond)
		}
		out = append(out, head, "")
		out = append(out, tb.markdown()...)
	} else {
		out = append(out, paragraph("", "  ", compareTitle(t, ""), ReportWidth, false)...)
		out = append(out, "")
		out = append(out, tb.text(true)...)
	}
	out = append(out, "")
	legend := false
	for _, r := range t.Rows {
		if l := r.Legend(); l != "" {
			if markdown {
				out = append(out, r.Label+": "+mdCode(l))
			} else {
				out = append(out, paragraph("", "  ", r.Label+": "+l, ReportWidth, false)...)
			}
			legend = true
		}
	}
	if legend {
		out = append(out, "")
	}
	if conds := compareConditions(t); conds != nil {
		for _, c := range conds {
			if markdown {
				out = append(out, c[0]+": "+mdCode(c[1]))
			} else {
				out = append(out, paragraph("", "  ", c[0]+": "+c[1], ReportWidth, false)...)
			}
		}
		out = append(out, "")
	}
	for _, n := range compareNotes(t) {
		out = append(out, paragraph("", "", n, ReportWidth, false)...)
	}
	return lines(out)
}

// compareLines is the compare page: every variant of the family in both
// modes, the open variant marked.
func compareLines(in ScenarioInput, st Styles, w int) []string {
	a := in.Analysis
	t := a.Compare
	if t == nil {
		return analysisStatus(a, st, w)
	}
	tw := w - 2
	var lines []string
	current := ""
	if in.Spec != nil {
		current = in.Spec.Name
	}
	lines = append(lines, wrapIndented(" ", st.Bold.Render(compareTitle(*t, current)), tw)...)
	lines = append(lines, "")
	tb := compareTable(*t, func(c scenarios.CompareCell, s string) string {
		switch {
		case c.Err != nil || !c.Complete:
			return st.Error.Render(s)
		case c.Verdict.Positive > 0:
			return st.OutcomeMatch.Render(s)
		}
		return s
	})
	for i := range tb.header {
		tb.header[i] = st.Label.Render(tb.header[i])
	}
	tb.marks = []string{"   "}
	for i, r := range t.Rows {
		mark := "   "
		if r.Spec.Name == a.Current {
			mark = " ▶ "
			tb.rows[i][0] = st.Bold.Render(tb.rows[i][0])
		}
		tb.marks = append(tb.marks, mark)
	}
	lines = append(lines, tb.text(false)...)
	lines = append(lines, "")
	if conds := compareConditions(*t); conds != nil {
		for _, c := range conds {
			lines = append(lines, wrapIndented(" "+c[0]+": ", st.Condition.Render(c[1]), tw)...)
		}
		lines = append(lines, "")
	}
	// Where the modes disagree: the rows a reviewer looks at.
	for _, r := range t.Rows {
		if len(r.Cells) == 2 && r.Cells[0].Complete && r.Cells[1].Complete && r.Cells[0].Err == nil && r.Cells[1].Err == nil &&
			r.Cells[0].Verdict.Observation != r.Cells[1].Verdict.Observation {
			lines = append(lines, wrapIndented(" • ", fmt.Sprintf("%s: %s in %s mode, %s in %s mode", r.Label,
				r.Cells[0].Verdict.Observation, t.Modes[0].Title(), r.Cells[1].Verdict.Observation, t.Modes[1].Title()), tw)...)
		}
	}
	notes := compareNotes(*t)
	if len(t.Rows) > 1 {
		notes = append(notes, "▶ the variant open now; v opens the next.")
	}
	lines = append(lines, "")
	for _, n := range notes {
		lines = append(lines, wrapIndented(" ", st.Dim.Render(n), tw)...)
	}
	return lines
}

// ---- Necessity (why) ----

// necessityHints are what a front-end adds to a necessity report:
// after "no annotation can be needed" in a mode where the outcome
// happens as written, how to see it; after a witness, how to replay it
// (the edits are the weakened scenario's, as --edit takes them; "" says
// nothing).
type necessityHints struct {
	happens func(machine.Mode) string
	replay  func(machine.Mode, []scenarios.Edit) (block, bool)
}

// specHead is what an analysis report of sp starts with: its name and
// condition, its title, and the edits it was made with.
func specHead(sp *scenarios.Spec) []block {
	doc := []block{{kind: titleBlock, text: sp.Name + ": " + sp.Condition()}}
	if sp.Title != "" {
		doc = append(doc, para(sp.Title))
	}
	if len(sp.Edits) > 0 {
		doc = append(doc, para("Edited: "+scenarios.EditFlags(sp.Edits)))
	}
	return doc
}

// necessityDoc words a necessity report; table is the annotation × mode
// table, for the panel.
func necessityDoc(r scenarios.NecessityReport, hints necessityHints, tbl *table) []block {
	sp := r.Spec
	hint := hints.happens
	doc := specHead(sp)
	doc = append(doc, blank())

	// As written: only where the outcome is unreachable can an
	// annotation be needed.
	var parts []string
	open, known := 0, 0
	for j, mode := range r.Modes {
		a := r.AsWritten[j]
		switch {
		case !a.Known():
			parts = append(parts, fmt.Sprintf("unknown in %s mode (%s)", mode.Title(), a.StopText()))
		case a.Reachable:
			parts = append(parts, fmt.Sprintf("already reachable in %s mode", mode.Title()))
			known++
		default:
			parts = append(parts, fmt.Sprintf("unreachable in %s mode", mode.Title()))
			open++
			known++
		}
	}
	if len(parts) == 2 && open == 2 {
		parts = []string{"unreachable in both modes"}
	}
	doc = append(doc, para(fmt.Sprintf("As written, %s is %s.", sp.AskedWords(), strings.Join(parts, " and "))))
	for j, mode := range r.Modes {
		if a := r.AsWritten[j]; a.Known() && a.Reachable {
			doc = append(doc, para(fmt.Sprintf("In %s mode no annotation can be needed: the outcome happens with all of them%s.", mode.Title(), hint(mode))))
		}
	}
	doc = append(doc, blank())
	switch {
	case len(r.Annotations) == 0 && len(r.Fixed) > 0:
		return append(doc, para(sp.Name+" has no barrier, acquire, release or ordered RMW an edit can weaken ("+strings.Join(r.Fixed, ", ")+" have no relaxed form)."))
	case len(r.Annotations) == 0:
		return append(doc, para(sp.Name+" has no barrier, acquire, release or ordered RMW to weaken."))
	case open == 0 && known == len(r.Modes):
		return append(doc, para("The outcome is reachable as written in every mode asked about, so there is nothing to weaken."))
	case open == 0:
		return append(doc, para("No mode asked about is known to make the outcome unreachable, so whether an annotation is needed cannot be said."))
	}
	if tbl != nil {
		doc = append(doc, block{kind: tableBlock, tbl: tbl}, blank())
	}

	for i, a := range r.Annotations {
		doc = append(doc, block{head: a.Weakening.String(), text: r.Verdict(i)})
		how := "with " + a.To
		if a.Edit.Op == scenarios.RemoveBarrier {
			how = "without it"
		}
		for j, mode := range r.Modes {
			if r.Need(i, j) == scenarios.Needed {
				run := a.Runs[j]
				doc = append(doc, block{indent: 1, text: fmt.Sprintf("%s mode %s reaches the outcome in %d steps:", mode.Title(), how, len(run.Witness)), steps: stepItems(a.Spec.Program, mode, run.Witness)})
				if hints.replay != nil {
					if h, ok := hints.replay(mode, a.Spec.Edits); ok {
						doc = append(doc, h)
					}
				}
			}
		}
	}
	if len(r.Fixed) > 0 {
		doc = append(doc, blank(), para("Not asked about: "+strings.Join(r.Fixed, ", ")+" (no edit can weaken an RMW without a relaxed form)."))
	}

	// Annotations that back each other up: none needed alone, all together.
	if r.All != nil {
		allN := fmt.Sprintf("all %d", len(r.Annotations))
		if len(r.Annotations) == 2 {
			allN = "both"
		}
		for j, mode := range r.Modes {
			run := r.All.Runs[j]
			var b block
			switch r.Together(j) {
			case scenarios.TogetherUnknown:
				b = para(fmt.Sprintf("In %s mode no annotation is needed on its own; weakening %s together could not be decided (%s).", mode.Title(), allN, run.StopText()))
			case scenarios.TogetherNeeded:
				b = para(fmt.Sprintf("In %s mode none of them is needed on its own, but all of them together are: weakening %s makes the outcome reachable, so they back each other up and not all of them can go. Shortest witness (%d steps):", mode.Title(), allN, len(run.Witness)))
				b.steps = stepItems(r.All.Spec.Program, mode, run.Witness)
				if hints.replay != nil {
					if h, ok := hints.replay(mode, r.All.Spec.Edits); ok {
						doc = append(doc, blank(), b, h)
						continue
					}
				}
			case scenarios.TogetherNotNeeded:
				b = para(fmt.Sprintf("In %s mode even weakening %s together leaves the outcome unreachable: none of these annotations is needed there.", mode.Title(), allN))
			default:
				continue
			}
			doc = append(doc, blank(), b)
		}
	}
	return doc
}

// WhyReport renders a necessity report for a mail, in 72 columns; arg is
// how the scenario was named on the command line (for the trace command
// it suggests).
func WhyReport(r scenarios.NecessityReport, arg string) string {
	hint := func(m machine.Mode) string {
		return fmt.Sprintf(" (see smpscope trace %s --mode %s)", ShellQuote(arg), m)
	}
	replay := func(m machine.Mode, edits []scenarios.Edit) (block, bool) {
		return command(1, "Replay:", editCommand("smpscope trace "+ShellQuote(arg)+" --mode "+m.String(), edits)...), true
	}
	doc := necessityDoc(r, necessityHints{happens: hint, replay: replay}, nil)
	doc[0].text = "why " + doc[0].text
	return lines(textLines(doc, ReportWidth))
}

// needCell words one annotation's answer in one mode for the table.
func needCell(st Styles, r *scenarios.NecessityReport, i, j int) string {
	switch r.Need(i, j) {
	case scenarios.Needed:
		return st.Error.Render(fmt.Sprintf("NEEDED · %d steps", len(r.Annotations[i].Runs[j].Witness)))
	case scenarios.NotNeeded:
		return st.Dim.Render("not needed")
	case scenarios.NeedUnknown:
		return st.Error.Render("? unknown")
	}
	return st.Dim.Render("– (happens anyway)")
}

// necessityLines is the necessity page: per annotation and mode, whether
// weakening it makes the outcome reachable, with the shortest witness.
func necessityLines(in ScenarioInput, st Styles, w int) []string {
	a := in.Analysis
	r := a.Necessity
	if r == nil {
		return analysisStatus(a, st, w)
	}
	tb := table{header: []string{st.Label.Render("annotation")}, marks: []string{"  "}}
	for _, m := range r.Modes {
		tb.header = append(tb.header, st.Label.Render(m.Title()))
	}
	for i, an := range r.Annotations {
		row := []string{an.Weakening.String()}
		for j := range r.Modes {
			row = append(row, needCell(st, r, i, j))
		}
		tb.rows = append(tb.rows, row)
		mark := "  "
		if i == a.Sel {
			mark = st.Bold.Render(SelMark) + " "
		}
		tb.marks = append(tb.marks, mark)
	}
	hint := func(machine.Mode) string { return " (w loads its witness)" }
	doc := append(necessityDoc(*r, necessityHints{happens: hint}, &tb), blank(),
		note("Each barrier, acquire, release and ordered RMW is weakened on its own (barrier removed, acquire → READ_ONCE, release → WRITE_ONCE, RMW → relaxed) and the scenario explored again: it is needed where the outcome then becomes reachable. ↑/↓ select an annotation; enter loads the witness without it (a what-if, u undoes it)."))
	return panelLines(doc, st, w)
}

// fixLines is the fix page: the minimal fixes, the one selected marked;
// enter applies it as a what-if.
func fixLines(in ScenarioInput, st Styles, w int) []string {
	a := in.Analysis
	if a.Fix == nil {
		return analysisStatus(a, st, w)
	}
	doc := append(fixDoc(*a.Fix, a.Sel, st.Bold.Render(SelMark)), blank(),
		note("↑/↓ select a fix; enter applies it as a what-if (u undoes it, d shows the diff, S saves the fixed test)."))
	return panelLines(doc, st, w)
}

// SelLine is the line of lines (a panel's) that starts with SelMark, or
// -1: the panel scrolls to show it.
func SelLine(lines []string) int {
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(ansi.Strip(l), " "), SelMark) {
			return i
		}
	}
	return -1
}

// analysisStatus returns the lines shown while a result is not there.
func analysisStatus(a AnalysisInput, st Styles, w int) []string {
	switch {
	case a.Running:
		what := "exploring"
		if a.What != "" {
			what += " " + a.What
		}
		return wrapIndented(" "+st.Spinner.Render(a.Spinner)+" ", what+"… (esc cancels; keys keep working)", w)
	case a.Err != "":
		return wrapIndented(" "+st.Error.Render("✗")+" ", a.Err, w)
	}
	return []string{" " + st.Dim.Render("nothing computed yet")}
}

// ShellQuote quotes a path or name for a shell command line when it
// needs it, for the commands messages suggest.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// editCommand is a command's words with --edit flags: the command, then
// "--edit E" for each edit, each one word for commandLines.
func editCommand(cmd string, edits []scenarios.Edit) []string {
	words := []string{cmd}
	for _, e := range edits {
		words = append(words, "--edit "+e.String())
	}
	return words
}

// ---- Fix ----

// fixDoc words a fix report: the fixes that work in both modes (when
// the outcome happens in both), then per mode whether there is anything
// to fix, the minimal fixes cheapest first (each as the --edit flags
// that make it, its changes in words, and its verdict in every mode), or
// that nothing short of locks works, and how far the search went.
func fixDoc(r scenarios.FixReport, sel int, mark string) []block {
	item := 0
	sp := r.Spec
	doc := specHead(sp)
	doc = append(doc, note("Cost model: "+scenarios.FixCostModel+"."), blank())
	fixes := func(list []scenarios.Fix) {
		for k, f := range list {
			head := fmt.Sprintf("%d. cost %d:", k+1, f.Cost)
			if item == sel {
				head = mark + " " + head
			}
			item++
			doc = append(doc, command(1, head, editCommand("", f.Edits)[1:]...))
			for _, ch := range f.Changes {
				doc = append(doc, block{indent: 2, text: ch.What})
			}
			var vs []string
			for j, m := range r.Modes {
				v := "unknown"
				if f.Known[j] {
					v = fmt.Sprintf("%s %d/%d", f.Verdicts[j].Observation, f.Verdicts[j].Positive, f.Verdicts[j].Positive+f.Verdicts[j].Negative)
				}
				vs = append(vs, m.Mode.Title()+" "+v)
			}
			doc = append(doc, block{indent: 2, text: "gives " + strings.Join(vs, ", ")})
		}
	}
	count := func(n int) string {
		if n == 1 {
			return "1 minimal fix"
		}
		return fmt.Sprintf("%d minimal fixes, cheapest first", n)
	}
	if len(r.Both) > 0 || r.BothComplete {
		switch {
		case len(r.Both) == 0:
			doc = append(doc, para("Both modes: no set of these strengthenings fixes both."))
		default:
			doc = append(doc, para(fmt.Sprintf("Both modes (what works on x86 and on arm64 alike): %s:", count(len(r.Both)))))
			fixes(r.Both)
		}
		if !r.BothComplete {
			doc = append(doc, block{indent: 1, kind: noteBlock, text: "A mode's search stopped early (below), so fixes of both may be missing."})
		}
		doc = append(doc, blank())
	}
	for _, fm := range r.Modes {
		title := fm.Mode.Title() + " mode"
		v := fm.AsWrittenVerdict
		asWritten := fmt.Sprintf("%s %d/%d", v.Observation, v.Positive, v.Positive+v.Negative)
		switch {
		case !fm.AsWritten.Known():
			doc = append(doc, para(fmt.Sprintf("%s: whether the outcome is reachable as written is unknown (%s), so there is nothing to search from.", title, fm.AsWritten.StopText())))
		case !fm.Open():
			doc = append(doc, para(fmt.Sprintf("%s: the outcome is unreachable as written (%s): nothing to fix.", title, asWritten)))
		case fm.NoFix:
			doc = append(doc, para(fmt.Sprintf("%s: reachable as written (%s), and even every strengthening at once leaves it reachable: nothing short of locks (or another algorithm) fixes it.", title, asWritten)))
		case len(fm.Fixes) == 0:
			doc = append(doc, para(fmt.Sprintf("%s: reachable as written (%s); no fix found before the search stopped (%s).", title, asWritten, fm.Stop)))
		default:
			doc = append(doc, para(fmt.Sprintf("%s: reachable as written (%s); %s:", title, asWritten, count(len(fm.Fixes)))))
			fixes(fm.Fixes)
		}
		if fm.Open() && !fm.NoFix {
			switch {
			case fm.Complete:
				doc = append(doc, block{indent: 1, kind: noteBlock, text: fmt.Sprintf("These are all the minimal fixes from these strengthenings (%d explorations): every set not above one of them leaves the outcome reachable.", fm.Explorations)})
			case fm.Stop != "":
				doc = append(doc, block{indent: 1, kind: noteBlock, text: fmt.Sprintf("The search stopped after %d explorations: %s. Each fix listed is minimal; dearer ones may be missing.", fm.Explorations, fm.Stop)})
			}
		}
		doc = append(doc, blank())
	}
	searched := fmt.Sprintf("Searched %d strengthenings at %d sites (loads → acquire, stores → release, RMWs → acquire/release/full, smp_rmb/smp_wmb → smp_mb, and a barrier after each access another follows)", r.Strengthenings, r.Sites)
	if sel < 0 {
		searched += fmt.Sprintf(" in %.2f s", r.Elapsed.Seconds()) // not on the panel, whose frames are compared
	}
	doc = append(doc, note(searched+"."))
	if len(r.Plain) > 0 {
		doc = append(doc, note("Plain C accesses are not strengthened (write them with READ_ONCE/WRITE_ONCE first): "+strings.Join(r.Plain, ", ")+"."))
	}
	return doc
}

// FixReport renders a fix report for a mail, in 72 columns; arg is how
// the scenario was named (for the commands it gives).
func FixReport(r scenarios.FixReport, arg string) string {
	doc := fixDoc(r, -1, "")
	doc[0].text = "fix " + doc[0].text
	first := r.Both
	for _, fm := range r.Modes {
		if len(first) == 0 {
			first = fm.Fixes
		}
	}
	if len(first) > 0 {
		doc = append(doc, blank(), para("To check a fix, or to watch it in the UI, give its flags to smpscope check or smpscope:"),
			command(1, "", editCommand("smpscope check "+ShellQuote(arg), first[0].Edits)...))
	}
	return lines(textLines(doc, ReportWidth))
}

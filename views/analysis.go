package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
)

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
	// Current is the name of the scenario open now (its row of the
	// compare table is marked).
	Current string
}

func renderComparePage(in ScenarioInput, st Styles, w, h int) string {
	return renderBox(boxSpec{title: "compare variants · c or esc to close", focused: true, lines: compareLines(in, st, w-2), offset: in.PageOff}, st, w, h)
}

func renderNecessityPage(in ScenarioInput, st Styles, w, h int) string {
	return renderBox(boxSpec{title: "which annotations are needed? · n or esc to close", focused: true, lines: necessityLines(in, st, w-2), offset: in.PageOff}, st, w, h)
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

// table renders rows of cells as aligned columns two spaces apart, each
// line starting with the row's mark; cells may be styled.
func table(rows [][]string, marks []string) []string {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	var out []string
	for k, r := range rows {
		var b strings.Builder
		b.WriteString(marks[k])
		for i, c := range r {
			if i < len(r)-1 {
				c = fit(c, widths[i]) + "  "
			}
			b.WriteString(c)
		}
		out = append(out, b.String())
	}
	return out
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
	head := "family " + t.Family
	if t.Family == "" {
		head = in.Name
	}
	cond, shared := t.Condition()
	if shared {
		head += " · " + cond
	}
	lines = append(lines, wrapIndented(" ", st.Bold.Render(head), tw)...)
	lines = append(lines, "")

	header := []string{st.Label.Render("variant")}
	for _, m := range t.Modes {
		header = append(header, st.Label.Render(m.Title()))
	}
	lkmm := t.HasExpected()
	if lkmm {
		header = append(header, st.Label.Render("LKMM"))
	}
	rows := [][]string{header}
	marks := []string{"   "}
	for _, r := range t.Rows {
		row := []string{r.Question.Label()}
		for _, c := range r.Cells {
			text := c.Text()
			switch {
			case c.Err != nil || !c.Complete:
				text = st.Error.Render(text)
			case c.Verdict.Positive > 0:
				text = st.OutcomeMatch.Render(text)
			}
			row = append(row, text)
		}
		if lkmm {
			res := string(r.Question.Expected)
			if res == "" {
				res = "-"
			}
			row = append(row, st.Dim.Render(res))
		}
		mark := "   "
		if r.Question.Name == a.Current {
			mark = " ▶ "
			row[0] = st.Bold.Render(row[0])
		}
		rows = append(rows, row)
		marks = append(marks, mark)
	}
	lines = append(lines, table(rows, marks)...)
	lines = append(lines, "")
	if !shared {
		for _, r := range t.Rows {
			lines = append(lines, wrapIndented(" "+r.Question.Label()+": ", st.Condition.Render(r.Question.Condition), tw)...)
		}
		lines = append(lines, "")
	}
	// Where the modes disagree: the rows a reviewer looks at.
	for _, r := range t.Rows {
		if len(r.Cells) == 2 && r.Cells[0].Complete && r.Cells[1].Complete && r.Cells[0].Err == nil && r.Cells[1].Err == nil &&
			r.Cells[0].Verdict.Observation != r.Cells[1].Verdict.Observation {
			lines = append(lines, wrapIndented(" • ", fmt.Sprintf("%s: %s in %s mode, %s in %s mode", r.Question.Label(),
				r.Cells[0].Verdict.Observation, t.Modes[0].Title(), r.Cells[1].Verdict.Observation, t.Modes[1].Title()), tw)...)
		}
	}
	notes := []string{"Every variant explored in both modes. A cell says how often the condition holds (Never / Sometimes / Always), then the final states satisfying it out of all final states."}
	if len(t.Rows) > 1 {
		notes = append(notes, "▶ the variant open now; v opens the next.")
	}
	if t.Deadlock() {
		notes = append(notes, "*: the search also reached deadlocked states.")
	}
	if t.Incomplete() {
		notes = append(notes, "?: a limit stopped the search; counts are partial.")
	}
	lines = append(lines, "")
	for _, n := range notes {
		lines = append(lines, wrapIndented(" ", st.Dim.Render(n), tw)...)
	}
	return lines
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
	tw := w - 2
	q := r.Question
	var lines []string
	lines = append(lines, wrapIndented(" ", st.Bold.Render(q.Name+" · "+q.Condition), tw)...)

	var parts []string
	unreachable := 0
	for j, m := range r.Modes {
		aw := r.AsWritten[j]
		switch {
		case !aw.Known():
			parts = append(parts, fmt.Sprintf("unknown in %s (%s)", m.Title(), aw.StopText()))
		case aw.Reachable:
			parts = append(parts, st.OutcomeMatch.Render("reachable in "+m.Title()))
		default:
			parts = append(parts, "unreachable in "+m.Title())
			unreachable++
		}
	}
	if unreachable == 2 && len(r.Modes) == 2 {
		parts = []string{"unreachable in both modes"}
	}
	lines = append(lines, wrapIndented(" ", "As written, the outcome is "+strings.Join(parts, " and ")+".", tw)...)
	for j, m := range r.Modes {
		if aw := r.AsWritten[j]; aw.Known() && aw.Reachable {
			lines = append(lines, wrapIndented(" ", st.Dim.Render(fmt.Sprintf("In %s mode it happens with every annotation in place, so none can be needed there (w loads its witness).", m.Title())), tw)...)
		}
	}
	lines = append(lines, "")
	explain := wrapIndented(" ", st.Dim.Render("Each barrier, acquire, release and ordered RMW is weakened on its own (barrier removed, acquire → READ_ONCE, release → WRITE_ONCE, RMW → relaxed) and the scenario explored again: it is needed where the outcome then becomes reachable."), tw)
	if len(r.Annotations) == 0 {
		lines = append(lines, wrapIndented(" ", q.Name+" has no barrier, acquire, release or ordered RMW to weaken.", tw)...)
		return append(append(lines, ""), explain...)
	}

	header := []string{st.Label.Render("annotation")}
	for _, m := range r.Modes {
		header = append(header, st.Label.Render(m.Title()))
	}
	rows := [][]string{header}
	marks := []string{" "}
	for i, an := range r.Annotations {
		row := []string{an.Weakening.String()}
		for j := range r.Modes {
			row = append(row, needCell(st, r, i, j))
		}
		rows = append(rows, row)
		marks = append(marks, " ")
	}
	lines = append(lines, table(rows, marks)...)
	lines = append(lines, "")

	for i, an := range r.Annotations {
		lines = append(lines, wrapIndented(" ", st.Bold.Render(an.Weakening.String())+": "+r.Verdict(i), tw)...)
		for j, m := range r.Modes {
			if r.Need(i, j) != scenarios.Needed {
				continue
			}
			how := "with " + an.To
			if an.To == "nothing" {
				how = "without it"
			}
			lines = append(lines, wrapIndented("   ", fmt.Sprintf("%s mode %s: %s", m.Title(), how, stepIDs(an.Program, m, an.Runs[j].Witness)), tw)...)
		}
	}
	if r.All != nil {
		allN := fmt.Sprintf("all %d", len(r.Annotations))
		if len(r.Annotations) == 2 {
			allN = "both"
		}
		for j, m := range r.Modes {
			var text string
			switch r.Together(j) {
			case scenarios.TogetherNeeded:
				text = fmt.Sprintf("In %s mode none is needed on its own, but all together are: weakening %s makes the outcome reachable, so they back each other up. %s", m.Title(), allN, stepIDs(r.All.Program, m, r.All.Runs[j].Witness))
			case scenarios.TogetherNotNeeded:
				text = fmt.Sprintf("In %s mode even weakening %s together leaves the outcome unreachable: none is needed there.", m.Title(), allN)
			case scenarios.TogetherUnknown:
				text = fmt.Sprintf("In %s mode none is needed on its own; weakening %s together could not be decided (%s).", m.Title(), allN, r.All.Runs[j].StopText())
			default:
				continue
			}
			lines = append(lines, "")
			lines = append(lines, wrapIndented(" ", text, tw)...)
		}
	}
	return append(append(lines, ""), explain...)
}

// stepIDs lists a witness as step IDs: "P0 exec, P0 commit #2, … (7 steps)".
func stepIDs(p *machine.Program, mode machine.Mode, steps []machine.Step) string {
	m, err := machine.New(p, mode)
	if err != nil {
		return fmt.Sprintf("(%d steps)", len(steps))
	}
	ids := make([]string, len(steps))
	for i, s := range steps {
		ids[i] = m.ID(s)
	}
	return strings.Join(ids, ", ") + fmt.Sprintf(" (%d steps)", len(steps))
}

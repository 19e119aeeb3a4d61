package views

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/progress"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
)

// HerdReport renders a verdict the way herd7 does: the test line, the
// distinct shown states, Ok/No, witnesses, the condition and the
// observation line.
func HerdReport(sp *scenarios.Spec, outcomes []machine.Outcome) string {
	v := sp.VerdictOf(outcomes)
	kind := map[syntax.FinalKind]string{syntax.Exists: "Allowed", syntax.NotExists: "Forbidden", syntax.Forall: "Required"}[sp.Final.Kind]
	seen := map[string]bool{}
	var states []string
	for _, o := range outcomes {
		if !sp.Kept(o) {
			continue
		}
		st := sp.OutcomeText(o)
		if !seen[st] {
			seen[st] = true
			states = append(states, st)
		}
	}
	sort.Strings(states)
	var b strings.Builder
	n := 256 // one allocation for a small report
	for _, st := range states {
		n += len(st) + 1
	}
	b.Grow(n)
	fmt.Fprintf(&b, "Test %s %s\n", sp.Name, kind)
	fmt.Fprintf(&b, "States %d\n", len(states))
	for _, st := range states {
		b.WriteString(st)
		b.WriteByte('\n')
	}
	if v.Validated {
		b.WriteString("Ok\n")
	} else {
		b.WriteString("No\n")
	}
	fmt.Fprintf(&b, "Witnesses\nPositive: %d Negative: %d\n", v.Positive, v.Negative)
	if sp.Filter != nil {
		fmt.Fprintf(&b, "Filter %s\n", sp.Filter.Cond)
	}
	fmt.Fprintf(&b, "Condition %s\n", sp.Condition())
	fmt.Fprintf(&b, "Observation %s %s %d %d\n", sp.Name, v.Observation, v.Positive, v.Negative)
	return b.String()
}

// runOutcomes are a run's outcomes.
func runOutcomes(r scenarios.Run) []machine.Outcome {
	outs := make([]machine.Outcome, 0, len(r.Result.Outcomes))
	for _, o := range r.Result.Outcomes {
		outs = append(outs, o.Outcome)
	}
	return outs
}

// CheckText is what smpscope check prints of a run that explored
// everything: herd7's report, then the mode, the states explored, any
// deadlocks, the expected LKMM verdict and the time.
func CheckText(r scenarios.Run) string {
	herd := HerdReport(r.Spec, runOutcomes(r))
	var b strings.Builder
	b.Grow(len(herd) + 256) // one allocation for what follows herd7's report
	b.WriteString(herd)
	name := r.Spec.Name
	if len(r.Spec.Edits) > 0 {
		fmt.Fprintf(&b, "Edited %s %s\n", name, scenarios.EditsText(r.Spec.Edits))
	}
	if r.Spec.From != "" {
		fmt.Fprintf(&b, "From %s %s\n", name, r.Spec.From)
	}
	fmt.Fprintf(&b, "Mode %s %s\n", name, r.Mode)
	fmt.Fprintf(&b, "Explored %s %d states\n", name, r.Result.States)
	if n := r.Result.DeadlockStates; n > 0 {
		d := &r.Result.Deadlocks[0]
		fmt.Fprintf(&b, "Deadlocks %s %d (%s)\n", name, n, strings.Join(words.Deadlock(r.Spec.Program, d), "; "))
		if len(d.Witness) > 0 {
			fmt.Fprintf(&b, "DeadlockPath %s %s\n", name, strings.Join(stepIDs(r, d.Witness), "; "))
		}
	}
	if n := r.Result.FaultStates; n > 0 {
		f := &r.Result.Faults[0]
		fmt.Fprintf(&b, "Faults %s %d (%s)\n", name, n, words.Fault(r.Spec.Program, &f.Fault))
		if len(f.Witness) > 0 {
			fmt.Fprintf(&b, "FaultPath %s %s\n", name, strings.Join(stepIDs(r, f.Witness), "; "))
		}
	}
	if r.NoEnd() {
		fmt.Fprintf(&b, "NoFinalState %s %s\n", name, r.EndsWords())
	}
	if exp := r.Spec.Expected; exp != "" {
		fmt.Fprintf(&b, "Expected %s %s (LKMM)\n", name, exp)
	}
	fmt.Fprintf(&b, "Time %s %.4f\n\n", name, r.Elapsed.Seconds())
	return b.String()
}

// stepIDs names a run's steps as trace files do ("P0 exec", "P1:3 commit").
func stepIDs(r scenarios.Run, steps []machine.Step) []string {
	m, err := r.Spec.Machine(r.Mode)
	if err != nil {
		return nil
	}
	out := make([]string, len(steps))
	for i, st := range steps {
		out[i] = words.StepID(m, st)
	}
	return out
}

// jsonStuck is an example of an execution that did not reach the end:
// its steps, and what each unfinished CPU waits for (a deadlock) or why
// it stopped (a fault).
type jsonStuck struct {
	Steps  []string `json:"steps"`
	Waits  []string `json:"waits,omitempty"`
	Reason string   `json:"reason,omitempty"`
}

type jsonOutcome struct {
	Values    map[string]any `json:"values"`
	Count     int            `json:"count"`
	Satisfies bool           `json:"satisfies"`
}

type jsonCheck struct {
	Name     string `json:"name"`
	File     string `json:"file"`
	Mode     string `json:"mode"`
	Verdict  string `json:"verdict"`
	Positive int    `json:"positive"`
	Negative int    `json:"negative"`
	States   int    `json:"states"`
	// Pairs: with the registers only the outcome reads left out of the
	// states (machine.Result.Pairs), the states with those registers'
	// values they stand for.
	Pairs    int           `json:"pairs,omitempty"`
	Outcomes []jsonOutcome `json:"outcomes"`
	// FinalStates counts the distinct final states reached (before the
	// filter); Deadlocked and Faulted the stuck and faulted states, each
	// with an example (Deadlock, Fault). NoFinalState says that no
	// execution reached the end: the verdict holds of none.
	FinalStates  int        `json:"final_states"`
	Deadlocked   int        `json:"deadlocked"`
	Faulted      int        `json:"faulted"`
	Deadlock     *jsonStuck `json:"deadlock,omitempty"`
	Fault        *jsonStuck `json:"fault,omitempty"`
	NoFinalState bool       `json:"no_final_state"`
	Expected     string     `json:"expected"`
	Seconds      float64    `json:"seconds"`
	Error        string     `json:"error"`
	// Edits are the --edit flags the scenario was checked with.
	Edits []string `json:"edits,omitempty"`
	// From is where in a mail the test was found ("<stdin>:12").
	From string `json:"from,omitempty"`
}

// CheckJSON is the JSON object smpscope check --json prints of a run,
// one line. arg is how the scenario was named; r.Spec is nil when it
// could not be read (r.Err says why).
func CheckJSON(arg string, r scenarios.Run) ([]byte, error) {
	j := jsonCheck{Name: arg, File: arg, Mode: r.Mode.String(), Outcomes: []jsonOutcome{}, Seconds: r.Elapsed.Seconds()}
	if sp := r.Spec; sp != nil {
		j.Name = sp.Name
		if sp.Litmus != nil && sp.Litmus.File != "" {
			j.File = sp.Litmus.File
		}
		j.Expected = string(sp.Expected)
		j.From = sp.From
		for _, e := range sp.Edits {
			j.Edits = append(j.Edits, e.String())
		}
	}
	fail := r.Failure()
	if r.Spec == nil && r.Err != nil {
		fail = r.Err
	}
	if fail != nil {
		j.Error = fail.Error()
	}
	if r.Result != nil {
		j.States, j.Pairs = r.Result.States, r.Result.Pairs
		v := r.Verdict()
		if fail == nil {
			j.Verdict = string(v.Observation)
		}
		j.Positive, j.Negative = v.Positive, v.Negative
		j.Outcomes = jsonOutcomes(r.Spec, r.Result)
		j.FinalStates, j.Deadlocked, j.Faulted = r.Ends()
		j.NoFinalState = r.NoEnd()
		if len(r.Result.Deadlocks) > 0 {
			d := &r.Result.Deadlocks[0]
			j.Deadlock = &jsonStuck{Steps: stepIDs(r, d.Witness), Waits: words.Deadlock(r.Spec.Program, d)}
		}
		if len(r.Result.Faults) > 0 {
			f := &r.Result.Faults[0]
			j.Fault = &jsonStuck{Steps: stepIDs(r, f.Witness), Reason: words.Fault(r.Spec.Program, &f.Fault)}
		}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(j)
	return []byte(b.String()), err
}

// jsonOutcomes are the kept outcomes over the registers and locations the
// clauses name; outcomes that look alike once projected are merged, as
// in herd's list.
func jsonOutcomes(sp *scenarios.Spec, res *machine.Result) []jsonOutcome {
	p := sp.Program
	keep := sp.Shown
	idx := map[string]int{}
	out := []jsonOutcome{}
	for _, o := range res.Outcomes {
		if !sp.Kept(o.Outcome) {
			continue
		}
		vals := map[string]any{}
		for t, regs := range o.Outcome.Regs {
			for reg, v := range regs {
				if keep == nil || keep(t, machine.Reg(reg), 0, false) {
					vals[fmt.Sprintf("%d:%s", t, p.Threads[t].Regs[reg])] = jsonValue(p, v)
				}
			}
		}
		for l, v := range o.Outcome.Mem {
			if keep == nil || keep(0, 0, machine.Loc(l), true) {
				vals[p.Locs[l]] = jsonValue(p, v)
			}
		}
		k, _ := json.Marshal(vals)
		if i, ok := idx[string(k)]; ok {
			out[i].Count += o.States
			continue
		}
		idx[string(k)] = len(out)
		out = append(out, jsonOutcome{Values: vals, Count: o.States, Satisfies: sp.Satisfies(o.Outcome)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := json.Marshal(out[i].Values)
		b, _ := json.Marshal(out[j].Values)
		return string(a) < string(b)
	})
	return out
}

func jsonValue(p *machine.Program, v machine.Value) any {
	if _, ok := v.AsLoc(); ok {
		return p.FormatValue(v)
	}
	return int64(v)
}

// ListWidth is the widest line of smpscope list: a terminal's 80
// columns.
const ListWidth = 80

// ListReport is smpscope list: the built-in scenarios in library order,
// each name (family+variant, what every command accepts) with its title,
// which wraps under itself to keep within ListWidth.
func ListReport(lib []*scenarios.Entry) string {
	tb := table{header: []string{"NAME", "TITLE"}, width: ListWidth}
	for _, e := range lib {
		tb.rows = append(tb.rows, []string{e.Name, e.Title})
	}
	return lines(tb.text(false))
}

// ListJSON is smpscope list --json: one object per line.
func ListJSON(lib []*scenarios.Entry) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range lib {
		if err := enc.Encode(struct {
			Name    string `json:"name"`
			Family  string `json:"family"`
			Variant string `json:"variant"`
			Title   string `json:"title"`
		}{e.Name, e.Family, e.Variant, e.Title}); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// Progress returns a function that renders a progress bar for total
// jobs, done of them finished: "███░░░ 3/7".
func Progress(total int) func(done int) string {
	bar := progress.New(progress.WithDefaultGradient(), progress.WithWidth(40))
	return func(done int) string {
		return fmt.Sprintf("%s %d/%d", bar.ViewAs(float64(done)/float64(total)), done, total)
	}
}

// MailList is what smpscope list prints of the litmus tests a mail
// holds: their number (what --test takes), name, where they start and
// how they were quoted, then why any does not parse.
func MailList(tests []scenarios.MailTest) string {
	tb := table{header: []string{"N", "NAME", "WHERE", "AS"}, width: ListWidth}
	var errs []string
	for i, t := range tests {
		as := "plain"
		switch {
		case t.Patch && t.Depth > 0:
			as = fmt.Sprintf("patch, quoted %d×", t.Depth)
		case t.Patch:
			as = "patch"
		case t.Depth > 0:
			as = fmt.Sprintf("quoted %d×", t.Depth)
		}
		if t.Err != nil {
			as += ", does not parse"
			errs = append(errs, fmt.Sprintf("%d. %v", i+1, t.Err))
		}
		tb.rows = append(tb.rows, []string{fmt.Sprint(i + 1), t.Name, t.Where(), as})
	}
	return lines(append(tb.text(false), errs...))
}

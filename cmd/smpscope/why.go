package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
)

func newWhyCmd(stdout io.Writer) *cobra.Command {
	var mode string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "why SCENARIO [--mode tso|arm|both]",
		Short: "Find which barriers, acquires, releases and ordered RMWs are needed",
		Long: `why answers "is this barrier needed, and what breaks without it?". For
each ordering annotation of the scenario (every barrier, acquire load,
release store and fully ordered, acquire or release RMW; spin locks and
RCU are left alone) it weakens that one annotation (a barrier is removed,
smp_load_acquire becomes READ_ONCE, smp_store_release and
rcu_assign_pointer become WRITE_ONCE, an ordered RMW becomes relaxed),
explores again, and reports per mode whether the outcome the final clause
asks about becomes reachable, with the shortest witness that appears.
Weakening all of them at once shows annotations that back each other up.

Exit status: 0 when every exploration finished; 2 for usage, parse or
limit errors.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			modes, err := parseModes(mode)
			if err != nil {
				return &exitError{2, "smpscope why: " + err.Error()}
			}
			return runWhy(args[0], modes, timeout, stdout)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "both", "tso, arm or both")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "stop each exploration after this long (e.g. 10s)")
	return cmd
}

// whyRun is one program (as written, one weakening, or all) explored in
// one mode.
type whyRun struct {
	reachable bool
	witness   []machine.Step
	states    int
	complete  bool
	stop      string
	err       error
}

func exploreWhy(cs *scenarios.Compiled, p *machine.Program, mode machine.Mode, timeout time.Duration) whyRun {
	m, err := machine.New(p, mode)
	if err != nil {
		return whyRun{err: err}
	}
	res := machine.Explore(m, machine.Options{Timeout: timeout})
	w, ok := shortestWitness(cs, res)
	return whyRun{reachable: ok, witness: w, states: res.States, complete: res.Complete, stop: res.Summary()}
}

// known reports whether the run answers the question: it found the
// outcome, or it explored everything.
func (r whyRun) known() bool { return r.err == nil && (r.reachable || r.complete) }

func runWhy(arg string, modes []machine.Mode, timeout time.Duration, w io.Writer) error {
	cs, err := compiledArg(arg)
	if err != nil {
		return &exitError{2, "smpscope why: " + err.Error()}
	}
	sc := cs.Scenario
	ws := machine.Weakenings(cs.Program)
	// Programs: [0] as written, [1..n] one weakening each, [n+1] all.
	progs := []*machine.Program{cs.Program}
	for _, wk := range ws {
		progs = append(progs, wk.Apply(cs.Program))
	}
	if len(ws) > 1 {
		progs = append(progs, machine.WeakenAll(cs.Program, ws))
	}
	runs := make([][]whyRun, len(progs))
	for i := range runs {
		runs[i] = make([]whyRun, len(modes))
	}
	type job struct{ i, j int }
	work := make(chan job)
	var wg sync.WaitGroup
	for n := 0; n < runtime.GOMAXPROCS(0); n++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range work {
				runs[jb.i][jb.j] = exploreWhy(cs, progs[jb.i], modes[jb.j], timeout)
			}
		}()
	}
	for i := range progs {
		for j := range modes {
			work <- job{i, j}
		}
	}
	close(work)
	wg.Wait()

	var b strings.Builder
	unknown := false
	b.WriteString(wrapText(fmt.Sprintf("why %s: %s", sc.Name, finalText(cs)), 72, "  "))
	if sc.Meta.Title != "" {
		b.WriteString(wrapText(sc.Meta.Title, 72, ""))
	}
	b.WriteString("\n")

	// As written: the modes where the outcome is unreachable are the ones
	// where an annotation can be needed.
	var open []int // indexes into modes
	var parts []string
	for j, mode := range modes {
		r := runs[0][j]
		switch {
		case !r.known():
			unknown = true
			parts = append(parts, fmt.Sprintf("unknown in %s mode (%s)", mode.Title(), r.stopText()))
		case r.reachable:
			parts = append(parts, fmt.Sprintf("already reachable in %s mode", mode.Title()))
		default:
			parts = append(parts, fmt.Sprintf("unreachable in %s mode", mode.Title()))
			open = append(open, j)
		}
	}
	if len(parts) == 2 && len(open) == 2 {
		parts = []string{"unreachable in both modes"}
	}
	b.WriteString(wrapText(fmt.Sprintf("As written, %s is %s.", askedWords(cs), strings.Join(parts, " and ")), 72, ""))
	for j, mode := range modes {
		if r := runs[0][j]; r.known() && r.reachable {
			b.WriteString(wrapText(fmt.Sprintf("In %s mode no annotation can be needed: the outcome happens with all of them (see smpscope trace %s --mode %s).", mode.Title(), shellQuote(arg), mode), 72, ""))
		}
	}
	b.WriteString("\n")
	if len(ws) == 0 {
		b.WriteString(wrapText(fmt.Sprintf("%s has no barrier, acquire, release or ordered RMW to weaken.", sc.Name), 72, ""))
		return finishWhy(w, &b, unknown)
	}
	if len(open) == 0 {
		b.WriteString(wrapText("The outcome is reachable as written in every mode asked about, so there is nothing to weaken.", 72, ""))
		return finishWhy(w, &b, unknown)
	}

	neededAny := make([]bool, len(modes))
	for i, wk := range ws {
		var needed, notNeeded, unsure []machine.Mode
		for _, j := range open {
			r := runs[i+1][j]
			switch {
			case !r.known():
				unsure = append(unsure, modes[j])
				unknown = true
			case r.reachable:
				needed = append(needed, modes[j])
				neededAny[j] = true
			default:
				notNeeded = append(notNeeded, modes[j])
			}
		}
		b.WriteString(wrapText(wk.String()+": "+neededVerdict(needed, notNeeded, unsure), 72, "  "))
		for _, j := range open {
			if r := runs[i+1][j]; r.known() && r.reachable {
				how := "with " + wk.To
				if wk.To == "nothing" {
					how = "without it"
				}
				b.WriteString(indentLines(wrapText(fmt.Sprintf("%s mode %s reaches the outcome in %d steps:", modes[j].Title(), how, len(r.witness)), 70, "  "), "  "))
				b.WriteString(stepList(progs[i+1], modes[j], r.witness, "    "))
			}
		}
	}

	// Annotations that back each other up: none needed alone, all together.
	if len(ws) > 1 {
		all := runs[len(runs)-1]
		allN := fmt.Sprintf("all %d", len(ws))
		if len(ws) == 2 {
			allN = "both"
		}
		first := true
		for _, j := range open {
			if neededAny[j] {
				continue
			}
			if first {
				b.WriteString("\n")
				first = false
			}
			r := all[j]
			switch {
			case !r.known():
				unknown = true
				b.WriteString(wrapText(fmt.Sprintf("In %s mode no annotation is needed on its own; weakening %s together could not be decided (%s).", modes[j].Title(), allN, r.stopText()), 72, ""))
			case r.reachable:
				b.WriteString(wrapText(fmt.Sprintf("In %s mode none of them is needed on its own, but all of them together are: weakening %s makes the outcome reachable, so they back each other up and not all of them can go. Shortest witness (%d steps):", modes[j].Title(), allN, len(r.witness)), 72, ""))
				b.WriteString(stepList(progs[len(progs)-1], modes[j], r.witness, "    "))
			default:
				b.WriteString(wrapText(fmt.Sprintf("In %s mode even weakening %s together leaves the outcome unreachable: none of these annotations is needed there.", modes[j].Title(), allN), 72, ""))
			}
		}
	}
	return finishWhy(w, &b, unknown)
}

func (r whyRun) stopText() string {
	if r.err != nil {
		return r.err.Error()
	}
	return r.stop
}

func finishWhy(w io.Writer, b *strings.Builder, unknown bool) error {
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if unknown {
		return &exitError{2, "smpscope why: some explorations stopped at a limit; their answers are marked unknown"}
	}
	return nil
}

// neededVerdict words the answer for one annotation, e.g. "needed in
// ARM-like mode, not in TSO".
func neededVerdict(needed, notNeeded, unsure []machine.Mode) string {
	names := func(ms []machine.Mode) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.Title())
		}
		return strings.Join(s, " and ")
	}
	var v string
	switch {
	case len(needed) == 2:
		v = "needed in both modes (TSO and ARM-like)"
	case len(needed) == 1 && len(notNeeded) == 1:
		v = fmt.Sprintf("needed in %s mode, not in %s", names(needed), names(notNeeded))
	case len(needed) == 1:
		v = fmt.Sprintf("needed in %s mode", names(needed))
	case len(notNeeded) == 2:
		v = "not needed on its own in either mode"
	case len(notNeeded) == 1:
		v = fmt.Sprintf("not needed on its own in %s mode", names(notNeeded))
	}
	if len(unsure) > 0 {
		if v != "" {
			v += "; "
		}
		v += fmt.Sprintf("unknown in %s mode (the search stopped at a limit)", names(unsure))
	}
	return v
}

// stepList renders a witness as step IDs separated by commas, in lines
// of at most 72 columns that start with indent and never split a step.
func stepList(p *machine.Program, mode machine.Mode, steps []machine.Step, indent string) string {
	m := machine.MustNew(p, mode)
	var b strings.Builder
	cur := indent
	for i, st := range steps {
		item := m.ID(st)
		if i < len(steps)-1 {
			item += ","
		}
		if cur != indent && len(cur)+1+len(item) > 72 {
			b.WriteString(cur + "\n")
			cur = indent
		}
		if cur != indent {
			cur += " "
		}
		cur += item
	}
	b.WriteString(cur + "\n")
	return b.String()
}

// indentLines puts prefix before every line of s.
func indentLines(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	return b.String()
}

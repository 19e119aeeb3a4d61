package main

import (
	"fmt"
	"io"
	"strings"
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

func runWhy(arg string, modes []machine.Mode, timeout time.Duration, w io.Writer) error {
	cs, err := compiledArg(arg)
	if err != nil {
		return &exitError{2, "smpscope why: " + err.Error()}
	}
	r, err := scenarios.Necessity(cs, modes, machine.Options{Timeout: timeout})
	if err != nil {
		return &exitError{2, "smpscope why: " + err.Error()}
	}
	if _, err := io.WriteString(w, renderWhy(r, cs, arg)); err != nil {
		return err
	}
	if r.Unknown() {
		return &exitError{2, "smpscope why: some explorations stopped at a limit; their answers are marked unknown"}
	}
	return nil
}

// renderWhy renders a necessity report in 72 columns; arg is how the
// scenario was named on the command line (for the trace command it
// suggests).
func renderWhy(r scenarios.NecessityReport, cs *scenarios.Compiled, arg string) string {
	var b strings.Builder
	q := r.Question
	modes := r.Modes
	b.WriteString(wrapText(fmt.Sprintf("why %s: %s", q.Name, q.Condition), 72, "  "))
	if q.Title != "" {
		b.WriteString(wrapText(q.Title, 72, ""))
	}
	b.WriteString("\n")

	// As written: the modes where the outcome is unreachable are the ones
	// where an annotation can be needed.
	var open []int // indexes into modes
	var parts []string
	for j, mode := range modes {
		a := r.AsWritten[j]
		switch {
		case !a.Known():
			parts = append(parts, fmt.Sprintf("unknown in %s mode (%s)", mode.Title(), a.StopText()))
		case a.Reachable:
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
		if a := r.AsWritten[j]; a.Known() && a.Reachable {
			b.WriteString(wrapText(fmt.Sprintf("In %s mode no annotation can be needed: the outcome happens with all of them (see smpscope trace %s --mode %s).", mode.Title(), shellQuote(arg), mode), 72, ""))
		}
	}
	b.WriteString("\n")
	if len(r.Annotations) == 0 {
		b.WriteString(wrapText(fmt.Sprintf("%s has no barrier, acquire, release or ordered RMW to weaken.", q.Name), 72, ""))
		return b.String()
	}
	if len(open) == 0 {
		b.WriteString(wrapText("The outcome is reachable as written in every mode asked about, so there is nothing to weaken.", 72, ""))
		return b.String()
	}

	for i, a := range r.Annotations {
		b.WriteString(wrapText(a.Weakening.String()+": "+r.Verdict(i), 72, "  "))
		for _, j := range open {
			if r.Need(i, j) == scenarios.Needed {
				run := a.Runs[j]
				how := "with " + a.To
				if a.To == "nothing" {
					how = "without it"
				}
				b.WriteString(indentLines(wrapText(fmt.Sprintf("%s mode %s reaches the outcome in %d steps:", modes[j].Title(), how, len(run.Witness)), 70, "  "), "  "))
				b.WriteString(stepList(a.Program, modes[j], run.Witness, "    "))
			}
		}
	}

	// Annotations that back each other up: none needed alone, all together.
	if r.All != nil {
		allN := fmt.Sprintf("all %d", len(r.Annotations))
		if len(r.Annotations) == 2 {
			allN = "both"
		}
		first := true
		for _, j := range open {
			tg := r.Together(j)
			if tg == scenarios.TogetherMoot {
				continue
			}
			if first {
				b.WriteString("\n")
				first = false
			}
			run := r.All.Runs[j]
			switch tg {
			case scenarios.TogetherUnknown:
				b.WriteString(wrapText(fmt.Sprintf("In %s mode no annotation is needed on its own; weakening %s together could not be decided (%s).", modes[j].Title(), allN, run.StopText()), 72, ""))
			case scenarios.TogetherNeeded:
				b.WriteString(wrapText(fmt.Sprintf("In %s mode none of them is needed on its own, but all of them together are: weakening %s makes the outcome reachable, so they back each other up and not all of them can go. Shortest witness (%d steps):", modes[j].Title(), allN, len(run.Witness)), 72, ""))
				b.WriteString(stepList(r.All.Program, modes[j], run.Witness, "    "))
			default:
				b.WriteString(wrapText(fmt.Sprintf("In %s mode even weakening %s together leaves the outcome unreachable: none of these annotations is needed there.", modes[j].Title(), allN), 72, ""))
			}
		}
	}
	return b.String()
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

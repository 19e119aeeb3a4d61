package main

// The analyses: compare (a family in both modes) and why (which
// ordering annotations are needed).

import (
	"io"
	"time"

	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

var bothModes = []machine.Mode{machine.TSO, machine.ARM}

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var markdown bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "compare FAMILY [--markdown]",
		Short: "Every variant of a built-in family in both modes, as one table",
		Long: `compare explores every variant of a built-in family (see smpscope list)
in TSO and ARM-like mode and prints one table: a row per variant, a column
per mode. Each cell is herd7's word for how often the final condition holds
(Never, Sometimes, Always) with the number of final states that satisfy it
out of all final states; the LKMM column is the verdict the scenario file
records. FAMILY may also be the name of one of the family's scenarios.

Exit status: 0 when every exploration finished; 2 for an unknown family or
an exploration stopped by a limit (its cell shows "?").`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(args[0], markdown, timeout, stdout)
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print a markdown table")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "stop exploring one variant in one mode after this long (e.g. 10s)")
	return cmd
}

func runCompare(name string, markdown bool, timeout time.Duration, w io.Writer) error {
	fam, err := scenarios.FindFamily(name)
	if err != nil {
		return &exitError{2, "smpscope compare: " + err.Error()}
	}
	t, err := scenarios.CompareFamily(fam, bothModes, machine.Options{Timeout: timeout})
	if err != nil {
		return &exitError{2, "smpscope compare: " + err.Error()}
	}
	return writeReport(w, views.CompareReport(t, markdown), t.Incomplete(), "smpscope compare: some explorations did not finish (cells marked ?)")
}

// writeReport writes an analysis report; partial (a search stopped at a
// limit) is exit status 2 with why.
func writeReport(w io.Writer, report string, partial bool, why string) error {
	if _, err := io.WriteString(w, report); err != nil {
		return err
	}
	if partial {
		return &exitError{2, why}
	}
	return nil
}

func newWhyCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	var mode string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "why SCENARIO [--mode tso|arm|both]",
		Short: "Which barriers, acquires, releases and ordered RMWs are needed",
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
			return runWhy(args[0], modes, timeout, stdin, stdout)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "both", "tso, arm or both")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "stop each exploration after this long (e.g. 10s)")
	return cmd
}

func runWhy(arg string, modes []machine.Mode, timeout time.Duration, stdin io.Reader, w io.Writer) error {
	spec, err := scenarios.Resolve(arg, stdin)
	if err != nil {
		return &exitError{2, "smpscope why: " + err.Error()}
	}
	r, err := scenarios.Necessity(spec, modes, machine.Options{Timeout: timeout})
	if err != nil {
		return &exitError{2, "smpscope why: " + err.Error()}
	}
	return writeReport(w, views.WhyReport(r, arg), r.Unknown(), "smpscope why: some explorations stopped at a limit; their answers are marked unknown")
}

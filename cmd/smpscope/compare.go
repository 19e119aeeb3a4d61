package main

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
		Short: "Explore every variant of a built-in family in both modes, as one table",
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

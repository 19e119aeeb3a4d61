package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

func newWhyCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
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

package main

// The analyses: compare (a family in both modes) and why (which
// ordering annotations are needed).

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

var bothModes = []machine.Mode{machine.TSO, machine.ARM}

func newCompareCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	var markdown bool
	var limits limitFlags
	var edits []string
	cmd := &cobra.Command{
		Use:   "compare FAMILY | SCENARIO --edit E ... | FILE|NAME ... [--markdown] [--timeout D] [--max-states N] [--max-memory SIZE]",
		Short: "Variants in both modes as one table: a family, what-ifs, files",
		Long: `compare explores variants in TSO and ARM-like mode and prints one table:
a row per variant, a column per mode. Each cell is herd7's word for how
often the final condition holds (Never, Sometimes, Always) with the
number of final states that satisfy it out of all final states; the LKMM
column is the verdict the scenario file records. The variants are

  compare FAMILY                 every variant of a built-in family (see
                                 smpscope list); a scenario's name selects
                                 its family
  compare SCENARIO --edit E ...  the scenario as written, then one row per
                                 --edit flag: each a what-if, one edit or
                                 several separated by commas
                                 (--edit P0:1+mb,P1:1+mb)
  compare FILE|NAME ...          the scenarios named (.litmus files,
                                 built-in names, - for standard input)

Exit status: 0 when every exploration finished; 2 for an unknown family,
a parse or write error, or an exploration stopped by a limit (its cell
shows "?" and the counts found so far, without a verdict).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := limits.options("compare", cmd.Flags())
			if err != nil {
				return err
			}
			test := testFlag(cmd.Flags())
			for i := range args {
				args[i] = withTest(args[i], test)
			}
			return runCompare(args, edits, markdown, opts, stdin, stdout)
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print a markdown table")
	cmd.Flags().Var((*repeated)(&edits), "edit", "a what-if to compare with the scenario as written, e.g. `P1:2=acquire` or P0:1+mb,P1:1+mb (repeatable: a row each)")
	limits.add(cmd.Flags(), "exploring one variant in one mode")
	return cmd
}

func runCompare(args, edits []string, markdown bool, opts machine.Options, stdin io.Reader, w io.Writer) error {
	fail := func(err error) error { return &exitError{2, "smpscope compare: " + err.Error()} }
	var t scenarios.CompareTable
	var err error
	switch {
	case len(edits) > 0:
		if len(args) != 1 {
			return usageErr("compare: --edit compares one scenario with its what-ifs; name one scenario, not %d", len(args))
		}
		spec, err := scenarios.Resolve(args[0], stdin)
		if err != nil {
			return fail(err)
		}
		var variants [][]scenarios.Edit
		for _, e := range edits {
			v, err := scenarios.ParseEdits(strings.FieldsFunc(e, func(r rune) bool { return r == ',' || r == ' ' }))
			if err == nil && len(v) == 0 {
				err = fmt.Errorf("--edit %q holds no edit", e)
			}
			if err != nil {
				return usageErr("compare: --edit: %v", err)
			}
			variants = append(variants, v)
		}
		if t, err = scenarios.CompareEdits(spec, variants, bothModes, opts); err != nil {
			return usageErr("compare: --edit: %v", err)
		}
	case len(args) == 1 && !isFileArg(args[0]):
		fam, ferr := scenarios.FindFamily(args[0])
		if ferr != nil {
			return fail(ferr)
		}
		if t, err = scenarios.CompareFamily(fam, bothModes, opts); err != nil {
			return fail(err)
		}
	default:
		var specs []*scenarios.Spec
		var labels []string
		for _, a := range args {
			sp, err := scenarios.Resolve(a, stdin)
			if err != nil {
				return fail(err)
			}
			specs = append(specs, sp)
			labels = append(labels, sp.Name)
		}
		title := fmt.Sprintf("%d scenarios", len(specs))
		if len(specs) == 1 {
			title = specs[0].Name
		}
		if t, err = scenarios.CompareLabeled(title, specs, labels, bothModes, opts); err != nil {
			return fail(err)
		}
	}
	return writeReport("compare", w, views.CompareReport(t, markdown), t.Incomplete(), "smpscope compare: some explorations stopped at a limit: their cells (marked ?) have no verdict")
}

// isFileArg reports whether an argument names standard input or a file
// (which wins over a built-in name, as everywhere).
func isFileArg(arg string) bool {
	path := arg
	if i := strings.LastIndexByte(arg, '#'); i > 0 {
		path = arg[:i]
	}
	if path == scenarios.StdinName {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// writeReport writes an analysis report; partial (a search stopped at a
// limit) is exit status 2 with why.
func writeReport(who string, w io.Writer, report string, partial bool, why string) error {
	if err := writeOut(who, w, report); err != nil {
		return err
	}
	if partial {
		return &exitError{2, why}
	}
	return nil
}

func newWhyCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	var mode string
	var limits limitFlags
	var edits []string
	cmd := &cobra.Command{
		Use:   "why SCENARIO [--mode tso|arm|both] [--edit E ...] [--timeout D] [--max-states N] [--max-memory SIZE]",
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
Each weakening is a what-if edit (P0:2-wmb, P1:1=once), and the report
gives the --edit flags that replay each witness. --edit asks about an
edited program (the weakenings then apply on top of those edits).

Exit status: 0 when every exploration finished; 2 for usage, parse,
limit or write errors (an answer a limit cut short is said to be
unknown, never needed or not needed).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			modes, err := parseModes(mode)
			if err != nil {
				return &exitError{2, "smpscope why: " + err.Error()}
			}
			opts, err := limits.options("why", cmd.Flags())
			if err != nil {
				return err
			}
			return runWhy(withTest(args[0], testFlag(cmd.Flags())), edits, modes, opts, stdin, stdout)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "both", "tso, arm or both")
	addEditFlag(cmd.Flags(), &edits)
	limits.add(cmd.Flags(), "each exploration")
	return cmd
}

func runWhy(arg string, edits []string, modes []machine.Mode, opts machine.Options, stdin io.Reader, w io.Writer) error {
	spec, err := scenarios.Resolve(arg, stdin)
	if err != nil {
		return &exitError{2, "smpscope why: " + err.Error()}
	}
	if spec, err = editSpec("why: ", spec, edits); err != nil {
		return err
	}
	r, err := scenarios.Necessity(spec, modes, opts)
	if err != nil {
		return &exitError{2, "smpscope why: " + err.Error()}
	}
	return writeReport("why", w, views.WhyReport(r, arg), r.Unknown(), "smpscope why: some explorations stopped at a limit; their answers are marked unknown")
}

func newFixCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	var mode string
	var limits limitFlags
	var edits []string
	var maxExplorations, maxFixes int
	cmd := &cobra.Command{
		Use:   "fix SCENARIO [--mode tso|arm|both] [--edit E ...] [--max-explorations N] [--max-fixes N] [--timeout D] [--max-states N] [--max-memory SIZE]",
		Short: "The minimal strengthenings that make the asked outcome unreachable",
		Long: `fix answers "which barrier fixes it?". It searches the strengthenings of
the scenario's ordering annotations — a READ_ONCE load becomes
smp_load_acquire, a WRITE_ONCE store smp_store_release, an RMW acquire,
release or fully ordered, smp_rmb or smp_wmb becomes smp_mb, and smp_mb,
smp_rmb or smp_wmb is inserted after each access another follows — for
the sets that make the outcome the final clause asks about unreachable,
and reports the minimal ones in each mode (no set of fewer or weaker
strengthenings works), cheapest first by a stated cost model, each as
--edit flags ready to paste with the verdict it gives in both modes. When
even every strengthening at once leaves the outcome reachable it says so:
nothing short of locks fixes it.

The search explores sets in order of cost and never explores a set above
a fix found; --max-explorations (default 4000 per mode) and --max-fixes
(default 8, the cheapest) bound it, and the report says when they stopped it. The
--timeout, --max-states and --max-memory limits apply to each exploration.

Exit status: 0 when the search ran; 2 for usage, parse or write errors, or
when a limit stopped an exploration before the scenario's own verdict.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			modes, err := parseModes(mode)
			if err != nil {
				return &exitError{2, "smpscope fix: " + err.Error()}
			}
			opts, err := limits.options("fix", cmd.Flags())
			if err != nil {
				return err
			}
			if maxExplorations < 1 || maxFixes < 1 {
				return usageErr("fix: --max-explorations and --max-fixes must be at least 1")
			}
			fo := scenarios.FixOptions{Explore: opts, MaxExplorations: maxExplorations, MaxFixes: maxFixes}
			return runFix(withTest(args[0], testFlag(cmd.Flags())), edits, modes, fo, stdin, stdout)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "both", "tso, arm or both")
	cmd.Flags().IntVar(&maxExplorations, "max-explorations", 4000, "the most programs explored in each mode")
	cmd.Flags().IntVar(&maxFixes, "max-fixes", 8, "stop once this many minimal fixes (the cheapest) are found")
	addEditFlag(cmd.Flags(), &edits)
	limits.add(cmd.Flags(), "each exploration")
	return cmd
}

func runFix(arg string, edits []string, modes []machine.Mode, opts scenarios.FixOptions, stdin io.Reader, w io.Writer) error {
	spec, err := scenarios.Resolve(arg, stdin)
	if err != nil {
		return &exitError{2, "smpscope fix: " + err.Error()}
	}
	if spec, err = editSpec("fix: ", spec, edits); err != nil {
		return err
	}
	r, err := scenarios.FixSearch(spec, modes, opts)
	if err != nil {
		return &exitError{2, "smpscope fix: " + err.Error()}
	}
	unknown := false
	for _, m := range r.Modes {
		if !m.AsWritten.Known() {
			unknown = true
		}
	}
	return writeReport("fix", w, views.FixReport(r, arg), unknown, "smpscope fix: an exploration of the scenario as written stopped at a limit")
}

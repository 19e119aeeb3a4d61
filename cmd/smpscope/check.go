package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
	"smpscope/views"
)

type checkOptions struct {
	modes  []machine.Mode
	asJSON bool
	limits machine.Options
	edits  []string
	test   string // --test: which test of a mail
}

func parseModes(s string) ([]machine.Mode, error) {
	if s == "both" {
		return []machine.Mode{machine.TSO, machine.ARM}, nil
	}
	m, err := machine.ParseMode(s)
	if err != nil {
		return nil, fmt.Errorf("--mode: %v (or both)", err)
	}
	return []machine.Mode{m}, nil
}

func newCheckCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var opts checkOptions
	var mode string
	var limits limitFlags
	cmd := &cobra.Command{
		Use:   "check [--mode tso|arm|both] [--json] [--timeout D] [--max-states N] [--max-memory SIZE] [--edit E ...] FILE|NAME ...",
		Short: "Explore scenarios exhaustively and print herd7-style verdicts",
		Long: `check explores every reachable state of each scenario (a .litmus file, a
built-in name, or - for standard input) and prints, per scenario and mode,
the final states, whether the final condition holds and the Observation
line herd7 users know. --edit checks a what-if: each scenario with the
edits applied (P1:2=acquire makes P1's second instruction an acquire;
P0:1+mb inserts smp_mb() after P0's first; P0:2-wmb removes a barrier).

Deadlocked and faulted executions are no outcomes: each mode's report
counts them, with an example path of each, and says so on stderr too
when no execution reached the end (its verdict then holds of none).

Exit status: 0 when everything parsed and explored; 1 when a mode reaches an
outcome the file's "Result: Never" forbids (a soundness failure, which takes
precedence, also when a limit stopped the search after that outcome was
found); 2 for usage, parse, limit or write errors, and when no execution
of a mode reached the end and some faulted (the machine could not perform
an instruction herd7 gives a meaning to: there is no verdict); 130 when
interrupted. Every execution deadlocking is a verdict (herd7 and LKMM
find no execution either, e.g. synchronize_rcu inside its own reader):
status 0, with the note on stderr.
A search a limit stops has no verdict: it is reported on stderr with what
it found so far. Each scenario is printed as soon as it and those before
it are done; Ctrl-C stops the searches, prints what finished, and reports
the interrupted ones as unknown.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.modes, err = parseModes(mode); err != nil {
				return &exitError{2, "smpscope check: " + err.Error()}
			}
			if opts.limits, err = limits.options("check", cmd.Flags()); err != nil {
				return err
			}
			opts.test = testFlag(cmd.Flags())
			return runCheck(args, opts, stdin, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "both", "tso, arm or both")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "one JSON object per line, per scenario and mode")
	limits.add(cmd.Flags(), "exploring one scenario in one mode")
	addEditFlag(cmd.Flags(), &opts.edits)
	return cmd
}

// checked is one argument of check in one mode: its run, or why it could
// not be read.
type checked struct {
	arg string
	run scenarios.Run
}

// largeExplorations is what the explorations of one check run hold when it
// starts collecting garbage often.
const largeExplorations = 5 << 20

func runCheck(args []string, opts checkOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	// A check run is short-lived and its explorations usually hold little
	// live memory: collect garbage less often (the explorer's own memory
	// limit still bounds each search). Once they hold more than a few MiB,
	// the heap's headroom would be most of the resident memory, while the
	// stores are pointer-free pages that cost the collector little: then
	// collect often (issue 10: peak RSS about 90 B per state instead of
	// 200–350 B, for about 5% more time).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	if b := opts.limits.Budget; b != nil {
		b.OnLarge(largeExplorations, func() { debug.SetGCPercent(50) })
	}
	edits, err := scenarios.ParseEdits(opts.edits)
	if err != nil {
		return &exitError{2, "smpscope check: --edit: " + err.Error()}
	}
	// Read everything first: a scenario that does not parse is reported
	// once, not per mode.
	var all []checked
	var jobs []scenarios.Job
	var at []int // index in all of each job
	specs := resolveAll(args, func(arg string) (*scenarios.Spec, error) {
		sp, err := scenarios.Resolve(withTest(arg, opts.test), stdin)
		if err == nil {
			sp, err = sp.Edited(edits...)
		}
		return sp, err
	})
	for i, arg := range args {
		sp, err := specs[i].sp, specs[i].err
		if err != nil {
			all = append(all, checked{arg: arg, run: scenarios.Run{Job: scenarios.Job{Mode: opts.modes[0]}, Err: err}})
			continue
		}
		for _, m := range opts.modes {
			at = append(at, len(all))
			jobs = append(jobs, scenarios.Job{Spec: sp, Mode: m})
			all = append(all, checked{arg: arg})
		}
	}
	// Ctrl-C stops the searches, not the process: what finished is
	// reported as usual, what was interrupted as unknown (issue 22, item
	// 6), and the status is 130 (unless a soundness failure was found).
	ctx, interrupt := context.WithCancelCause(context.Background())
	defer interrupt(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	go func() {
		if _, ok := <-sigs; ok {
			interrupt(errInterrupted)
		}
	}()
	defer func() { signal.Stop(sigs); close(sigs) }()

	// Each argument is reported as soon as it and every one before it
	// are done, so that a long run shows its progress in its output.
	bar := progressTo(stderr, len(jobs))
	code, done, next := 0, 0, 0
	var werr error
	ready := make([]bool, len(all))
	for i, c := range all {
		ready[i] = c.run.Err != nil // did not parse: nothing to explore
	}
	flush := func() {
		for next < len(all) && ready[next] && werr == nil {
			c := all[next]
			next++
			werr = reportCheck(c, opts.asJSON, stdout, stderr, &code)
		}
	}
	flush()
	eo := opts.limits
	eo.NoWitnesses = true
	eo.StuckWitnesses = true // an example path for a deadlock and a fault
	eo.Context = ctx
	runs := scenarios.ExploreAll(jobs, eo, func(k int, r scenarios.Run) {
		done++
		all[at[k]].run, ready[at[k]] = r, true
		bar(-1)
		flush()
		if done < len(jobs) {
			bar(done)
		}
	})
	bar(-1)
	for k, r := range runs {
		if !ready[at[k]] { // skipped after an interrupt
			all[at[k]].run, ready[at[k]] = r, true
		}
	}
	flush()
	if werr != nil {
		return werr
	}
	if context.Cause(ctx) == errInterrupted {
		message(stderr, "smpscope check: interrupted")
		if code != 1 {
			code = 130
		}
	}
	if code != 0 {
		return &exitError{code: code}
	}
	return nil
}

// resolved is one argument's scenario, or why there is none.
type resolved struct {
	sp  *scenarios.Spec
	err error
}

// resolveAll resolves every argument with resolve, in parallel on all
// cores: reading, parsing and compiling a directory of small tests costs
// as much as exploring them (issue 24), and each file is independent of
// the others. Standard input is read by one goroutine, in the order the
// arguments name it, so that "-" twice means what it means one at a time.
func resolveAll(args []string, resolve func(arg string) (*scenarios.Spec, error)) []resolved {
	out := make([]resolved, len(args))
	var files []int
	for i, arg := range args {
		if arg == scenarios.StdinName || strings.HasPrefix(arg, scenarios.StdinName+"#") {
			out[i].sp, out[i].err = resolve(arg)
		} else {
			files = append(files, i)
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1)) - 1; k < len(files); k = int(next.Add(1)) - 1 {
				i := files[k]
				out[i].sp, out[i].err = resolve(args[i])
			}
		}()
	}
	wg.Wait()
	return out
}

// errInterrupted is why an interrupted search stopped.
var errInterrupted = errors.New("interrupted")

// reportCheck writes one argument's run: its herd7 block (or JSON line)
// on stdout, or why it has no verdict on stderr; code becomes 2 for a
// run without a verdict and 1 for a soundness failure.
func reportCheck(c checked, asJSON bool, stdout, stderr io.Writer, code *int) error {
	r := c.run
	if r.Err == nil && r.Result == nil {
		r.Err = errors.New("not explored (interrupted)")
	}
	if err := r.Failure(); err != nil {
		if r.Spec != nil {
			message(stderr, "smpscope check: %s (%s mode): %v", c.arg, r.Mode, err)
		} else {
			message(stderr, "smpscope check: %v", err)
		}
		if *code == 0 {
			*code = 2
		}
	}
	if r.Failure() == nil {
		switch _, _, faulted := r.Ends(); {
		case r.NoEnd():
			// No execution reached the end: the verdict ("Never 0 0")
			// holds of none. Said on stderr too, so that it cannot be
			// missed; with a fault it is no verdict at all (status 2).
			message(stderr, "smpscope check: %s (%s mode): %s", c.arg, r.Mode, r.EndsWords())
			if faulted > 0 && *code == 0 {
				*code = 2
			}
		case faulted > 0:
			message(stderr, "smpscope check: %s (%s mode): %d faulted states are not in the verdict (%s)", c.arg, r.Mode, faulted, words.Fault(r.Spec.Program, &r.Result.Faults[0].Fault))
		}
	}
	if r.Unsound() {
		message(stderr, "smpscope check: %s: SOUNDNESS: the file says \"Result: Never\" but %s mode reaches the outcome (%d final states)", r.Spec.Name, r.Mode.Title(), r.Verdict().Positive)
		*code = 1
	}
	switch {
	case asJSON:
		line, err := views.CheckJSON(c.arg, r)
		if err != nil {
			return err
		}
		return writeOut("check", stdout, string(line))
	case r.Failure() == nil:
		return writeOut("check", stdout, views.CheckText(r))
	}
	return nil
}

// progressTo returns a function that redraws a progress bar on w when w
// is a terminal and there is more than one job (and does nothing
// otherwise); call it with -1 to clear the line.
func progressTo(w io.Writer, total int) func(done int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) || total < 2 {
		return func(int) {}
	}
	bar := views.Progress(total)
	return func(done int) {
		if done < 0 {
			fmt.Fprint(w, "\r\x1b[2K")
			return
		}
		fmt.Fprint(w, "\r"+bar(done))
	}
}

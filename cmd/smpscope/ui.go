package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/model"
	"smpscope/scenarios"
)

// uiOptions are the root command's flags for the interactive UI.
type uiOptions struct {
	mode    string
	seed    uint64
	replay  string
	noMouse bool
	present bool
	every   time.Duration
	edits   []string
	test    string // --test: which test of a mail
}

func addUIFlags(cmd *cobra.Command, o *uiOptions) {
	f := cmd.Flags()
	f.StringVar(&o.mode, "mode", scenarios.DefaultMode.String(), "start in tso or arm mode (m switches)")
	f.Uint64Var(&o.seed, "seed", 1, "seed for the random steps of space and g, so sessions replay alike (g from the start: smpscope trace --random SEED)")
	f.StringVar(&o.replay, "replay", "", "open at the end of the trace `FILE`, with its whole history to step back through")
	f.BoolVar(&o.noMouse, "no-mouse", false, "leave the mouse to the terminal (text selection) instead of clicks and wheel")
	f.BoolVar(&o.present, "present", false, "presentation mode: step through the --replay trace, or the witness of the final clause's outcome (the closest attempt when it is unreachable), on its own (space pauses)")
	f.DurationVar(&o.every, "every", model.DefaultEvery, "with --present: the time between steps")
	addEditFlag(f, &o.edits)
}

// uiModelOptions turns the command line into model options: the library,
// the scenario to open (if any), the mode and a replayed history.
func uiModelOptions(args []string, o uiOptions, stdin io.Reader) (model.Options, error) {
	opts, err := model.LibraryOptions()
	if err != nil {
		return opts, &exitError{2, "smpscope: " + err.Error()}
	}
	mode, err := machine.ParseMode(o.mode)
	if err != nil {
		return opts, &exitError{2, "smpscope: --mode: " + err.Error()}
	}
	opts.Mode, opts.Seed = mode, o.seed
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	if o.every <= 0 {
		return opts, &exitError{2, "smpscope: --every must be positive"}
	}
	opts.Present, opts.Every = o.present, o.every
	if o.present && arg == "" && o.replay == "" {
		return opts, &exitError{2, "smpscope: --present needs a scenario (or --replay FILE)"}
	}
	if len(o.edits) > 0 && arg == "" {
		return opts, &exitError{2, "smpscope: --edit needs a scenario"}
	}
	if o.replay != "" {
		if len(o.edits) > 0 {
			return opts, &exitError{2, "smpscope: --edit and --replay: a trace records its own edits"}
		}
		ex, err := scenarios.ReplayTraceFile(o.replay, arg, nil, stdin)
		if err != nil {
			return opts, &exitError{2, "smpscope: " + err.Error()}
		}
		opts.Scenario, opts.Mode, opts.History = ex.Spec, ex.Mach.Mode, ex.Steps
		return opts, nil
	}
	if arg != "" {
		spec, err := scenarios.Resolve(withTest(arg, o.test), stdin)
		if err != nil {
			return opts, &exitError{2, "smpscope: " + err.Error()}
		}
		if spec, err = editSpec("", spec, o.edits); err != nil {
			return opts, err
		}
		// With --present and no trace, the UI shows at once and presents
		// the witness its background exploration finds (or says why there
		// is none, and presents a random run).
		opts.Scenario = spec
	}
	return opts, nil
}

// runUI starts the interactive UI on the terminal.
func runUI(args []string, o uiOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	opts, err := uiModelOptions(args, o, stdin)
	if err != nil {
		return err
	}
	// y writes its OSC 52 sequence to the terminal, past the renderer:
	// stderr when it is the terminal, else stdout.
	opts.Clipboard = stdout
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(f.Fd()) {
		opts.Clipboard = stderr
	}
	// One memory budget for every exploration of the session, and the
	// runtime told to keep the heap under it: the UI process stays within
	// 768 MiB however many searches it runs.
	explore := model.DefaultExploreOptions
	explore.Budget, explore.MaxMemory = processBudget(explore.MaxMemory), 0
	opts.Explore = &explore
	tty := model.Terminal{In: stdin, Out: stdout, Mouse: !o.noMouse}
	// Standard input held the scenario or the trace: keys come from the
	// terminal itself.
	tty.InTTY = o.replay == scenarios.StdinName || len(args) == 1 && args[0] == scenarios.StdinName
	if err := model.Run(opts, tty); err != nil {
		var se *model.SignalError
		if errors.As(err, &se) {
			// The status a shell gives a process the signal killed.
			code := 128 + 1
			if sig, ok := se.Signal.(syscall.Signal); ok {
				code = 128 + int(sig)
			}
			return &exitError{code, fmt.Sprintf("smpscope: %v", err)}
		}
		return &exitError{2, fmt.Sprintf("smpscope: %v", err)}
	}
	return nil
}

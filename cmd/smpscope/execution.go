package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"smpscope/machine"
	"smpscope/scenarios"
)

// execSource is how trace and record choose the execution they show: the
// shortest witness of the final clause's outcome (the default), a saved
// trace file, or seeded random steps.
type execSource struct {
	mode    string
	witness bool
	replay  string
	random  uint64
	limits  limitFlags
	edits   []string
}

// addFlags registers --mode, --witness, --replay and --random; verb says
// what the command does with the execution ("show", "record").
func (o *execSource) addFlags(f *pflag.FlagSet, verb string) {
	f.StringVar(&o.mode, "mode", scenarios.DefaultMode.String(), "tso or arm (with --replay: the trace's mode)")
	f.BoolVar(&o.witness, "witness", false, verb+" the shortest witness of the final clause's outcome, or the closest attempt when it is unreachable (default)")
	f.StringVar(&o.replay, "replay", "", verb+" the execution of a trace `FILE` (- for standard input)")
	f.Uint64Var(&o.random, "random", 0, verb+" random enabled steps chosen by `SEED`, to a final state (the UI's --seed SEED, then g)")
	o.limits.add(f, "the search for the witness")
	addEditFlag(f, &o.edits)
}

// addEditFlag registers --edit, which the UI, check, trace and record
// share.
func addEditFlag(f *pflag.FlagSet, edits *[]string) {
	f.Var((*repeated)(edits), "edit", "what if: change an ordering annotation first, e.g. `P1:2=acquire`, P0:1+mb, P0:2-wmb (repeatable; applied in order)")
}

// repeated is a flag that each use adds a value to, as pflag's
// StringArray, whose String (which pflag calls once per flag to record
// its default, for every command at every start) writes CSV through a
// 4 KiB buffer: eight --edit flags made a third of what building the
// command tree allocated (issue 24).
type repeated []string

func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }
func (r *repeated) Type() string       { return "stringArray" }
func (r *repeated) String() string {
	if len(*r) == 0 {
		return "" // no default shown in help
	}
	return "[" + strings.Join(*r, ",") + "]"
}

// editSpec applies the --edit flags to spec (who names the command in
// errors).
func editSpec(who string, spec *scenarios.Spec, flags []string) (*scenarios.Spec, error) {
	if len(flags) == 0 {
		return spec, nil
	}
	edits, err := scenarios.ParseEdits(flags)
	if err == nil {
		spec, err = spec.Edited(edits...)
	}
	if err != nil {
		return nil, usageErr("%s--edit: %v", who, err)
	}
	return spec, nil
}

// testFlag is the --test flag (a persistent flag of the root command).
func testFlag(f *pflag.FlagSet) string {
	t, _ := f.GetString("test")
	return t
}

// withTest makes an argument select the --test test of a mail: "-#2",
// "mail.txt#sb+once" (see scenarios.Resolve).
func withTest(arg, test string) string {
	if test == "" || arg == "" {
		return arg
	}
	return arg + "#" + test
}

func usageErr(format string, args ...any) error {
	return &exitError{2, "smpscope " + fmt.Sprintf(format, args...)}
}

// execution resolves the execution a command works on, and the argument
// that named its scenario. who is the command's name for messages, verb
// what it does with a witness.
func (o execSource) execution(who, verb string, f *pflag.FlagSet, args []string, stdin io.Reader) (*scenarios.Execution, string, error) {
	chosen := 0
	for _, name := range []string{"witness", "replay", "random"} {
		if f.Changed(name) {
			chosen++
		}
	}
	if chosen > 1 {
		return nil, "", usageErr("%s: choose one of --witness, --replay and --random", who)
	}
	if len(args) == 0 && o.replay == "" {
		return nil, "", usageErr("%s: name a scenario (a built-in name, a .litmus file or - for standard input), or give --replay FILE", who)
	}
	mode, err := machine.ParseMode(o.mode)
	if err != nil {
		return nil, "", usageErr("%s: --mode: %v", who, err)
	}
	limits, err := o.limits.options(who, f)
	if err != nil {
		return nil, "", err
	}
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	if o.replay != "" {
		if len(o.edits) > 0 {
			return nil, "", usageErr("%s: --edit and --replay: a trace records its own edits", who)
		}
		var override *machine.Mode
		if f.Changed("mode") {
			override = &mode
		}
		ex, err := scenarios.ReplayTraceFile(o.replay, arg, override, stdin)
		if err != nil {
			return nil, "", usageErr("%s: %v", who, err)
		}
		if arg == "" {
			arg = ex.Spec.Name
			if ex.Spec.File != "" {
				arg = ex.Spec.File
			}
		}
		return ex, arg, nil
	}
	spec, err := scenarios.Resolve(withTest(arg, testFlag(f)), stdin)
	if err != nil {
		return nil, "", usageErr("%s: %v", who, err)
	}
	if spec, err = editSpec(who+": ", spec, o.edits); err != nil {
		return nil, "", err
	}
	var ex *scenarios.Execution
	if f.Changed("random") {
		ex, err = scenarios.RandomExecution(spec, mode, o.random)
	} else {
		ex, err = witness(who, verb, spec, mode, limits)
	}
	if err != nil {
		return nil, "", err
	}
	return ex, arg, nil
}

// witness (who is the subcommand, "" for the UI) is the shortest witness
// of the outcome the final clause asks about, or, when that outcome is
// unreachable, the closest attempt at it (ex.Attempt set); exit status 1
// when there is no outcome to show at all (no final clause), 2 when the
// search stopped at a limit first.
func witness(who, verb string, spec *scenarios.Spec, mode machine.Mode, opts machine.Options) (*scenarios.Execution, error) {
	ex, err := scenarios.WitnessOrAttempt(spec, mode, opts)
	prefix := "smpscope"
	if who != "" {
		prefix += " " + who
	}
	var nw *scenarios.NoWitnessError
	switch {
	case errors.As(err, &nw) && nw.Unreachable():
		return nil, &exitError{1, fmt.Sprintf("%s: %v: there is no witness to %s.", prefix, err, verb)}
	case err != nil:
		return nil, &exitError{2, fmt.Sprintf("%s: %v", prefix, err)}
	case ex.Attempt != nil && ex.Attempt.BecauseStopped:
		// The output would lack what the full search says: why.
		return nil, &exitError{2, fmt.Sprintf("%s: %s: %s is unreachable in %s mode, but why is unknown: a limit stopped the searches of its weakened programs first", prefix, spec.Name, spec.AskedWords(), mode.Title())}
	}
	return ex, nil
}

// noteAttempt tells stderr when a command shows the closest attempt
// rather than a witness (the output itself says so too, but it may have
// gone to a file).
func noteAttempt(w io.Writer, who string, ex *scenarios.Execution) {
	if ex.Attempt != nil {
		message(w, "smpscope %s: %s is unreachable in %s mode: showing the closest attempt (%d steps)", who, ex.Spec.AskedWords(), ex.Mach.Mode.Title(), len(ex.Steps))
	}
}

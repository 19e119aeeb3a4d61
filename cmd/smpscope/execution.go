package main

import (
	"fmt"

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
}

// addFlags registers --mode, --witness, --replay and --random; verb says
// what the command does with the execution ("show", "record").
func (o *execSource) addFlags(f *pflag.FlagSet, verb string) {
	f.StringVar(&o.mode, "mode", "arm", "tso or arm (with --replay: the trace's mode)")
	f.BoolVar(&o.witness, "witness", false, verb+" the shortest witness of the final clause's outcome (default)")
	f.StringVar(&o.replay, "replay", "", verb+" the execution of a trace `FILE`")
	f.Uint64Var(&o.random, "random", 0, verb+" random enabled steps chosen by `SEED`, to a final state")
}

// execution is one run of a scenario, chosen by an execSource.
type execution struct {
	cs    *scenarios.Compiled
	m     *machine.Machine
	steps []machine.Step
	arg   string // how the scenario was named: a built-in name or a path
	note  string // where the execution comes from, in words
}

// chooseExecution resolves the execution a command works on. who is the
// command's name for messages, verb what it does with a witness.
func chooseExecution(who, verb string, f *pflag.FlagSet, args []string, o execSource) (*execution, error) {
	chosen := 0
	for _, name := range []string{"witness", "replay", "random"} {
		if f.Changed(name) {
			chosen++
		}
	}
	if chosen > 1 {
		return nil, usageErr("%s: choose one of --witness, --replay and --random", who)
	}
	if len(args) == 0 && o.replay == "" {
		return nil, usageErr("%s: name a scenario (a built-in name or a .litmus file), or give --replay FILE", who)
	}
	mode, err := machine.ParseMode(o.mode)
	if err != nil {
		return nil, usageErr("%s: --mode: %v", who, err)
	}
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	if o.replay != "" {
		var override *machine.Mode
		if f.Changed("mode") {
			override = &mode
		}
		ex, err := replayTraceFile(o.replay, arg, override)
		if err != nil {
			return nil, usageErr("%s: %v", who, err)
		}
		return ex, nil
	}
	cs, err := compiledArg(arg)
	if err != nil {
		return nil, usageErr("%s: %v", who, err)
	}
	m, err := machine.New(cs.Program, mode)
	if err != nil {
		return nil, usageErr("%s: %v", who, err)
	}
	ex := &execution{cs: cs, m: m, arg: arg}
	if f.Changed("random") {
		ex.steps, ex.note = randomRun(m, o.random), fmt.Sprintf("Random execution, seed %d", o.random)
		return ex, nil
	}
	if ex.steps, err = witnessOf(who, verb, cs, m, machine.Options{}); err != nil {
		return nil, err
	}
	ex.note = "Shortest witness of " + finalText(cs)
	return ex, nil
}

// replayTraceFile loads a trace file and the scenario it names (arg, when
// given, overrides it) and replays it, in the trace's mode unless mode is
// given.
func replayTraceFile(path, arg string, mode *machine.Mode) (*execution, error) {
	tr, cs, resolved, err := loadTraceFile(path, arg)
	if err != nil {
		return nil, err
	}
	md := tr.Mode
	if mode != nil {
		md = *mode
	}
	m, err := machine.New(cs.Program, md)
	if err != nil {
		return nil, err
	}
	_, events, err := tr.Replay(m)
	if err != nil {
		return nil, err
	}
	ex := &execution{cs: cs, m: m, arg: resolved, note: "Replayed from " + path}
	for _, ev := range events {
		ex.steps = append(ex.steps, ev.Step)
	}
	return ex, nil
}

// witnessOf (who is the subcommand, "" for the UI) explores the scenario and returns the shortest witness of the
// outcome its final clause asks about; exit status 1 when that outcome is
// unreachable, 2 when the search stopped at a limit first.
func witnessOf(who, verb string, cs *scenarios.Compiled, m *machine.Machine, opts machine.Options) ([]machine.Step, error) {
	res := machine.Explore(m, opts)
	if w, ok := shortestWitness(cs, res); ok {
		return w, nil
	}
	prefix := "smpscope"
	if who != "" {
		prefix += " " + who
	}
	if !res.Complete {
		return nil, &exitError{2, fmt.Sprintf("%s: %s: no witness found before the search %s", prefix, cs.Scenario.Name, res.Summary())}
	}
	return nil, &exitError{1, fmt.Sprintf("%s: %s: %s is unreachable in %s mode (explored %d states): there is no witness to %s.", prefix, cs.Scenario.Name, askedWords(cs), m.Mode.Title(), res.States, verb)}
}

package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

type traceOptions struct {
	execSource
	format string
	ascii  bool
	width  int
	out    string
	save   string
}

func newTraceCmd(stdout, stderr io.Writer) *cobra.Command {
	var o traceOptions
	cmd := &cobra.Command{
		Use:   "trace SCENARIO [--mode tso|arm] [--witness | --replay FILE | --random SEED] [--format text|markdown] [--ascii] [--width N] [--out FILE] [--save FILE]",
		Short: "Print one execution step by step, ready for a mail",
		Long: `trace prints one execution of a scenario step by step: what each step
did, how each read is classified (a stale read is marked "!! STALE"), the
store buffers, invalidation queues, caches and memory each step changed,
and at the end the outcome and whether the final clause holds.

The execution is one of:
  --witness        the shortest execution reaching the outcome the final
                   clause asks about (the default)
  --replay FILE    a saved trace file (SCENARIO may then be left out)
  --random SEED    random enabled steps, chosen by SEED, to a final state

The text fits 72 columns (--width) and carries no escape codes unless it
goes to a terminal; --ascii keeps it to ASCII. --save FILE also writes the
execution as a replayable trace file (see README, "Trace files").

Exit status: 0 printed; 1 the outcome the final clause asks about is
unreachable, so there is no witness; 2 usage, parse, replay or limit
errors.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTrace(cmd, args, o, stdout, stderr)
		},
	}
	f := cmd.Flags()
	o.addFlags(f, "show")
	f.StringVar(&o.format, "format", "text", "text or markdown")
	f.BoolVar(&o.ascii, "ascii", false, "ASCII only: no rules, arrows or other symbols")
	f.IntVar(&o.width, "width", views.DefaultTraceWidth, "widest line in columns (at least 40)")
	f.StringVar(&o.out, "out", "", "write the rendered execution to `FILE` instead of stdout")
	f.StringVar(&o.save, "save", "", "also write the execution as a replayable trace `FILE`")
	return cmd
}

func usageErr(format string, args ...any) error {
	return &exitError{2, "smpscope " + fmt.Sprintf(format, args...)}
}

// compiledArg loads and compiles a built-in scenario name or a .litmus
// path.
func compiledArg(arg string) (*scenarios.Compiled, error) {
	sc, err := scenarios.Load(arg)
	if err != nil {
		return nil, err
	}
	return sc.Compile()
}

// finalText is the final clause as written, e.g. "exists (1:r0=1 /\ 1:r1=0)".
func finalText(cs *scenarios.Compiled) string {
	f := cs.Scenario.Final
	if f == nil {
		return ""
	}
	return f.Kind.String() + " " + scenarios.FormatCond(f.Cond)
}

// askedWords names the outcome the final clause asks about (see
// scenarios.Question.Asked), for messages.
func askedWords(cs *scenarios.Compiled) string {
	f := cs.Scenario.Final
	if f == nil {
		return "the final clause's outcome"
	}
	cond := scenarios.FormatCond(f.Cond)
	switch f.Kind {
	case scenarios.Forall:
		return "an outcome violating forall " + cond
	case scenarios.NotExists:
		return "the outcome ~exists forbids, " + cond + ","
	}
	return "the exists outcome " + cond
}

// shortestWitness returns the shortest witness among the outcomes the
// final clause asks about, and whether there is one.
func shortestWitness(cs *scenarios.Compiled, res *machine.Result) ([]machine.Step, bool) {
	return cs.Question().ShortestWitness(res)
}

// randomRun takes random enabled steps chosen by seed until the state is
// final or no step is enabled (a deadlock).
func randomRun(m *machine.Machine, seed uint64) []machine.Step {
	r := rand.New(rand.NewPCG(seed, 0x736d7073636f7065)) // "smpscope"
	s := m.Initial()
	var steps []machine.Step
	for !m.Final(s) {
		en := m.Enabled(s)
		if len(en) == 0 {
			break
		}
		st := en[r.IntN(len(en))]
		next, _, err := m.Apply(s, st)
		if err != nil {
			panic(err) // Enabled returned it
		}
		steps = append(steps, st)
		s = next
	}
	return steps
}

// loadTraceFile parses a trace file and, when no scenario was named on
// the command line, loads the one it names: its source (as given, or
// relative to the trace file) or its built-in scenario name.
func loadTraceFile(path string, arg string) (*scenarios.Trace, *scenarios.Compiled, string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, "", err
	}
	tr, err := scenarios.ParseTrace(path, src)
	if err != nil {
		return nil, nil, "", err
	}
	if arg == "" {
		arg = tr.Source
		if arg == "" {
			arg = tr.Scenario
		} else if !filepath.IsAbs(arg) {
			// --save writes a file source relative to the trace file.
			if alt := filepath.Join(filepath.Dir(path), arg); fileExists(alt) {
				arg = alt
			}
		}
	}
	cs, err := compiledArg(arg)
	if err != nil {
		return nil, nil, "", err
	}
	return tr, cs, arg, nil
}

// sourceFor is how a trace saved at tracePath names the scenario loaded
// from arg: a .litmus file by its path relative to the trace file (so the
// two can move together), a built-in scenario by its name.
func sourceFor(arg, tracePath string) string {
	if !fileExists(arg) {
		return arg
	}
	a, err1 := filepath.Abs(arg)
	d, err2 := filepath.Abs(filepath.Dir(tracePath))
	if err1 != nil || err2 != nil {
		return arg
	}
	if rel, err := filepath.Rel(d, a); err == nil {
		return filepath.ToSlash(rel)
	}
	return a
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func runTrace(cmd *cobra.Command, args []string, o traceOptions, stdout, stderr io.Writer) error {
	format, err := views.ParseTraceFormat(o.format)
	if err != nil {
		return usageErr("trace: --format: %v", err)
	}
	if o.width < 40 {
		return usageErr("trace: --width %d is too narrow (at least 40)", o.width)
	}
	ex, err := chooseExecution("trace", "show", cmd.Flags(), args, o.execSource)
	if err != nil {
		return err
	}
	cs, m, steps, arg, note := ex.cs, ex.m, ex.steps, ex.arg, ex.note
	states, events, err := m.Replay(steps)
	if err != nil {
		return &exitError{2, "smpscope trace: " + err.Error()}
	}

	sc := cs.Scenario
	in := views.TraceInput{
		Mach: m, Steps: steps, States: states, Events: events,
		Name: sc.Name, Variant: sc.Meta.Variant, Title: sc.Meta.Title,
		Condition: finalText(cs), Satisfies: cs.Satisfies, Filtered: cs.Filtered, Shown: cs.Shown(),
	}
	w := stdout
	var file *os.File
	if o.out != "" && o.out != "-" {
		if file, err = os.Create(o.out); err != nil {
			return usageErr("trace: %v", err)
		}
		defer file.Close()
		w = file
	}
	color := false
	if fl, ok := w.(*os.File); ok && format == views.TraceText && term.IsTerminal(fl.Fd()) {
		color = true
	}
	text := views.RenderTrace(in, views.TraceOptions{Format: format, Width: o.width, ASCII: o.ascii, Color: color})
	if _, err := io.WriteString(w, text); err != nil {
		return err
	}
	if file != nil {
		if err := file.Close(); err != nil {
			return usageErr("trace: %v", err)
		}
	}
	if o.save != "" {
		tr, err := scenarios.NewTrace(m, steps)
		if err != nil {
			return &exitError{2, "smpscope trace: " + err.Error()}
		}
		if arg != sc.Name {
			tr.Source = sourceFor(arg, o.save)
		}
		tr.Variant = sc.Meta.Variant
		if sc.Meta.Title != "" {
			tr.Notes = append(tr.Notes, sc.Meta.Title)
		}
		tr.Notes = append(tr.Notes, note)
		last := states[len(states)-1]
		if m.Final(last) {
			tr.Notes = append(tr.Notes, "Ends in outcome "+m.Outcome(last).Format(m.Prog, cs.Shown()))
		}
		if err := os.WriteFile(o.save, []byte(tr.Format()), 0o644); err != nil {
			return usageErr("trace: %v", err)
		}
		fmt.Fprintf(stderr, "smpscope trace: wrote %s (%d steps); replay it with: smpscope trace --replay %s\n", o.save, len(steps), shellQuote(o.save))
	}
	return nil
}

// shellQuote quotes a path for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"smpscope/scenarios/syntax"
	"smpscope/views"
)

type traceOptions struct {
	execSource
	format string
	ascii  bool
	width  int
	out    string
	save   string
	force  bool
	// picture prints the picture of the execution (views/picture)
	// instead of its steps.
	picture bool
}

func newTraceCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var o traceOptions
	cmd := &cobra.Command{
		Use:   "trace SCENARIO [--mode tso|arm] [--witness | --replay FILE | --random SEED] [--edit E ...] [--picture] [--format text|markdown] [--ascii] [--width N] [--out FILE] [--save FILE] [--force]",
		Short: "Print one execution step by step, ready for a mail",
		Long: `trace prints one execution of a scenario step by step: what each step
did, how each read is classified (a stale read is marked "!!" in the
margin), the store buffers, invalidation queues, cache lines and memory
each step changed, and at the end the outcome and whether the final clause
holds.

The execution is one of:
  --witness        the shortest execution reaching the outcome the final
                   clause asks about (the default); when it is
                   unreachable, the closest attempt at it
  --replay FILE    a saved trace file (SCENARIO may then be left out)
  --random SEED    random enabled steps, chosen by SEED, to a final state:
                   the same steps as the UI's --seed SEED, then g

--edit E (repeatable) runs a what-if: the scenario with an ordering
annotation changed first (P1:2=acquire, P0:1+mb, P0:2-wmb; see README).

--picture prints the picture of the execution instead of its steps: a
timeline with one lane per CPU and memory and one row per step (each
store's way into the store buffer, its commit and the invalidations it
sent; each load's source, a stale read marked !! with the store it
missed; where CPUs waited), the cycle of its event graph, each store's
journey and a legend (see README, "The picture").

The text fits 72 columns (--width) and carries no escape codes unless it
goes to a terminal; --ascii keeps it to ASCII. It ends with a short block,
the trace with the scenario's litmus source, so that the text itself, in
a mail and quoted in a reply or not, replays with smpscope --replay FILE. --save FILE also writes the
execution as a replayable trace file (see README, "Trace files"). An
existing --out or --save file is never overwritten without --force.

Exit status: 0 printed (a witness or the closest attempt); 1 no outcome
to show (the scenario has no final clause); 2 usage, parse, replay,
write or limit errors (a search a limit stopped before finding a witness
cannot say whether the outcome is reachable).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTrace(cmd, args, o, stdin, stdout, stderr)
		},
	}
	f := cmd.Flags()
	o.addFlags(f, "show")
	f.StringVar(&o.format, "format", "text", "text or markdown")
	f.BoolVar(&o.ascii, "ascii", false, "ASCII only: no rules, arrows or other symbols")
	f.IntVar(&o.width, "width", views.DefaultTraceWidth, "widest line in columns (at least 40)")
	f.StringVar(&o.out, "out", "", "write the rendered execution to `FILE` instead of stdout")
	f.StringVar(&o.save, "save", "", "also write the execution as a replayable trace `FILE`")
	f.BoolVar(&o.force, "force", false, forceHelp("the --out and --save files"))
	f.BoolVar(&o.picture, "picture", false, "print the picture of the execution (a timeline of where every value travelled, and its event graph's cycle) instead of its steps")
	return cmd
}

func runTrace(cmd *cobra.Command, args []string, o traceOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	format, err := views.ParseTraceFormat(o.format)
	if err != nil {
		return usageErr("trace: --format: %v", err)
	}
	if o.width < 40 {
		return usageErr("trace: --width %d is too narrow (at least 40)", o.width)
	}
	out := o.out
	if out == "-" {
		out = ""
	}
	if err := checkOutputs("trace", o.force, out, o.save); err != nil {
		return err
	}
	ex, _, err := o.execution("trace", "show", cmd.Flags(), args, stdin)
	if err != nil {
		return err
	}
	noteAttempt(stderr, "trace", ex)
	color := false
	if f, ok := stdout.(*os.File); ok && out == "" && format == views.TraceText && term.IsTerminal(f.Fd()) {
		color = true
	}
	render := views.RenderTrace
	if o.picture {
		render = views.RenderPicture
	}
	text := render(ex, views.TraceOptions{Format: format, Width: o.width, ASCII: o.ascii, Color: color})
	// The files are written all or none, and the trace printed on stdout
	// only once they are staged: a --save that cannot be written fails
	// before anything is printed.
	files := outputs{who: "trace", force: o.force}
	files.add(out, []byte(syntax.Printable(text)))
	if o.save != "" {
		saved, err := ex.Trace(filepath.Dir(o.save)).Text()
		if err != nil {
			return usageErr("trace: %v", err)
		}
		files.add(o.save, []byte(saved))
	}
	if err := files.stage(); err != nil {
		return err
	}
	switch {
	case out != "":
	case color:
		err = writeRaw("trace", stdout, text) // made safe piece by piece in views
	default:
		err = writeOut("trace", stdout, text)
	}
	if err != nil {
		files.abort()
		return err
	}
	if err := files.commit(); err != nil {
		return err
	}
	if o.save != "" {
		message(stderr, "smpscope trace: wrote %s (%d steps); replay it with: smpscope trace --replay %s", o.save, len(ex.Steps), views.ShellQuote(o.save))
	}
	return nil
}

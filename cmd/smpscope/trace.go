package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

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

func newTraceCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var o traceOptions
	cmd := &cobra.Command{
		Use:   "trace SCENARIO [--mode tso|arm] [--witness | --replay FILE | --random SEED] [--edit E ...] [--format text|markdown] [--ascii] [--width N] [--out FILE] [--save FILE]",
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

The text fits 72 columns (--width) and carries no escape codes unless it
goes to a terminal; --ascii keeps it to ASCII. --save FILE also writes the
execution as a replayable trace file (see README, "Trace files").

Exit status: 0 printed (a witness or the closest attempt); 1 no outcome
to show (the scenario has no final clause); 2 usage, parse, replay or
limit errors.`,
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
	ex, _, err := o.execution("trace", "show", cmd.Flags(), args, stdin)
	if err != nil {
		return err
	}
	noteAttempt(stderr, "trace", ex)
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
	if _, err := io.WriteString(w, views.RenderTrace(ex, views.TraceOptions{Format: format, Width: o.width, ASCII: o.ascii, Color: color})); err != nil {
		return err
	}
	if file != nil {
		if err := file.Close(); err != nil {
			return usageErr("trace: %v", err)
		}
	}
	if o.save != "" {
		if err := os.WriteFile(o.save, []byte(ex.Trace(filepath.Dir(o.save)).Format()), 0o644); err != nil {
			return usageErr("trace: %v", err)
		}
		fmt.Fprintf(stderr, "smpscope trace: wrote %s (%d steps); replay it with: smpscope trace --replay %s\n", o.save, len(ex.Steps), views.ShellQuote(o.save))
	}
	return nil
}

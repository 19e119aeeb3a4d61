package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"smpscope/model"
	"smpscope/views"
)

type recordOptions struct {
	execSource
	out     string
	delay   time.Duration
	size    string
	noColor bool
	tape    string
}

func newRecordCmd(stdin io.Reader, stderr io.Writer) *cobra.Command {
	var o recordOptions
	cmd := &cobra.Command{
		Use:   "record SCENARIO (--witness | --replay FILE | --random SEED) --out demo.cast [--delay 1.5s] [--size 100x30] [--tape demo.tape]",
		Short: "Record the UI stepping through an execution (asciicast v2)",
		Long: `record renders the real UI frames of an execution, one per step,
deterministically and without a terminal, into an asciicast v2 file that
asciinema plays ("asciinema play demo.cast") and converts (svg-term, agg).

The execution is the shortest witness of the outcome the final clause asks
about (--witness, the default), a saved trace file (--replay FILE; SCENARIO
may then be left out) or random steps (--random SEED). Frames are --delay
apart; the last one stays for one more delay.

--tape FILE also writes a VHS tape (https://github.com/charmbracelet/vhs)
with the keystrokes that produce the same run in the real UI: it types the
command that opens the scenario, then each step's number in the list of
enabled steps, --delay apart, and q.

When the outcome is unreachable, --witness records the closest attempt
at it (see README, "The closest attempt").

Exit status: 0 written; 1 no outcome to show (no final clause); 2 usage,
parse, replay or write errors.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecord(cmd, args, o, stdin, stderr)
		},
	}
	f := cmd.Flags()
	o.addFlags(f, "record")
	f.StringVar(&o.out, "out", "", "the asciicast `FILE` to write (required)")
	f.DurationVar(&o.delay, "delay", 1500*time.Millisecond, "time between frames")
	f.StringVar(&o.size, "size", "100x30", "terminal size COLSxROWS")
	f.BoolVar(&o.noColor, "no-color", false, "record without colours")
	f.StringVar(&o.tape, "tape", "", "also write a VHS tape `FILE` with the keystrokes of the same run")
	return cmd
}

// parseSize reads "COLSxROWS".
func parseSize(s string) (w, h int, err error) {
	if _, err := fmt.Sscanf(strings.ToLower(s), "%dx%d", &w, &h); err != nil || w < 20 || h < 5 || w > 1000 || h > 500 {
		return 0, 0, fmt.Errorf("--size %q: want COLSxROWS, e.g. 100x30", s)
	}
	return w, h, nil
}

func runRecord(cmd *cobra.Command, args []string, o recordOptions, stdin io.Reader, stderr io.Writer) error {
	if o.out == "" {
		return usageErr("record: --out FILE is required")
	}
	w, h, err := parseSize(o.size)
	if err != nil {
		return usageErr("record: %v", err)
	}
	if o.delay <= 0 {
		return usageErr("record: --delay must be positive")
	}
	ex, arg, err := o.execution("record", "record", cmd.Flags(), args, stdin)
	if err != nil {
		return err
	}
	noteAttempt(stderr, "record", ex)
	frames := model.Frames(ex, w, h, !o.noColor)

	file, err := os.Create(o.out)
	if err != nil {
		return usageErr("record: %v", err)
	}
	title := fmt.Sprintf("smpscope %s (%s mode)", ex.Spec.Name, ex.Mach.Mode.Title())
	werr := model.WriteCast(file, w, h, title, frames, o.delay)
	if cerr := file.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return usageErr("record: %s: %v", o.out, werr)
	}
	fmt.Fprintf(stderr, "smpscope record: wrote %s (%d frames, %dx%d); play it with: asciinema play %s\n", o.out, len(frames), w, h, views.ShellQuote(o.out))
	if o.tape != "" {
		if err := os.WriteFile(o.tape, []byte(model.Tape(ex, arg, o.tape, w, h, o.delay)), 0o644); err != nil {
			return usageErr("record: %v", err)
		}
		fmt.Fprintf(stderr, "smpscope record: wrote %s (%d steps); record it with: vhs %s\n", o.tape, len(ex.Steps), views.ShellQuote(o.tape))
	}
	return nil
}

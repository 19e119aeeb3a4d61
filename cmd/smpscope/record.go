package main

import (
	"bytes"
	"fmt"
	"io"
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
	force   bool
	// picture records the picture page (p) instead of the panes.
	picture bool
	// present records presentation mode, with captions.
	present bool
}

func newRecordCmd(stdin io.Reader, stderr io.Writer) *cobra.Command {
	var o recordOptions
	cmd := &cobra.Command{
		Use:   "record SCENARIO (--witness | --replay FILE | --random SEED) --out demo.cast [--delay 1.5s] [--size 100x30] [--picture | --present] [--tape demo.tape] [--force]",
		Short: "Record the UI stepping through an execution (asciicast v2)",
		Long: `record renders the real UI frames of an execution, one per step,
deterministically and without a terminal, into an asciicast v2 file that
asciinema plays ("asciinema play demo.cast") and converts (svg-term, agg).

The execution is the shortest witness of the outcome the final clause asks
about (--witness, the default), a saved trace file (--replay FILE; SCENARIO
may then be left out) or random steps (--random SEED). Frames are --delay
apart; the last one stays for one more delay.

--picture records the picture page (the UI's p) instead of the panes:
the timeline of the history growing one row a frame.

--present records presentation mode (the UI's --present, at the pace of
--delay) with a caption line under each frame: the step and what it did,
in words (cut to the width; the whole of it is the frame's marker, which
players show on their timeline). The UI gets every row of --size but the
caption's.

--tape FILE also writes a VHS tape (https://github.com/charmbracelet/vhs)
with the keystrokes that produce the same run in the real UI: it types the
command that opens the scenario, then each step's number in the list of
enabled steps, --delay apart, and q.

Every output path is checked before anything is written, and an existing
file is never overwritten without --force (like the UI's e). The cast and
the tape are written all or none: to temporary files renamed into place
once both are written, so a failed or killed run leaves neither half.

When the outcome is unreachable, --witness records the closest attempt
at it (see README, "The closest attempt").

Exit status: 0 written; 1 no outcome to show (no final clause); 2 usage,
parse, replay, limit or write errors.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecord(cmd, args, o, stdin, stderr)
		},
	}
	f := cmd.Flags()
	o.addFlags(f, "record")
	f.StringVar(&o.out, "out", "", "the asciicast `FILE` to write (required)")
	f.DurationVar(&o.delay, "delay", 1500*time.Millisecond, "time between frames (at least 100ms)")
	f.StringVar(&o.size, "size", "100x30", "terminal size COLSxROWS, from 60x20 (the UI's smallest) to 1000x500")
	f.BoolVar(&o.noColor, "no-color", false, "record without colours")
	f.StringVar(&o.tape, "tape", "", "also write a VHS tape `FILE` with the keystrokes of the same run")
	f.BoolVar(&o.force, "force", false, forceHelp("the --out and --tape files"))
	f.BoolVar(&o.picture, "picture", false, "record the picture page (the UI's p: the timeline of the history) instead of the panes")
	f.BoolVar(&o.present, "present", false, "record presentation mode, each frame captioned with what its step did")
	return cmd
}

// The range of --size: the UI's smallest screen (smaller, every frame
// would say "terminal too small") up to what a player shows.
const (
	maxRecordWidth  = 1000
	maxRecordHeight = 500
)

// minDelay is the shortest --delay: frames closer than this are not a
// demo a person can follow (and times are whole milliseconds).
const minDelay = 100 * time.Millisecond

// parseSize reads "COLSxROWS" within the range above.
func parseSize(s string) (w, h int, err error) {
	var rest string
	n, _ := fmt.Sscanf(strings.ToLower(s), "%dx%d%s", &w, &h, &rest)
	if n != 2 {
		return 0, 0, fmt.Errorf("--size %q: want COLSxROWS, e.g. 100x30", s)
	}
	if w < views.MinWidth || h < views.MinHeight || w > maxRecordWidth || h > maxRecordHeight {
		return 0, 0, fmt.Errorf("--size %s: want %dx%d to %dx%d (the UI needs at least %dx%d)", s, views.MinWidth, views.MinHeight, maxRecordWidth, maxRecordHeight, views.MinWidth, views.MinHeight)
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
	if o.delay < minDelay {
		return usageErr("record: --delay %v: at least %v between frames", o.delay, minDelay)
	}
	// Every output is checked before anything is computed or written.
	if err := checkOutputs("record", o.force, o.out, o.tape); err != nil {
		return err
	}
	ex, arg, err := o.execution("record", "record", cmd.Flags(), args, stdin)
	if err != nil {
		return err
	}
	noteAttempt(stderr, "record", ex)
	if o.picture && o.present {
		return usageErr("record: --picture and --present: one view at a time")
	}
	view := model.ViewPanes
	if o.picture {
		view = model.ViewPicture
	}
	var frames, captions []string
	if o.present {
		// The caption takes the last row.
		frames, captions = model.PresentFrames(ex, w, h-1, !o.noColor, o.delay), model.Captions(ex)
	} else {
		frames = model.Frames(ex, w, h, !o.noColor, view)
	}
	var cast bytes.Buffer
	title := fmt.Sprintf("smpscope %s (%s mode)", ex.Spec.Name, ex.Mach.Mode.Title())
	if err := model.WriteCaptionedCast(&cast, w, h, title, frames, captions, o.delay); err != nil {
		return usageErr("record: %v", err)
	}
	files := outputs{who: "record", force: o.force}
	files.add(o.out, cast.Bytes())
	if o.tape != "" {
		files.add(o.tape, []byte(model.Tape(ex, arg, o.tape, w, h, o.delay, view)))
	}
	if err := files.write(); err != nil {
		return err
	}
	message(stderr, "smpscope record: wrote %s (%d frames, %dx%d); play it with: asciinema play %s", o.out, len(frames), w, h, views.ShellQuote(o.out))
	if o.tape != "" {
		message(stderr, "smpscope record: wrote %s (%d steps); record it with: vhs %s", o.tape, len(ex.Steps), views.ShellQuote(o.tape))
	}
	return nil
}

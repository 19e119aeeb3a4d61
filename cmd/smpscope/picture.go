package main

import (
	"bufio"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"smpscope/views"
	"smpscope/views/picture"
)

type pictureOptions struct {
	execSource
	svg, dot string
	ascii    bool
	width    int
	force    bool
}

func newPictureCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var o pictureOptions
	cmd := &cobra.Command{
		Use:   "picture SCENARIO|TRACE [--svg FILE] [--dot FILE] [--mode tso|arm] [--witness | --replay FILE | --random SEED] [--edit E ...] [--ascii] [--width N] [--force]",
		Short: "Draw an execution: its timeline (text, SVG) and event graph (DOT)",
		Long: `picture draws one execution of a scenario: where every value travelled.

Without --svg or --dot it prints the timeline as text (what trace --picture
prints, without the replay block): one lane per CPU and memory, one row
per step, each store's way into the store buffer, its commit and the
invalidations it sent, each load's source (a stale read marked !! with the
store it missed), where CPUs waited; then the outcome, the cycle of the
event graph, each store's journey and a legend.

--svg FILE writes the timeline as a self-contained SVG for slides (lanes,
arrows, labels, a legend; - for standard output). --dot FILE writes the
event graph in Graphviz's DOT language (events per CPU, po, rf, co and fr,
the cycle drawn bold; draw it with "dot -Tsvg FILE"); Graphviz is not
needed to write it.

The execution is the shortest witness of the outcome the final clause
asks about (--witness, the default; the closest attempt when it is
unreachable), a trace file (TRACE, or --replay FILE) or random steps
(--random SEED). An existing file is never overwritten without --force.

Exit status: 0 drawn; 1 no outcome to show (no final clause); 2 usage,
parse, replay, write or limit errors.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPicture(cmd, args, o, stdin, stdout, stderr)
		},
	}
	f := cmd.Flags()
	o.addFlags(f, "draw")
	f.StringVar(&o.svg, "svg", "", "write the timeline as SVG to `FILE` (- for standard output)")
	f.StringVar(&o.dot, "dot", "", "write the event graph as Graphviz DOT to `FILE` (- for standard output)")
	f.BoolVar(&o.ascii, "ascii", false, "text: ASCII only")
	f.IntVar(&o.width, "width", picture.DefaultWidth, "text: widest line in columns (at least 40)")
	f.BoolVar(&o.force, "force", false, forceHelp("the --svg and --dot files"))
	return cmd
}

// isTraceFile reports whether path is a trace file: its first line that
// is not blank or a comment is "smpscope trace N".
func isTraceFile(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<16))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		w := strings.Fields(l)
		return len(w) == 3 && w[0] == "smpscope" && w[1] == "trace"
	}
	return false
}

func runPicture(cmd *cobra.Command, args []string, o pictureOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if o.width < picture.MinWidth {
		return usageErr("picture: --width %d is too narrow (at least %d)", o.width, picture.MinWidth)
	}
	if o.svg == "-" && o.dot == "-" {
		return usageErr("picture: --svg and --dot cannot both go to standard output")
	}
	// A trace file as the argument is --replay FILE.
	if len(args) == 1 && isTraceFile(args[0]) {
		if o.replay != "" {
			return usageErr("picture: %s is a trace, and so is --replay %s: give one", args[0], o.replay)
		}
		o.replay, args = args[0], nil
		if err := cmd.Flags().Set("replay", o.replay); err != nil {
			return usageErr("picture: %v", err)
		}
	}
	file := func(p string) string {
		if p == "-" {
			return ""
		}
		return p
	}
	if err := checkOutputs("picture", o.force, file(o.svg), file(o.dot)); err != nil {
		return err
	}
	ex, _, err := o.execution("picture", "draw", cmd.Flags(), args, stdin)
	if err != nil {
		return err
	}
	noteAttempt(stderr, "picture", ex)
	pic := picture.Build(ex)
	if o.svg == "" && o.dot == "" {
		opts := picture.TextOptions{Width: o.width, ASCII: o.ascii}
		if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
			opts.Paint = views.PicturePaint(views.DefaultStyles())
			return writeRaw("picture", stdout, picture.Text(pic, opts)) // made safe as it was drawn
		}
		return writeOut("picture", stdout, picture.Text(pic, opts))
	}
	files := outputs{who: "picture", force: o.force}
	var toStdout []byte
	if o.svg != "" {
		doc, err := picture.SVG(pic)
		if err != nil {
			return usageErr("picture: %v", err)
		}
		if o.svg == "-" {
			toStdout = doc
		}
		files.add(file(o.svg), doc)
	}
	if o.dot != "" {
		doc := []byte(picture.DOT(pic))
		if o.dot == "-" {
			toStdout = doc
		}
		files.add(file(o.dot), doc)
	}
	if err := files.stage(); err != nil {
		return err
	}
	if toStdout != nil {
		if err := writeRaw("picture", stdout, string(toStdout)); err != nil {
			files.abort()
			return err
		}
	}
	if err := files.commit(); err != nil {
		return err
	}
	for _, f := range []struct{ path, what string }{{file(o.svg), "the timeline"}, {file(o.dot), "the event graph; draw it with: dot -Tsvg " + views.ShellQuote(file(o.dot))}} {
		if f.path != "" {
			message(stderr, "smpscope picture: wrote %s (%s)", f.path, f.what)
		}
	}
	return nil
}

package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// newRootCmd is the whole command tree.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	return newRootCmdFor(nil, stdin, stdout, stderr)
}

// subcommand is one of smpscope's commands: its name, and how to build it.
type subcommand struct {
	name  string
	build func(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command
}

// subcommands are smpscope's commands in the order help lists them.
var subcommands = []subcommand{
	{"list", func(stdin io.Reader, stdout, _ io.Writer) *cobra.Command { return newListCmd(stdin, stdout) }},
	{"show", func(_ io.Reader, stdout, _ io.Writer) *cobra.Command { return newShowCmd(stdout) }},
	{"check", newCheckCmd},
	{"trace", newTraceCmd},
	{"compare", func(stdin io.Reader, stdout, _ io.Writer) *cobra.Command { return newCompareCmd(stdin, stdout) }},
	{"why", func(stdin io.Reader, stdout, _ io.Writer) *cobra.Command { return newWhyCmd(stdin, stdout) }},
	{"fix", func(stdin io.Reader, stdout, _ io.Writer) *cobra.Command { return newFixCmd(stdin, stdout) }},
	{"record", func(stdin io.Reader, _, stderr io.Writer) *cobra.Command { return newRecordCmd(stdin, stderr) }},
	{"picture", newPictureCmd},
}

// newRootCmdFor is the command tree that running args needs (issue 24:
// building all of it, every flag of every command, cobra's completion
// command included, is most of what a command costs past the Go runtime's
// start-up). When args start with a command's name, that command is the
// only one built, and cobra's completion command is left out: nothing a
// command prints depends on its siblings (its help names only its own
// flags and the root's persistent ones). When args are just --version,
// no command is built: the version is the root's. Anything else (no
// arguments, help, completion, a scenario, a misspelt command, flags
// first) gets the whole tree, whose listing and suggestions need every
// command. nil args is the whole tree.
func newRootCmdFor(args []string, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var ui uiOptions
	root := &cobra.Command{
		Use:   "smpscope [SCENARIO | FILE.litmus]",
		Short: "Step through weak-memory executions one hardware event at a time",
		Long: `smpscope simulates a small multiprocessor with per-CPU MESI caches,
store buffers and (ARM-like mode) invalidation queues, and runs Linux-kernel
C litmus tests on it in TSO (x86-like) or ARM-like mode.

Without arguments it opens the scenario picker; with a .litmus file (a file
of that name wins), a built-in scenario name, or - for standard input it
opens that scenario. --replay FILE opens a trace at its
last step; --present steps through the trace, or the witness of the final
clause's outcome, on its own, for teaching. --edit P1:2=acquire (repeatable)
opens the scenario with what-if edits of its ordering annotations applied,
which the UI can undo (u); check and trace take the same flags.`,
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("every") {
				ui.present = true // --every implies --present
			}
			if f, ok := stdout.(*os.File); !ok || !term.IsTerminal(f.Fd()) {
				if len(args) == 1 || ui.replay != "" || ui.present {
					// Still report a bad scenario or trace the way the UI would.
					if _, err := uiModelOptions(args, ui, stdin); err != nil {
						return err
					}
				}
				return printNonInteractive(cmd, stdout)
			}
			return runUI(args, ui, stdin, stdout, stderr)
		},
	}
	var only *subcommand
	if len(args) > 0 {
		for i := range subcommands {
			if subcommands[i].name == args[0] {
				only = &subcommands[i]
			}
		}
	}
	if only == nil {
		// The root runs: it has a version. (A command does not: cobra
		// gives only the root a --version flag.)
		root.Version = version()
		root.SetVersionTemplate("smpscope {{.Version}}\n")
	}
	addUIFlags(root, &ui)
	root.PersistentFlags().StringVar(&ui.test, "test", "", "of the litmus tests a mail (standard input or a file) holds, take the one with this `N`umber (from 1) or NAME")
	// Cobra writes help and the version itself and drops write errors:
	// run reports them like every other failed write (issue 22, item 6).
	root.SetOut(&checkedWriter{w: stdout})
	root.SetErr(stderr)
	switch {
	case only != nil:
		root.CompletionOptions.DisableDefaultCmd = true
		root.AddCommand(only.build(stdin, stdout, stderr))
	case len(args) == 1 && args[0] == "--version":
	default:
		for _, c := range subcommands {
			root.AddCommand(c.build(stdin, stdout, stderr))
		}
	}
	return root
}

// checkedWriter remembers the first write error.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// printNonInteractive is what smpscope prints instead of starting the UI
// when stdout is not a terminal: a short help and the scenario list.
func printNonInteractive(cmd *cobra.Command, w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nUsage:\n  %s\n\nCommands:\n", cmd.Short, cmd.UseLine())
	var shown []*cobra.Command
	width := 0 // the longest name, so that every description lines up
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			shown = append(shown, c)
			width = max(width, len(c.Name()))
		}
	}
	for _, c := range shown {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.Name(), c.Short)
	}
	fmt.Fprintf(&b, "\n(stdout is not a terminal, so the interactive UI was not started.)\n\nBuilt-in scenarios:\n")
	if err := writeOut("", w, b.String()); err != nil {
		return err
	}
	return writeList("", w, false)
}

// version is the module version the binary was built from, with the
// commit when the build recorded one ("(devel) 1a2b3c4d5e6f").
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "+dirty"
		}
	}
	return v
}

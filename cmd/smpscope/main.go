// Command smpscope explores weak-memory executions of Linux-kernel C litmus
// tests on a simulated multiprocessor with MESI caches, store buffers and
// invalidation queues, in TSO (x86-like) and ARM-like modes.
//
// Without a subcommand it opens the interactive UI; the subcommands list,
// show, check, trace, compare, why and record work from scripts and pipes.
//
// Every command is the same short path: flags, then scenarios.Resolve
// (the one name rule), then an execution or an analysis (package
// scenarios), then a report of package views written out, or the UI
// (model.Run, model.Frames for record). Rendering, counting and file
// formats live in those packages, not here.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"smpscope/scenarios/syntax"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// defaultMaxMemory is the process's memory bound unless --max-memory says
// otherwise.
const defaultMaxMemory = 2 << 30

// exitError carries a process exit status through cobra.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// run executes the command line and returns the exit status: 0 success,
// 1 a soundness disagreement (check), 2 usage, parse or limit errors.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// A command sets the Go runtime's memory limit to go with its one
	// budget (processBudget); it is put back when the command ends.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	return execute(newRootCmdFor(args, stdin, stdout, stderr), args, stderr)
}

// execute runs args on the command tree root and returns the exit status.
func execute(root *cobra.Command, args []string, stderr io.Writer) int {
	root.SetArgs(args)
	err := root.Execute()
	var ee *exitError
	if cw, ok := root.OutOrStdout().(*checkedWriter); ok && cw.err != nil && !errors.As(err, &ee) {
		err = &exitError{2, fmt.Sprintf("smpscope: cannot write the output: %v", cw.err)}
	}
	if err == nil {
		return 0
	}
	if errors.As(err, &ee) {
		if ee.msg != "" {
			message(stderr, "%s", ee.msg)
		}
		return ee.code
	}
	message(stderr, "smpscope: %v", err)
	return 2
}

// message prints a line for the user on stderr. Messages quote file
// names, arguments and what files hold, so they are made Printable (no
// input reaches the terminal as an escape sequence) and Brief (no line
// longer than syntax.MaxMessageLine, however long a name it quotes).
func message(stderr io.Writer, format string, args ...any) {
	fmt.Fprintln(stderr, syntax.Brief(syntax.Printable(fmt.Sprintf(format, args...))))
}

// writeOut writes a report to stdout, made Printable (reports carry no
// escape codes of their own, but quote paths and arguments). A failed
// write (a full disk, a closed file) is the command's failure: exit
// status 2, with a message.
func writeOut(who string, w io.Writer, s string) error {
	return writeRaw(who, w, syntax.Printable(s))
}

// writeRaw is writeOut for text that carries its own escape codes (a
// trace in colour) and is made safe where it was rendered.
func writeRaw(who string, w io.Writer, s string) error {
	if _, err := io.WriteString(w, s); err != nil {
		prefix := "smpscope"
		if who != "" {
			prefix += " " + who
		}
		return &exitError{2, fmt.Sprintf("%s: cannot write the output: %v", prefix, err)}
	}
	return nil
}

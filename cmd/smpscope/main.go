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

	"smpscope/machine"
)

func main() {
	// One memory budget for the whole process: every exploration a
	// command runs shares it, and the runtime keeps the heap under it.
	machine.SetProcessMemoryLimit(defaultMaxMemory)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// defaultMaxMemory is the process's memory bound unless a command is told
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
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "smpscope:", err)
	return 2
}

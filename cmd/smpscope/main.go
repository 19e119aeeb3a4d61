// Command smpscope explores weak-memory executions of Linux-kernel litmus
// tests on a simulated multiprocessor.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "usage: smpscope [SCENARIO]  (the interactive UI and subcommands are being built)")
	os.Exit(2)
}

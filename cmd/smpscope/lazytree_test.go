package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// timings are the parts of check's output that say how long it took.
var timings = regexp.MustCompile(`(?m)^Time .*$|"seconds":[0-9.e-]+`)

// TestSubcommandTable: the table newRootCmdFor picks a command from names
// each command by the name cobra dispatches on, and lists every command
// once.
func TestSubcommandTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range subcommands {
		if got := c.build(nil, nil, nil).Name(); got != c.name {
			t.Errorf("subcommands entry %q builds the command %q", c.name, got)
		}
		if seen[c.name] {
			t.Errorf("%q twice", c.name)
		}
		seen[c.name] = true
	}
	root := newRootCmd(nil, nil, nil)
	for _, c := range root.Commands() {
		if !seen[c.Name()] && c.Name() != "help" && c.Name() != "completion" {
			t.Errorf("the root has the command %q, which the table lacks", c.Name())
		}
	}
}

// TestLazyTreeSameOutput: a command line run on the part of the command
// tree that newRootCmdFor builds for it prints what it prints on the whole
// tree, on stdout and stderr, with the same status: help, usage errors,
// unknown flags, the version and a check (but for the time it took).
func TestLazyTreeSameOutput(t *testing.T) {
	cases := [][]string{{"--version"}, {"check", "mp+once"}, {"check", "--json", "--mode", "tso", "sb+once"}, {"list", "--json"}, {"show", "mp+once"}}
	for _, c := range subcommands {
		cases = append(cases, []string{c.name, "--help"}, []string{c.name}, []string{c.name, "--no-such-flag"}, []string{c.name, "--version"})
	}
	for _, args := range cases {
		var lazyOut, lazyErr, fullOut, fullErr bytes.Buffer
		lazy := run(args, strings.NewReader(""), &lazyOut, &lazyErr)
		full := execute(newRootCmd(strings.NewReader(""), &fullOut, &fullErr), args, &fullErr)
		lo, fo := timings.ReplaceAllString(lazyOut.String(), "TIME"), timings.ReplaceAllString(fullOut.String(), "TIME")
		if lazy != full || lo != fo || lazyErr.String() != fullErr.String() {
			t.Errorf("smpscope %q: on its own command, status %d\n%s\n%s\non the whole tree, status %d\n%s\n%s",
				args, lazy, lazyOut.String(), lazyErr.String(), full, fullOut.String(), fullErr.String())
		}
	}
}

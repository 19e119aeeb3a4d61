package scenarios

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"smpscope/machine"
)

// StdinName is the argument that means standard input, and the file name
// positions in what was read from it carry.
const (
	StdinName = "-"
	stdinFile = "<stdin>"
)

// Resolve is the one rule that turns a command-line argument into a
// scenario, for every command and the UI alike:
//
//   - "-" is standard input (read from stdin);
//   - an argument naming an existing file (not a directory) is that
//     .litmus file, so a file always wins over a built-in of the same
//     name (write ./NAME to make a path explicit);
//   - anything else is a built-in scenario: its C name or its library file
//     name, with or without ".litmus".
//
// The scenario is parsed and compiled; errors carry file:line:col.
func Resolve(arg string, stdin io.Reader) (*Spec, error) {
	s, file, err := resolveScenario(arg, stdin)
	if err != nil {
		return nil, err
	}
	return compileSpec(s, file)
}

// BuiltinSpec is the built-in scenario called name (its C name or its
// library file name), whatever files the current directory holds: what
// the picker and a trace without a source name.
func BuiltinSpec(name string) (*Spec, error) {
	s, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return compileSpec(s, "")
}

func compileSpec(s *Scenario, file string) (*Spec, error) {
	c, err := s.Compile()
	if err != nil {
		return nil, err
	}
	sp := NewSpec(c)
	sp.File = file
	return sp, nil
}

// resolveScenario parses the scenario arg names (see Resolve) and
// returns the file it was read from ("" for stdin and built-ins).
func resolveScenario(arg string, stdin io.Reader) (*Scenario, string, error) {
	if arg == StdinName {
		src, err := readInput(arg, stdin, MaxSourceSize, "a scenario")
		if err != nil {
			return nil, "", err
		}
		s, err := Parse(stdinFile, src)
		return s, "", err
	}
	if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
		src, err := readInput(arg, stdin, MaxSourceSize, "a scenario")
		if err != nil {
			return nil, "", err
		}
		s, err := Parse(arg, src)
		return s, arg, err
	}
	entries, libErr := Library()
	if e := findEntry(entries, arg); e != nil {
		s, err := Parse("library/"+e.File, []byte(e.Source))
		return s, "", err
	}
	if libErr != nil {
		return nil, "", fmt.Errorf("%s: no such file (and the built-in library failed to load: %w)", arg, libErr)
	}
	return nil, "", fmt.Errorf("%s: no such file, and no built-in scenario has that name%s (see smpscope list)", arg, nameHint(arg, entries))
}

// ReplayTraceFile reads the trace file at path ("-": standard input),
// resolves the scenario it runs and replays it. The scenario is arg when
// given (see Resolve), else the trace's source (a .litmus path is
// relative to the trace file, as [Execution.Trace] writes it), else the
// built-in scenario its header names, with the edits the trace records
// applied. The mode is the trace's unless mode is given.
func ReplayTraceFile(path, arg string, mode *machine.Mode, stdin io.Reader) (*Execution, error) {
	src, err := readInput(path, stdin, MaxTraceSize, "a trace")
	if err != nil {
		return nil, err
	}
	name := path
	if path == StdinName {
		name = stdinFile
	}
	tr, err := ParseTrace(name, src)
	if err != nil {
		return nil, err
	}
	var spec *Spec
	switch {
	case arg != "":
		spec, err = Resolve(arg, stdin)
	case tr.Source == "":
		if spec, err = BuiltinSpec(tr.Scenario); err != nil {
			err = fmt.Errorf("%s: the trace names no source and %w (name the scenario: smpscope trace --replay %s FILE.litmus)", name, err, path)
		}
	default:
		src := tr.Source
		if !filepath.IsAbs(src) && path != StdinName {
			if alt := filepath.Join(filepath.Dir(path), src); exists(alt) {
				src = alt
			}
		}
		spec, err = Resolve(src, stdin)
	}
	if err == nil && len(tr.Edits) > 0 {
		spec, err = spec.Edited(tr.Edits...)
	}
	if err != nil {
		return nil, err
	}
	md := tr.Mode
	if mode != nil {
		md = *mode
	}
	m, err := spec.Machine(md)
	if err != nil {
		return nil, err
	}
	states, events, err := tr.Replay(m)
	if err != nil {
		return nil, err
	}
	ex := &Execution{Spec: spec, Mach: m, States: states, Events: events, Origin: "Replayed from " + path}
	for _, ev := range events {
		ex.Steps = append(ex.Steps, ev.Step)
	}
	return ex, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

package scenarios

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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
// Standard input and files not named .litmus may be mails: a text that
// is not a litmus test as it is has its tests found by [FindLitmus]
// (quoted, in a patch, among prose). With several, "-#2" or
// "mail.txt#sb+once" takes one by its number or name.
//
// The scenario is parsed and compiled; errors carry file:line:col (in a
// mail, the mail's lines and columns).
func Resolve(arg string, stdin io.Reader) (*Spec, error) {
	src, err := resolveSource(arg, stdin)
	if err != nil {
		return nil, err
	}
	sp, err := compileSpec(src.sc, src.file)
	if err != nil {
		return nil, src.remap(err)
	}
	sp.From = src.from
	return sp, nil
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

// source is a parsed scenario and where it came from.
type source struct {
	sc   *Scenario
	file string // the .litmus file it is ("" for stdin, mails and built-ins)
	from string // the place in a mail it was found at ("<stdin>:12"), else ""
	mail *MailTest
}

// remap moves an error's position back into the mail the test came from.
func (s source) remap(err error) error {
	if s.mail == nil {
		return err
	}
	return s.mail.remap(err)
}

// resolveSource parses the scenario arg names (see Resolve).
func resolveSource(arg string, stdin io.Reader) (source, error) {
	path, sel := splitSelector(arg)
	if path == StdinName {
		src, err := readInput(path, stdin, MaxSourceSize, "a scenario")
		if err != nil {
			return source{}, err
		}
		return parseInput(stdinFile, src, sel, false)
	}
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		src, err := readInput(path, stdin, MaxSourceSize, "a scenario")
		if err != nil {
			return source{}, err
		}
		s, err := parseInput(path, src, sel, strings.HasSuffix(path, ".litmus"))
		if err == nil && s.from == "" {
			s.file = path
		}
		return s, err
	}
	entries, libErr := Library()
	if e := findEntry(entries, arg); e != nil {
		s, err := Parse("library/"+e.File, []byte(e.Source))
		return source{sc: s}, err
	}
	if libErr != nil {
		return source{}, fmt.Errorf("%s: no such file (and the built-in library failed to load: %w)", arg, libErr)
	}
	return source{}, fmt.Errorf("%s: no such file, and no built-in scenario has that name%s (see smpscope list)", arg, nameHint(arg, entries))
}

// splitSelector splits "mail.txt#2" or "-#sb+once" into the file and the
// test it selects, when the part before "#" is standard input or a file
// and the whole is not.
func splitSelector(arg string) (path, sel string) {
	if arg == StdinName || exists(arg) {
		return arg, ""
	}
	i := strings.LastIndexByte(arg, '#')
	if i <= 0 || i == len(arg)-1 {
		return arg, ""
	}
	base := arg[:i]
	if fi, err := os.Stat(base); base == StdinName || err == nil && !fi.IsDir() {
		return base, arg[i+1:]
	}
	return arg, ""
}

// parseInput parses what a file or standard input held: a litmus test as
// it is, else (unless litmusOnly, a .litmus file) the test sel selects
// among those a mail holds.
func parseInput(name string, src []byte, sel string, litmusOnly bool) (source, error) {
	var direct error
	if sel == "" {
		s, err := Parse(name, src)
		if err == nil || litmusOnly {
			return source{sc: s}, err
		}
		direct = err
	}
	tests := FindLitmus(name, src)
	switch {
	case len(tests) == 0 && direct != nil:
		return source{}, direct
	case len(tests) == 1 && direct != nil && tests[0].Err != nil && startsText(src, tests[0]):
		return source{}, direct // a litmus file with an error
	}
	t, err := selectMailTest(name, tests, sel)
	if err != nil {
		return source{}, err
	}
	s, err := t.Parse()
	if err != nil {
		return source{}, err
	}
	return source{sc: s, from: t.Where(), mail: &t}, nil
}

// ListMail lists the litmus tests the text arg names holds (a file or
// "-"), for smpscope list.
func ListMail(arg string, stdin io.Reader) ([]MailTest, error) {
	name := arg
	if arg == StdinName {
		name = stdinFile
	}
	src, err := readInput(arg, stdin, MaxSourceSize, "a mail")
	if err != nil {
		return nil, err
	}
	return FindLitmus(name, src), nil
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

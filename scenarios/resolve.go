package scenarios

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
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

func compileSpec(s *syntax.Scenario, file string) (*Spec, error) {
	c, err := Compile(s)
	if err != nil {
		return nil, err
	}
	sp := NewSpec(c)
	sp.File = file
	return sp, nil
}

// source is a parsed scenario and where it came from.
type source struct {
	sc   *syntax.Scenario
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
	path, sel, fi, statErr := statSelector(arg)
	if path == StdinName {
		src, err := readInput(path, stdin, syntax.MaxSourceSize, "a scenario")
		if err != nil {
			return source{}, err
		}
		return parseInput(stdinFile, src, sel, false)
	}
	if statErr == nil && !fi.IsDir() {
		src, err := readStated(path, fi, syntax.MaxSourceSize, "a scenario")
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
	switch {
	case statErr == nil: // a directory not named like a built-in
		return source{}, fmt.Errorf("%s: a directory, not a scenario file, and no built-in scenario has that name", arg)
	case !errors.Is(statErr, fs.ErrNotExist):
		return source{}, statError(arg, statErr) // a loop of symbolic links, no permission
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
	path, sel, _, _ = statSelector(arg)
	return path, sel
}

// statSelector is splitSelector that also returns what os.Stat says of
// path (nothing for standard input), so that a file is looked up once:
// system calls are most of what reading a small test costs (issue 24).
func statSelector(arg string) (path, sel string, fi fs.FileInfo, statErr error) {
	if arg == StdinName {
		return arg, "", nil, nil
	}
	if fi, statErr = os.Stat(arg); statErr == nil {
		return arg, "", fi, nil
	}
	i := strings.LastIndexByte(arg, '#')
	if i <= 0 || i == len(arg)-1 {
		return arg, "", nil, statErr
	}
	base := arg[:i]
	if base == StdinName {
		return base, arg[i+1:], nil, nil
	}
	if bfi, err := os.Stat(base); err == nil && !bfi.IsDir() {
		return base, arg[i+1:], bfi, nil
	}
	return arg, "", nil, statErr
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
	src, err := readInput(arg, stdin, syntax.MaxSourceSize, "a mail")
	if err != nil {
		return nil, err
	}
	return FindLitmus(name, src), nil
}

// ReplayTraceFile reads the trace file at path ("-": standard input; a
// mail that carries a trace, quoted or not, will do), resolves the
// scenario it runs and replays it. The scenario is arg when given (see
// Resolve), else the litmus source the trace carries, else its source:
// line (a .litmus file beside the trace or below it, or a built-in),
// else the built-in scenario its header names; the edits the trace
// records are applied. When a trace carries its source and names a
// source file that exists, the two must be the same test. The mode is
// the trace's unless mode is given. "mail.txt#2" takes the second of the
// traces a mail carries.
func ReplayTraceFile(path, arg string, mode *machine.Mode, stdin io.Reader) (*Execution, error) {
	path, sel := splitSelector(path)
	src, err := readInput(path, stdin, MaxTraceSize, "a trace")
	if err != nil {
		return nil, err
	}
	name := path
	if path == StdinName {
		name = stdinFile
	}
	text, cut, err := traceText(name, src, sel)
	if err != nil {
		return nil, err
	}
	tr, err := parseTrace(name, text, cut)
	if err != nil {
		return nil, err
	}
	var spec *Spec
	if arg != "" {
		spec, err = Resolve(arg, stdin)
	} else {
		spec, err = tr.spec(path)
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
	ex := &Execution{Spec: spec, Mach: m, States: states, Events: events, Origin: "Replayed from " + name}
	for _, ev := range events {
		ex.Steps = append(ex.Steps, ev.Step)
	}
	return ex, nil
}

// spec is the scenario the trace runs, before its edits: the litmus
// source it carries (checked against its source file when that exists,
// and replaced by the built-in of its name when that is the same test,
// for the title and story), else its source: line, else the built-in its
// header names. path is the trace's ("-" for standard input): a source
// file is looked for beside it.
func (t *Trace) spec(path string) (*Spec, error) {
	var carried *Spec
	if t.Litmus != "" {
		sp, err := t.carried()
		if err != nil {
			return nil, err
		}
		carried = sp
	}
	if t.Source != "" {
		src, err := traceSource(path, t.Source, t.headerPos("source"))
		switch {
		case err != nil && carried == nil:
			return nil, err
		case err != nil:
			// The file is not here: the trace's own copy is the test.
		case carried != nil && !SameTest(carried, src):
			return nil, syntax.Errorf(t.headerPos("source"), "the trace carries a test that is not its source %q: the copy at line %d and the file differ (give the scenario to replay on: smpscope trace --replay TRACE SCENARIO)", t.Source, t.LitmusLine)
		default:
			return src, nil
		}
	}
	if carried != nil {
		if b, err := BuiltinSpec(t.Scenario); err == nil && t.Source == "" && SameTest(carried, b) {
			return b, nil
		}
		return carried, nil
	}
	sp, err := BuiltinSpec(t.Scenario)
	if err != nil {
		return nil, fmt.Errorf("%s: the trace carries no litmus source, names no source file, and %w (name the scenario: smpscope trace --replay %s FILE.litmus)", t.File, err, argOf(t.File))
	}
	return sp, nil
}

// argOf is how a command line names a file positions call name.
func argOf(name string) string {
	if name == stdinFile {
		return StdinName
	}
	return name
}

// carried compiles the litmus source the trace carries; its positions
// are the trace's lines and columns.
func (t *Trace) carried() (*Spec, error) {
	line := max(t.LitmusLine, 1)
	src := strings.Repeat("\n", line-1) + t.Litmus
	s, err := Parse(t.File, []byte(src))
	if err == nil {
		var sp *Spec
		if sp, err = compileSpec(s, ""); err == nil {
			sp.From = t.File + ":" + strconv.Itoa(line)
			return sp, nil
		}
	}
	var e syntax.Error
	if errors.As(err, &e) && e.Pos.Line >= 1 && e.Pos.Line <= len(t.cut) {
		e.Pos.Col += t.cut[e.Pos.Line-1]
		err = e
	}
	return nil, fmt.Errorf("the litmus source the trace carries: %w", err)
}

// SameTest reports whether two specs run the same test: the same
// program (wherever its lines are in a file) and the same clauses.
func SameTest(a, b *Spec) bool {
	return a.Program != nil && b.Program != nil && ProgramKey(unlined(a.Program)) == ProgramKey(unlined(b.Program)) &&
		a.Condition() == b.Condition() && (a.Filter == nil) == (b.Filter == nil) && (a.Filter == nil || a.Filter.Cond == b.Filter.Cond)
}

// unlined is p without the source line of each instruction.
func unlined(p *machine.Program) *machine.Program {
	q := *p
	q.Threads = append([]machine.Thread(nil), p.Threads...)
	for i := range q.Threads {
		code := append([]machine.Instr(nil), q.Threads[i].Code...)
		for j := range code {
			code[j].Line = 0
		}
		q.Threads[i].Code = code
	}
	return &q
}

// traceSource resolves a trace's source: line (issue 22): only a litmus
// file beside the trace or below it (an absolute path, "..", or a
// symbolic link out of the trace's directory is refused), or, when no
// such file exists, a built-in scenario of that name. Nothing but a
// litmus test is read, and what does not parse as one is not quoted.
func traceSource(tracePath, value string, at syntax.Position) (*Spec, error) {
	dir := "."
	if tracePath != StdinName {
		dir = filepath.Dir(tracePath)
	}
	fail := func(format string, args ...any) error {
		return syntax.Errorf(at, "source %q: "+format, append([]any{value}, args...)...)
	}
	builtin := func() (*Spec, bool) {
		if strings.ContainsAny(value, `/\`) {
			return nil, false
		}
		sp, err := BuiltinSpec(value)
		return sp, err == nil
	}
	clean := filepath.Clean(filepath.FromSlash(value))
	if filepath.IsAbs(clean) || filepath.VolumeName(clean) != "" || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return nil, fail("a trace's source is a .litmus file beside the trace or below it, or a built-in scenario")
	}
	p := filepath.Join(dir, clean)
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if sp, ok := builtin(); ok {
			return sp, nil
		}
		return nil, fail("no such file beside the trace, and no built-in scenario has that name")
	case errors.Is(err, syscall.ELOOP):
		return nil, fail("a loop of symbolic links")
	case err != nil:
		return nil, fail("%v", err)
	case fi.IsDir():
		if sp, ok := builtin(); ok {
			return sp, nil
		}
		return nil, fail("a directory, not a litmus file")
	case !fi.Mode().IsRegular():
		return nil, fail("not a regular file (%s)", fileKind(fi.Mode()))
	}
	realDir, err1 := filepath.EvalSymlinks(dir)
	realP, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		return nil, fail("cannot follow its path")
	}
	if rel, err := filepath.Rel(realDir, realP); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fail("a symbolic link out of the trace's directory")
	}
	src, err := readInput(p, nil, syntax.MaxSourceSize, "a scenario")
	if err != nil {
		return nil, err
	}
	s, err := Parse(p, src)
	if err != nil {
		// Its position, not its words: what does not parse as litmus
		// may be any file, and is not quoted.
		var e syntax.Error
		where := ""
		if errors.As(err, &e) {
			where = fmt.Sprintf(" (at line %d, column %d)", e.Pos.Line, e.Pos.Col)
		}
		return nil, fail("does not parse as a litmus test%s", where)
	}
	sp, err := compileSpec(s, p)
	if err != nil {
		return nil, err
	}
	return sp, nil
}

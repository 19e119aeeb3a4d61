package scenarios

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
)

// TraceVersion is the version of the trace file format that
// [Trace.Format] writes. [ParseTrace] reads it and version 1, whose
// commit and early steps name their instruction from 0 ("P0 commit #1");
// version 2 names it as the CPU columns and the edit syntax do, from 1
// ("P0:2 commit"). Either form is read in either version.
const TraceVersion = 2

// oldestTraceVersion is the oldest version ParseTrace reads.
const oldestTraceVersion = 1

// MaxTraceSize is the largest trace source ParseTrace accepts, in bytes.
const MaxTraceSize = 16 << 20

// Trace is one execution of a scenario, as a list of machine steps, in a
// plain-text form that a person can read and smpscope can replay:
//
//	smpscope trace 1
//	scenario: mp+once
//	variant: once
//	mode: arm
//	# Witness of exists (1:r0=1 /\ 1:r1=0)
//
//	P0 exec      # P0: execute WRITE_ONCE(*x, 1);
//	P0:2 commit  # P0: commit store y=1 from its store buffer
//	P1 inv x     # P1: apply the queued invalidation of x (...)
//
// The first line names the format and its version. Header lines
// "key: value" follow: scenario (the scenario's C name, required), source
// (where to load it from when that is not the scenario name: a built-in
// name, or a .litmus path, which smpscope writes relative to the trace
// file), variant, mode (tso or arm, required) and edits (the what-if
// edits the scenario was run with, "edits: P1:2=acquire P0:1+mb"). Then
// one line per step, naming it by its step ID (see [words.StepID]: "P0
// exec", "P0:2 commit", "P1:3 early", "P1 inv x", "P0 qs"). A "#" followed by a space, or ending a line,
// starts a comment ("#3" in a step ID is not one); comment lines before
// the first step are kept as notes, the comment after a step describes it,
// and everything else in comments and blank lines is ignored on reading.
type Trace struct {
	// File is the name the trace was parsed from, used in positions; ""
	// for traces built in memory.
	File    string
	Version int
	// Scenario is the C name of the scenario the trace runs.
	Scenario string
	// Source is where to load the scenario from (a built-in name or a
	// .litmus path); "" means the built-in scenario called Scenario.
	Source  string
	Variant string
	Mode    machine.Mode
	// Edits are the what-if edits the scenario runs with (an "edits:"
	// line, space-separated, in the syntax of [Edit]): replaying applies
	// them to the scenario Source names.
	Edits []Edit
	// Notes are the comment lines between the header and the first step,
	// without the leading "# ".
	Notes []string
	Steps []TraceStep
	// Litmus is the litmus source of the scenario the trace runs, before
	// the edits ("" when the trace does not carry it): a trace that
	// carries it replays anywhere. It follows the steps, after a line
	// "litmus: N lines" that says how many lines it has.
	Litmus string
	// LitmusLine is the line of the trace the source starts on (0 when
	// built in memory): errors in it name the trace's lines.
	LitmusLine int

	header map[string]syntax.Position // where each header key was read
	cut    []int                      // per line, the columns a mail's quoting took off
}

// TraceStep is one line of a trace: a step ID with its description.
type TraceStep struct {
	ID      string // e.g. "P1:3 commit"
	Comment string // e.g. "P1: commit store x=1 from its store buffer"
	Pos     syntax.Position
	cols    []int // the column of each word of ID on its line; nil: as in ID
}

// NewTrace builds the trace of steps taken from m's initial state, with
// each step described by [words.Step] in the state before
// it. Scenario and Mode are taken from m; callers fill in Source, Variant
// and Notes ([Execution.Trace] does). It fails if a step is not enabled
// where it is taken.
func NewTrace(m *machine.Machine, steps []machine.Step) (*Trace, error) {
	states, _, err := m.Replay(steps)
	if err != nil {
		return nil, err
	}
	return newTrace(m, steps, states), nil
}

func newTrace(m *machine.Machine, steps []machine.Step, states []*machine.State) *Trace {
	t := &Trace{Version: TraceVersion, Scenario: m.Prog.Name, Mode: m.Mode}
	for i, st := range steps {
		t.Steps = append(t.Steps, TraceStep{ID: words.StepID(m, st), Comment: words.Step(m, states[i], st)})
	}
	return t
}

// Trace is the trace file of the execution, to be written in directory
// dir. It carries the scenario's litmus source (before the edits, which
// it records), so that it replays anywhere; its header also names the
// .litmus file the scenario was read from when that is beside dir or
// below it (by its path relative to dir, so that the two can move
// together). Its notes say what the scenario is, where the steps come
// from and the outcome they end in.
func (e *Execution) Trace(dir string) *Trace {
	t := newTrace(e.Mach, e.Steps, e.States)
	sp := e.Spec
	t.Variant = sp.Variant
	t.Edits = sp.Edits
	if orig := sp.Original(); orig.Litmus != nil {
		t.Litmus = syntax.Format(orig.Litmus)
	}
	switch {
	case sp.File != "":
		if rel := relativeTo(sp.File, dir); !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, "../") {
			t.Source = rel
		}
	case sp.Litmus == nil && sp.Name != e.Mach.Prog.Name:
		t.Source = sp.Name // a program built in Go, loaded by name
	}
	if sp.Title != "" {
		t.Notes = append(t.Notes, sp.Title)
	}
	if e.Origin != "" {
		t.Notes = append(t.Notes, e.Origin)
	}
	if last := e.Last(); e.Mach.Final(last) {
		t.Notes = append(t.Notes, "Ends in outcome "+sp.OutcomeText(e.Mach.Outcome(last)))
	}
	return t
}

// relativeTo names file relative to dir, falling back to its absolute
// path.
func relativeTo(file, dir string) string {
	a, err1 := filepath.Abs(file)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return file
	}
	if rel, err := filepath.Rel(d, a); err == nil {
		return filepath.ToSlash(rel)
	}
	return a
}

// Format writes the trace in its file format. ParseTrace of the result
// gives back an equal trace (apart from positions).
func (t *Trace) Format() string {
	var b strings.Builder
	v := t.Version
	if v == 0 {
		v = TraceVersion
	}
	fmt.Fprintf(&b, "smpscope trace %d\n", v)
	fmt.Fprintf(&b, "scenario: %s\n", oneLine(t.Scenario))
	// A source equal to the scenario name is written all the same: it
	// means a file of that name (the name rule), not the built-in.
	if t.Source != "" {
		fmt.Fprintf(&b, "source: %s\n", oneLine(t.Source))
	}
	if t.Variant != "" {
		fmt.Fprintf(&b, "variant: %s\n", oneLine(t.Variant))
	}
	fmt.Fprintf(&b, "mode: %s\n", t.Mode)
	if len(t.Edits) > 0 {
		fmt.Fprintf(&b, "edits: %s\n", EditsText(t.Edits))
	}
	for _, n := range t.Notes {
		for _, l := range strings.Split(n, "\n") {
			// A long note goes on, indented, on the next comment lines.
			for j, part := range wrapLine(l, TraceFileWidth-2, TraceFileWidth-4) {
				lead := "# "
				if j > 0 {
					lead = noteContinues
				}
				b.WriteString(strings.TrimRight(lead+part, " "))
				b.WriteByte('\n')
			}
		}
	}
	b.WriteByte('\n')
	w := 0
	for _, st := range t.Steps {
		w = max(w, utf8.RuneCountInString(st.ID))
	}
	w = min(w, 24)
	for _, st := range t.Steps {
		if st.Comment == "" {
			b.WriteString(st.ID)
			b.WriteByte('\n')
			continue
		}
		pad := max(w-utf8.RuneCountInString(st.ID), 0)
		head := st.ID + strings.Repeat(" ", pad) + "  # "
		// A long comment goes on below, its "#" under the step's.
		hw := utf8.RuneCountInString(head)
		for j, part := range wrapLine(oneLine(st.Comment), TraceFileWidth-hw, TraceFileWidth-hw) {
			if j > 0 {
				head = strings.Repeat(" ", hw-2) + "# "
			}
			b.WriteString(head + part)
			b.WriteByte('\n')
		}
	}
	if t.Litmus != "" {
		b.WriteByte('\n')
		b.WriteString(litmusSection(t.Litmus))
	}
	return b.String()
}

// litmusSection is the "litmus: N lines" line and the source after it.
func litmusSection(src string) string {
	src = strings.TrimRight(strings.ReplaceAll(src, "\r\n", "\n"), "\n") + "\n"
	n := strings.Count(src, "\n")
	word := "lines"
	if n == 1 {
		word = "line"
	}
	return fmt.Sprintf("%s %d %s\n%s", litmusKey, n, word, src)
}

// litmusKey starts the line before a trace's litmus source.
const litmusKey = "litmus:"

// TraceFileWidth is the widest line Format writes (but for a step ID or a
// header value longer than that): trace files are pasted into mails.
const TraceFileWidth = 72

// noteContinues starts the comment lines that continue a note.
const noteContinues = "#   "

// wrapLine breaks s at spaces into lines of at most first runes, then
// rest; a word longer than a line stays whole. A trace file's comments
// and an edited test's metadata are wrapped with it.
func wrapLine(s string, first, rest int) []string {
	var out []string
	cur, limit := "", max(first, 10)
	for _, w := range strings.Fields(s) {
		if cur != "" && utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) > limit {
			out = append(out, cur)
			cur, limit = "", max(rest, 10)
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	return append(out, cur)
}

// oneLine flattens line breaks so that a value stays on its line.
func oneLine(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return strings.TrimSpace(s)
}

// splitComment splits a line at its comment: a '#' followed by a space or
// a tab, or ending the line. It returns the code before it and the
// comment text after it (trimmed), and whether there was a comment.
func splitComment(line string) (code, comment string, ok bool) {
	for i := 0; i < len(line); i++ {
		if line[i] != '#' {
			continue
		}
		if i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t' {
			return line[:i], strings.TrimSpace(line[i+1:]), true
		}
	}
	return line, "", false
}

// field is a whitespace-separated word of a line and its 1-based column.
type field struct {
	text string
	col  int
}

func fieldsOf(line string) []field {
	var out []field
	col := 0
	start, startCol := -1, 0
	for i, r := range line {
		col++
		space := r == ' ' || r == '\t'
		if !space && start < 0 {
			start, startCol = i, col
		}
		if space && start >= 0 {
			out = append(out, field{line[start:i], startCol})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, field{line[start:], startCol})
	}
	return out
}

// traceHeaders set the header field each key names.
var traceHeaders = map[string]func(t *Trace, value string) error{
	"scenario": func(t *Trace, v string) error { t.Scenario = v; return nil },
	"source":   func(t *Trace, v string) error { t.Source = v; return nil },
	"variant":  func(t *Trace, v string) error { t.Variant = v; return nil },
	"mode": func(t *Trace, v string) (err error) {
		t.Mode, err = machine.ParseMode(v)
		return err
	},
	"edits": func(t *Trace, v string) (err error) {
		t.Edits, err = ParseEdits(strings.Fields(v))
		return err
	},
}

// maxHeaderValue bounds a header value (a name or a path).
const maxHeaderValue = 4096

// MaxTraceSteps is the most steps a trace may hold: far more than any
// execution of a program within the machine's limits takes, and few
// enough that a hostile trace cannot fill memory.
const MaxTraceSteps = 1 << 16

// ParseTrace reads a trace file. name is used in positions only. Every
// error is an [Error] carrying file:line:col. A trace is plain text:
// control characters (other than tabs and line ends), other unprintable
// characters and invalid UTF-8 are errors, so that nothing read from a
// trace can reach a terminal as an escape sequence.
func ParseTrace(name string, src []byte) (*Trace, error) {
	return parseTrace(name, src, nil)
}

// parseTrace is ParseTrace of a trace taken out of a mail: cut is, per
// line, the columns its quoting took off, added back to every position.
func parseTrace(name string, src []byte, cut []int) (*Trace, error) {
	r := &traceReader{t: &Trace{File: name, header: map[string]syntax.Position{}, cut: cut}, name: name, cut: cut}
	t := r.t
	if len(src) > MaxTraceSize {
		return nil, syntax.Errorf(r.pos(1, 1), "trace is %d bytes; at most %d are accepted", len(src), MaxTraceSize)
	}
	if err := plainText(name, src); err != nil {
		e := err.(syntax.Error)
		return nil, syntax.Errorf(r.pos(e.Pos.Line, e.Pos.Col), "%s", e.Msg)
	}
	for r.rest = string(src); r.rest != "" || r.ln == 0; {
		var line string
		line, r.rest, _ = strings.Cut(r.rest, "\n")
		r.ln++
		line = strings.TrimSuffix(line, "\r")
		code, comment, hasComment := splitComment(line)
		fs := fieldsOf(code)
		var err error
		switch {
		case len(fs) == 0:
			if hasComment && r.magic && r.litmusEnd == 0 {
				r.comment(line, code, comment)
			}
		case !r.magic:
			err = r.magicLine(fs)
		case r.litmusEnd > 0:
			err = syntax.Errorf(r.pos(r.ln, fs[0].col), "%s after the litmus source, which ends at line %d (its \"litmus:\" line says how many lines it has)", syntax.QuoteShort(fs[0].text), r.litmusEnd)
		case fs[0].text == litmusKey:
			err = r.litmus(fs)
		case strings.HasSuffix(fs[0].text, ":"):
			err = r.headerLine(code, fs)
		default:
			err = r.steps(code, comment, fs)
		}
		if err != nil {
			return nil, err
		}
	}
	if !r.magic {
		return nil, syntax.Errorf(r.pos(1, 1), "empty trace: the first line must be \"smpscope trace %d\"", TraceVersion)
	}
	for _, key := range []string{"scenario", "mode"} {
		if _, ok := t.header[key]; !ok {
			return nil, syntax.Errorf(r.pos(strings.Count(string(src), "\n")+1, 1), "missing %q line in the header", key+":")
		}
	}
	return t, nil
}

// traceReader reads a trace file line by line into t.
type traceReader struct {
	t         *Trace
	name      string
	cut       []int  // per line, the columns cut off its start (a quoted mail)
	rest      string // the text after the current line
	ln        int    // the current line
	magic     bool   // the "smpscope trace N" line was read
	litmusEnd int    // the line the litmus source ended on, once read
}

// pos is the position of column col of line ln in the file the trace
// came from.
func (r *traceReader) pos(line, col int) syntax.Position {
	if line >= 1 && line <= len(r.cut) {
		col += r.cut[line-1]
	}
	return syntax.Position{File: r.name, Line: line, Col: col}
}

// comment takes a line that is only a comment: the notes before the
// first step, or more of a step's comment.
func (r *traceReader) comment(line, code, comment string) {
	t := r.t
	switch {
	case len(t.Steps) > 0 && strings.TrimLeft(code, " \t") != code:
		// An indented comment line goes on with the comment of
		// the step above (Format wraps long ones so).
		last := &t.Steps[len(t.Steps)-1]
		last.Comment = strings.TrimSpace(last.Comment + " " + comment)
	case len(t.Steps) == 0 && len(t.Notes) > 0 && strings.HasPrefix(strings.TrimLeft(line, " \t"), noteContinues):
		t.Notes[len(t.Notes)-1] += " " + comment
	case len(t.Steps) == 0:
		t.Notes = append(t.Notes, comment)
	}
}

// magicLine reads the first line, "smpscope trace N".
func (r *traceReader) magicLine(fs []field) error {
	if len(fs) != 3 || fs[0].text != "smpscope" || fs[1].text != "trace" {
		return syntax.Errorf(r.pos(r.ln, fs[0].col), "not a smpscope trace: the first line must be \"smpscope trace %d\"", TraceVersion)
	}
	v, err := strconv.Atoi(fs[2].text)
	if err != nil || v < 1 {
		return syntax.Errorf(r.pos(r.ln, fs[2].col), "bad trace version %q", fs[2].text)
	}
	if v < oldestTraceVersion || v > TraceVersion {
		return syntax.Errorf(r.pos(r.ln, fs[2].col), "trace format version %d is not supported (this smpscope reads versions %d to %d)", v, oldestTraceVersion, TraceVersion)
	}
	r.t.Version = v
	r.magic = true
	return nil
}

// litmus reads "litmus: N lines" and the N lines of litmus source after
// it.
func (r *traceReader) litmus(fs []field) error {
	n, err := 0, error(nil)
	if len(fs) >= 2 {
		n, err = strconv.Atoi(fs[1].text)
	}
	if len(fs) != 3 || err != nil || n < 1 || fs[2].text != "lines" && fs[2].text != "line" {
		return syntax.Errorf(r.pos(r.ln, fs[0].col), "want \"litmus: N lines\", the number of lines of litmus source that follow")
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if r.rest == "" {
			return syntax.Errorf(r.pos(r.ln, fs[1].col), "the litmus source should have %d lines, but %d follow", n, i)
		}
		var l string
		l, r.rest, _ = strings.Cut(r.rest, "\n")
		b.WriteString(strings.TrimSuffix(l, "\r"))
		b.WriteByte('\n')
		if b.Len() > syntax.MaxSourceSize {
			return syntax.Errorf(r.pos(r.ln, fs[1].col), "the litmus source is more than %s; a scenario is at most that", byteSize(syntax.MaxSourceSize))
		}
	}
	r.t.Litmus, r.t.LitmusLine = b.String(), r.ln+1
	r.ln += n
	r.litmusEnd = r.ln
	return nil
}

// headerLine reads a "key: value" line of the header.
func (r *traceReader) headerLine(code string, fs []field) error {
	t := r.t
	key := strings.TrimSuffix(fs[0].text, ":")
	p := r.pos(r.ln, fs[0].col)
	if len(t.Steps) > 0 {
		return syntax.Errorf(p, "header line %q after the first step (header lines come first)", key+":")
	}
	if prev, dup := t.header[key]; dup {
		return syntax.Errorf(p, "duplicate %q line (first at line %d)", key+":", prev.Line)
	}
	value := ""
	if len(fs) > 1 {
		value = strings.TrimSpace(code[byteOffset(code, fs[1].col):])
	}
	if value == "" {
		return syntax.Errorf(p, "%q needs a value", key+":")
	}
	if strings.HasSuffix(value, "#") {
		// It could not be written back: "#" ending a line starts a comment.
		return syntax.Errorf(r.pos(r.ln, fs[1].col), "the %q value cannot end in \"#\"", key+":")
	}
	if len(value) > maxHeaderValue {
		return syntax.Errorf(r.pos(r.ln, fs[1].col), "the %q value is %d bytes long; at most %d are accepted", key+":", len(value), maxHeaderValue)
	}
	set, known := traceHeaders[key]
	if !known {
		return syntax.Errorf(p, "unknown header %q (want scenario:, source:, variant:, mode: or edits:)", key+":")
	}
	if err := set(t, value); err != nil {
		return syntax.Errorf(r.pos(r.ln, fs[1].col), "%v", err)
	}
	t.header[key] = p
	return nil
}

// steps reads a line of steps: one, or several separated by commas (the
// short form a mail's replay block uses).
func (r *traceReader) steps(code, comment string, fs []field) error {
	t := r.t
	for _, seg := range stepSegments(code) {
		if len(t.Steps) == MaxTraceSteps {
			return syntax.Errorf(r.pos(r.ln, seg[0].col), "more than %d steps: no execution is that long", MaxTraceSteps)
		}
		words := make([]string, len(seg))
		cols := make([]int, len(seg))
		for j, f := range seg {
			words[j], cols[j] = f.text, r.pos(r.ln, f.col).Col
		}
		ts := TraceStep{ID: strings.Join(words, " "), Pos: r.pos(r.ln, seg[0].col), cols: cols}
		if len(fs) == len(seg) {
			ts.Comment = comment // a comment describes a step alone on its line
		}
		if _, err := ts.step(nil); err != nil {
			return err
		}
		t.Steps = append(t.Steps, ts)
	}
	return nil
}

// stepSegments splits a line's code at its commas into the words of each
// step, with their columns on the line. An empty segment (two commas, a
// trailing one) is left out: a long list of steps wraps after a comma.
func stepSegments(code string) [][]field {
	var out [][]field
	col := 0 // the columns before the segment
	for _, part := range strings.Split(code, ",") {
		fs := fieldsOf(part)
		for i := range fs {
			fs[i].col += col
		}
		if len(fs) > 0 {
			out = append(out, fs)
		}
		col += utf8.RuneCountInString(part) + 1
	}
	return out
}

// plainText checks that src is text a terminal can show as it is (see
// Printable), and names the first character that is not.
func plainText(name string, src []byte) error {
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r == '\r' && i+1 < len(src) && src[i+1] == '\n':
		case r == utf8.RuneError && n <= 1:
			return syntax.Errorf(syntax.Position{File: name, Line: line, Col: col}, "the trace is not valid UTF-8 (byte 0x%02x; a trace is plain text)", src[i])
		case !syntax.PrintableRune(r) || r == '\r':
			return syntax.Errorf(syntax.Position{File: name, Line: line, Col: col}, "the trace contains the control or unprintable character %U (a trace is plain text)", r)
		}
		i += n
		col++
	}
	return nil
}

// byteOffset converts a 1-based rune column of s into a byte offset.
func byteOffset(s string, col int) int {
	n := 0
	for i := range s {
		n++
		if n == col {
			return i
		}
	}
	return len(s)
}

// Replay runs the trace on m from its initial state and returns every
// state along the way (states[0] is the initial state) and the events of
// the steps. It fails when the trace was recorded for another scenario or
// mode, or when a step is unknown or not enabled where the trace takes
// it; the error names the trace line and lists the steps that were
// enabled there. On failure the states and events up to that point are
// returned as well.
func (t *Trace) Replay(m *machine.Machine) ([]*machine.State, []machine.Event, error) {
	if t.Scenario != "" && m.Prog.Name != "" && t.Scenario != m.Prog.Name {
		return []*machine.State{m.Initial()}, nil, syntax.Errorf(t.headerPos("scenario"), "this trace is for scenario %q, not %q", t.Scenario, m.Prog.Name)
	}
	if t.Mode != m.Mode {
		return []*machine.State{m.Initial()}, nil, syntax.Errorf(t.headerPos("mode"), "this trace was recorded in %s mode, not %s mode", t.Mode.Title(), m.Mode.Title())
	}
	// The step IDs are read up to the first that names something the
	// program does not have; the steps before it are replayed.
	var steps []machine.Step
	var bad error
	for _, ts := range t.Steps {
		st, err := ts.step(m.Prog)
		if err != nil {
			bad = err
			break
		}
		steps = append(steps, st)
	}
	states, events, err := m.Replay(steps)
	at := len(events) // the step that failed, if one did
	switch {
	case err != nil:
		ts := t.Steps[at]
		return states, events, syntax.Errorf(ts.Pos, "step %d %q is not enabled at this point\n%s", at+1, ts.ID, enabledList(m, states[at]))
	case bad != nil:
		e := bad.(syntax.Error)
		e.Msg += "\n" + enabledList(m, states[at])
		return states, events, e
	}
	return states, events, nil
}

// stepKinds are the step kinds by the word machine.Machine.ID writes.
var stepKinds = func() map[string]machine.StepKind {
	out := map[string]machine.StepKind{}
	for k := machine.StepExec; k <= machine.StepReportQS; k++ {
		out[k.String()] = k
	}
	return out
}()

// step reads the step ID: "CPU kind", "CPU:N commit", "CPU:N early"
// (N from 1, as words.StepID writes them), "CPU inv LOC", or a version 1
// trace's "CPU commit #N" and "CPU early #N" (N from 0). This is the one
// reader of step IDs. With p nil it checks the syntax only; with a
// program it also resolves the CPU and location names. Errors point at
// the word at fault.
func (ts TraceStep) step(p *machine.Program) (machine.Step, error) {
	words := strings.Fields(ts.ID)
	at := func(i int) syntax.Position {
		pos := ts.Pos
		switch {
		case i < len(ts.cols):
			pos.Col = ts.cols[i]
		default:
			pos.Col += len(strings.Join(words[:i], " ")) + min(i, 1)
		}
		return pos
	}
	if len(words) == 0 {
		return machine.Step{}, syntax.Errorf(ts.Pos, "empty step")
	}
	if len(words) < 2 {
		return machine.Step{}, syntax.Errorf(at(0), "step %q is incomplete: want a CPU and a step kind, e.g. \"P0 exec\" or \"P1:3 commit\"", words[0])
	}
	kind, ok := stepKinds[words[1]]
	if !ok {
		return machine.Step{}, syntax.Errorf(at(1), "unknown step kind %q (want exec, early, commit, inv or qs)", words[1])
	}
	instrKind := kind == machine.StepEarly || kind == machine.StepCommit
	// "CPU:N kind": the instruction's address first, as --edit writes it.
	cpuName, num, addressed := strings.Cut(words[0], ":")
	nargs := 0
	if kind == machine.StepInvalidate || instrKind && !addressed {
		nargs = 1
	}
	switch {
	case addressed && !instrKind:
		return machine.Step{}, syntax.Errorf(at(0), "%q names an instruction, but a %q step has none (want \"%s %s\")", words[0], words[1], syntax.QuoteShort(cpuName), words[1])
	case len(words) > 2+nargs:
		return machine.Step{}, syntax.Errorf(at(2+nargs), "unexpected %q after the step %q (a comment starts with \"# \")", words[2+nargs], words[0]+" "+words[1])
	case len(words) < 2+nargs && kind == machine.StepInvalidate:
		return machine.Step{}, syntax.Errorf(at(1), "\"inv\" needs the location whose invalidation is applied, e.g. \"%s inv x\"", syntax.QuoteShort(words[0]))
	case len(words) < 2+nargs:
		return machine.Step{}, syntax.Errorf(at(0), "%q needs its instruction, e.g. \"%s:3 %s\"", words[1], syntax.QuoteShort(words[0]), words[1])
	}
	// "#" only begins an instruction number: a name ending in one could
	// not be written back (a "#" ending a line starts a comment).
	if strings.Contains(cpuName, "#") {
		return machine.Step{}, syntax.Errorf(at(0), "want a CPU name like P0, not %q", words[0])
	}
	if kind == machine.StepInvalidate && strings.Contains(words[2], "#") {
		return machine.Step{}, syntax.Errorf(at(2), "want a location name like x, not %q", words[2])
	}
	st := machine.Step{Kind: kind}
	switch {
	case instrKind && addressed:
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 || n > machine.MaxInstrs || strings.ContainsAny(num, "+- ") {
			return machine.Step{}, syntax.Errorf(at(0), "want an instruction like %s:3 (numbered from 1), not %q", syntax.QuoteShort(cpuName), words[0])
		}
		st.Arg = uint8(n - 1)
	case instrKind:
		n, err := strconv.Atoi(strings.TrimPrefix(words[2], "#"))
		if !strings.HasPrefix(words[2], "#") || err != nil || n < 0 || n >= machine.MaxInstrs {
			return machine.Step{}, syntax.Errorf(at(2), "want an instruction like \"%s:3 %s\" (or a version 1 trace's \"#2\", from 0), not %q", syntax.QuoteShort(words[0]), words[1], words[2])
		}
		st.Arg = uint8(n)
	}
	if p == nil {
		return st, nil
	}
	cpu := slices.IndexFunc(p.Threads, func(t machine.Thread) bool { return t.Name == cpuName })
	if cpu < 0 {
		return machine.Step{}, syntax.Errorf(at(0), "step %q: no CPU named %s", ts.ID, syntax.QuoteShort(cpuName))
	}
	st.CPU = uint8(cpu)
	if kind == machine.StepInvalidate {
		l := slices.Index(p.Locs, words[2])
		if l < 0 {
			return machine.Step{}, syntax.Errorf(at(2), "step %q: no location named %s", ts.ID, syntax.QuoteShort(words[2]))
		}
		st.Arg = uint8(l)
	}
	return st, nil
}

func (t *Trace) headerPos(key string) syntax.Position {
	if p, ok := t.header[key]; ok {
		return p
	}
	return syntax.Position{File: t.File}
}

// enabledList lists the steps enabled in s, one per line with its
// description, for error messages.
func enabledList(m *machine.Machine, s *machine.State) string {
	steps := m.Enabled(s)
	if len(steps) == 0 {
		if m.Final(s) {
			return "no step is enabled there: the execution has already ended."
		}
		return "no step is enabled there: the execution is deadlocked."
	}
	w := 0
	for _, st := range steps {
		w = max(w, len(words.StepID(m, st)))
	}
	var b strings.Builder
	b.WriteString("steps enabled there:")
	for _, st := range steps {
		id := words.StepID(m, st)
		fmt.Fprintf(&b, "\n\t%s%s  # %s", id, strings.Repeat(" ", w-len(id)), words.Step(m, s, st))
	}
	return b.String()
}

// TraceFileName is the file name of a trace of a scenario in a mode,
// without its extension and before any "-2" WriteNewTrace adds: "mp+once-arm.trace". Characters that do not belong in
// a file name become "_".
func TraceFileName(name string, mode machine.Mode) string {
	return fileSafe(name) + "-" + mode.String()
}

// fileSafe makes a scenario name fit a file name: characters that do not
// belong in one become "_".
func fileSafe(name string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '+', r == '-', r == '.', r == '_':
			return r
		}
		return '_'
	}, name)
	clean = strings.TrimLeft(clean, ".")
	if clean == "" {
		clean = "scenario"
	}
	return clean
}

// WriteNewTrace writes t to a new file in dir named after its scenario
// and mode (TraceFileName): "mp+once-arm.trace", or, when that exists,
// "mp+once-arm-2.trace", "-3", …: it never overwrites a file. It returns
// the path written.
func WriteNewTrace(dir string, t *Trace) (string, error) {
	text, err := t.Text()
	if err != nil {
		return "", err
	}
	return createUnique(dir, TraceFileName(t.Scenario, t.Mode), ".trace", []byte(text))
}

// Text is Format, checked to read back: a trace is plain text, so one
// whose source path holds a control character (a file named so) cannot
// be written.
func (t *Trace) Text() (string, error) {
	text := t.Format()
	if err := plainText("the trace", []byte(text)); err != nil {
		return "", fmt.Errorf("cannot write a trace of %s: its source path %q would not read back (rename the file)", t.Scenario, t.Source)
	}
	return text, nil
}

// createUnique writes data to dir/base+ext, or, when that exists,
// dir/base-2+ext, dir/base-3+ext, …: it never overwrites a file. It
// returns the path written.
func createUnique(dir, base, ext string, data []byte) (string, error) {
	return createUniqueFunc(dir, base, ext, func(string) []byte { return data })
}

// createUniqueFunc is createUnique for contents that depend on the name
// chosen (without its extension): a litmus test is named like its file.
func createUniqueFunc(dir, base, ext string, contents func(name string) []byte) (string, error) {
	for i := 1; i < 10000; i++ {
		stem := base
		if i > 1 {
			stem = fmt.Sprintf("%s-%d", base, i)
		}
		name := stem + ext
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(contents(stem))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(path)
			return "", werr
		}
		return path, nil
	}
	return "", fmt.Errorf("%s: too many files with this name", filepath.Join(dir, base+ext))
}

// ReplayBlock is what a mail needs to replay the execution, in the
// trace format at its shortest: the header, the steps separated by
// commas (lines of at most width columns), and the scenario's litmus
// source without its leading comment (the title and story are in the
// mail's text; a built-in is recognised by its program). Text that
// smpscope trace prints ends with it, so that the mail replays with
// smpscope --replay, quoted or not.
func (e *Execution) ReplayBlock(width int) string {
	t := e.Trace("")
	var b strings.Builder
	fmt.Fprintf(&b, "smpscope trace %d\n", TraceVersion)
	fmt.Fprintf(&b, "scenario: %s\n", oneLine(t.Scenario))
	if t.Source != "" && t.Litmus == "" {
		fmt.Fprintf(&b, "source: %s\n", oneLine(t.Source))
	}
	fmt.Fprintf(&b, "mode: %s\n", t.Mode)
	if len(t.Edits) > 0 {
		fmt.Fprintf(&b, "edits: %s\n", EditsText(t.Edits))
	}
	line := ""
	for i, st := range t.Steps {
		item := st.ID
		if i < len(t.Steps)-1 {
			item += ","
		}
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(item) > width {
			b.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += item
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
	if orig := e.Spec.Original(); orig.Litmus != nil {
		bare := *orig.Litmus
		bare.Header = nil
		b.WriteString(litmusSection(syntax.Format(&bare)))
	}
	return b.String()
}

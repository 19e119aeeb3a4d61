package scenarios

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"smpscope/scenarios/syntax"
)

// Litmus tests arrive in mails: quoted once or several times ("> ",
// ">> ", "> > "), surrounded by prose and signatures, as the added lines
// of a patch, with CRLF line ends. FindLitmus finds each test in such a
// text, from its "C NAME" line to the end of its final clause, and takes
// the quoting off. The text it hands to the parser keeps the mail's line
// numbers (the lines before the test are left blank), so every position
// in an error, and every line number a report gives, is a line of the
// mail; columns are moved back by the quoting taken off.

// MailTest is one litmus test found in a mail.
type MailTest struct {
	Name  string // the name after "C"
	Line  int    // the mail line of its "C NAME" line
	Depth int    // how deeply it is quoted (0: not quoted)
	Patch bool   // it is the added lines of a patch
	// Src is the test without its quoting, preceded by Line-1 empty
	// lines: positions in it are positions in the mail.
	Src []byte
	// Err is why the test does not parse (positions in the mail); Src is
	// then the text that was tried.
	Err  error
	file string
	cut  []int // per line of Src (index line-1), the columns taken off its front
}

// Where is the test's place in the mail: "mail.txt:12".
func (t MailTest) Where() string { return t.file + ":" + strconv.Itoa(t.Line) }

// Parse parses the test; errors name the mail's lines and columns.
func (t MailTest) Parse() (*syntax.Scenario, error) {
	if t.Err != nil {
		return nil, t.Err
	}
	s, err := Parse(t.file, t.Src)
	return s, t.remap(err)
}

// remap moves an error's column back to where it is in the mail.
func (t MailTest) remap(err error) error {
	var e syntax.Error
	if !errors.As(err, &e) || e.Pos.File != t.file || e.Pos.Line < 1 || e.Pos.Line > len(t.cut) || e.Pos.Col < 1 {
		return err
	}
	e.Pos.Col += t.cut[e.Pos.Line-1]
	return e
}

// mailLine is one line of a mail with its quoting taken off.
type mailLine struct {
	text   string // without the quote markers and the space after them
	depth  int    // the number of '>' quote markers
	cut    int    // the columns taken off its front
	quoted bool   // it had quote markers, or is empty
}

// unquoteLine takes the quote markers off a line: '>' repeated, with
// spaces before and between them, and the one space after the last.
func unquoteLine(line string) mailLine {
	line = strings.TrimSuffix(line, "\r")
	i, depth, end := 0, 0, 0
	for i < len(line) {
		switch line[i] {
		case ' ':
			i++
			continue
		case '>':
			depth++
			i++
			end = i
			continue
		}
		break
	}
	if depth == 0 {
		return mailLine{text: line, quoted: line == ""}
	}
	if end < len(line) && line[end] == ' ' {
		end++
	}
	return mailLine{text: line[end:], depth: depth, cut: utf8.RuneCountInString(line[:end]), quoted: true}
}

// nameLine reads a "C NAME" line (after any patch marker): the name,
// or "".
func nameLine(text string) string {
	rest, ok := strings.CutPrefix(text, "C")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return ""
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// maxMailTests bounds how many tests one text is searched for.
const maxMailTests = 100

// FindLitmus finds the litmus tests in a mail (or any text): every
// "C NAME" line, at any quoting depth or as a patch's added line, that
// starts a test (an initial-state block and a thread follow it at the
// same depth), to the end of its final clause. A test quoted again at
// another depth (a reply quoting a reply) is listed once. name is the
// mail's name in positions.
func FindLitmus(name string, src []byte) []MailTest {
	raw := strings.Split(string(src), "\n")
	lines := make([]mailLine, len(raw))
	for i, l := range raw {
		lines[i] = unquoteLine(l)
	}
	var out []MailTest
	seen := map[string]bool{}
	for i := 0; i < len(lines) && len(out) < maxMailTests; i++ {
		l := lines[i]
		patch := false
		text := l.text
		if strings.HasPrefix(text, "+") && nameLine(text[1:]) != "" {
			patch, text = true, text[1:]
		}
		tname := nameLine(text)
		if tname == "" {
			continue
		}
		t, ok := mailTest(name, lines, i, patch)
		if !ok {
			continue
		}
		t.Name = tname
		key := tname + "\x00" + strings.TrimLeft(string(t.Src), "\n")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, t)
	}
	return out
}

// mailTest collects the test whose "C NAME" line is lines[start]: the
// lines that follow at the same depth (a patch's added and context
// lines, its removed lines left out), up to the end of its final clause.
// It reports false when no initial-state block and thread follow: the
// line was prose.
func mailTest(name string, lines []mailLine, start int, patch bool) (MailTest, bool) {
	depth := lines[start].depth
	t := MailTest{Line: start + 1, Depth: depth, Patch: patch, file: name}
	t.cut = make([]int, start)
	var b strings.Builder
	b.WriteString(strings.Repeat("\n", start))
	init, thread := false, false
	size := 0
	var ends []int // byte offsets in b where each region line ends
	for i := start; i < len(lines) && size < syntax.MaxSourceSize; i++ {
		l := lines[i]
		if i > start && nameLine(strings.TrimPrefix(l.text, "+")) != "" && l.depth == depth {
			break // the next test
		}
		text, cut := l.text, l.cut
		if l.depth != depth {
			if text != "" {
				break // quoted otherwise: the region ends
			}
			// An empty line, quoted at another depth or not: blank.
		}
		switch {
		case !patch || text == "" && l.depth != depth:
		case strings.HasPrefix(text, "+"), strings.HasPrefix(text, " "):
			text, cut = text[1:], cut+1
		case strings.HasPrefix(text, "-"), strings.HasPrefix(text, "@@"), strings.HasPrefix(text, `\`), text == "":
			text = "" // a removed line, a hunk header: left blank
		default:
			i = len(lines) // the patch's next file, or prose
			continue
		}
		trim := strings.TrimSpace(text)
		if strings.HasPrefix(trim, "{") {
			init = true
		}
		if init && syntax.LooksLikeThread(trim) {
			thread = true
		}
		b.WriteString(text)
		b.WriteByte('\n')
		t.cut = append(t.cut, cut)
		ends = append(ends, b.Len())
		size += len(text) + 1
	}
	if !init || !thread {
		return t, false
	}
	region := b.String()
	fin, err := syntax.FindFinal(name, []byte(region), KernelFuncs)
	if err != nil {
		t.Src, t.Err = []byte(region), t.remap(err)
		return t, true
	}
	// The final clause ends on the first line after which the test
	// parses (unless the next line goes on with an operator or a
	// parenthesis).
	first := fin.Line - 1 - start
	var last error
	for k := max(first, 0); k < len(ends); k++ {
		if k+1 < len(ends) && continues(region[ends[k]:ends[k+1]]) {
			continue
		}
		src := region[:ends[k]]
		if _, err := Parse(name, []byte(src)); err != nil {
			last = err
			continue
		}
		t.Src = []byte(src)
		t.cut = t.cut[:start+k+1]
		return t, true
	}
	if last == nil {
		last = syntax.Errorf(fin, "the final clause does not end")
	}
	t.Src, t.Err = []byte(region), t.remap(last)
	return t, true
}

// continues reports whether a line goes on with the condition above it.
func continues(line string) bool {
	s := strings.TrimSpace(line)
	for _, p := range []string{`/\`, `\/`, "=>", ")", "&&", "||"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// selectMailTest picks the test sel names from tests: "" when there is
// one, else its number (from 1) or its name. name is the mail's.
func selectMailTest(name string, tests []MailTest, sel string) (MailTest, error) {
	switch {
	case len(tests) == 0:
		return MailTest{}, fmt.Errorf("%s: no litmus test found (a test starts with a line \"C NAME\")", name)
	case sel == "" && len(tests) == 1:
		return tests[0], nil
	case sel == "":
		return MailTest{}, fmt.Errorf("%s holds %d litmus tests (%s): take one with --test N or --test NAME", name, len(tests), mailList(tests))
	}
	if n, err := strconv.Atoi(sel); err == nil {
		if n < 1 || n > len(tests) {
			return MailTest{}, fmt.Errorf("%s holds %d litmus tests, not %d (%s)", name, len(tests), n, mailList(tests))
		}
		return tests[n-1], nil
	}
	var found []MailTest
	for _, t := range tests {
		if t.Name == sel {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return MailTest{}, fmt.Errorf("%s holds no litmus test named %q (%s)", name, sel, mailList(tests))
	case 1:
		return found[0], nil
	}
	return MailTest{}, fmt.Errorf("%s holds %d litmus tests named %q (%s): take one by its number, --test N", name, len(found), sel, mailList(tests))
}

// mailList names the tests for a message: "1. mp+once at line 12, 2.
// sb+once at line 40" (the first few).
func mailList(tests []MailTest) string {
	var parts []string
	for i, t := range tests {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(tests)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%d. %s at line %d", i+1, syntax.QuoteShort(t.Name), t.Line))
	}
	return strings.Join(parts, ", ")
}

// startsText reports whether the test starts the text, unquoted: then
// the text is a litmus file with an error, and the parser's own message
// is the one to give.
func startsText(src []byte, t MailTest) bool {
	lead := strings.TrimLeft(string(src), " \t\r\n")
	return t.Depth == 0 && !t.Patch && strings.Count(string(src[:len(src)-len(lead)]), "\n") == t.Line-1
}

// traceMagic reports whether an unquoted line is a trace's first line,
// "smpscope trace N".
// stepCPU is the CPU a step ID's first word names: "P0" of "P0:2".
func stepCPU(word string) string {
	cpu, _, _ := strings.Cut(word, ":")
	return cpu
}

func traceMagic(text string) bool {
	f := strings.Fields(text)
	return len(f) == 3 && f[0] == "smpscope" && f[1] == "trace"
}

// traceText finds the trace in what a --replay file holds: a trace file
// as it is, or the replay block of a mail (what smpscope trace prints
// ends with one), quoted or not. Like FindLitmus it keeps the mail's
// line numbers and returns, per line, the columns its quoting took off.
// With several traces in a mail, sel takes one by its number.
func traceText(name string, src []byte, sel string) ([]byte, []int, error) {
	raw := strings.Split(string(src), "\n")
	for _, l := range raw {
		code, _, _ := splitComment(strings.TrimSuffix(l, "\r"))
		if strings.TrimSpace(code) == "" {
			continue
		}
		if traceMagic(code) && sel == "" {
			return src, nil, nil // a trace file
		}
		break
	}
	lines := make([]mailLine, len(raw))
	for i, l := range raw {
		lines[i] = unquoteLine(l)
	}
	type block struct {
		line int
		text string
		cut  []int
	}
	var found []block
	seen := map[string]bool{}
	for i := 0; i < len(lines) && len(found) < maxMailTests; i++ {
		if !traceMagic(lines[i].text) {
			continue
		}
		b, cut := traceBlock(lines, i)
		key := strings.TrimLeft(b, "\n")
		if !seen[key] {
			seen[key] = true
			found = append(found, block{i + 1, b, cut})
		}
	}
	var where []string
	for i, b := range found {
		where = append(where, fmt.Sprintf("%d. at line %d", i+1, b.line))
	}
	switch n, err := strconv.Atoi(sel); {
	case len(found) == 0:
		return nil, nil, syntax.Errorf(syntax.Position{File: name, Line: 1, Col: 1}, "not a smpscope trace: no line \"smpscope trace %d\" (a trace file starts with one, and so does the replay block at the end of what smpscope trace prints)", TraceVersion)
	case sel == "" && len(found) == 1:
		return []byte(found[0].text), found[0].cut, nil
	case sel == "":
		return nil, nil, fmt.Errorf("%s carries %d traces (%s): take one with --replay %s#N", name, len(found), strings.Join(where, ", "), argOf(name))
	case err != nil || n < 1 || n > len(found):
		return nil, nil, fmt.Errorf("%s carries %d traces (%s), not %s", name, len(found), strings.Join(where, ", "), syntax.QuoteShort(sel))
	default:
		return []byte(found[n-1].text), found[n-1].cut, nil
	}
}

// traceBlock collects the trace that starts at lines[start]: the lines
// at its quoting depth that read as a trace (header lines, steps,
// comments, blank lines), up to the end of the litmus source it
// carries, or else to the first line that does not.
func traceBlock(lines []mailLine, start int) (string, []int) {
	depth := lines[start].depth
	var b strings.Builder
	b.WriteString(strings.Repeat("\n", start))
	cut := make([]int, start)
	add := func(l mailLine) {
		b.WriteString(l.text)
		b.WriteByte('\n')
		cut = append(cut, l.cut)
	}
	for i := start; i < len(lines); i++ {
		l := lines[i]
		if l.depth != depth && l.text != "" {
			break
		}
		code, _, _ := splitComment(l.text)
		f := strings.Fields(code)
		switch {
		case len(f) == 0 || i == start:
		case f[0] == litmusKey:
			add(l)
			n := 0
			if len(f) > 1 {
				n, _ = strconv.Atoi(f[1])
			}
			for k := 1; k <= n && i+k < len(lines); k++ {
				add(lines[i+k])
			}
			return b.String(), cut
		case strings.HasSuffix(f[0], ":") && !strings.Contains(code, ","):
			// a header line
		case syntax.IsThreadName(stepCPU(strings.TrimSuffix(f[0], ","))):
			// a step ("P0 exec", "P0:2 commit")
		default:
			return b.String(), cut
		}
		add(l)
	}
	return b.String(), cut
}

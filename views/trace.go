package views

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
)

// TraceFormat selects what RenderTrace writes.
type TraceFormat uint8

// Trace output formats.
const (
	TraceText     TraceFormat = iota // plain text for mails and terminals
	TraceMarkdown                    // markdown for issues, wikis and patch cover letters
)

// ParseTraceFormat accepts "text" or "markdown" (also "md").
func ParseTraceFormat(s string) (TraceFormat, error) {
	switch s {
	case "text", "txt", "":
		return TraceText, nil
	case "markdown", "md":
		return TraceMarkdown, nil
	}
	return TraceText, fmt.Errorf("unknown format %q (want text or markdown)", s)
}

// DefaultTraceWidth is the width RenderTrace fits its text to by default:
// what mail clients and patch reviews expect.
const DefaultTraceWidth = 72

// trMinWidth is the narrowest width RenderTrace lays out for.
const trMinWidth = 40

// TraceInput is one execution to render: the steps taken from the initial
// state, every state along the way and the events of the steps.
type TraceInput struct {
	Mach   *machine.Machine
	Steps  []machine.Step
	States []*machine.State // len(Steps)+1; States[0] is the initial state
	Events []machine.Event  // len(Steps)

	Name    string // the scenario's name, e.g. "mp+once"
	Variant string // e.g. "once"
	Title   string // one line for people

	// Condition is the final clause as written, e.g.
	// "exists (1:r0=1 /\ 1:r1=0)"; "" if there is none.
	Condition string
	// Satisfies reports whether an outcome satisfies the proposition of
	// the final clause; nil if there is no condition.
	Satisfies func(machine.Outcome) bool
	// Filtered reports whether the filter clause keeps an outcome; nil
	// keeps every outcome.
	Filtered func(machine.Outcome) bool
	// Shown selects the registers and locations shown in the outcome
	// (machine.Outcome.Format); nil shows all.
	Shown func(thread int, reg machine.Reg, loc machine.Loc, isLoc bool) bool
}

// TraceOptions control how RenderTrace lays out its text.
type TraceOptions struct {
	Format TraceFormat
	// Width is the widest line in cells (default DefaultTraceWidth; at
	// least 40). Only words longer than a line are cut.
	Width int
	// ASCII restricts the output to ASCII: no rules, arrows or other
	// symbols, and any other character of the scenario's text becomes
	// "?".
	ASCII bool
	// Color adds ANSI styling (bold step headers, the stale-read marker in
	// red). Set it only when writing to a terminal; the lipgloss colour
	// profile (NO_COLOR and friends) still applies.
	Color bool
}

// trStaleMarker starts every line about a stale read, so that it stands out
// without colour.
const trStaleMarker = "!! STALE"

// trStyles are the few styles a coloured trace uses.
type trStyles struct {
	step  lipgloss.Style // step headers
	stale lipgloss.Style // the stale-read marker
	dim   lipgloss.Style // snapshots
}

func newTrStyles(color bool) trStyles {
	if !color {
		return trStyles{}
	}
	return trStyles{
		step:  lipgloss.NewStyle().Bold(true),
		stale: lipgloss.NewStyle().Bold(true).Foreground(lipgloss.ANSIColor(9)),
		dim:   lipgloss.NewStyle().Faint(true),
	}
}

// tracer holds what one RenderTrace call needs.
type tracer struct {
	in    TraceInput
	opts  TraceOptions
	md    bool
	width int
	st    trStyles
	color bool
	b     strings.Builder
}

// RenderTrace renders an execution step by step, for a mail or a terminal:
// what each step did, how each load's value is classified (a stale read
// starts with "!! STALE", so it stands out without colour), compact
// snapshots of the store buffers, invalidation queues, caches and memory
// that the step changed, and at the end the outcome and whether the final
// clause holds. Text lines fit opts.Width cells; with opts.ASCII the output
// is pure ASCII; without opts.Color it contains no escape codes.
func RenderTrace(in TraceInput, opts TraceOptions) string {
	w := opts.Width
	if w <= 0 {
		w = DefaultTraceWidth
	}
	w = max(w, trMinWidth)
	t := &tracer{in: in, opts: opts, md: opts.Format == TraceMarkdown, width: w, st: newTrStyles(opts.Color), color: opts.Color}
	t.header()
	n := min(len(in.Steps), len(in.Events), max(len(in.States)-1, 0))
	for i := 0; i < n; i++ {
		t.step(i)
	}
	t.final(n)
	out := t.b.String()
	if opts.ASCII {
		out = trAsciiOnly(out)
	}
	return out
}

// text makes a piece of scenario or machine text safe for the output:
// ASCII-only if asked, escaped for markdown prose.
func (t *tracer) text(s string) string {
	s = t.plain(s)
	if t.md {
		s = trMdEscape(s)
	}
	return s
}

// plain is text without markdown escapes, for code spans.
func (t *tracer) plain(s string) string {
	if t.opts.ASCII {
		s = trAsciiOnly(s)
	}
	return s
}

// sym picks the Unicode or the ASCII spelling of a symbol.
func (t *tracer) sym(uni, ascii string) string {
	if t.opts.ASCII {
		return ascii
	}
	return uni
}

func (t *tracer) line(s string) {
	t.b.WriteString(strings.TrimRight(s, " "))
	t.b.WriteByte('\n')
}

// para writes text wrapped to the width; the first line starts with
// first, the others with an indent of rest's width.
func (t *tracer) para(first, rest, text string) {
	for _, l := range trWrapWords(text, t.width-ansi.StringWidth(first), t.width-ansi.StringWidth(rest), t.md) {
		t.line(first + l)
		first = rest
	}
}

func (t *tracer) header() {
	in := t.in
	mode := "?"
	if in.Mach != nil {
		mode = in.Mach.Mode.Title() + " mode"
	}
	name := in.Name
	if name == "" && in.Mach != nil {
		name = in.Mach.Prog.Name
	}
	head := name
	if in.Variant != "" {
		head += " (" + in.Variant + ")"
	}
	head += ", " + mode
	if t.md {
		t.line("### " + t.text(head))
		t.line("")
		if in.Title != "" {
			t.para("", "", t.text(in.Title))
			t.line("")
		}
		if in.Condition != "" {
			t.para("", "", "Condition: "+trMdCode(t.plain(in.Condition)))
			t.line("")
		}
	} else {
		t.para("", "", t.text(head))
		if in.Title != "" {
			t.para("", "", t.text(in.Title))
		}
		if in.Condition != "" {
			t.para("", "  ", "Condition: "+t.text(in.Condition))
		}
		t.line(strings.Repeat(t.sym("─", "-"), t.width))
	}
	if len(in.States) > 0 && in.Mach != nil {
		t.initial(in.States[0])
	}
}

// initial describes the initial state in one paragraph.
func (t *tracer) initial(s *machine.State) {
	m := t.in.Mach
	p := m.Prog
	var mem []string
	for l := range p.Locs {
		mem = append(mem, p.Locs[l]+"="+p.FormatValue(s.Memory(machine.Loc(l))))
	}
	warm := true
	for c := 0; c < s.NumCPUs(); c++ {
		for l := range p.Locs {
			if ln := s.Cache(c, machine.Loc(l)); ln.State != machine.Shared || ln.Val != s.Memory(machine.Loc(l)) {
				warm = false
			}
		}
	}
	text := "Initially memory holds " + strings.Join(mem, ", ") + "; "
	if warm {
		text += "every CPU's cache holds every line in S; store buffers are empty."
	} else {
		text += "store buffers are empty."
	}
	if t.md {
		t.para("", "", t.text(text))
		t.line("")
		if !warm {
			for c := 0; c < s.NumCPUs(); c++ {
				t.para("- ", "  ", trMdCode(t.plain(trCacheSnapshot(m, s, c))))
			}
			t.line("")
		}
		return
	}
	t.para("", "", t.text(text))
	if !warm {
		for c := 0; c < s.NumCPUs(); c++ {
			t.para("  ", "    ", t.text(trCacheSnapshot(m, s, c)))
		}
	}
	t.line("")
}

// step renders step i: its ID, what happened, the read classification and
// the snapshots of what changed.
func (t *tracer) step(i int) {
	m := t.in.Mach
	ev := t.in.Events[i]
	before, after := t.in.States[i], t.in.States[i+1]
	id := m.ID(t.in.Steps[i])
	num := strconv.Itoa(i + 1)
	var notes []string // snapshot lines
	stale := ""
	if ld := ev.Load; ld != nil {
		cls, isStale := trReadLine(m, int(ev.Step.CPU), ld)
		if isStale {
			stale = cls
		} else {
			notes = append(notes, cls)
		}
	}
	notes = append(notes, trChanges(m, before, after, t.sym("→", "->"))...)
	if t.md {
		marker := num + ". "
		ind := strings.Repeat(" ", len(marker))
		t.para(marker, ind, "**"+t.text(id)+"**: "+t.text(ev.Text))
		if stale != "" {
			t.para(ind+"- ", ind+"  ", "**"+trStaleMarker+"** "+t.text(stale))
		}
		for _, n := range notes {
			t.para(ind+"- ", ind+"  ", trMdCode(t.plain(n)))
		}
		return
	}
	marker := fmt.Sprintf("%3s. ", num)
	ind := strings.Repeat(" ", len(marker))
	head := marker + t.text(id)
	if t.color {
		head = t.st.step.Render(head)
	}
	t.line(head)
	t.para(ind, ind, t.text(ev.Text))
	if stale != "" {
		mark := trStaleMarker
		if t.color {
			mark = t.st.stale.Render(mark)
		}
		for j, l := range trWrapWords(t.text(stale), t.width-len(trStaleMarker)-1, t.width-len(ind), false) {
			if j == 0 {
				t.line(mark + " " + l)
			} else {
				t.line(ind + l)
			}
		}
	}
	for _, n := range notes {
		lines := trWrapWords(t.text(n), t.width-len(ind), t.width-len(ind)-2, false)
		for j, l := range lines {
			if j > 0 {
				l = "  " + l
			}
			if t.color {
				l = t.st.dim.Render(l)
			}
			t.line(ind + l)
		}
	}
}

// trReadLine classifies a load for the trace. The second result is true for
// a stale read.
func trReadLine(m *machine.Machine, c int, ld *machine.LoadEvent) (string, bool) {
	p := m.Prog
	name, val := p.LocName(ld.Loc), p.FormatValue(ld.Val)
	cpu := p.Threads[c].Name
	switch ld.Class {
	case machine.Stale:
		who := "as the initial value"
		if ld.NewerCPU >= 0 && ld.NewerCPU < len(p.Threads) {
			who = fmt.Sprintf("by %s at step %d", p.Threads[ld.NewerCPU].Name, ld.NewerStep)
		}
		return fmt.Sprintf("read: %s read %s=%s from a stale cache line; %s=%s was committed %s and its invalidation is still queued at %s.", cpu, name, val, name, p.FormatValue(ld.NewerVal), who, cpu), true
	case machine.Forwarded:
		return fmt.Sprintf("read %s=%s: forwarded from its own store buffer", name, val), false
	case machine.NewerPending:
		who := "another CPU"
		if ld.NewerCPU >= 0 && ld.NewerCPU < len(p.Threads) {
			who = p.Threads[ld.NewerCPU].Name
		}
		return fmt.Sprintf("read %s=%s: up to date, but %s=%s is pending in %s's store buffer", name, val, name, p.FormatValue(ld.NewerVal), who), false
	}
	src := "cache hit"
	if ld.Source == machine.FromMiss {
		src = "cache miss"
	}
	return fmt.Sprintf("read %s=%s: up to date (%s)", name, val, src), false
}

// trChanges lists compact snapshots of what differs between two states:
// per CPU its store buffer, invalidation queue and cache when they
// changed, its status when it became blocked or finished, then memory.
func trChanges(m *machine.Machine, before, after *machine.State, arrow string) []string {
	var out []string
	p := m.Prog
	for c := 0; c < after.NumCPUs(); c++ {
		cpu := p.Threads[c].Name
		if !trSameSB(before.StoreBuffer(c), after.StoreBuffer(c)) {
			out = append(out, cpu+" store buffer: "+trSbSnapshot(p, after.StoreBuffer(c)))
		}
		if !trSameIQ(before.InvalQueue(c), after.InvalQueue(c)) {
			out = append(out, cpu+" inval queue: "+trIqSnapshot(p, after.InvalQueue(c)))
		}
		changed := false
		for l := range p.Locs {
			a, b := before.Cache(c, machine.Loc(l)), after.Cache(c, machine.Loc(l))
			if a.State != b.State || a.Val != b.Val || before.Stale(c, machine.Loc(l)) != after.Stale(c, machine.Loc(l)) {
				changed = true
			}
		}
		if changed {
			out = append(out, trCacheSnapshot(m, after, c))
		}
		sb, sa := m.Status(before, c), m.Status(after, c)
		switch {
		case sa.Finished && !sb.Finished:
			out = append(out, cpu+" has finished its program")
		case sa.Blocked && (!sb.Blocked || sa.Reason != sb.Reason):
			out = append(out, cpu+" is blocked: "+sa.Reason)
		case sb.Blocked && !sa.Blocked && !sa.Finished:
			out = append(out, cpu+" can run again")
		}
	}
	var mem []string
	for l := range p.Locs {
		a, b := before.Memory(machine.Loc(l)), after.Memory(machine.Loc(l))
		if a != b {
			mem = append(mem, fmt.Sprintf("%s=%s %s %s", p.Locs[l], p.FormatValue(a), arrow, p.FormatValue(b)))
		}
	}
	if len(mem) > 0 {
		out = append(out, "memory: "+strings.Join(mem, ", "))
	}
	return out
}

func trSameSB(a, b []machine.SBEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func trSameIQ(a, b []machine.IQEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Loc != b[i].Loc || a[i].Marked != b[i].Marked {
			return false
		}
	}
	return true
}

// trSbSnapshot renders a store buffer oldest first, e.g.
// "x=1 | wmb | y=1 (release)".
func trSbSnapshot(p *machine.Program, sb []machine.SBEntry) string {
	if len(sb) == 0 {
		return "empty"
	}
	var parts []string
	for _, e := range sb {
		switch e.Kind {
		case machine.EntryWmb:
			parts = append(parts, "wmb")
		case machine.EntryRelease:
			parts = append(parts, p.LocName(e.Loc)+"="+p.FormatValue(e.Val)+" (release)")
		case machine.EntryExclusive:
			parts = append(parts, p.LocName(e.Loc)+"="+p.FormatValue(e.Val)+" (exclusive)")
		default:
			parts = append(parts, p.LocName(e.Loc)+"="+p.FormatValue(e.Val))
		}
	}
	return strings.Join(parts, " | ")
}

// trIqSnapshot renders an invalidation queue in arrival order, e.g. "y, x".
func trIqSnapshot(p *machine.Program, iq []machine.IQEntry) string {
	if len(iq) == 0 {
		return "empty"
	}
	var parts []string
	for _, e := range iq {
		s := p.LocName(e.Loc)
		if e.Marked {
			s += " (marked)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// trCacheSnapshot renders CPU c's cache, e.g. "P1 cache: x=0 S stale, y=1 S".
func trCacheSnapshot(m *machine.Machine, s *machine.State, c int) string {
	p := m.Prog
	var parts []string
	for l := range p.Locs {
		ln := s.Cache(c, machine.Loc(l))
		if ln.State == machine.Invalid {
			parts = append(parts, p.Locs[l]+" I")
			continue
		}
		part := p.Locs[l] + "=" + p.FormatValue(ln.Val) + " " + ln.State.String()
		if s.Stale(c, machine.Loc(l)) {
			part += " stale"
		}
		parts = append(parts, part)
	}
	return p.Threads[c].Name + " cache: " + strings.Join(parts, ", ")
}

// final renders the end of the trace: the outcome and whether the final
// clause holds, or why the execution is not final.
func (t *tracer) final(n int) {
	in := t.in
	if in.Mach == nil || len(in.States) == 0 {
		return
	}
	m := in.Mach
	s := in.States[min(n, len(in.States)-1)]
	var lines []string
	steps := "steps"
	if n == 1 {
		steps = "step"
	}
	switch {
	case m.Final(s):
		o := m.Outcome(s)
		lines = append(lines, fmt.Sprintf("Final state after %d %s. Outcome: %s", n, steps, o.Format(m.Prog, in.Shown)))
		if in.Condition != "" && in.Satisfies != nil {
			lines = append(lines, in.Condition+": "+trClauseVerdict(in.Condition, in.Satisfies(o)))
		}
		if in.Filtered != nil && !in.Filtered(o) {
			lines = append(lines, "The filter clause leaves this outcome out of the verdict.")
		}
	case m.Deadlocked(s):
		lines = append(lines, fmt.Sprintf("Deadlock after %d %s: no CPU can make progress.", n, steps))
		for c := 0; c < s.NumCPUs(); c++ {
			if st := m.Status(s, c); !st.Finished {
				lines = append(lines, m.Prog.Threads[c].Name+": "+st.Reason)
			}
		}
	default:
		var waiting []string
		for c := 0; c < s.NumCPUs(); c++ {
			if !m.Finished(s, c) {
				waiting = append(waiting, m.Prog.Threads[c].Name+" has not finished")
			} else if k := len(s.StoreBuffer(c)); k > 0 {
				waiting = append(waiting, fmt.Sprintf("%s's store buffer holds %d entries", m.Prog.Threads[c].Name, k))
			}
		}
		lines = append(lines, fmt.Sprintf("Not a final state after %d %s: %s.", n, steps, strings.Join(waiting, "; ")))
		if in.Condition != "" {
			lines = append(lines, "The final clause is evaluated only on final states.")
		}
	}
	if t.md {
		t.line("")
		for i, l := range lines {
			if i == 0 {
				head, rest, _ := strings.Cut(l, ". ")
				t.para("", "", "**"+t.text(head)+".** "+t.mdOutcome(rest))
			} else if in.Condition != "" && strings.HasPrefix(l, in.Condition+": ") {
				t.para("", "", trMdCode(t.plain(in.Condition))+": "+t.text(strings.TrimPrefix(l, in.Condition+": ")))
			} else {
				t.para("", "", t.text(l))
			}
			t.line("")
		}
		return
	}
	t.line(strings.Repeat(t.sym("─", "-"), t.width))
	for _, l := range lines {
		t.para("", "  ", t.text(l))
	}
}

// mdOutcome puts the "Outcome: ..." part of the final line in code.
func (t *tracer) mdOutcome(s string) string {
	if k, v, ok := strings.Cut(s, ": "); ok && k == "Outcome" {
		return "Outcome: " + trMdCode(t.plain(v))
	}
	return t.text(s)
}

// trClauseVerdict says what one outcome means for the final clause.
func trClauseVerdict(cond string, sat bool) string {
	switch {
	case strings.HasPrefix(cond, "~"):
		if sat {
			return "VIOLATED. This is the outcome the test says must never happen."
		}
		return "not matched; this outcome is allowed."
	case strings.HasPrefix(cond, "forall"):
		if sat {
			return "holds for this outcome."
		}
		return "VIOLATED by this outcome (a counterexample)."
	}
	if sat {
		return "HOLDS. This execution is a witness of the exists clause."
	}
	return "not satisfied by this outcome."
}

// trWrapWords breaks text into lines: the first at most first cells wide,
// the others at most rest. Words longer than a line are cut. In markdown,
// a line never starts with something markdown would read as a list item,
// heading, quote or table: such a word stays on the line before.
func trWrapWords(text string, first, rest int, md bool) []string {
	first, rest = max(first, 10), max(rest, 10)
	var lines []string
	cur, curW := "", 0
	limit := first
	flush := func() {
		lines = append(lines, cur)
		cur, curW = "", 0
		limit = rest
	}
	for _, word := range strings.Fields(text) {
		ww := ansi.StringWidth(word)
		for ww > limit && cur == "" {
			// Cut a word that fits on no line.
			head := ansi.Truncate(word, limit, "")
			lines = append(lines, head)
			word = word[len(head):]
			ww = ansi.StringWidth(word)
			limit = rest
		}
		if word == "" {
			continue
		}
		if cur != "" && curW+1+ww > limit && !(md && trMdBlockStart(word)) {
			flush()
		}
		if cur != "" {
			cur += " "
			curW++
		}
		cur += word
		curW += ww
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// trMdBlockStart reports whether a line starting with word could be read by
// markdown as the start of a block (list item, heading, quote, table row).
func trMdBlockStart(word string) bool {
	switch word[0] {
	case '-', '+', '*', '#', '>', '|', '=':
		return true
	}
	i := 0
	for i < len(word) && word[i] >= '0' && word[i] <= '9' {
		i++
	}
	return i > 0 && i < len(word) && (word[i] == '.' || word[i] == ')')
}

// trMdEscape escapes the characters markdown would read as emphasis, links,
// code or HTML.
func trMdEscape(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '\\', '*', '`', '<', '[', ']':
			b.WriteByte('\\')
		case '_':
			// Only at a word boundary: WRITE_ONCE stays readable.
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if !trIsWordRune(prev) || !trIsWordRune(next) {
				b.WriteByte('\\')
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func trIsWordRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// trMdCode puts text in a code span, with a fence longer than any run of
// backquotes inside it.
func trMdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// trAsciiOnly replaces every non-ASCII character by "?", and drops control
// characters other than newline and tab.
func trAsciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t' || r == 0x1b:
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
		case r < 0x80:
			b.WriteRune(r)
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

package views

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
	"smpscope/views/textwrap"
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

// traceMinWidth is the narrowest width RenderTrace lays out for.
const traceMinWidth = 40

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

// staleMarker starts the description of a stale read, so that it stands
// out without colour; the description itself says STALE (once).
const staleMarker = "!!"

// traceStyles are the few styles a coloured trace uses.
type traceStyles struct {
	step  lipgloss.Style // step headers
	stale lipgloss.Style // the stale-read marker
	dim   lipgloss.Style // snapshots
}

func newTraceStyles(color bool) traceStyles {
	if !color {
		return traceStyles{}
	}
	return traceStyles{
		step:  lipgloss.NewStyle().Bold(true),
		stale: lipgloss.NewStyle().Bold(true).Foreground(lipgloss.ANSIColor(9)),
		dim:   lipgloss.NewStyle().Faint(true),
	}
}

// tracer holds what one RenderTrace call needs.
type tracer struct {
	ex    *scenarios.Execution
	opts  TraceOptions
	md    bool
	width int
	st    traceStyles
	color bool
	b     strings.Builder
}

// RenderTrace renders an execution step by step, for a mail or a terminal:
// what each step did in the machine's words, which classify each load (a
// stale read's description starts with "!! STALE", so it stands out
// without colour), compact
// snapshots of the store buffers, invalidation queues, caches and memory
// that the step changed, and at the end the outcome and whether the final
// clause holds. Text lines fit opts.Width cells; with opts.ASCII the output
// is pure ASCII; without opts.Color it contains no escape codes.
func RenderTrace(ex *scenarios.Execution, opts TraceOptions) string {
	w := opts.Width
	if w <= 0 {
		w = DefaultTraceWidth
	}
	w = max(w, traceMinWidth)
	t := &tracer{ex: ex, opts: opts, md: opts.Format == TraceMarkdown, width: w, st: newTraceStyles(opts.Color), color: opts.Color}
	t.header()
	for i := range ex.Steps {
		t.step(i)
	}
	t.final()
	t.replayBlock()
	out := t.b.String()
	if opts.ASCII {
		out = asciiOnly(out)
	}
	return out
}

// text makes a piece of scenario or machine text safe for the output:
// ASCII-only if asked, escaped for markdown prose.
func (t *tracer) text(s string) string {
	s = t.plain(s)
	if t.md {
		s = mdEscape(s)
	}
	return s
}

// plain is text without markdown escapes, for code spans. It is
// Printable: a trace in colour goes to the terminal as it is.
func (t *tracer) plain(s string) string {
	s = syntax.Printable(s)
	if t.opts.ASCII {
		s = asciiOnly(s)
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
	for _, l := range paragraph(first, rest, text, t.width, t.md) {
		t.line(l)
	}
}

func (t *tracer) header() {
	ex := t.ex
	sp := ex.Spec
	head := sp.Name
	if sp.Variant != "" {
		head += " (" + sp.Variant + ")"
	}
	if sp.From != "" {
		head += " (from " + sp.From + ")"
	}
	head += ", " + ex.Mach.Mode.Title() + " mode"
	cond := sp.Condition()
	if t.md {
		t.line("### " + t.text(head))
		t.line("")
		if sp.Title != "" {
			t.para("", "", t.text(sp.Title))
			t.line("")
		}
		if cond != "" {
			t.para("", "", "Condition: "+mdCode(t.plain(cond)))
			t.line("")
		}
		if len(sp.Edits) > 0 {
			t.para("", "", "Edited: "+mdCode(t.plain(scenarios.EditFlags(sp.Edits))))
			t.line("")
		}
		if a := ex.Attempt; a != nil {
			t.para("", "", t.text(attemptIntro(a)))
			t.line("")
		}
	} else {
		t.para("", "", t.text(head))
		if sp.Title != "" {
			t.para("", "", t.text(sp.Title))
		}
		if cond != "" {
			t.para("", "  ", "Condition: "+t.text(cond))
		}
		if len(sp.Edits) > 0 {
			// The what-if, as the flags that reproduce it.
			t.para("", "  ", "Edited: "+t.text(scenarios.EditFlags(sp.Edits)))
		}
		if a := ex.Attempt; a != nil {
			t.para("", "", t.text(attemptIntro(a)))
		}
		t.line(strings.Repeat(t.sym("─", "-"), t.width))
	}
	t.initial(ex.States[0])
}

// initial describes the initial state in one paragraph.
func (t *tracer) initial(s *machine.State) {
	m := t.ex.Mach
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
				t.para("- ", "  ", mdCode(t.plain(cacheText(m, s, c, nil))))
			}
			t.line("")
		}
		return
	}
	t.para("", "", t.text(text))
	if !warm {
		for c := 0; c < s.NumCPUs(); c++ {
			t.para("  ", "    ", t.text(cacheText(m, s, c, nil)))
		}
	}
	t.line("")
}

// step renders step i: its ID, what happened, the read classification and
// the snapshots of what changed.
func (t *tracer) step(i int) {
	ex := t.ex
	m := ex.Mach
	ev := ex.Events[i]
	id := words.StepID(m, ex.Steps[i])
	num := strconv.Itoa(i + 1)
	// The machine's description says what happened, the read's
	// classification included; a stale read's description starts with
	// the marker, so that it stands out without colour.
	stale := ev.Load != nil && ev.Load.Class == machine.Stale
	notes := changes(m, ex.States[i], ex.States[i+1], ev, t.sym("→", "->"))
	tags := words.Tags(m, &ev)
	if t.md {
		marker := num + ". "
		ind := strings.Repeat(" ", len(marker))
		text := "**" + t.text(id) + "**"
		if len(tags) > 0 {
			text += " (" + t.text(strings.Join(tags, "; ")) + ")"
		}
		text += ": "
		if stale {
			text += "**" + staleMarker + "** "
		}
		t.para(marker, ind, text+t.text(words.Event(m, &ev)))
		for _, n := range notes {
			t.para(ind+"- ", ind+"  ", mdCode(t.plain(n)))
		}
		return
	}
	marker := fmt.Sprintf("%3s. ", num)
	ind := strings.Repeat(" ", len(marker))
	head := marker + t.text(id)
	if t.color {
		head = t.st.step.Render(head)
	}
	// The causes a reviewer looks for are marked on the step's own line,
	// at its right end ("[store→load reordering]"); the text says them.
	if len(tags) > 0 {
		tag := t.text("[" + strings.Join(tags, "; ") + "]")
		if pad := t.width - len(marker) - len(id) - ansi.StringWidth(tag); pad >= 2 {
			head += strings.Repeat(" ", pad) + tag
		} else {
			// Too long for the step's line: below it, wrapped, so that
			// the text keeps within its width in a mail.
			t.line(head)
			lines := textwrap.Words(tag, t.width-len(ind), t.width-len(ind), false)
			for _, l := range lines[:len(lines)-1] {
				t.line(ind + l)
			}
			head = ind + lines[len(lines)-1]
		}
	}
	t.line(head)
	if stale {
		mark := staleMarker
		if t.color {
			mark = t.st.stale.Render(mark)
		}
		// The marker stands in the margin; the text keeps its column.
		t.para(mark+strings.Repeat(" ", max(len(ind)-len(staleMarker), 1)), ind, t.text(words.Event(m, &ev)))
	} else {
		t.para(ind, ind, t.text(words.Event(m, &ev)))
	}
	for _, n := range notes {
		for j, l := range textwrap.Words(t.text(n), t.width-len(ind), t.width-len(ind)-2, false) {
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

// changes lists compact snapshots of what differs between two states:
// per CPU its store buffer, invalidation queue and cache when they
// changed, its status when it became blocked or finished, then memory.
func changes(m *machine.Machine, before, after *machine.State, ev machine.Event, arrow string) []string {
	var out []string
	p := m.Prog
	for c := 0; c < after.NumCPUs(); c++ {
		cpu := p.Threads[c].Name
		// A buffer or queue that went from empty to the one entry the
		// step's text names ("x=1 goes into its store buffer",
		// "Invalidation queued at P1") is not said again.
		sbA, sbB := before.StoreBuffer(c), after.StoreBuffer(c)
		saidSB := len(sbA) == 0 && len(sbB) == 1 && sbB[0].Kind == machine.EntryPlain && int(ev.Step.CPU) == c &&
			(ev.Step.Kind == machine.StepExec || ev.Step.Kind == machine.StepEarly)
		if !slices.Equal(sbA, sbB) && !saidSB {
			out = append(out, cpu+" store buffer: "+storeBufferText(p, sbB))
		}
		iqA, iqB := before.InvalQueue(c), after.InvalQueue(c)
		saidIQ := len(iqA) == 0 && len(iqB) == 1 && ev.Commit != nil && ev.Commit.Loc == iqB[0].Loc && slices.Contains(ev.Commit.Queued, c) ||
			len(iqA) == 1 && len(iqB) == 0 && ev.Step.Kind == machine.StepInvalidate && int(ev.Step.CPU) == c
		if !sameQueue(iqA, iqB) && !saidIQ {
			out = append(out, cpu+" inval queue: "+invalQueueText(p, iqB))
		}
		// Only the lines that changed: the others were said before.
		var lines []machine.Loc
		for l := range p.Locs {
			a, b := before.Cache(c, machine.Loc(l)), after.Cache(c, machine.Loc(l))
			said := lineSaid(ev, c, machine.Loc(l), b)
			if !said && (a.State != b.State || a.Val != b.Val || before.Stale(c, machine.Loc(l)) != after.Stale(c, machine.Loc(l))) {
				lines = append(lines, machine.Loc(l))
			}
		}
		if len(lines) > 0 {
			out = append(out, cacheText(m, after, c, lines))
		}
		wb, wa := m.Wait(before, c), m.Wait(after, c)
		switch reason := words.Wait(p, &wa, words.Full); {
		case wa.Kind == machine.WaitFinished && wb.Kind != machine.WaitFinished:
			out = append(out, cpu+" has finished its program")
		case wa.Blocked() && (!wb.Blocked() || reason != words.Wait(p, &wb, words.Full)):
			out = append(out, cpu+" is blocked: "+reason)
		case wb.Blocked() && !wa.Blocked() && wa.Kind != machine.WaitFinished:
			out = append(out, cpu+" can run again")
		}
	}
	var mem []string
	for l := range p.Locs {
		a, b := before.Memory(machine.Loc(l)), after.Memory(machine.Loc(l))
		// A load miss that had another CPU write the line back says so.
		said := ev.Load != nil && ev.Load.WroteBack >= 0 && ev.Load.Loc == machine.Loc(l)
		if a != b && !said {
			mem = append(mem, fmt.Sprintf("%s=%s %s %s", p.Locs[l], p.FormatValue(a), arrow, p.FormatValue(b)))
		}
	}
	if len(mem) > 0 {
		out = append(out, "memory: "+strings.Join(mem, ", "))
	}
	return out
}

// lineSaid reports whether the step's own text already says what CPU c's
// cache line l now is (b): the committing CPU's line in M with the value
// committed, a copy its invalidation dropped, the line a load miss
// fetched, and the copy the CPU that wrote it back keeps.
func lineSaid(ev machine.Event, c int, l machine.Loc, b machine.Line) bool {
	own := int(ev.Step.CPU) == c
	switch {
	case ev.Commit != nil && own && ev.Commit.Loc == l:
		return b.State == machine.Modified && b.Val == ev.Commit.Val
	case ev.Step.Kind == machine.StepInvalidate && own && machine.Loc(ev.Step.Arg) == l:
		return b.State == machine.Invalid
	case ev.Load != nil && ev.Load.Loc == l && ev.Load.Source == machine.FromMiss && own:
		return b.State != machine.Invalid && b.Val == ev.Load.Val
	case ev.Load != nil && ev.Load.Loc == l && ev.Load.WroteBack == c:
		return b.State == machine.Shared
	}
	return false
}

// sameQueue compares invalidation queues by what the trace shows of them
// (not when each entry arrived).
func sameQueue(a, b []machine.IQEntry) bool {
	return slices.EqualFunc(a, b, func(x, y machine.IQEntry) bool { return x.Loc == y.Loc && x.Marked == y.Marked })
}

// storeBufferText renders a store buffer oldest first, e.g.
// "x=1 | wmb | y=1 (release)".
func storeBufferText(p *machine.Program, sb []machine.SBEntry) string {
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
		case machine.EntryReleaseExclusive:
			parts = append(parts, p.LocName(e.Loc)+"="+p.FormatValue(e.Val)+" (release, exclusive)")
		default:
			parts = append(parts, p.LocName(e.Loc)+"="+p.FormatValue(e.Val))
		}
	}
	return strings.Join(parts, " | ")
}

// invalQueueText renders an invalidation queue in arrival order, e.g. "y, x".
func invalQueueText(p *machine.Program, iq []machine.IQEntry) string {
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

// cacheText renders the given lines of CPU c's cache (nil: all of
// them), e.g. "P1 cache: x=0 S stale, y=1 S".
func cacheText(m *machine.Machine, s *machine.State, c int, only []machine.Loc) string {
	p := m.Prog
	var parts []string
	for l := range p.Locs {
		if only != nil && !slices.Contains(only, machine.Loc(l)) {
			continue
		}
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

// span is a piece of a sentence at the end of a trace; markdown sets
// strong spans in bold and code spans as code.
type span struct {
	s     string
	style spanStyle
}

type spanStyle uint8

const (
	plainSpan spanStyle = iota
	strongSpan
	codeSpan
)

// sentence renders spans as text (plain words) or markdown.
func (t *tracer) sentence(ss ...span) string {
	var b strings.Builder
	for _, sp := range ss {
		switch {
		case !t.md:
			b.WriteString(t.text(sp.s))
		case sp.style == strongSpan:
			b.WriteString("**" + t.text(sp.s) + "**")
		case sp.style == codeSpan:
			b.WriteString(mdCode(t.plain(sp.s)))
		default:
			b.WriteString(t.text(sp.s))
		}
	}
	return b.String()
}

// final renders the end of the trace: the outcome and whether the final
// clause holds, or why the execution is not final.
func (t *tracer) final() {
	ex := t.ex
	m, sp, s := ex.Mach, ex.Spec, ex.Last()
	n := len(ex.Steps)
	steps := "steps"
	if n == 1 {
		steps = "step"
	}
	var out []string
	ms, wrong := m.Misspeculated(s)
	switch {
	case wrong:
		out = append(out, t.sentence(span{fmt.Sprintf("No execution after %d %s: ", n, steps), strongSpan}, span{words.Misspec(m.Prog, &ms), plainSpan}))
	case m.Final(s):
		o := m.Outcome(s)
		out = append(out, t.sentence(span{fmt.Sprintf("Final state after %d %s.", n, steps), strongSpan}, span{" Outcome: ", plainSpan}, span{sp.OutcomeText(o), codeSpan}))
		if sp.Final != nil {
			out = append(out, t.sentence(span{sp.Condition(), codeSpan}, span{": " + clauseVerdict(sp.Final.Kind, sp.Satisfies(o)), plainSpan}))
		}
		if !sp.Kept(o) {
			out = append(out, t.sentence(span{"The filter clause leaves this outcome out of the verdict.", plainSpan}))
		}
		if a := ex.Attempt; a != nil {
			for _, l := range a.Sentences() {
				out = append(out, t.sentence(span{l, plainSpan}))
			}
		}
	case m.Deadlocked(s):
		out = append(out, t.sentence(span{fmt.Sprintf("Deadlock after %d %s: no CPU can make progress.", n, steps), strongSpan}))
		for c := 0; c < s.NumCPUs(); c++ {
			if w := m.Wait(s, c); w.Kind != machine.WaitFinished {
				out = append(out, t.sentence(span{m.Prog.Threads[c].Name + ": " + words.Wait(m.Prog, &w, words.Full), plainSpan}))
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
		out = append(out, t.sentence(span{fmt.Sprintf("Not a final state after %d %s: %s.", n, steps, strings.Join(waiting, "; ")), strongSpan}))
		if sp.Final != nil {
			out = append(out, t.sentence(span{"The final clause is evaluated only on final states.", plainSpan}))
		}
	}
	if t.md {
		t.line("")
		for _, l := range out {
			t.para("", "", l)
			t.line("")
		}
		return
	}
	t.line(strings.Repeat(t.sym("─", "-"), t.width))
	for _, l := range out {
		t.para("", "  ", l)
	}
}

// replayBlock ends the text with what replaying it needs
// (Execution.ReplayBlock), after a sentence that says how: the mail
// itself, saved or piped, quoted or not, is the trace to replay.
func (t *tracer) replayBlock() {
	block := t.plain(t.ex.ReplayBlock(t.width))
	how := "To replay this execution, save this text (quoted in a reply or not) as FILE and run smpscope --replay FILE, or smpscope trace --replay FILE to print it again:"
	if t.md {
		t.line("")
		t.para("", "", t.text(how))
		t.line("")
		fence := "```"
		for strings.Contains(block, fence) {
			fence += "`"
		}
		t.line(fence + "text")
		t.b.WriteString(block)
		t.line(fence)
		return
	}
	t.line(strings.Repeat(t.sym("─", "-"), t.width))
	t.para("", "", t.text(how))
	t.b.WriteString(block)
}

// attemptIntro says, before the steps, what a closest attempt is.
func attemptIntro(a *scenarios.Attempt) string {
	return fmt.Sprintf("Closest attempt: this outcome is unreachable in %s mode, so here is the execution that comes nearest to it.", a.Mode.Title())
}

// clauseVerdict says what one outcome means for a final clause of kind k
// whose proposition the outcome does (sat) or does not satisfy.
func clauseVerdict(k syntax.FinalKind, sat bool) string {
	switch k {
	case syntax.NotExists:
		if sat {
			return "VIOLATED. This is the outcome the test says must never happen."
		}
		return "not matched; this outcome is allowed."
	case syntax.Forall:
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

// mdEscape escapes the characters markdown would read as emphasis, links,
// code or HTML.
func mdEscape(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '\\', '*', '`', '<', '[', ']':
			b.WriteByte('\\')
		case '_':
			// Only at a word boundary: WRITE_ONCE stays readable.
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if !isWordRune(prev) || !isWordRune(next) {
				b.WriteByte('\\')
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isWordRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// mdCode puts text in a code span, with a fence longer than any run of
// backquotes inside it.
func mdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// asciiSpellings are the ASCII spellings of the symbols the machine's and
// the views' texts use; asciiOnly writes them instead of "?".
var asciiSpellings = map[rune]string{'→': "->", '←': "<-", '…': "...", '—': "--", '–': "-", '×': "x"}

// asciiOnly replaces every non-ASCII character by its ASCII spelling
// (asciiSpellings) or "?", and drops control characters other than
// newline and tab.
func asciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		if a, ok := asciiSpellings[r]; ok {
			b.WriteString(a)
			continue
		}
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

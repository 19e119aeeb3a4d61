package views

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/scenariotest"
	"smpscope/views/textwrap"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// staleTrace is mp+once in ARM-like mode: P0 commits x=1 then y=1, P1
// applies the invalidation of y only, reads y=1 and then the stale x=0.
const staleTrace = `smpscope trace 1
scenario: mp+once
variant: once
mode: arm

P0 exec
P0 exec
P0 commit #0
P0 commit #1
P1 inv y
P1 exec
P1 exec
`

// traceInput resolves a built-in scenario and replays trace text (or the
// given steps) into an execution.
func traceInput(t *testing.T, name string, mode machine.Mode, traceText string, steps []machine.Step) *scenarios.Execution {
	t.Helper()
	sp, err := scenarios.Resolve(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	if traceText != "" {
		tr, err := scenarios.ParseTrace("t.trace", []byte(traceText))
		if err != nil {
			t.Fatal(err)
		}
		m := machine.MustNew(sp.Program, mode)
		_, events, err := tr.Replay(m)
		if err != nil {
			t.Fatal(err)
		}
		steps = nil
		for _, ev := range events {
			steps = append(steps, ev.Step)
		}
	}
	ex, err := scenarios.NewExecution(sp, mode, steps, "")
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func TestTraceStaleText(t *testing.T) {
	out := RenderTrace(traceInput(t, "mp+once", machine.ARM, staleTrace, nil), TraceOptions{})
	golden.RequireEqual(t, out)
	for _, want := range []string{
		"!!   P1 executes r1 = READ_ONCE(*x). It reads x=0 from its cache: STALE.",
		"P1 inval queue: x",
		"P1 cache: x=0 S stale\n", // the lines that changed, not the whole cache
		"exists (1:r0=1 /\\ 1:r1=0): HOLDS.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	checkTraceText(t, out, DefaultTraceWidth, false)
	// Each fact once: the classification is the machine's, and no
	// snapshot repeats a cache line that did not change.
	if n := strings.Count(out, "STALE"); n != 1 {
		t.Errorf("STALE said %d times:\n%s", n, out)
	}
	if strings.Contains(out, "y=0 S, ") || strings.Contains(out, ", y=0 S\n") {
		t.Errorf("a snapshot repeats an unchanged cache line:\n%s", out)
	}
	// ... nor what the step's own text says: the one entry a store put in
	// an empty buffer, the committing CPU's line in M, the copy an
	// invalidation dropped.
	for _, said := range []string{"P0 store buffer: x=1\n", "P0 cache: x=1 M", "P1 cache: y I"} {
		if strings.Contains(out, said) {
			t.Errorf("a snapshot repeats the step's text (%q):\n%s", said, out)
		}
	}
	// What the text does not say is still there.
	for _, kept := range []string{"P0 store buffer: x=1 | y=1", "P1 cache: x=0 S stale", "P0 store buffer: y=1"} {
		if !strings.Contains(out, kept) {
			t.Errorf("missing %q:\n%s", kept, out)
		}
	}
}

func TestTraceStaleASCII(t *testing.T) {
	out := RenderTrace(traceInput(t, "mp+once", machine.ARM, staleTrace, nil), TraceOptions{ASCII: true, Width: 60})
	golden.RequireEqual(t, out)
	checkTraceText(t, out, 60, true)
}

func TestTraceStaleMarkdown(t *testing.T) {
	out := RenderTrace(traceInput(t, "mp+once", machine.ARM, staleTrace, nil), TraceOptions{Format: TraceMarkdown})
	golden.RequireEqual(t, out)
	if !strings.Contains(out, "7. **P1 exec**: **!!** P1 executes r1") || !strings.HasPrefix(out, "### mp+once (once), ARM-like mode\n") {
		t.Errorf("markdown:\n%s", out)
	}
	// Instruction text stays unescaped where markdown would not misread it,
	// and emphasis characters are escaped.
	if !strings.Contains(out, "WRITE_ONCE(\\*x, 1)") {
		t.Errorf("want WRITE_ONCE(\\*x, 1) in\n%s", out)
	}
}

// reorderTrace is mp+once in ARM-like mode reaching the same outcome
// without a stale read: P0's stores commit out of order.
const reorderTrace = `smpscope trace 1
scenario: mp+once
mode: arm

P0 exec
P0 exec
P0 commit #1
P1 inv y
P1 exec
P1 exec
P0 commit #0
`

func TestTraceReorder(t *testing.T) {
	out := RenderTrace(traceInput(t, "mp+once", machine.ARM, reorderTrace, nil), TraceOptions{})
	golden.RequireEqual(t, out)
	flat := strings.Join(strings.Fields(out), " ")
	if strings.Contains(out, "STALE") || !strings.Contains(flat, "It reads x=0 from its cache: up to date, but a newer value is pending: x=1 sits in P0's store buffer") {
		t.Errorf("reorder trace:\n%s", out)
	}
	checkTraceText(t, out, DefaultTraceWidth, false)
}

// checkTraceText checks the promises RenderTrace makes about its text.
func checkTraceText(t *testing.T, out string, width int, ascii bool) {
	t.Helper()
	if strings.Contains(out, "\x1b") {
		t.Errorf("escape codes without Color")
	}
	code := false // the litmus source of the replay block: code, as written
	for i, l := range strings.Split(out, "\n") {
		code = code || strings.HasPrefix(l, "litmus: ")
		if w := ansi.StringWidth(l); w > width && !code {
			t.Errorf("line %d is %d cells wide (max %d): %q", i+1, w, width, l)
		}
		if l != strings.TrimRight(l, " ") {
			t.Errorf("line %d has trailing spaces: %q", i+1, l)
		}
		if ascii {
			for _, r := range l {
				if r >= 0x80 {
					t.Errorf("line %d has non-ASCII %q: %q", i+1, r, l)
					break
				}
			}
		}
	}
}

// TestTraceWidths renders random executions of several scenarios at many
// widths and checks every line fits and ASCII mode is ASCII.
func TestTraceWidths(t *testing.T) {
	for _, name := range []string{"rcu-free+sync", "ext4-last-group+rel-acq-flag", "folio-lock-waiters+split-mb", "iriw+rmb", "userns-extents+wmb-rmb"} {
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			in := traceInput(t, name, mode, "", nil)
			r := rand.New(rand.NewPCG(uint64(len(name)), uint64(mode)))
			s := in.Mach.Initial()
			var steps []machine.Step
			for {
				en := in.Mach.Enabled(s)
				if len(en) == 0 {
					break
				}
				st := en[r.IntN(len(en))]
				s, _, _ = in.Mach.Apply(s, st)
				steps = append(steps, st)
			}
			in = traceInput(t, name, mode, "", steps)
			for _, w := range []int{40, 55, 72, 100} {
				for _, ascii := range []bool{false, true} {
					for _, f := range []TraceFormat{TraceText, TraceMarkdown} {
						out := RenderTrace(in, TraceOptions{Width: w, ASCII: ascii, Format: f})
						if f == TraceText {
							checkTraceText(t, out, w, ascii)
						} else if ascii && strings.ContainsFunc(out, func(r rune) bool { return r >= 0x80 }) {
							t.Errorf("%s: markdown --ascii has non-ASCII text", name)
						}
						if !strings.Contains(out, "Final state after") && !strings.Contains(out, "Deadlock after") {
							t.Errorf("%s %s: no final line:\n%s", name, mode, out)
						}
					}
				}
			}
		}
	}
}

func TestTraceColor(t *testing.T) {
	in := traceInput(t, "mp+once", machine.ARM, staleTrace, nil)
	lipgloss.SetColorProfile(termenv.ANSI)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	out := RenderTrace(in, TraceOptions{Color: true})
	if !strings.Contains(out, "\x1b[") {
		t.Fatalf("no escape codes with Color on an ANSI profile")
	}
	plain := RenderTrace(in, TraceOptions{})
	if ansi.Strip(out) != plain {
		t.Errorf("colour changed the text:\n%s\n---\n%s", ansi.Strip(out), plain)
	}
}

func TestTraceNotFinal(t *testing.T) {
	in := traceInput(t, "sb+mb", machine.TSO, "", nil)
	s := in.Mach.Initial()
	st := in.Mach.Enabled(s)[0]
	in = traceInput(t, "sb+mb", machine.TSO, "", []machine.Step{st})
	out := RenderTrace(in, TraceOptions{})
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "Not a final state after 1 step: P0 has not finished; P1 has not finished.") {
		t.Errorf("not final:\n%s", out)
	}
	if !strings.Contains(out, "P0 is blocked: ") {
		t.Errorf("no blocked status after P0's store before smp_mb:\n%s", out)
	}
}

func TestTraceHelpers(t *testing.T) {
	if got := textwrap.Words("a bb ccc dddd", 10, 10, false); len(got) != 2 || got[0] != "a bb ccc" {
		t.Errorf("wrap: %q", got)
	}
	// A word too long for any line is cut.
	if got := textwrap.Words(strings.Repeat("x", 25), 10, 10, false); len(got) != 3 || got[2] != "xxxxx" {
		t.Errorf("long word: %q", got)
	}
	// Markdown: "- x" and "12." never start a continuation line.
	for _, l := range textwrap.Words("aaaa bbbb - cccc 12. dddd", 10, 10, true)[1:] {
		if textwrap.MarkdownBlockStart(strings.Fields(l)[0]) {
			t.Errorf("markdown line starts a block: %q", l)
		}
	}
	if got := mdEscape("WRITE_ONCE(*x) _y [a] `b`"); got != "WRITE_ONCE(\\*x) \\_y \\[a\\] \\`b\\`" {
		t.Errorf("escape: %q", got)
	}
	if got := mdCode("a`b"); got != "``a`b``" {
		t.Errorf("code: %q", got)
	}
	if f, err := ParseTraceFormat("md"); err != nil || f != TraceMarkdown {
		t.Errorf("md: %v %v", f, err)
	}
	if _, err := ParseTraceFormat("html"); err == nil {
		t.Errorf("html accepted")
	}
}

// TestTraceAttempt: the trace of a closest attempt says what it is at the
// top, shows the CPU waiting at the barrier, and ends with how near it
// came and why it gets no nearer, within 72 columns.
func TestTraceAttempt(t *testing.T) {
	sp, err := scenarios.BuiltinSpec("mp+wmb-rmb")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := scenarios.WitnessOrAttempt(sp, machine.ARM, machine.Options{})
	if err != nil || ex.Attempt == nil {
		t.Fatalf("no attempt: %v", err)
	}
	out := RenderTrace(ex, TraceOptions{})
	golden.RequireEqual(t, out)
	checkTraceText(t, out, DefaultTraceWidth, false)
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"Closest attempt: this outcome is unreachable in ARM-like mode",
		"P1 is blocked: smp_rmb",
		"exists (1:r0=1 /\\ 1:r1=0): not satisfied by this outcome. It reaches 1:r0=1 of the outcome asked for, but not 1:r1=0. This is as far as it gets",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	md := RenderTrace(ex, TraceOptions{Format: TraceMarkdown})
	if !strings.Contains(md, "This is as far as it gets") || !strings.Contains(md, "Closest attempt:") {
		t.Errorf("markdown:\n%s", md)
	}
}

// TestTraceMarksCauses: the step a reviewer looks for is marked on its
// own line: a load made while the CPU's own store is still buffered
// (sb-end-write's P0 reading wq), and a stale read whose invalidation
// arrived after the barrier had passed.
func TestTraceMarksCauses(t *testing.T) {
	sp, err := scenarios.BuiltinSpec("sb-end-write+mb-inside-if")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := scenarios.WitnessOrAttempt(sp, machine.ARM, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := RenderTrace(ex, TraceOptions{})
	checkTraceText(t, out, DefaultTraceWidth, false)
	marked := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(l, "[store→load reordering]") {
			marked++
			if !strings.Contains(l, "P0 exec") {
				t.Errorf("marked the wrong step: %q", l)
			}
		}
	}
	if marked != 1 {
		t.Errorf("%d steps marked as store→load reordering, want 1:\n%s", marked, out)
	}
	if ascii := RenderTrace(ex, TraceOptions{ASCII: true}); !strings.Contains(ascii, "[store->load reordering]") {
		t.Errorf("ASCII spelling of the mark:\n%s", ascii)
	}

	const late = `C late
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); smp_wmb(); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); smp_rmb(); r1 = READ_ONCE(*x); }
exists (1:r1=0)
`
	lsp := scenariotest.Spec(t, "late.litmus", late)
	m := machine.MustNew(lsp.Program, machine.ARM)
	var steps []machine.Step
	for _, id := range []string{"P1 exec", "P0 exec", "P0 commit #0", "P1 exec"} {
		st, err := m.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st)
	}
	lex, err := scenarios.NewExecution(lsp, machine.ARM, steps, "")
	if err != nil {
		t.Fatal(err)
	}
	out = RenderTrace(lex, TraceOptions{})
	if !strings.Contains(out, "  4. P1 exec") || !strings.Contains(out, "[invalidation arrived after smp_rmb()]") {
		t.Errorf("the late invalidation is not marked:\n%s", out)
	}
}

// A step whose tags do not fit on its line (a stale read whose
// invalidation arrived after a long-named acquire) puts them below it,
// wrapped: every line keeps within the width, and the tag is whole.
func TestTraceLongTagWraps(t *testing.T) {
	sp, err := scenarios.Resolve("../scenarios/litmusgen/testdata/regress/arm-missing-acquire-past-failing-cmpxchg-release-8000309.litmus", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := machine.MustNew(sp.Program, machine.ARM)
	res := machine.Explore(m, machine.Options{Workers: 1})
	tagged := false
	for _, o := range res.Outcomes {
		ex, err := scenarios.NewExecution(sp, machine.ARM, o.Witness, "")
		if err != nil {
			t.Fatal(err)
		}
		// (The replay block's scenario line, the file's 66-character
		// name, cannot wrap: no narrower width.)
		for _, w := range []int{66, 72} {
			out := RenderTrace(ex, TraceOptions{Width: w})
			checkTraceText(t, out, w, false)
			flat := strings.Join(strings.Fields(out), " ")
			tagged = tagged || strings.Contains(flat, "[invalidation arrived after r1 = atomic_cmpxchg_acquire(y, 1, 2)]")
		}
	}
	if !tagged {
		t.Fatal("no witness shows the long tag: the test no longer covers the case")
	}
}

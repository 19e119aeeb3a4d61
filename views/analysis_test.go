package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
)

var bothModes = []machine.Mode{machine.TSO, machine.ARM}

func necessityText(t *testing.T, src string, opts machine.Options) string {
	t.Helper()
	sp, err := scenarios.Resolve(src, nil)
	if err != nil {
		if sp, err = scenarios.Resolve("-", strings.NewReader(src)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := scenarios.Necessity(sp, bothModes, opts)
	if err != nil {
		t.Fatal(err)
	}
	lines := necessityLines(ScenarioInput{Analysis: AnalysisInput{Necessity: &r}}, Styles{}, 78)
	for _, l := range lines {
		if ansi.StringWidth(l) > 78 {
			t.Errorf("line wider than 78: %q", l)
		}
	}
	return strings.Join(strings.Fields(strings.Join(lines, "\n")), " ")
}

func TestNecessityLines(t *testing.T) {
	for _, c := range []struct {
		src  string
		opts machine.Options
		want []string
	}{
		{"sb+mb", machine.Options{}, []string{
			"unreachable in both modes",
			"smp_mb() (P0:2) NEEDED · 7 steps NEEDED · 7 steps", "needed in both modes (TSO and ARM-like)",
			"TSO mode without it reaches the outcome in 7 steps: P0 exec",
		}},
		{"sb+rel-acq", machine.Options{}, []string{
			"already reachable in TSO mode and unreachable in ARM-like mode",
			"In TSO mode no annotation can be needed: the outcome happens with all of them (w loads its witness)",
			"– (happens anyway)",
		}},
		{"mp+once", machine.Options{}, []string{"mp+once has no barrier, acquire, release or ordered RMW to weaken."}},
		{"mp+wmb-rmb", machine.Options{MaxStates: 2}, []string{"unknown in TSO mode (stopped after"}},
		{`C belt
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); smp_wmb(); smp_store_release(y, 1); }
P1(int *x, int *y) { int r0 = smp_load_acquire(y); smp_rmb(); int r1 = READ_ONCE(*x); }
exists (1:r0=1 /\ 1:r1=0)
`, machine.Options{}, []string{
			"not needed on its own in either mode",
			"In ARM-like mode none of them is needed on its own, but all of them together are: weakening all 4 makes the outcome reachable, so they back each other up and not all of them can go.",
			"In TSO mode even weakening all 4 together leaves the outcome unreachable",
		}},
	} {
		text := necessityText(t, c.src, c.opts)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%.20s: lacks %q in\n%s", c.src, w, text)
			}
		}
	}
}

func TestCompareLines(t *testing.T) {
	fam, err := scenarios.FindFamily("sb")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := scenarios.CompareFamily(fam, bothModes, machine.Options{MaxStates: 3})
	if err != nil {
		t.Fatal(err)
	}
	// Make the conditions differ, as in a family of unrelated variants.
	other := *tb.Rows[1].Spec
	other.Final = &scenarios.Final{Kind: syntax.Exists, Clause: scenarios.Clause{Cond: "(0:r0=1)", Holds: other.Final.Holds}}
	tb.Rows[1].Spec = &other
	sb, _ := scenarios.Resolve("sb+once", nil)
	in := ScenarioInput{Spec: sb, Analysis: AnalysisInput{Compare: &tb, Current: "sb+once"}}
	lines := compareLines(in, Styles{}, 78)
	text := strings.Join(lines, "\n")
	for _, w := range []string{"Family sb\n", " ▶ once ", "? ", "?: a limit stopped the search", "once: exists (0:r0=1)", "mb: exists (0:r0=0 /\\ 1:r1=0)"} {
		if !strings.Contains(text, w) {
			t.Errorf("lacks %q in\n%s", w, text)
		}
	}
	// While running: the spinner and what is computed; an error is shown.
	run := compareLines(ScenarioInput{Analysis: AnalysisInput{Running: true, Spinner: "*", What: "3 variants × 2 modes"}}, Styles{}, 78)
	if !strings.Contains(strings.Join(run, " "), "* exploring 3 variants × 2 modes… (esc cancels") {
		t.Errorf("running: %q", run)
	}
	errl := compareLines(ScenarioInput{Analysis: AnalysisInput{Err: "cannot open x"}}, Styles{}, 78)
	if !strings.Contains(strings.Join(errl, " "), "✗ cannot open x") {
		t.Errorf("error: %q", errl)
	}
}

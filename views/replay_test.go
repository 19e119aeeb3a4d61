package views

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"smpscope/machine"
	"smpscope/scenarios"
)

// TestTraceTextReplays is issue 18's property: the text smpscope trace
// prints for a mail (plain, ASCII or markdown), quoted in a reply or
// not, with CRLF or not, among prose, replays with smpscope --replay to
// the same program, steps and state, for random executions of every
// scenario of the library, what-if edits included.
func TestTraceTextReplays(t *testing.T) {
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(rt *rapid.T) {
		e := rapid.SampledFrom(lib).Draw(rt, "scenario")
		sp, err := scenarios.BuiltinSpec(e.Name)
		if err != nil {
			rt.Fatal(err)
		}
		if rapid.Bool().Draw(rt, "edit") {
			th := rapid.IntRange(0, len(sp.Program.Threads)-1).Draw(rt, "cpu")
			cpu := sp.Program.Threads[th].Name
			at := rapid.IntRange(1, max(len(sp.Program.Threads[th].Code), 1)).Draw(rt, "at")
			if ed, err := sp.NextOrdering(cpu, at); err == nil {
				if edited, err := sp.Edited(ed); err == nil {
					sp = edited
				}
			}
		}
		mode := rapid.SampledFrom([]machine.Mode{machine.TSO, machine.ARM}).Draw(rt, "mode")
		ex, err := scenarios.RandomExecution(sp, mode, rapid.Uint64().Draw(rt, "seed"))
		if err != nil {
			rt.Fatal(err)
		}
		opts := TraceOptions{
			ASCII:  rapid.Bool().Draw(rt, "ascii"),
			Format: rapid.SampledFrom([]TraceFormat{TraceText, TraceMarkdown}).Draw(rt, "format"),
			Width:  rapid.SampledFrom([]int{40, 72, 100}).Draw(rt, "width"),
		}
		text := RenderTrace(ex, opts)
		quote := rapid.SampledFrom([]string{"", "> ", ">", "> > ", ">> "}).Draw(rt, "quote")
		if quote != "" {
			text = quote + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+quote) + "\n"
		}
		if rapid.Bool().Draw(rt, "prose") {
			text = "On Monday, someone wrote:\n" + text + "\nThanks,\n-- \nA. Reviewer\n"
		}
		if rapid.Bool().Draw(rt, "crlf") {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		back, err := scenarios.ReplayTraceFile("-", "", nil, strings.NewReader(text))
		if err != nil {
			rt.Fatalf("%v\n%s", err, text)
		}
		if !scenarios.SameTest(back.Spec, sp) || !slices.Equal(back.Spec.Edits, sp.Edits) || back.Mach.Mode != mode {
			rt.Fatalf("another program: %s %v in %s", back.Spec.Name, back.Spec.Edits, back.Mach.Mode)
		}
		if !slices.Equal(back.Steps, ex.Steps) || !back.Last().Equal(ex.Last()) {
			rt.Fatalf("another execution: %d steps, want %d", len(back.Steps), len(ex.Steps))
		}
		if sp.Original().File == "" && back.Spec.Original().Story != sp.Original().Story {
			rt.Fatalf("the built-in %s is not recognised", sp.Name)
		}
	})
}

package views

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"smpscope/scenarios"
	"smpscope/scenarios/words"
)

// PresentInput is what presentation mode adds to the scenario screen: the
// steps of the history advance on their own, and the last event and the
// story take the room the lists had.
type PresentInput struct {
	Paused bool
	Every  time.Duration // the pace
	// Searching is set while the witness to present is being searched
	// for (the screen shows at once; the steps come when it is found);
	// Spinner is the spinner's frame.
	Searching bool
	Spinner   string
	// What names what is presented when it is not the witness or trace
	// asked for ("a random run, seed 1").
	What string
}

// PresentRegions is where presentation mode puts each part of the screen.
type PresentRegions struct {
	Header Rect // one line
	Bar    Rect // the indicator and the short help, one line
	CPUs   Rect
	Memory Rect
	Event  Rect // the last event, large
	Story  Rect
	// TallCPUs is true when the CPU columns use the tall format.
	TallCPUs bool
}

// PresentLayout divides a w×h terminal for presentation mode:
//
//	header
//	CPUs                        │ memory
//	last event (large)          │ story
//	presenting · step 3/9 · every 3s   keys
//
// It returns false below MinWidth×MinHeight.
func PresentLayout(in ScenarioInput, w, h int) (PresentRegions, bool) {
	if in.Mach == nil {
		return PresentRegions{}, false
	}
	r, _, ok := presentLayout(in, Styles{}, w, h)
	return r, ok
}

// presentLayout is PresentLayout with the CPU columns it chose.
func presentLayout(in ScenarioInput, st Styles, w, h int) (PresentRegions, cpuBlock, bool) {
	var r PresentRegions
	if w < MinWidth || h < MinHeight {
		return r, cpuBlock{}, false
	}
	r.Header = Rect{0, 0, w, 1}
	r.Bar = Rect{0, h - 1, w, 1}
	bodyY, bodyH := 1, h-2
	memW := clamp(w*3/10, memoryMinWidth(w), 48)
	cpuW := w - memW
	const minBottom = 8 // six lines of the event and the story
	cpus := newCPUBlock(in, st, cpuW-2, false)
	if w >= wideWidth {
		if tall := newCPUBlock(in, st, cpuW-2, true); tall.height()+2 <= bodyH-14 {
			cpus, r.TallCPUs = tall, true
		}
	}
	lines := max(cpus.height(), len(memoryLines(in, st, memW-2)))
	topH := clamp(lines+2, min(6, bodyH-minBottom), bodyH-minBottom)
	cpus.fit(topH - 2)
	r.CPUs = Rect{0, bodyY, cpuW, topH}
	r.Memory = Rect{cpuW, bodyY, memW, topH}
	y, bh := bodyY+topH, bodyH-topH
	evW := w * 3 / 5 // the explanation is what the class reads
	r.Event = Rect{0, y, evW, bh}
	r.Story = Rect{evW, y, w - evW, bh}
	return r, cpus, true
}

// PresentIndicator is the state of the presentation in words:
// "▶ presenting · step 3/9 · every 3s", "⏸ paused · step 3/9" or "■ the
// end · step 9/9" (what space does next is the help line's to say), or,
// before the witness is found, "⠋ searching for the witness to present…".
func PresentIndicator(in ScenarioInput) string {
	if in.Present == nil {
		return ""
	}
	if in.Present.Searching {
		return in.Present.Spinner + " searching for the witness to present… · esc: the normal screen"
	}
	pos := fmt.Sprintf("step %d/%d", in.Cursor, len(in.Steps))
	switch {
	case in.Cursor >= len(in.Steps) && in.Attempt != nil:
		return "■ as far as it gets · " + pos
	case in.Cursor >= len(in.Steps):
		return "■ the end · " + pos
	case in.Present.Paused:
		return "⏸ paused · " + pos
	}
	what := "presenting"
	if in.Present.What != "" {
		what += " " + in.Present.What
	}
	return "▶ " + what + " · " + pos + " · every " + formatPace(in.Present.Every)
}

// formatPace writes a duration the way people say it: "3s", "1.5s",
// "800ms".
func formatPace(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	s := fmt.Sprintf("%.1f", d.Seconds())
	return strings.TrimSuffix(s, ".0") + "s"
}

// presentEventLines is the last event in large, for a box of inner
// size (w, h): what happened, in bold, with the read classification, the
// outcome when final, and the step coming next; below it, when there is
// room, the run around the step shown. The box scrolls (pgup/pgdn, the
// wheel): nothing of it is cut.
func presentEventLines(in ScenarioInput, st Styles, w, h int) (string, []string) {
	tw := w - 2
	var lines []string
	title := "initial state"
	if in.Cursor == 0 || in.Cursor > len(in.Events) {
		if in.Attempt != nil {
			lines = append(lines, wrapIndented(" ", st.Bold.Render(attemptStart(in.Attempt)), tw)...)
			lines = append(lines, "")
		}
		lines = append(lines, wrapIndented(" ", st.Bold.Render("Every CPU holds every location in S (warm caches); store buffers and queues are empty."), tw)...)
	} else {
		ev := in.Events[in.Cursor-1]
		title = fmt.Sprintf("step %d of %d · %s", in.Cursor, len(in.Steps), words.StepID(in.Mach, ev.Step))
		if ev.Load != nil {
			label, render := readClass(st, ev.Load.Class)
			lines = append(lines, wrapIndented(" ", render("["+label+"]")+eventTagLabels(in.Mach, ev, st), tw)...)
		}
		lines = append(lines, wrapIndented(" ", st.Bold.Render(words.Event(in.Mach, &ev)), tw)...)
	}
	for _, w := range attemptWaits(in) {
		lines = append(lines, wrapIndented(" "+st.CPUBlocked.Render("⏸ "), st.CPUBlocked.Render(w), tw)...)
	}
	if in.Mach.Final(in.State) {
		lines = append(lines, "")
		out, hasCond, holds := finalOutcome(in)
		out += "."
		switch {
		case holds:
			out += " " + st.OutcomeMatch.Render("✓ the condition holds")
		case hasCond:
			out += " The condition does not hold."
		}
		lines = append(lines, wrapIndented(" ", out, tw)...)
		if end := attemptEnd(in); end != nil {
			// The end of a closest attempt: why it gets no nearer comes
			// first, so that a projector at 80×24 shows it.
			var head []string
			for _, l := range end {
				head = append(head, wrapIndented(" ", st.Bold.Render(l), tw)...)
			}
			lines = append(append(head, ""), lines...)
		}
	}
	if in.Cursor < len(in.Steps) {
		next := in.Steps[in.Cursor]
		lines = append(lines, "")
		lines = append(lines, wrapIndented(" "+st.Dim.Render("next → "), st.Dim.Render(words.Step(in.Mach, in.State, next)), tw)...)
	}
	// The whole run below, when there is room: where we are in it.
	if room := h - len(lines) - 2; room >= 4 {
		hist := historyLines(in, st, tw)
		n := min(room, len(hist))
		first := clamp(in.Cursor-n/2, 0, len(hist)-n)
		lines = append(lines, "", " "+st.Label.Render("the run"))
		for _, l := range hist[first : first+n] {
			lines = append(lines, " "+l)
		}
	}
	return title, lines
}

// renderPresentEvent draws presentation mode's explanation box.
func renderPresentEvent(in ScenarioInput, st Styles, r Rect, title string, lines []string, off int) string {
	b := boxSpec{title: title, focused: true, lines: lines, offset: off} // notices go on the bottom line
	if len(lines) > r.H-2 {
		b.bottom = "pgdn" // how to read on
	}
	return renderBox(b, st, r.W, r.H)
}

// presentStoryLines is the story box: the title, the question and the
// story's paragraphs.
func presentStoryLines(in ScenarioInput, st Styles, w int) []string {
	tw := w - 1
	var lines []string
	sp := in.Spec
	if sp.Title != "" {
		lines = append(lines, wrapIndented(" ", st.Bold.Render(sp.Title), tw)...)
	}
	if c := sp.Condition(); c != "" {
		if sp.Expected != "" {
			c += " (LKMM: " + string(sp.Expected) + ")"
		}
		lines = append(lines, wrapIndented(" ", st.Condition.Render(c), tw)...)
	}
	story := strings.TrimSpace(sp.Story)
	if story == "" {
		story = "This scenario has no story."
	}
	for _, para := range strings.Split(story, "\n\n") {
		lines = append(lines, "")
		lines = append(lines, wrapIndented(" ", strings.Join(strings.Fields(para), " "), tw)...)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return lines
}

// attemptStart is what the initial state of a closest attempt says.
func attemptStart(a *scenarios.Attempt) string {
	return fmt.Sprintf("Closest attempt: the outcome asked about is unreachable in %s mode; this execution comes as near to it as the machine allows.", a.Mode.Title())
}

// attemptWaits are the CPUs that start waiting at the step shown of a
// closest attempt, in words: "P1 must wait: smp_rmb waits for 1 queued
// invalidation".
func attemptWaits(in ScenarioInput) []string {
	if in.Attempt == nil {
		return nil
	}
	var out []string
	for _, b := range in.Attempt.Blocks {
		if b.At == in.Cursor {
			out = append(out, in.Mach.Prog.Threads[b.CPU].Name+" must wait: "+b.Reason)
		}
	}
	return out
}

// attemptEnd is what the last step of a closest attempt says after the
// outcome: how near it came, and why it gets no nearer.
func attemptEnd(in ScenarioInput) []string {
	if in.Attempt == nil || in.Cursor != len(in.Steps) {
		return nil
	}
	return in.Attempt.Sentences()
}

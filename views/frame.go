package views

import (
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"

	"strings"
)

// Offsets are the scroll positions a frame is drawn at: the model keeps
// them, each in the viewport of its pane, which clamps them against the
// frame's lines.
type Offsets struct {
	Panes [NumPanes]int // the first line shown of each pane (outcomes: of the lines below its header)
	Page  int           // of the page open (help, story, compare, necessity)
	Story int           // of presentation mode's story
}

// Frame is the scenario screen for one update: the layout and the content
// of every part, computed once from the input. The model sizes its
// viewports from it (Visible), hands them the lines (Lines), and draws it
// at their offsets (Draw); mouse hit-tests use the same Regions.
type Frame struct {
	in ScenarioInput
	st *Styles // a pointer: the model copies its frame with every key
	w  int
	h  int
	ok bool

	// Regions is the layout of the panes; Present that of presentation
	// mode, when it shows (Presenting).
	Regions    Regions
	Present    PresentRegions
	Presenting bool

	cpus     cpuBlock
	cpuRight string // which CPU columns show, when not all fit
	// eventTitle is the explanation's title ("step 3 · P0 commit …").
	eventTitle string
	lines      [NumPanes][]string
	outcomes   outcomeRows
	page       []string
	pageAt     int // the page's line to keep in view (the picture's step shown)
	story      []string
	// CPUOff is the first CPU column shown: the input's, clamped.
	CPUOff int
}

// NewFrame lays out the scenario screen at w×h and renders the content of
// each part.
func NewFrame(in ScenarioInput, st Styles, w, h int) Frame {
	// Notices quote paths and errors: they reach the screen Printable.
	in.Notice = syntax.Brief(syntax.Printable(in.Notice))
	f := Frame{in: in, st: &st, w: w, h: h}
	if w < MinWidth || h < MinHeight || in.Mach == nil {
		return f
	}
	f.ok = true
	if in.Page != PagePanes {
		f.Regions, _ = Layout(w, h, LayoutHints{})
		switch in.Page {
		case PageHelp:
			f.page = helpPageLines(in, st, w)
		case PageStory:
			f.page = storyPageLines(in, st, w)
		case PageCompare:
			f.page = compareLines(in, st, w-2)
		case PageNecessity:
			f.page = necessityLines(in, st, w-2)
		case PageDiff:
			f.page = diffPageLines(in, st, w-2)
		case PageSource:
			f.page = sourceLines(in, st, w-2)
		case PagePicture:
			f.page, f.pageAt = pictureLines(in, st, w-2, f.Regions.Page.H-2)
		case PageFix:
			f.page = fixLines(in, st, w-2)
		}
		return f
	}
	if in.Present != nil {
		f.Presenting = true
		f.Present, f.cpus, _ = presentLayout(in, st, w, h)
		f.CPUOff = clamp(in.CPUOff, 0, f.cpus.maxOff())
		f.lines[PaneCPUs], f.cpuRight = f.cpus.lines(in, st, f.CPUOff)
		f.lines[PaneMemory] = memoryLines(in, st, f.Present.Memory.Inner().W)
		f.story = presentStoryLines(in, st, f.Present.Story.Inner().W)
		ev := f.Present.Event.Inner()
		f.eventTitle, f.lines[PaneEvent] = presentEventLines(in, st, ev.W, ev.H)
		return f
	}
	// Every part says how much it holds at the widths the terminal
	// gives it; the layout decides the heights (and whether memory moves
	// into the tabbed box), and the format chosen is the one drawn.
	besideW, fullW := CPUWidths(w)
	compact := newCPUBlock(in, st, besideW-2, false)
	hints := LayoutHints{CPULines: compact.height(), CPUColumns: compact.k, CodeWraps: compact.wraps()}
	var tall, full cpuBlock
	if w >= wideWidth {
		tall = newCPUBlock(in, st, besideW-2, true)
		hints.CPULinesTall = tall.height()
	} else if len(in.Mach.Prog.Threads) > 1 {
		full = newCPUBlock(in, st, fullW-2, false)
		hints.CPULinesFull, hints.CPUColumnsFull = full.height(), full.k
	}
	r0, _ := Layout(w, h, LayoutHints{})
	mem := memoryLines(in, st, r0.Panes[PaneMemory].Inner().W)
	hints.MemLines = len(mem)
	f.eventTitle, f.lines[PaneEvent] = eventLines(in, st, EventWidth(w)-2)
	hints.EventLines = len(f.lines[PaneEvent])
	f.lines[PaneSteps] = stepLines(in, st)
	hints.StepLines = len(f.lines[PaneSteps])
	f.lines[PaneHistory] = historyLines(in, st, r0.Panes[PaneHistory].Inner().W)
	hints.HistoryLines = len(f.lines[PaneHistory])
	f.outcomes = outcomeLines(in, st, r0.Panes[PaneOutcomes].Inner().W)
	hints.OutcomeLines = len(f.outcomes.head) + len(f.outcomes.lines)
	f.Regions, _ = Layout(w, h, hints)
	f.cpus = compact
	switch {
	case f.Regions.TallCPUs:
		f.cpus = tall
	case f.Regions.MemoryTabbed:
		f.cpus = full
		mem = memoryLines(in, st, f.Regions.Panes[PaneMemory].Inner().W)
	}
	if inner := f.Regions.Panes[PaneCPUs].Inner(); f.cpus.height() > inner.H {
		// Short of room: the waits said briefly, which may make the
		// columns fit (the explanation names what a CPU waits for).
		if brief := newCPUBlockDetail(in, st, inner.W, f.Regions.TallCPUs, words.Brief); brief.height() < f.cpus.height() {
			f.cpus = brief
		}
	}
	f.cpus.fit(f.Regions.Panes[PaneCPUs].Inner().H)
	f.CPUOff = clamp(in.CPUOff, 0, f.cpus.maxOff())
	f.lines[PaneCPUs], f.cpuRight = f.cpus.lines(in, st, f.CPUOff)
	f.lines[PaneMemory] = mem
	f.lines[PaneOutcomes] = f.outcomes.lines
	return f
}

// OK reports whether the terminal is large enough to draw the screen.
func (f Frame) OK() bool { return f.ok }

// Lines returns the content lines of pane p (for the outcomes pane: its
// rows, below the condition and the verdict).
func (f Frame) Lines(p Pane) []string { return f.lines[p] }

// Visible returns how many content rows of pane p show.
func (f Frame) Visible(p Pane) int {
	r := f.Regions.Panes[p]
	if f.Presenting {
		switch p {
		case PaneCPUs:
			r = f.Present.CPUs
		case PaneMemory:
			r = f.Present.Memory
		case PaneEvent:
			r = f.Present.Event
		default:
			return 0
		}
	}
	n := r.H - 2
	if p == PaneOutcomes {
		n -= len(f.outcomes.head)
	}
	return max(n, 0)
}

// OutcomeRowAt returns the outcome row shown on line l of the pane's
// rows (an outcome that wraps takes several lines).
func (f Frame) OutcomeRowAt(l int) (int, bool) { return f.outcomes.rowOf(l) }

// OutcomeRowLines returns the first and last line of outcome row i.
func (f Frame) OutcomeRowLines(i int) (first, last int) { return f.outcomes.linesOf(i) }

// PageLines returns the open page's lines, and how many show.
func (f Frame) PageLines() ([]string, int) { return f.page, max(f.Regions.Page.H-2, 0) }

// PageAt is the line of the open page to keep in view after a step (the
// picture page's row of the step shown).
func (f Frame) PageAt() int { return f.pageAt }

// StoryLines returns presentation mode's story, and how many lines show.
func (f Frame) StoryLines() ([]string, int) { return f.story, max(f.Present.Story.Inner().H, 0) }

// Draw draws the frame at the given offsets.
func (f Frame) Draw(off Offsets) string {
	if f.st == nil {
		return "" // a Frame not made by NewFrame
	}
	in, st, w, h := f.in, *f.st, f.w, f.h
	if !f.ok {
		return TooSmall(st, w, h, MinWidth, MinHeight)
	}
	if f.Presenting {
		return f.drawPresent(off)
	}
	r := f.Regions
	items := []placed{
		{r.Header, renderHeader(in, st, w)},
		{r.Help, fit(in.HelpBar, w)},
	}
	if in.Page != PagePanes {
		title := map[Page]string{
			PageHelp:      "help · ? or esc to close",
			PageStory:     "story · s or esc to close",
			PageCompare:   "compare variants · c or esc to close",
			PageNecessity: "which annotations are needed? · n or esc to close",
			PageDiff:      "what if · d or esc to close",
			PagePicture:   "picture · ←/→ step · p or esc to close",
			PageSource:    "source · each line's instructions at its left (P0:2) · i or esc to close",
			PageFix:       "which fix? · f or esc to close",
		}[in.Page]
		b := boxSpec{title: title, focused: true, lines: f.page, offset: off.Page}
		if in.Page == PageDiff && in.Notice != "" {
			b.right, b.notice = "» "+in.Notice, true // S and u report here
		}
		items = append(items, placed{r.Page, renderBox(b, st, r.Page.W, r.Page.H)})
		return place(w, h, items)
	}
	cpus := r.Panes[PaneCPUs]
	items = append(items,
		placed{cpus, renderBox(boxSpec{title: cpusTitle(in), right: f.cpuRight, focused: in.Focus == PaneCPUs, lines: f.lines[PaneCPUs], offset: off.Panes[PaneCPUs]}, st, cpus.W, cpus.H)},
		placed{r.Panes[PaneSteps], renderSteps(in, st, r.Panes[PaneSteps], f.lines[PaneSteps], off.Panes[PaneSteps])},
		placed{r.Event, renderEvent(in, st, r.Event, f.eventTitle, f.lines[PaneEvent], off.Panes[PaneEvent])},
	)
	if !r.MemoryTabbed {
		items = append(items, placed{r.Panes[PaneMemory], renderMemory(in, st, r.Panes[PaneMemory], f.lines[PaneMemory], off.Panes[PaneMemory])})
	}
	hist := func(title string) string {
		return renderHistory(in, st, r.Panes[PaneHistory], title, f.lines[PaneHistory], off.Panes[PaneHistory])
	}
	outs := func(title string) string {
		return renderOutcomes(in, st, r.Panes[PaneOutcomes], title, f.outcomes, off.Panes[PaneOutcomes])
	}
	switch {
	case !r.Tabbed:
		items = append(items, placed{r.Panes[PaneHistory], hist("")}, placed{r.Panes[PaneOutcomes], outs("")})
	default:
		// History and outcomes (and memory, when it moved there) share
		// one box, with tabs in the title: the tab shown is in brackets.
		tabs := []Pane{PaneHistory, PaneOutcomes}
		if r.MemoryTabbed {
			tabs = []Pane{PaneMemory, PaneHistory, PaneOutcomes}
		}
		shown := in.SideTab
		if !r.Shared(shown) {
			shown = PaneOutcomes
		}
		var names []string
		for _, p := range tabs {
			if p == shown {
				names = append(names, "["+p.String()+"]")
			} else {
				names = append(names, p.String())
			}
		}
		sep := " │ "
		if r.MemoryTabbed {
			sep = "│"
		}
		title := strings.Join(names, sep)
		box := r.Panes[PaneHistory]
		switch shown {
		case PaneOutcomes:
			items = append(items, placed{box, outs(title)})
		case PaneMemory:
			items = append(items, placed{box, renderBox(boxSpec{title: title, focused: in.Focus == PaneMemory, lines: f.lines[PaneMemory], offset: off.Panes[PaneMemory]}, st, box.W, box.H)})
		default:
			items = append(items, placed{box, hist(title)})
		}
	}
	return place(w, h, items)
}

// drawPresent draws presentation mode.
func (f Frame) drawPresent(off Offsets) string {
	in, st, w, h := f.in, *f.st, f.w, f.h
	r := f.Present
	panes := in
	panes.Focus = NumPanes // no pane has the focus
	ind := PresentIndicator(in)
	indStyle := st.Running
	if in.Present.Paused || in.Cursor >= len(in.Steps) && !in.Present.Searching {
		indStyle = st.Notice
	}
	bar := " " + indStyle.Render(ind) + "  " + strings.TrimLeft(in.HelpBar, " ")
	if in.Notice != "" {
		// A notice takes the keys' place until the next key, whole: the
		// explanation's title has little room beside its step.
		bar = " " + indStyle.Render(ind) + "  " + st.Notice.Render("» "+in.Notice)
	}
	items := []placed{
		{r.Header, renderHeader(in, st, w)},
		{r.Bar, fit(bar, w)},
		{r.CPUs, renderBox(boxSpec{title: "CPUs", right: f.cpuRight, lines: f.lines[PaneCPUs], offset: off.Panes[PaneCPUs]}, st, r.CPUs.W, r.CPUs.H)},
		{r.Memory, renderMemory(panes, st, r.Memory, f.lines[PaneMemory], off.Panes[PaneMemory])},
		{r.Event, renderPresentEvent(in, st, r.Event, f.eventTitle, f.lines[PaneEvent], off.Panes[PaneEvent])},
		{r.Story, renderBox(boxSpec{title: "story · ↑/↓", lines: f.story, offset: off.Story}, st, r.Story.W, r.Story.H)},
	}
	return place(w, h, items)
}

// RenderScenario draws the scenario screen at w×h with nothing scrolled,
// in one call (for tests and one-off renderings).
func RenderScenario(in ScenarioInput, st Styles, w, h int) string {
	return NewFrame(in, st, w, h).Draw(Offsets{})
}

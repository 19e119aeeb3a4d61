package views

// Rect is a rectangle of terminal cells: column X, row Y, W columns wide and
// H rows high.
type Rect struct{ X, Y, W, H int }

// Contains reports whether the cell (x, y) lies inside r.
func (r Rect) Contains(x, y int) bool {
	return r.W > 0 && r.H > 0 && x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Inner returns r without its one-cell border.
func (r Rect) Inner() Rect {
	if r.W < 2 || r.H < 2 {
		return Rect{X: r.X, Y: r.Y}
	}
	return Rect{X: r.X + 1, Y: r.Y + 1, W: r.W - 2, H: r.H - 2}
}

// Pane names a focusable pane of the scenario screen.
type Pane int

// The panes, in tab order. The explanation (the last event) comes last,
// so that shift+tab from the steps reaches it at once.
const (
	PaneSteps Pane = iota
	PaneCPUs
	PaneMemory
	PaneHistory
	PaneOutcomes
	PaneEvent
	NumPanes
)

var paneNames = [...]string{"steps", "cpus", "memory", "history", "outcomes", "event"}

func (p Pane) String() string {
	if p >= 0 && p < NumPanes {
		return paneNames[p]
	}
	return "?"
}

// Shared reports whether pane p is one of those that share the tabbed
// box in r (history and outcomes below 120 columns, and memory too when
// it moved there).
func (r Regions) Shared(p Pane) bool {
	return r.Tabbed && (p == PaneHistory || p == PaneOutcomes || r.MemoryTabbed && p == PaneMemory)
}

// Minimum terminal size for the scenario screen and the picker.
const (
	MinWidth  = 60
	MinHeight = 20
)

// wideWidth is the width from which history and outcomes get a box each.
const wideWidth = 120

// Regions is the result of Layout: where each part of the scenario screen
// goes.
type Regions struct {
	Header Rect // one line
	Help   Rect // the short-help line
	Event  Rect // the explanation of the last event (Panes[PaneEvent])
	Page   Rect // everything between header and help (help and story pages)
	Panes  [NumPanes]Rect
	// Tabbed is true when history and outcomes share one box (narrow
	// terminals); Panes[PaneHistory] == Panes[PaneOutcomes] then.
	Tabbed bool
	// MemoryTabbed is true when memory shares that box too, so that the
	// CPU columns get the whole width (their source lines would wrap
	// beside it, or fewer CPUs would fit).
	MemoryTabbed bool
	// TallCPUs is true when the CPU columns have room for the tall format
	// (one store-buffer entry, queued invalidation and cache line per row).
	TallCPUs bool
}

// LayoutHints tell Layout how much each part holds, in content lines
// (widths are fixed by the terminal's: CPUWidths and EventWidth say
// them).
type LayoutHints struct {
	// CPULines is what the CPU columns need in the compact format beside
	// the memory pane, CPULinesTall in the tall one (0: never tall) and
	// CPULinesFull at the whole width, below 120 columns (0: memory stays
	// beside them).
	CPULines, CPULinesTall, CPULinesFull int
	// CPUColumns and CPUColumnsFull are how many CPU columns show side
	// by side beside the memory pane and at the whole width.
	CPUColumns, CPUColumnsFull int
	// CodeWraps says that source lines wrap beside the memory pane.
	CodeWraps bool
	MemLines  int
	// EventLines is the explanation's, at EventWidth.
	EventLines int
	// StepLines, HistoryLines and OutcomeLines are the steps', the
	// history's and the outcomes pane's (its header and rows).
	StepLines, HistoryLines, OutcomeLines int
}

// CPUWidths returns the width of the CPU pane beside the memory pane,
// and at the whole width (below 120 columns, when memory moves into the
// tabbed box; 0 from 120 on).
func CPUWidths(w int) (beside, full int) {
	if w >= wideWidth {
		return w - wideSide(w), 0
	}
	return w - narrowMemWidth(w), w
}

// EventWidth returns the width of the explanation's box.
func EventWidth(w int) int {
	if w >= wideWidth {
		return w - wideSide(w)
	}
	return w
}

func wideSide(w int) int       { return clamp(w*3/10, 36, 56) }
func narrowMemWidth(w int) int { return clamp(w*3/10, memoryMinWidth(w), 48) }

// Layout divides a w×h terminal among the scenario screen's panes.
//
// Below 120 columns:
//
//	header                                  (1 line)
//	CPUs                    │ memory        (as tall as the CPUs need)
//	steps                   │ history|outcomes (one box, two tabs)
//	explanation                             (the last event, boxed)
//	help                                    (1 line)
//
// When the CPU columns are better at the whole width (their source
// lines wrap beside the memory pane, or more CPUs fit side by side),
// memory becomes a third tab of the shared box. From 120 columns, memory and outcomes get a column of
// their own and history a box of its own:
//
//	header
//	CPUs                    │ memory
//	steps       │ history   │ outcomes
//	explanation             │
//	help
//
// Heights go by what each part holds: the explanation first (up to a
// third of the rows while the CPUs want more, all it needs otherwise),
// then the CPUs, and steps and history get what is left, shrinking to
// two lines before the explanation gives up a line. What does not fit
// scrolls, with ▲/▼ in the border.
//
// It returns false when the terminal is smaller than MinWidth×MinHeight.
// Layout is pure: the model uses the same rectangles for mouse hit-tests.
func Layout(w, h int, hints LayoutHints) (Regions, bool) {
	var r Regions
	if w < MinWidth || h < MinHeight {
		return r, false
	}
	r.Header = Rect{0, 0, w, 1}
	r.Help = Rect{0, h - 1, w, 1}
	r.Page = Rect{0, 1, w, h - 2}
	wide := w >= wideWidth
	body := h - 2
	midMin := 4 // two lines of steps
	if h >= 30 {
		midMin = 5
	}
	const evMin = 4 // two lines of explanation
	evWant := max(hints.EventLines+2, evMin)
	evReserve := min(evWant, max(evMin, body/3))
	topMax := body - midMin - evReserve

	cpuLines := hints.CPULines
	if wide && hints.CPULinesTall > 0 && hints.CPULinesTall+2 <= topMax {
		cpuLines = hints.CPULinesTall
		r.TallCPUs = true
	}
	shorter := hints.CPULinesFull < hints.CPULines
	if !wide && hints.CPULinesFull > 0 && (hints.CPUColumnsFull > hints.CPUColumns || shorter && (hints.CodeWraps || hints.CPULines+2 > topMax)) {
		cpuLines = hints.CPULinesFull
		r.MemoryTabbed = true
	}
	want := cpuLines + 2
	if !wide && !r.MemoryTabbed {
		want = max(want, hints.MemLines+2)
	}
	topH := clamp(want, min(topMax, 6), topMax)
	rest := body - topH
	evH := clamp(evWant, evMin, rest-midMin)
	midH := rest - evH
	midY := 1 + topH
	evY := midY + midH

	if wide {
		side := wideSide(w)
		leftW := w - side
		memH := clamp(hints.MemLines+2, 5, body/2)
		r.Panes[PaneMemory] = Rect{leftW, 1, side, memH}
		r.Panes[PaneOutcomes] = Rect{leftW, 1 + memH, side, body - memH}
		r.Panes[PaneCPUs] = Rect{0, 1, leftW, topH}
		histW := clamp(leftW*2/5, 30, 50)
		r.Panes[PaneSteps] = Rect{0, midY, leftW - histW, midH}
		r.Panes[PaneHistory] = Rect{leftW - histW, midY, histW, midH}
		r.Event = Rect{0, evY, leftW, evH}
		r.Panes[PaneEvent] = r.Event
		return r, true
	}
	if r.MemoryTabbed {
		r.Panes[PaneCPUs] = Rect{0, 1, w, topH}
	} else {
		memW := narrowMemWidth(w)
		r.Panes[PaneCPUs] = Rect{0, 1, w - memW, topH}
		r.Panes[PaneMemory] = Rect{w - memW, 1, memW, topH}
	}
	side := clamp(w*2/5, 30, 44)
	r.Panes[PaneSteps] = Rect{0, midY, w - side, midH}
	r.Panes[PaneHistory] = Rect{w - side, midY, side, midH}
	r.Panes[PaneOutcomes] = r.Panes[PaneHistory]
	if r.MemoryTabbed {
		r.Panes[PaneMemory] = r.Panes[PaneHistory]
	}
	r.Tabbed = true
	r.Event = Rect{0, evY, w, evH}
	r.Panes[PaneEvent] = r.Event
	return r, true
}

// memoryMinWidth is the narrowest the memory pane gets beside the CPUs:
// narrower below 80 columns, so that two CPU columns fit beside it.
func memoryMinWidth(w int) int {
	if w < 80 {
		return 22
	}
	return 26
}

// PaneAt returns the pane containing cell (x, y). In a tabbed layout the
// shared box answers with side, the tab currently shown.
func (r Regions) PaneAt(x, y int, side Pane) (Pane, bool) {
	for p := Pane(0); p < NumPanes; p++ {
		if r.Panes[p].Contains(x, y) {
			if r.Shared(p) {
				return side, true
			}
			return p, true
		}
	}
	return 0, false
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		hi = lo
	}
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

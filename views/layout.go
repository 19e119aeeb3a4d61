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

// The panes, in tab order.
const (
	PaneSteps Pane = iota
	PaneCPUs
	PaneMemory
	PaneHistory
	PaneOutcomes
	NumPanes
)

var paneNames = [...]string{"steps", "cpus", "memory", "history", "outcomes"}

func (p Pane) String() string {
	if p >= 0 && p < NumPanes {
		return paneNames[p]
	}
	return "?"
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
	Event  Rect // the last event, boxed
	Page   Rect // everything between header and help (help and story pages)
	Panes  [NumPanes]Rect
	// Tabbed is true when history and outcomes share one box (narrow
	// terminals); Panes[PaneHistory] == Panes[PaneOutcomes] then.
	Tabbed bool
	// TallCPUs is true when the CPU columns have room for the tall format
	// (one store-buffer entry, queued invalidation and cache line per row).
	TallCPUs bool
}

// LayoutHints tell Layout how much the content wants.
type LayoutHints struct {
	// CPULines is the number of content lines the CPU columns need in
	// the compact format, CPULinesTall in the tall one (0: never tall);
	// MemLines the memory pane's.
	CPULines, CPULinesTall, MemLines int
}

// Layout divides a w×h terminal among the scenario screen's panes.
//
// Below 120 columns:
//
//	header                                  (1 line)
//	CPUs                    │ memory        (as tall as the CPUs need)
//	steps                   │ history|outcomes (one box, two tabs)
//	last event                              (boxed, three lines)
//	help                                    (1 line)
//
// From 120 columns, memory and outcomes get a column of their own and
// history a box of its own:
//
//	header
//	CPUs                    │ memory
//	steps       │ history   │ outcomes
//	last event              │
//	help
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
	eventH := 5 // three lines of text
	switch {
	case h >= 40:
		eventH = 6
	case h < 24:
		eventH = 4 // the CPUs need every line at the smallest sizes
	}
	wide := w >= wideWidth
	leftW := w
	if wide {
		side := clamp(w*3/10, 36, 56)
		leftW = w - side
		memH := clamp(hints.MemLines+2, 5, (h-2)/2)
		r.Panes[PaneMemory] = Rect{leftW, 1, side, memH}
		r.Panes[PaneOutcomes] = Rect{leftW, 1 + memH, side, h - 2 - memH}
	}
	r.Event = Rect{0, h - 1 - eventH, leftW, eventH}
	bodyY, bodyH := 1, h-2-eventH

	// Top row: the CPUs (and, when narrow, memory), as tall as they need
	// within bounds. Wide terminals use the tall CPU format when it leaves
	// the bottom row at least a dozen rows.
	minBottom := 6 // four rows of steps
	if h < 24 {
		minBottom = 5
	}
	cpuLines := hints.CPULines
	if wide && hints.CPULinesTall > 0 && hints.CPULinesTall+2 <= bodyH-12 {
		cpuLines = hints.CPULinesTall
		r.TallCPUs = true
	}
	want := cpuLines + 2
	if !wide {
		want = max(want, hints.MemLines+2)
	}
	maxTop := bodyH - minBottom
	topH := clamp(want, min(maxTop, 8), maxTop)
	y, bh := bodyY+topH, bodyH-topH
	if wide {
		r.Panes[PaneCPUs] = Rect{0, bodyY, leftW, topH}
		histW := clamp(leftW*2/5, 30, 50)
		r.Panes[PaneSteps] = Rect{0, y, leftW - histW, bh}
		r.Panes[PaneHistory] = Rect{leftW - histW, y, histW, bh}
		return r, true
	}
	memW := clamp(w*3/10, memoryMinWidth(w), 48)
	r.Panes[PaneCPUs] = Rect{0, bodyY, w - memW, topH}
	r.Panes[PaneMemory] = Rect{w - memW, bodyY, memW, topH}
	side := clamp(w*2/5, 30, 44)
	r.Panes[PaneSteps] = Rect{0, y, w - side, bh}
	r.Panes[PaneHistory] = Rect{w - side, y, side, bh}
	r.Panes[PaneOutcomes] = r.Panes[PaneHistory]
	r.Tabbed = true
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
			if r.Tabbed && (p == PaneHistory || p == PaneOutcomes) {
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

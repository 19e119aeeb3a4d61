package views

import (
	"strings"
	"testing"
)

// renderLayout draws the regions as ASCII boxes with their names, so a
// layout can be checked by eye (lazygit's window-arrangement tests).
// Set up the case, let the test fail, and paste the output if it is right.
func renderLayout(r Regions, w, h int) string {
	grid := make([][]rune, h)
	for y := range grid {
		grid[y] = []rune(strings.Repeat(" ", w))
	}
	box := func(name string, b Rect) {
		if b.W <= 0 || b.H <= 0 {
			return
		}
		for y := b.Y; y < b.Y+b.H; y++ {
			for x := b.X; x < b.X+b.W; x++ {
				c := ' '
				top, bot, left, right := y == b.Y, y == b.Y+b.H-1, x == b.X, x == b.X+b.W-1
				switch {
				case (top || bot) && (left || right):
					c = '+'
				case top || bot:
					c = '-'
				case left || right:
					c = '|'
				}
				if b.H == 1 {
					c = '='
				}
				grid[y][x] = c
			}
		}
		for i, ch := range name {
			if x := b.X + 1 + i; x < b.X+b.W-1 || (b.H == 1 && x < b.X+b.W) {
				grid[b.Y][x] = ch
			}
		}
	}
	box("header", r.Header)
	box("help", r.Help)
	box("event", r.Event)
	names := map[Pane]string{PaneCPUs: "cpus", PaneMemory: "memory", PaneSteps: "steps", PaneHistory: "history", PaneOutcomes: "outcomes"}
	for p := Pane(0); p < PaneEvent; p++ {
		name := names[p]
		if r.Tabbed && p == PaneHistory {
			name = "history|outcomes"
			if r.MemoryTabbed {
				name = "memory|history|outcomes"
			}
		}
		if r.Shared(p) && p != PaneHistory {
			continue
		}
		box(name, r.Panes[p])
	}
	var b strings.Builder
	for _, row := range grid {
		b.WriteString(strings.TrimRight(string(row), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestLayout(t *testing.T) {
	cases := []struct {
		name  string
		w, h  int
		hints LayoutHints
		want  string
	}{
		{"80x24 two small CPUs", 80, 24, LayoutHints{CPULines: 7, MemLines: 4, EventLines: 3, StepLines: 3, HistoryLines: 1, OutcomeLines: 6}, `
=header=========================================================================
+cpus------------------------------------------------++memory------------------+
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
+----------------------------------------------------++------------------------+
+steps-----------------------------------------++history|outcomes--------------+
|                                              ||                              |
|                                              ||                              |
|                                              ||                              |
|                                              ||                              |
|                                              ||                              |
|                                              ||                              |
+----------------------------------------------++------------------------------+
+event-------------------------------------------------------------------------+
|                                                                              |
|                                                                              |
|                                                                              |
+------------------------------------------------------------------------------+
=help===========================================================================
`},
		{"80x24 a long explanation takes rows from steps and history", 80, 24, LayoutHints{CPULines: 7, MemLines: 4, EventLines: 12, StepLines: 2, HistoryLines: 11, OutcomeLines: 5}, `
=header=========================================================================
+cpus------------------------------------------------++memory------------------+
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
|                                                    ||                        |
+----------------------------------------------------++------------------------+
+steps-----------------------------------------++history|outcomes--------------+
|                                              ||                              |
|                                              ||                              |
+----------------------------------------------++------------------------------+
+event-------------------------------------------------------------------------+
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
+------------------------------------------------------------------------------+
=help===========================================================================
`},
		{"80x24 source lines that wrap beside memory: memory becomes a tab", 80, 24, LayoutHints{CPULines: 16, CPULinesFull: 9, MemLines: 8, EventLines: 5, StepLines: 3, HistoryLines: 5, OutcomeLines: 6}, `
=header=========================================================================
+cpus--------------------------------------------------------------------------+
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
+------------------------------------------------------------------------------+
+steps-----------------------------------------++memory|history|outcomes-------+
|                                              ||                              |
|                                              ||                              |
+----------------------------------------------++------------------------------+
+event-------------------------------------------------------------------------+
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
|                                                                              |
+------------------------------------------------------------------------------+
=help===========================================================================
`},
		{"60x20 minimum", 60, 20, LayoutHints{CPULines: 7, MemLines: 4, EventLines: 3, StepLines: 3, HistoryLines: 1, OutcomeLines: 6}, `
=header=====================================================
+cpus--------------------------------++memory--------------+
|                                    ||                    |
|                                    ||                    |
|                                    ||                    |
|                                    ||                    |
|                                    ||                    |
|                                    ||                    |
|                                    ||                    |
+------------------------------------++--------------------+
+steps-----------------------++history|outcomes------------+
|                            ||                            |
|                            ||                            |
+----------------------------++----------------------------+
+event-----------------------------------------------------+
|                                                          |
|                                                          |
|                                                          |
+----------------------------------------------------------+
=help=======================================================
`},
		{"140x45 wide and tall CPUs, the explanation whole", 140, 45, LayoutHints{CPULines: 7, CPULinesTall: 11, MemLines: 4, EventLines: 9, StepLines: 2, HistoryLines: 11, OutcomeLines: 5}, `
=header=====================================================================================================================================
+cpus--------------------------------------------------------------------------------------------++memory----------------------------------+
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                |+----------------------------------------+
|                                                                                                |+outcomes--------------------------------+
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
+------------------------------------------------------------------------------------------------+|                                        |
+steps----------------------------------------------------++history------------------------------+|                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
|                                                         ||                                     ||                                        |
+---------------------------------------------------------++-------------------------------------+|                                        |
+event-------------------------------------------------------------------------------------------+|                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
|                                                                                                ||                                        |
+------------------------------------------------------------------------------------------------++----------------------------------------+
=help=======================================================================================================================================
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := Layout(c.w, c.h, c.hints)
			if !ok {
				t.Fatalf("Layout(%d, %d) refused", c.w, c.h)
			}
			got := "\n" + renderLayout(r, c.w, c.h)
			if c.want != "" && got != c.want {
				t.Errorf("Layout(%d, %d):\n%s\nwant:\n%s", c.w, c.h, got, c.want)
			}
			checkTiling(t, r, c.w, c.h)
		})
	}
}

// checkTiling checks that the regions cover the window exactly once.
func checkTiling(t *testing.T, r Regions, w, h int) {
	t.Helper()
	cover := make([]int, w*h)
	add := func(name string, b Rect) {
		if b.X < 0 || b.Y < 0 || b.X+b.W > w || b.Y+b.H > h {
			t.Errorf("%s %+v lies outside %dx%d", name, b, w, h)
			return
		}
		for y := b.Y; y < b.Y+b.H; y++ {
			for x := b.X; x < b.X+b.W; x++ {
				cover[y*w+x]++
			}
		}
	}
	add("header", r.Header)
	add("help", r.Help)
	add("event", r.Event)
	if r.Panes[PaneEvent] != r.Event {
		t.Errorf("the event pane %+v is not the event region %+v", r.Panes[PaneEvent], r.Event)
	}
	for p := Pane(0); p < PaneEvent; p++ {
		if r.Shared(p) && p != PaneHistory {
			continue
		}
		add(p.String(), r.Panes[p])
		if b := r.Panes[p]; b.W < 20 || b.H < 3 {
			t.Errorf("%s %+v is too small to use", p, b)
		}
	}
	for i, n := range cover {
		if n != 1 {
			t.Fatalf("cell (%d,%d) covered %d times", i%w, i/w, n)
		}
	}
}

func TestLayoutTilesEverySize(t *testing.T) {
	for w := MinWidth; w <= 220; w += 7 {
		for h := MinHeight; h <= 70; h += 3 {
			for _, hints := range []LayoutHints{{}, {CPULines: 9, CPULinesTall: 14, MemLines: 4}, {CPULines: 80, CPULinesTall: 120, MemLines: 40}} {
				r, ok := Layout(w, h, hints)
				if !ok {
					t.Fatalf("Layout(%d, %d) refused", w, h)
				}
				checkTiling(t, r, w, h)
			}
		}
	}
}

func TestLayoutTooSmall(t *testing.T) {
	for _, s := range [][2]int{{MinWidth - 1, 40}, {200, MinHeight - 1}, {0, 0}} {
		if _, ok := Layout(s[0], s[1], LayoutHints{}); ok {
			t.Errorf("Layout(%d, %d) accepted a window below %dx%d", s[0], s[1], MinWidth, MinHeight)
		}
	}
}

func TestPaneAt(t *testing.T) {
	r, _ := Layout(80, 24, LayoutHints{CPULines: 7, MemLines: 4})
	for _, c := range []struct {
		x, y int
		side Pane
		want Pane
		ok   bool
	}{
		{5, 3, PaneOutcomes, PaneCPUs, true},
		{70, 3, PaneOutcomes, PaneMemory, true},
		{5, 12, PaneOutcomes, PaneSteps, true},
		{60, 12, PaneOutcomes, PaneOutcomes, true},
		{60, 12, PaneHistory, PaneHistory, true},
		{5, 0, PaneOutcomes, 0, false}, // header
		{5, 20, PaneOutcomes, PaneEvent, true},
	} {
		p, ok := r.PaneAt(c.x, c.y, c.side)
		if ok != c.ok || (ok && p != c.want) {
			t.Errorf("PaneAt(%d, %d) = %v, %v; want %v, %v", c.x, c.y, p, ok, c.want, c.ok)
		}
	}
}

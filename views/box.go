package views

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// fit truncates s (which may contain ANSI styling) to w cells, ending it
// with "…" when cut, and pads it with spaces to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

type borderChars struct{ tl, tr, bl, br, h, v string }

var (
	roundBorder = borderChars{"╭", "╮", "╰", "╯", "─", "│"}
	heavyBorder = borderChars{"┏", "┓", "┗", "┛", "━", "┃"}
)

// boxSpec describes one boxed pane.
type boxSpec struct {
	title   string // plain title text (styled here)
	right   string // plain text at the right of the top border (e.g. "3–9 of 12")
	focused bool
	notice  bool     // right is a notice (Notice style, cut rather than dropped)
	lines   []string // content lines, already styled
	offset  int      // first content line shown
	// bottom is plain text set into the bottom border (e.g. a hint).
	bottom string
}

// renderBox draws a box of exactly w×h cells: a heavy border when focused
// (so focus is visible without colour), rounded otherwise; the title set
// into the top border; the content scrolled to offset, with ▲/▼ marks when
// there is more above or below.
func renderBox(b boxSpec, st Styles, w, h int) string {
	if w < 2 || h < 2 {
		return strings.Repeat("\n", max(h-1, 0))
	}
	bc := roundBorder
	bs, ts := st.PaneBlurred, st.TitleBlurred
	if b.focused {
		bc = heavyBorder
		bs, ts = st.PaneFocused, st.TitleFocused
	}
	inner := w - 2
	rows := h - 2
	off := clamp(b.offset, 0, max(len(b.lines)-rows, 0))
	more := off+rows < len(b.lines)

	var out strings.Builder
	// Top border: ╭─ title ─────── right ─╮
	title := b.title
	if b.focused {
		title = "▶ " + title
	}
	top := bs.Render(bc.tl+bc.h) + ts.Render(" "+title+" ")
	used := 2 + ansi.StringWidth(title) + 2
	right := b.right
	if off > 0 {
		right = strings.TrimSpace("▲ " + right)
	}
	rw := 0
	if right != "" {
		rw = ansi.StringWidth(right) + 2
	}
	fill := w - used - rw - 1
	if fill < 0 && b.notice && w-used-1 >= 12 {
		// Cut the notice to fit.
		right = ansi.Truncate(right, w-used-1-2-1, "…")
		rw = ansi.StringWidth(right) + 2
		fill = w - used - rw - 1
	}
	if fill < 0 {
		// Not enough room: drop the right text, then shorten the title.
		right, rw = "", 0
		fill = w - used - 1
		if fill < 0 {
			title = ansi.Truncate(title, max(w-6, 1), "…")
			top = bs.Render(bc.tl+bc.h) + ts.Render(" "+title+" ")
			fill = max(w-(4+ansi.StringWidth(title))-1, 0)
		}
	}
	top += bs.Render(strings.Repeat(bc.h, fill))
	if right != "" {
		rs := st.ScrollMark
		if b.notice {
			rs = st.Notice
		}
		top += rs.Render(" " + right + " ")
	}
	top += bs.Render(bc.tr)
	out.WriteString(fit(top, w))
	out.WriteByte('\n')

	vbar := bs.Render(bc.v)
	for i := 0; i < rows; i++ {
		line := ""
		if off+i < len(b.lines) {
			line = b.lines[off+i]
		}
		out.WriteString(vbar)
		out.WriteString(fit(line, inner))
		out.WriteString(vbar)
		out.WriteByte('\n')
	}
	bottom := b.bottom
	if more {
		// Apart from the box's own note, so that "▼ more · 19 states"
		// does not read as nineteen more states.
		if bottom == "" {
			bottom = "▼ more"
		} else {
			bottom = "▼ more · " + bottom
		}
	}
	bot := bs.Render(bc.bl)
	if bottom != "" && ansi.StringWidth(bottom)+5 <= w {
		bot += bs.Render(bc.h) + st.ScrollMark.Render(" "+bottom+" ")
		bot += bs.Render(strings.Repeat(bc.h, w-5-ansi.StringWidth(bottom)))
	} else {
		bot += bs.Render(strings.Repeat(bc.h, w-2))
	}
	bot += bs.Render(bc.br)
	out.WriteString(bot)
	return out.String()
}

// place puts blocks at rectangles on a w×h canvas. Blocks must fit their
// rectangles exactly (renderBox and fit guarantee it); rows are assembled
// left to right.
func place(w, h int, items []placed) string {
	rows := make([][]placed, h)
	for _, it := range items {
		lines := strings.Split(it.s, "\n")
		for i := 0; i < it.r.H && it.r.Y+i < h; i++ {
			l := ""
			if i < len(lines) {
				l = lines[i]
			}
			rows[it.r.Y+i] = append(rows[it.r.Y+i], placed{r: Rect{X: it.r.X, W: it.r.W}, s: l})
		}
	}
	var out strings.Builder
	for y := 0; y < h; y++ {
		x := 0
		row := rows[y]
		// Sort by X (few items: insertion sort).
		for i := 1; i < len(row); i++ {
			for j := i; j > 0 && row[j].r.X < row[j-1].r.X; j-- {
				row[j], row[j-1] = row[j-1], row[j]
			}
		}
		for _, p := range row {
			if p.r.X > x {
				out.WriteString(strings.Repeat(" ", p.r.X-x))
				x = p.r.X
			}
			out.WriteString(fit(p.s, p.r.W))
			x += p.r.W
		}
		if x < w {
			out.WriteString(strings.Repeat(" ", w-x))
		}
		if y < h-1 {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

type placed struct {
	r Rect
	s string
}

// TooSmall renders the message shown when the terminal is below the
// minimum size, centred in the w×h window.
func TooSmall(st Styles, w, h, needW, needH int) string {
	msg := st.TooSmall.Render("terminal too small") + "\n" +
		"need ≥ " + itoa(needW) + "x" + itoa(needH) + ", have " + itoa(w) + "x" + itoa(h) + "\n" +
		st.Dim.Render("enlarge the window, or q to quit")
	if w <= 0 || h <= 0 {
		return msg
	}
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		lines = append(lines, wrap(l, w)...)
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"))
}

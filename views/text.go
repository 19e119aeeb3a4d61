package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/views/textwrap"
)

// This file holds the text primitives every rendering shares, screens and
// plain-text reports alike: the word-wrapper (package textwrap, which the
// pictures use too) and one table renderer.

// wrap breaks text into lines of at most w cells.
func wrap(text string, w int) []string {
	if w <= 0 {
		return nil
	}
	return textwrap.Words(text, w, w, false)
}

// paragraph wraps text to lines of w cells: the first starts with first,
// the others with rest (at least ten cells are left for the words).
func paragraph(first, rest, text string, w int, md bool) []string {
	ls := textwrap.Words(text, max(w-ansi.StringWidth(first), 10), max(w-ansi.StringWidth(rest), 10), md)
	for i := range ls {
		if i == 0 {
			ls[i] = first + ls[i]
		} else {
			ls[i] = rest + ls[i]
		}
	}
	return ls
}

// wrapIndented wraps text after a prefix, indenting the lines after the
// first by the prefix's width.
func wrapIndented(prefix, text string, w int) []string {
	return paragraph(prefix, strings.Repeat(" ", ansi.StringWidth(prefix)), text, w, false)
}

// table is a grid of cells with a header row: the one table renderer of
// the screens (compare, necessity) and the reports (list, compare).
// Cells may be styled; widths are measured without escape codes.
type table struct {
	header []string
	rows   [][]string
	// marks, when set, starts each line (header first) with a mark
	// column, e.g. "▶ " on the row open now.
	marks []string
	// width, when set, is the widest line text may write: a last
	// column that does not fit wraps onto lines of its own, aligned
	// under it.
	width int
}

// widths is the width of each column.
func (t table) widths() []int {
	var w []int
	for _, r := range append([][]string{t.header}, t.rows...) {
		for i, c := range r {
			if i >= len(w) {
				w = append(w, 0)
			}
			w[i] = max(w[i], ansi.StringWidth(c))
		}
	}
	return w
}

// text renders the table as aligned columns two spaces apart, without
// trailing spaces; rule puts a line of dashes under the header.
func (t table) text(rule bool) []string {
	widths := t.widths()
	line := func(k int, r []string) string {
		var b strings.Builder
		if t.marks != nil {
			b.WriteString(t.marks[k])
		}
		for i, c := range r[:len(r)-1] {
			b.WriteString(fit(c, widths[i]) + "  ")
		}
		lead, last := b.String(), r[len(r)-1]
		if t.width <= 0 || len(r) < 2 || ansi.StringWidth(lead+last) <= t.width {
			return strings.TrimRight(lead+last, " ")
		}
		// Wrap the last column under itself.
		pad := strings.Repeat(" ", ansi.StringWidth(lead))
		ls := wrap(last, max(t.width-len(pad), 10))
		for i := range ls {
			if i == 0 {
				ls[i] = lead + ls[i]
			} else {
				ls[i] = pad + ls[i]
			}
		}
		return strings.Join(ls, "\n")
	}
	out := []string{line(0, t.header)}
	if rule {
		dashes := make([]string, len(widths))
		for i, w := range widths {
			dashes[i] = strings.Repeat("-", w)
		}
		out = append(out, line(0, dashes))
	}
	for k, r := range t.rows {
		out = append(out, line(k+1, r))
	}
	return out
}

// markdown renders the table GitHub-style, the first column as code.
func (t table) markdown() []string {
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	out := []string{"| " + strings.Join(t.header, " | ") + " |", "|" + strings.Repeat("---|", len(t.header))}
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = esc(c)
		}
		cells[0] = "`" + r[0] + "`"
		out = append(out, "| "+strings.Join(cells, " | ")+" |")
	}
	return out
}

// lines joins lines, each ending with a newline.
func lines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

package views

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// This file holds the text primitives every rendering shares, screens and
// plain-text reports alike: one word-wrapper and one table renderer.

// wrapWords breaks text at spaces into lines: the first at most first
// cells wide, the others at most rest. The spaces between two words on a
// line are kept as written (a line break, a tab or a newline counts as
// one space); a word longer than a line is cut. Styled text is measured
// without its escape codes. With md set, a line never starts with a word
// markdown would read as the start of a block (a list item, heading,
// quote or table row): such a word stays on the line before.
func wrapWords(text string, first, rest int, md bool) []string {
	var words, gaps []string
	start, gapStart := -1, 0
	for i, r := range text + " " { // the space ends the last word
		switch {
		case unicode.IsSpace(r) && start >= 0:
			words = append(words, text[start:i])
			start, gapStart = -1, i
		case !unicode.IsSpace(r) && start < 0:
			if len(words) > 0 {
				gaps = append(gaps, strings.Repeat(" ", utf8.RuneCountInString(text[gapStart:i])))
			}
			start = i
		}
	}
	return wrapGaps(words, func(i int) string { return gaps[i-1] }, first, rest, md)
}

// wrapItems is wrapWords over items that must not be split at their own
// spaces (step IDs), joined by sep on a line.
func wrapItems(items []string, sep string, first, rest int, md bool) []string {
	return wrapGaps(items, func(int) string { return sep }, first, rest, md)
}

// wrapGaps is the wrapper itself: words, and gap(i), what goes between
// word i-1 and word i when they share a line.
func wrapGaps(items []string, gap func(i int) string, first, rest int, md bool) []string {
	first, rest = max(first, 1), max(rest, 1)
	var lines []string
	cur, curW := "", 0
	limit := first
	flush := func() {
		lines = append(lines, cur)
		cur, curW = "", 0
		limit = rest
	}
	for i, word := range items {
		ww := ansi.StringWidth(word)
		sep := ""
		if i > 0 {
			sep = gap(i)
		}
		sepW := ansi.StringWidth(sep)
		if cur != "" && curW+sepW+ww > limit && !(md && mdBlockStart(word)) {
			flush()
		}
		for ww > limit && cur == "" {
			// Cut a word that fits on no line: each cut reads only what
			// it keeps, so a long word costs its length, not its length
			// times its lines (issue 22, item 3).
			head, hw := cutCells(word, limit)
			lines = append(lines, head)
			word = word[len(head):]
			ww -= hw
			limit = rest
		}
		if word == "" {
			continue
		}
		if cur != "" {
			cur += sep
			curW += sepW
		}
		cur += word
		curW += ww
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// cutCells returns the longest head of s at most w cells wide (escape
// codes count for nothing), and its width: at least one grapheme, so
// that a character wider than w still makes progress.
func cutCells(s string, w int) (string, int) {
	var state byte
	i, width := 0, 0
	for i < len(s) {
		if c := s[i]; state == ansi.NormalState && c >= 0x20 && c < 0x7f && (i+1 == len(s) || s[i+1] < 0x80) {
			// Printable ASCII not followed by a combining mark: one cell.
			if width+1 > w && width > 0 {
				break
			}
			i, width = i+1, width+1
			continue
		}
		_, cw, n, next := ansi.DecodeSequence(s[i:], state, nil)
		if n <= 0 {
			n = 1
		}
		if cw > 0 && width+cw > w && width > 0 {
			break
		}
		i, width, state = i+n, width+cw, next
	}
	return s[:i], width
}

// wrap breaks text into lines of at most w cells.
func wrap(text string, w int) []string {
	if w <= 0 {
		return nil
	}
	return wrapWords(text, w, w, false)
}

// paragraph wraps text to lines of w cells: the first starts with first,
// the others with rest (at least ten cells are left for the words).
func paragraph(first, rest, text string, w int, md bool) []string {
	ls := wrapWords(text, max(w-ansi.StringWidth(first), 10), max(w-ansi.StringWidth(rest), 10), md)
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

// mdBlockStart reports whether a line starting with word could be read
// by markdown as the start of a block (list item, heading, quote, table
// row).
func mdBlockStart(word string) bool {
	switch word[0] {
	case '-', '+', '*', '#', '>', '|', '=':
		return true
	}
	i := 0
	for i < len(word) && word[i] >= '0' && word[i] <= '9' {
		i++
	}
	return i > 0 && i < len(word) && (word[i] == '.' || word[i] == ')')
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

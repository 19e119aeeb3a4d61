// Package textwrap is the one word-wrapper of every rendering: the
// screens, the plain-text reports and the pictures (views and
// views/picture) break text into lines with it, measured in terminal
// cells with escape codes counting for nothing.
package textwrap

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Words breaks text at spaces into lines: the first at most first
// cells wide, the others at most rest. The spaces between two words on a
// line are kept as written (a line break, a tab or a newline counts as
// one space); a word longer than a line is cut. Styled text is measured
// without its escape codes. With md set, a line never starts with a word
// markdown would read as the start of a block (a list item, heading,
// quote or table row): such a word stays on the line before.
func Words(text string, first, rest int, md bool) []string {
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

// Items is Words over items that must not be split at their own
// spaces (step IDs), joined by sep on a line.
func Items(items []string, sep string, first, rest int, md bool) []string {
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
		if cur != "" && curW+sepW+ww > limit && !(md && MarkdownBlockStart(word)) {
			flush()
		}
		for ww > limit && cur == "" {
			// Cut a word that fits on no line: each cut reads only what
			// it keeps, so a long word costs its length, not its length
			// times its lines (issue 22, item 3).
			head, hw := Cut(word, limit)
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

// Cut returns the longest head of s at most w cells wide (escape
// codes count for nothing), and its width: at least one grapheme, so
// that a character wider than w still makes progress.
func Cut(s string, w int) (string, int) {
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

// MarkdownBlockStart reports whether a line starting with word could be read
// by markdown as the start of a block (list item, heading, quote, table
// row).
func MarkdownBlockStart(word string) bool {
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

package scenarios

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable is the one rule that makes text from input safe to show on a
// terminal: every front-end passes names, paths, notes and messages that
// came from a file, a trace or the command line through it before they
// reach the screen. Line breaks and tabs stay; every other control or
// unprintable character (ESC, BEL, CR, DEL, C1 controls, bidirectional
// overrides) is written as a Go-style escape (\x1b, \u202e), and so is
// each byte of invalid UTF-8, so that no input can send a terminal an
// escape sequence (set a window title, move the cursor, rewrite a line).
func Printable(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return !printableRune(r) })
	if i < 0 {
		return s // the common case: nothing to escape
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case printableRune(r):
			b.WriteString(s[i : i+n])
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
		i += n
	}
	return b.String()
}

// printableRune reports whether r may reach a terminal as it is: the
// printable characters (letters, marks, numbers, punctuation, symbols and
// the ASCII space), line breaks and tabs. Test names, trace files and
// Printable share this rule.
func printableRune(r rune) bool {
	return r == '\n' || r == '\t' || r == ' ' || r != utf8.RuneError && unicode.IsPrint(r)
}

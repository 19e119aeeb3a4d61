package syntax

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
	// Reports are ASCII: look at bytes until the first that is not a
	// printable ASCII one (decoding every rune and asking package unicode
	// was most of the cost of writing a small check report).
	i := 0
	for i < len(s) && printableASCII[s[i]] {
		i++
	}
	if i == len(s) {
		return s // the common case: nothing to escape
	}
	j := strings.IndexFunc(s[i:], func(r rune) bool { return !PrintableRune(r) })
	if j < 0 {
		return s
	}
	i += j
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case PrintableRune(r):
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

// printableASCII says which bytes below 0x80 PrintableRune allows (none
// from 0x80 up: those start runes Printable decodes).
var printableASCII = func() (t [256]bool) {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		t[r] = PrintableRune(r)
	}
	return t
}()

// PrintableRune reports whether r may reach a terminal as it is: the
// printable characters (letters, marks, numbers, punctuation, symbols and
// the ASCII space), line breaks and tabs. Test names, trace files and
// Printable share this rule.
func PrintableRune(r rune) bool {
	return r == '\n' || r == '\t' || r == ' ' || r != utf8.RuneError && unicode.IsPrint(r)
}

// MaxMessageLine bounds every line of a message, in characters.
const MaxMessageLine = 300

// maxMessageWord bounds one word (a run of non-space characters: a name,
// a path, a number) of a message.
const maxMessageWord = 80

// Brief is the one rule that keeps a message short, whatever the input
// it quotes (issue 22, item 5): in every line, a word longer than 80
// characters keeps its first 50 and last 20 ("nnnn…nnnn", so a path keeps
// its file name and a position its line and column), and a line still
// longer than MaxMessageLine keeps its first 200 and last 90 characters
// around " … " (a 5,000-term condition keeps its start, and the sentence
// its end). Every front-end passes its messages through it, after
// Printable.
func Brief(msg string) string {
	if len(msg) <= maxMessageWord {
		return msg // the common case
	}
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = briefLine(l)
	}
	return strings.Join(lines, "\n")
}

func briefLine(l string) string {
	if utf8.RuneCountInString(l) <= maxMessageWord {
		return l
	}
	var b strings.Builder
	for len(l) > 0 {
		i := strings.IndexAny(l, " \t")
		if i < 0 {
			i = len(l)
		}
		b.WriteString(cutMiddle(l[:i], 50, 20, "…"))
		j := i
		for j < len(l) && (l[j] == ' ' || l[j] == '\t') {
			j++
		}
		b.WriteString(l[i:j])
		l = l[j:]
	}
	return cutMiddle(b.String(), 200, 90, " … ")
}

// cutMiddle is s when it has at most head+tail+len(mark) characters,
// else its first head and last tail characters around mark.
func cutMiddle(s string, head, tail int, mark string) string {
	n := utf8.RuneCountInString(s)
	if n <= head+tail+utf8.RuneCountInString(mark) {
		return s
	}
	h, t := 0, len(s)
	for range head {
		_, size := utf8.DecodeRuneInString(s[h:])
		h += size
	}
	for range tail {
		_, size := utf8.DecodeLastRuneInString(s[:t])
		t -= size
	}
	return s[:h] + mark + s[t:]
}

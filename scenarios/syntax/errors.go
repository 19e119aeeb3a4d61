package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Position is a place in a scenario source: file name, 1-based line and
// 1-based column (counted in characters). A zero Line means unknown.
type Position struct {
	File string
	Line int
	Col  int
}

// String renders the position as "file:line:col", leaving out the file
// when it is empty and the column when it is zero.
func (p Position) String() string {
	s := p.File
	if p.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprint(p.Line)
		if p.Col > 0 {
			s += fmt.Sprintf(":%d", p.Col)
		}
	}
	if s == "" {
		s = "<unknown>"
	}
	return s
}

// IsValid reports whether the position names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// before reports whether p comes strictly before q in the same file.
func (p Position) before(q Position) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// Error is a parse or compile error at a position in the source.
type Error struct {
	Pos Position
	Msg string
}

// Error returns "file:line:col: message".
func (e Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errorf builds an Error. Input never makes a long message: a string
// quoted with %q is quoted by its first characters only (quoteShort), and
// a first line still longer than MaxMessageLine (a huge name or expression
// printed with %s) is cut with "…" (what follows the first line, such as
// the list of steps enabled, comes from the program, not the input).
func Errorf(pos Position, format string, args ...any) Error {
	msg := fmt.Sprintf(format, shortQuoted(format, args)...)
	first, rest, nl := strings.Cut(msg, "\n")
	if len(first) > MaxMessageLine {
		first = quoteShortN(first, MaxMessageLine)
		if nl {
			msg = first + "\n" + rest
		} else {
			msg = first
		}
	}
	return Error{Pos: pos, Msg: msg}
}

// MaxQuoted is how many characters of an input string an error message
// quotes; longer ones end in "…".
const MaxQuoted = 40

// QuoteShort is s with at most MaxQuoted characters, "…" ending it when
// it was cut, for quoting in a message.
func QuoteShort(s string) string { return quoteShortN(s, MaxQuoted) }

// quoteShortN is s cut to its first max characters, with "…" when cut.
func quoteShortN(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	if !utf8.ValidString(s) && len(s) > 4*max {
		return s[:4*max] + "…" // invalid bytes count one each above
	}
	return s
}

// shortQuoted returns args with every string that format quotes with %q
// shortened by quoteShort. It walks the format's verbs the way fmt does
// (flags, width, precision, '*' taking an argument).
func shortQuoted(format string, args []any) []any {
	var out []any
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && (format[i] == '+' || format[i] == '-' || format[i] == '#' || format[i] == ' ' || format[i] == '0' || format[i] == '.' || format[i] == '*' || format[i] >= '1' && format[i] <= '9') {
			if format[i] == '*' {
				arg++
			}
			i++
		}
		if i >= len(format) || format[i] == '%' {
			continue
		}
		if s, ok := argAt(args, arg).(string); ok && format[i] == 'q' && len(s) > MaxQuoted {
			if out == nil {
				out = append([]any(nil), args...)
			}
			out[arg] = QuoteShort(s)
		}
		arg++
	}
	if out == nil {
		return args
	}
	return out
}

func argAt(args []any, i int) any {
	if i < len(args) {
		return args[i]
	}
	return nil
}

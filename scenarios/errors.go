package scenarios

import "fmt"

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

// errorf builds an Error.
func errorf(pos Position, format string, args ...any) Error {
	return Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

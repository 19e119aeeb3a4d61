package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is the kind of a lexical token.
type token uint8

const (
	tEOF token = iota
	tIdent
	tInt

	tLParen   // (
	tRParen   // )
	tLBrace   // {
	tRBrace   // }
	tLBrack   // [
	tRBrack   // ]
	tSemi     // ;
	tComma    // ,
	tColon    // :
	tQuestion // ?
	tDot      // .
	tArrow    // ->

	tAssign    // =
	tAddAssign // +=
	tSubAssign // -=
	tMulAssign // *=
	tDivAssign // /=
	tModAssign // %=
	tAndAssign // &=
	tOrAssign  // |=
	tXorAssign // ^=
	tShlAssign // <<=
	tShrAssign // >>=
	tInc       // ++
	tDec       // --

	tPlus  // +
	tMinus // -
	tStar  // *
	tSlash // /
	tPct   // %
	tAmp   // &
	tPipe  // |
	tCaret // ^
	tShl   // <<
	tShr   // >>
	tNot   // !
	tTilde // ~
	tLAnd  // &&
	tLOr   // ||
	tEq    // ==
	tNe    // !=
	tLt    // <
	tLe    // <=
	tGt    // >
	tGe    // >=

	tConj    // /\  (conditions)
	tDisj    // \/  (conditions)
	tImplies // =>  (conditions)
	tLtGt    // <>  (conditions: herd7's "not equal")
)

var tokenText = [...]string{
	tEOF: "end of file", tIdent: "identifier", tInt: "integer",
	tLParen: "(", tRParen: ")", tLBrace: "{", tRBrace: "}", tLBrack: "[", tRBrack: "]",
	tSemi: ";", tComma: ",", tColon: ":", tQuestion: "?", tDot: ".", tArrow: "->",
	tAssign: "=", tAddAssign: "+=", tSubAssign: "-=", tMulAssign: "*=", tDivAssign: "/=",
	tModAssign: "%=", tAndAssign: "&=", tOrAssign: "|=", tXorAssign: "^=", tShlAssign: "<<=",
	tShrAssign: ">>=", tInc: "++", tDec: "--",
	tPlus: "+", tMinus: "-", tStar: "*", tSlash: "/", tPct: "%", tAmp: "&", tPipe: "|",
	tCaret: "^", tShl: "<<", tShr: ">>", tNot: "!", tTilde: "~", tLAnd: "&&", tLOr: "||",
	tEq: "==", tNe: "!=", tLt: "<", tLe: "<=", tGt: ">", tGe: ">=",
	tConj: `/\`, tDisj: `\/`, tImplies: "=>", tLtGt: "<>",
}

func (t token) String() string {
	if int(t) < len(tokenText) {
		return tokenText[t]
	}
	return fmt.Sprintf("token(%d)", t)
}

// tok is one scanned token.
type tok struct {
	kind token
	pos  Position
	text string // identifier or integer spelling
}

// end returns the position just after the token.
func (t tok) end() Position {
	n := len(t.text)
	if t.kind != tIdent && t.kind != tInt {
		n = len(t.kind.String())
	}
	return Position{File: t.pos.File, Line: t.pos.Line, Col: t.pos.Col + n}
}

// describe renders the token for error messages.
func (t tok) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent, tInt:
		return fmt.Sprintf("%q", QuoteShort(t.text))
	}
	return fmt.Sprintf("%q", t.kind.String())
}

// Comment is a comment in the source, kept so that Format can write it
// back. Text is the raw comment including its delimiters: "(* ... *)",
// "/* ... */" or "// ...". Between the "C NAME" line and the initial-state
// block, lines of free text (diy's "Cycle=..." lines, a quoted description)
// are kept as comments too, with Free set and Text the line as written.
type Comment struct {
	Pos  Position
	Text string
	Free bool
}

// endLine returns the line the comment ends on.
func (c Comment) endLine() int { return c.Pos.Line + strings.Count(c.Text, "\n") }

// IsLine reports whether c is a // comment, which runs to the end of its line.
func (c Comment) IsLine() bool { return !c.Free && strings.HasPrefix(c.Text, "//") }

// scanner turns source text into tokens. Comments are collected into
// comments as they are passed.
type scanner struct {
	file     string
	src      []byte
	off      int
	line     int
	col      int
	comments []Comment
	// code is set inside thread functions, where "(*" is C (as in
	// READ_ONCE(*x)) rather than the start of a herd comment.
	code bool
}

func newScanner(file string, src []byte) *scanner {
	s := &scanner{file: file, src: src, line: 1, col: 1}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off = 3 // skip a UTF-8 byte order mark
	}
	return s
}

func (s *scanner) pos() Position { return Position{File: s.file, Line: s.line, Col: s.col} }

func (s *scanner) fail(pos Position, format string, args ...any) {
	panic(Errorf(pos, format, args...))
}

// peekByte returns the byte k bytes ahead, or 0.
func (s *scanner) peekByte(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

// advance moves past one character (a whole UTF-8 sequence).
func (s *scanner) advance() {
	if s.off >= len(s.src) {
		return
	}
	c := s.src[s.off]
	if c == '\n' {
		s.off++
		s.line++
		s.col = 1
		return
	}
	if c < utf8.RuneSelf {
		s.off++
	} else {
		_, n := utf8.DecodeRune(s.src[s.off:])
		s.off += n
	}
	s.col++
}

// skipTo moves to offset end, as advance would one character at a time:
// past every line break to the next line, one column per character (each
// invalid UTF-8 byte one character, as advance counts it). Comments and
// words are skipped whole with it (advance per byte was a sixth of
// parsing a small test).
func (s *scanner) skipTo(end int) {
	seg := s.src[s.off:end]
	if nl := bytes.LastIndexByte(seg, '\n'); nl >= 0 {
		s.line += bytes.Count(seg, []byte{'\n'})
		s.col = 1
		seg = seg[nl+1:]
	}
	s.col += utf8.RuneCount(seg)
	s.off = end
}

// skipSpace skips white space and comments, recording the comments.
func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.advance()
		case c == '(' && s.peekByte(1) == '*' && !s.code:
			s.blockComment("(*", "*)")
		case c == '/' && s.peekByte(1) == '*':
			s.blockComment("/*", "*/")
		case c == '/' && s.peekByte(1) == '/':
			start, pos := s.off, s.pos()
			end := bytes.IndexByte(s.src[s.off:], '\n')
			if end < 0 {
				end = len(s.src) - s.off
			}
			s.skipTo(s.off + end)
			s.comments = append(s.comments, Comment{Pos: pos, Text: strings.TrimRight(string(s.src[start:s.off]), " \t\r")})
		default:
			return
		}
	}
}

func (s *scanner) blockComment(open, close string) {
	start, pos := s.off, s.pos()
	// The delimiters are ASCII, which no UTF-8 sequence holds: the first
	// close after the opening is where advancing would stop.
	end := bytes.Index(s.src[s.off+len(open):], []byte(close))
	if end < 0 {
		s.fail(pos, "unterminated comment")
	}
	s.skipTo(s.off + len(open) + end + len(close))
	s.comments = append(s.comments, Comment{Pos: pos, Text: string(s.src[start:s.off])})
}

// restOfLineWord reads the next run of non-space characters on the current
// line (used for the test name after "C"). It returns "" if the line has
// no more characters. A name is printed in terminals and file names, so
// control characters, other unprintable characters and invalid UTF-8 in
// it are errors.
func (s *scanner) restOfLineWord() (string, Position) {
	for s.off < len(s.src) && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
		s.advance()
	}
	pos, start := s.pos(), s.off
	for s.off < len(s.src) {
		c := s.src[s.off]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			break
		}
		if (c == '(' && s.peekByte(1) == '*') || (c == '/' && (s.peekByte(1) == '*' || s.peekByte(1) == '/')) {
			break
		}
		r, n := utf8.DecodeRune(s.src[s.off:])
		switch {
		case r == utf8.RuneError && n <= 1:
			s.fail(s.pos(), "the test name contains the invalid UTF-8 byte 0x%02x", c)
		case !unicode.IsPrint(r):
			s.fail(s.pos(), "the test name contains the unprintable character %U", r)
		}
		s.advance()
	}
	return string(s.src[start:s.off]), pos
}

// header scans what lies between the "C NAME" line and the "{" of the
// initial state, as herd7 does: comments, and free text that herd7 skips
// (diy's "Cycle=..." lines, a quoted description, a second name line).
// Each free-text line is recorded as a Free comment. It stops before "{"
// or at the end of the source.
func (s *scanner) header() {
	for {
		s.skipSpace()
		if s.off >= len(s.src) || s.src[s.off] == '{' {
			return
		}
		start, pos := s.off, s.pos()
		for s.off < len(s.src) && s.src[s.off] != '\n' && s.src[s.off] != '{' {
			s.advance()
		}
		text := strings.TrimRight(string(s.src[start:s.off]), " \t\r")
		if LooksLikeThread(text) {
			// A thread header here means the initial-state block is
			// missing; herd7 would fail too, less clearly.
			s.fail(pos, "expected \"{\" to start the initial state, found %q", strings.TrimSpace(text[:strings.IndexByte(text, '(')]))
		}
		s.comments = append(s.comments, Comment{Pos: pos, Text: text, Free: true})
	}
}

// LooksLikeThread reports whether a header line starts like a thread,
// "P0(" or "void P0(".
func LooksLikeThread(text string) bool {
	text = strings.TrimPrefix(text, "void ")
	i := strings.IndexByte(text, '(')
	return i > 0 && IsThreadName(strings.TrimSpace(text[:i]))
}

func isLetter(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// operators maps each operator's spelling (tokenText) to its token, by
// length: next matches the longest first.
var operators = func() (ops [4]map[string]token) {
	for n := range ops {
		ops[n] = map[string]token{}
	}
	for t := tLParen; int(t) < len(tokenText); t++ {
		ops[len(tokenText[t])][tokenText[t]] = t
	}
	return ops
}()

// opStarts says, by length, which bytes an operator of that length starts
// with, and oneByteOps is the operator each byte is alone (tEOF: none):
// next looks a longer spelling up only when one might match, and a single
// character not at all (three map look-ups per punctuation mark were a
// sixth of parsing a small test).
var opStarts, oneByteOps = func() (starts [4][256]bool, one [256]token) {
	for n, ops := range operators {
		for op, t := range ops {
			starts[n][op[0]] = true
			if n == 1 {
				one[op[0]] = t
			}
		}
	}
	return starts, one
}()

// next scans the next token.
func (s *scanner) next() tok {
	s.skipSpace()
	pos := s.pos()
	if s.off >= len(s.src) {
		return tok{kind: tEOF, pos: pos}
	}
	c := s.src[s.off]
	switch {
	case isLetter(c):
		return tok{kind: tIdent, pos: pos, text: s.word()}
	case isDigit(c):
		return tok{kind: tInt, pos: pos, text: s.word()}
	case c == '(' && s.code && s.peekByte(1) == '*':
		s.mlComment(pos)
	}
	for n := 3; n >= 1; n-- {
		if s.off+n > len(s.src) || !opStarts[n][s.src[s.off]] {
			continue
		}
		if n == 1 {
			t := oneByteOps[s.src[s.off]]
			s.advance()
			return tok{kind: t, pos: pos}
		}
		if t, ok := operators[n][string(s.src[s.off:s.off+n])]; ok {
			for range n {
				s.advance()
			}
			return tok{kind: t, pos: pos}
		}
	}
	r, _ := utf8.DecodeRune(s.src[s.off:])
	switch {
	case r == '"' || r == '\'':
		s.fail(pos, "string and character literals are not supported")
	case r == '#':
		s.fail(pos, "preprocessor directives are not supported")
	case r == utf8.RuneError:
		s.fail(pos, "invalid UTF-8 byte 0x%02x", c)
	}
	s.fail(pos, "unexpected character %q", r)
	return tok{}
}

// word scans an identifier or a number: letters and digits.
func (s *scanner) word() string {
	start := s.off
	for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
		s.off++ // ASCII, never a line break
	}
	s.col += s.off - start
	return string(s.src[start:s.off])
}

// mlComment refuses a herd7 "(* ... *)" comment in thread code (at pos,
// "(*" and a space), where "(*p)" is C.
func (s *scanner) mlComment(pos Position) {
	if n := s.peekByte(2); n == ' ' || n == '\t' || n == '\n' || n == '\r' {
		end := s.off
		for end < len(s.src) && s.src[end] != '\n' {
			end++
		}
		if strings.Contains(string(s.src[s.off+2:end]), "*)") {
			s.fail(pos, "(* ... *) comments are not allowed inside thread code; use /* ... */ or //")
		}
	}
}

package syntax

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Limits that keep parsing bounded on any input.
const (
	// MaxSourceSize is the largest scenario source Parse accepts, in bytes.
	MaxSourceSize = 1 << 20
	// MaxDepth is the deepest nesting of statements, expressions or
	// conditions Parse accepts (blocks, parentheses, unary operators,
	// casts, calls).
	MaxDepth = 100
	// MaxOperators bounds the length of one statement or clause, counted
	// in binary and conditional operators.
	MaxOperators = 10000
)

// Funcs is what Parse knows of the functions a test calls, so that a
// call's error points at the call: for a name, one flag per argument it
// takes, true where the argument must be a dereference such as *x; or an
// Error at the call saying why the name cannot be called. (The parser
// knows C; which kernel primitives there are is the compiler's table.)
type Funcs func(name string, at Position) (deref []bool, err error)

// Parse parses a C litmus test whose calls funcs knows. filename is used
// in positions only. Every error is an Error carrying file:line:col.
func Parse(filename string, src []byte, funcs Funcs) (s *Scenario, err error) {
	if len(src) > MaxSourceSize {
		return nil, Errorf(Position{File: filename, Line: 1, Col: 1},
			"source is %d bytes; at most %d are supported", len(src), MaxSourceSize)
	}
	p := &parser{sc: newScanner(filename, src), file: filename, funcs: funcs}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(Error)
			if !ok {
				panic(r)
			}
			s, err = nil, e
		}
	}()
	return p.parseFile(), nil
}

// parser is a recursive-descent parser over a one-token-lookahead stream.
// Errors are raised by panicking with an Error; Parse recovers them.
type parser struct {
	sc    *scanner
	file  string
	funcs Funcs
	tok   tok   // current token
	prev  tok   // last consumed token
	ahead []tok // tokens scanned past tok (peek)
	depth int
	ops   int // operators in the statement or clause being parsed
	ncom  int // comments in sc.comments already attached to the tree
	// stopAtFinal stops parsing where the final clause starts (see
	// FindFinal): what follows it in a mail is not litmus.
	stopAtFinal bool
}

// finalAt is how a parser with stopAtFinal set stops: where the final
// clause starts.
type finalAt struct{ pos Position }

// FindFinal parses src up to its final clause and returns where that
// clause starts, without scanning past its first token: in a mail, the
// prose after a test need not be anything a scanner accepts. An error
// in the test before it is returned as Parse would.
func FindFinal(filename string, src []byte, funcs Funcs) (pos Position, err error) {
	p := &parser{sc: newScanner(filename, src), file: filename, funcs: funcs, stopAtFinal: true}
	defer func() {
		switch r := recover().(type) {
		case nil:
		case finalAt:
			pos, err = r.pos, nil
		case Error:
			err = r
		default:
			panic(r)
		}
	}()
	p.parseFile()
	return Position{}, Errorf(Position{File: filename, Line: 1, Col: 1}, "internal error: no final clause")
}

func (p *parser) fail(pos Position, format string, args ...any) {
	panic(Errorf(pos, format, args...))
}

func (p *parser) next() {
	p.prev = p.tok
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	p.tok = p.sc.next()
}

// peek returns the token after the current one.
func (p *parser) peek() tok {
	if len(p.ahead) == 0 {
		p.ahead = append(p.ahead, p.sc.next())
	}
	return p.ahead[0]
}

// setCode switches the scanner between thread code and the rest; it must
// be called with no token scanned ahead.
func (p *parser) setCode(code bool) {
	if len(p.ahead) > 0 {
		panic("syntax: internal error: scanner mode switch with lookahead")
	}
	p.sc.code = code
}

func (p *parser) is(kind token) bool { return p.tok.kind == kind }

func (p *parser) isIdent(name string) bool { return p.tok.kind == tIdent && p.tok.text == name }

func (p *parser) expect(kind token, context string) tok {
	if p.tok.kind != kind {
		p.fail(p.tok.pos, "expected %q %s, found %s", kind.String(), context, p.tok.describe())
	}
	t := p.tok
	p.next()
	return t
}

func (p *parser) expectIdent(context string) tok {
	if p.tok.kind != tIdent {
		p.fail(p.tok.pos, "expected a name %s, found %s", context, p.tok.describe())
	}
	t := p.tok
	p.next()
	return t
}

// isReserved reports whether name is a C keyword or type name that cannot
// name a variable.
func isReserved(name string) bool {
	return isTypeWord(name) || unsupportedStmts[name] != "" || name == "if" || name == "else"
}

// declName reads the name being declared, rejecting keywords and type names.
func (p *parser) declName(context string) tok {
	t := p.expectIdent(context)
	if isReserved(t.text) {
		p.fail(t.pos, "%q is a keyword or type name and cannot be declared as a variable", t.text)
	}
	return t
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.fail(p.tok.pos, "nesting too deep (more than %d levels)", MaxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// takeLead returns the comments not yet attached that start before pos.
func (p *parser) takeLead(pos Position) []Comment {
	var out []Comment
	for p.ncom < len(p.sc.comments) && p.sc.comments[p.ncom].Pos.before(pos) {
		out = append(out, p.sc.comments[p.ncom])
		p.ncom++
	}
	return out
}

// takeTrail returns the comments not yet attached that start on the line
// of the last consumed token, before the current token.
func (p *parser) takeTrail() []Comment {
	var out []Comment
	line := p.prev.pos.Line
	for p.ncom < len(p.sc.comments) {
		c := p.sc.comments[p.ncom]
		if c.Pos.Line != line || !c.Pos.before(p.tok.pos) {
			break
		}
		out = append(out, c)
		p.ncom++
	}
	return out
}

// takeInner returns comments not yet attached that start before the end
// of the last consumed token (that is, inside the node just parsed).
func (p *parser) takeInner() []Comment {
	return p.takeLead(Position{File: p.file, Line: p.prev.pos.Line, Col: p.prev.pos.Col + 1})
}

func (p *parser) parseFile() *Scenario {
	p.next()
	s := &Scenario{File: p.file}
	s.Header = p.takeLead(p.tok.pos)
	if !p.is(tIdent) {
		p.fail(p.tok.pos, "expected \"C\" and the test name, found %s", p.tok.describe())
	}
	if p.tok.text != "C" {
		p.fail(p.tok.pos, "only C litmus tests are supported (this one is %q)", p.tok.text)
	}
	s.NamePos = p.tok.pos
	if len(p.ahead) > 0 {
		panic("syntax: internal error: lookahead at the test name")
	}
	name, npos := p.sc.restOfLineWord()
	if name == "" {
		p.fail(npos, "missing test name after \"C\"")
	}
	s.Name = name
	p.sc.header()
	p.next()
	if !p.is(tLBrace) {
		p.fail(p.tok.pos, "expected \"{\" to start the initial state, found %s", p.tok.describe())
	}
	s.Header = append(s.Header, p.takeLead(p.tok.pos)...)
	s.Meta = parseMeta(s.Header)
	p.parseInit(s)
	p.parseThreads(s)
	p.parseClauses(s)
	return s
}

// ---- initial state ----

func (p *parser) parseInit(s *Scenario) {
	open := p.expect(tLBrace, "to start the initial state")
	s.InitPos = open.pos
	for !p.is(tRBrace) {
		if p.is(tEOF) {
			p.fail(open.pos, "initial-state block is not closed (missing \"}\")")
		}
		lead := p.takeLead(p.tok.pos)
		decls := p.parseInitDecl()
		decls[0].Lead = append(lead, decls[0].Lead...)
		last := decls[len(decls)-1]
		last.Lead = append(last.Lead, p.takeInner()...)
		last.Trail = p.takeTrail()
		s.Init = append(s.Init, decls...)
	}
	s.InitEnd = p.takeLead(p.tok.pos)
	p.next()
}

func (p *parser) parseInitDecl() []*InitDecl {
	p.ops = 0
	var out []*InitDecl
	typ, typed := "", p.isTypeStart()
	start := p.tok.pos
	if typed {
		typ = p.parseType()
	}
	for {
		d := &InitDecl{Pos: start, Type: typ, Thread: -1}
		if len(out) > 0 {
			d.Pos = p.tok.pos
		}
		if typed {
			d.Stars = p.parseStars()
		}
		p.parseInitTarget(d)
		if typed && d.Stars == 0 && isVoid(typ) {
			p.fail(d.Pos, "%s cannot have type void", d.Name)
		}
		if p.is(tAssign) {
			p.next()
			d.Value = p.parseInitValue()
		} else if !typed && (p.is(tIdent) || p.is(tStar)) && !d.IsReg && !d.Bracket {
			p.fail(d.Pos, "unknown type %q (see FORMAT.md for the types smpscope knows)", d.Name)
		}
		out = append(out, d)
		if !p.is(tComma) {
			break
		}
		p.next()
	}
	if p.is(tRBrace) {
		return out // herd accepts a missing ";" before "}"
	}
	p.expect(tSemi, "after an initial value")
	return out
}

// parseInitTarget reads what an initial-state entry sets: a location
// "x" or "[x]", or a register "0:r1" or "P0:r1".
func (p *parser) parseInitTarget(d *InitDecl) {
	switch {
	case p.is(tInt) && p.peek().kind == tColon, p.is(tIdent) && IsThreadName(p.tok.text) && p.peek().kind == tColon:
		t := p.tok
		n, err := strconv.Atoi(strings.TrimPrefix(t.text, "P"))
		if err != nil || n > 1000 {
			p.fail(t.pos, "invalid thread number %q", t.text)
		}
		p.next()
		p.next()
		id := p.declName("of a register")
		d.IsReg, d.Thread, d.Name = true, n, id.text
	case p.is(tLBrack):
		p.next()
		id := p.declName("in the initial state")
		p.expect(tRBrack, "after the location")
		d.Bracket, d.Name = true, id.text
	default:
		d.Name = p.declName("in the initial state").text
	}
	p.rejectArray()
}

func (p *parser) rejectArray() {
	if p.is(tLBrack) {
		p.fail(p.tok.pos, "arrays are not supported")
	}
	if p.is(tDot) || p.is(tArrow) {
		p.fail(p.tok.pos, "struct members are not supported")
	}
}

func (p *parser) parseInitValue() Expr {
	switch {
	case p.is(tInt):
		return p.parseIntLit()
	case p.is(tMinus) && p.peek().kind == tInt:
		op := p.tok
		p.next()
		return &UnaryExpr{OpPos: op.pos, Op: "-", X: p.parseIntLit()}
	case p.is(tAmp) && p.peek().kind == tIdent:
		op := p.tok
		p.next()
		id := p.tok
		p.next()
		return &UnaryExpr{OpPos: op.pos, Op: "&", X: &Ident{NamePos: id.pos, Name: id.text}}
	case p.isIdent("ATOMIC_INIT"):
		id := p.tok
		p.next()
		p.expect(tLParen, "after ATOMIC_INIT")
		var arg Expr
		if p.is(tMinus) {
			op := p.tok
			p.next()
			arg = &UnaryExpr{OpPos: op.pos, Op: "-", X: p.parseIntLit()}
		} else if p.is(tInt) {
			arg = p.parseIntLit()
		} else {
			p.fail(p.tok.pos, "ATOMIC_INIT takes an integer, found %s", p.tok.describe())
		}
		p.expect(tRParen, "after the ATOMIC_INIT value")
		return &CallExpr{Fun: &Ident{NamePos: id.pos, Name: id.text}, Args: []Expr{arg}}
	case p.is(tIdent):
		id := p.tok
		p.next()
		if p.is(tLParen) {
			p.fail(p.tok.pos, "unsupported initial value %s(...) (expected an integer, a location, &location or ATOMIC_INIT(n))", id.text)
		}
		return &Ident{NamePos: id.pos, Name: id.text}
	case p.is(tLBrace):
		p.fail(p.tok.pos, "arrays and struct initialisers are not supported")
	}
	p.fail(p.tok.pos, "unsupported initial value %s (expected an integer, a location, &location or ATOMIC_INIT(n))", p.tok.describe())
	return nil
}

func (p *parser) parseIntLit() *IntLit {
	t := p.expect(tInt, "(an integer)")
	v, err := parseInt(t.text)
	if err != nil {
		p.fail(t.pos, "%v", err)
	}
	return &IntLit{ValuePos: t.pos, Value: v, Text: t.text}
}

// parseInt parses a C integer literal: decimal, 0x hex, 0 octal or 0b
// binary, with optional u/l suffixes.
func parseInt(text string) (int64, error) {
	digits := strings.TrimRight(text, "uUlL")
	suffix := strings.ToLower(text[len(digits):])
	switch suffix {
	case "", "u", "l", "ul", "lu", "ll", "ull", "llu":
	default:
		return 0, fmt.Errorf("invalid integer literal %q", QuoteShort(text))
	}
	base := 10
	switch {
	case strings.HasPrefix(digits, "0x") || strings.HasPrefix(digits, "0X"):
		base, digits = 16, digits[2:]
	case strings.HasPrefix(digits, "0b") || strings.HasPrefix(digits, "0B"):
		base, digits = 2, digits[2:]
	case len(digits) > 1 && digits[0] == '0':
		base, digits = 8, digits[1:]
	}
	if digits == "" || strings.ContainsAny(digits, "_+-") {
		return 0, fmt.Errorf("invalid integer literal %q", QuoteShort(text))
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("integer literal %q is too large", QuoteShort(text))
		}
		return 0, fmt.Errorf("invalid integer literal %q", QuoteShort(text))
	}
	if v > 1<<63-1 {
		return 0, fmt.Errorf("integer literal %q is too large", QuoteShort(text))
	}
	return int64(v), nil
}

// ---- types ----

var basicTypeWords = map[string]bool{"int": true, "long": true, "short": true, "char": true, "unsigned": true, "signed": true}

// typedefNames are the one-word type names: the kernel's, C11's and the
// fixed-width ones herd7 knows. Values are 64-bit whatever the type.
var typedefNames = map[string]bool{
	"intptr_t": true, "uintptr_t": true, "atomic_t": true, "spinlock_t": true,
	"u8": true, "u16": true, "u32": true, "u64": true, "s8": true, "s16": true, "s32": true, "s64": true,
	"bool": true, "size_t": true,
	"int8_t": true, "uint8_t": true, "int16_t": true, "uint16_t": true, "int32_t": true, "uint32_t": true,
	"int64_t": true, "uint64_t": true, "__int128_t": true, "__uint128_t": true,
	"atomic_int": true,
}

// typeQualifiers change nothing in the model: every shared access is
// spelled out by the primitive that makes it.
var typeQualifiers = map[string]bool{"const": true, "volatile": true, "_Atomic": true}

var unsupportedTypeWords = map[string]string{
	"static": "storage class \"static\" is not supported", "extern": "storage class \"extern\" is not supported",
	"register": "storage class \"register\" is not supported",
	"union":    "union types are not supported",
	"enum":     "enum types are not supported", "float": "floating point is not supported",
	"double": "floating point is not supported", "atomic_long_t": "atomic_long_t is not supported; use atomic_t",
	"atomic64_t": "atomic64_t is not supported; use atomic_t",
	"__int128":   "__int128 is not supported (herd7 needs Variant=S128 for it); use __int128_t, which holds 64-bit values here",
}

// isTypeWord reports whether name can start a type.
func isTypeWord(name string) bool { return typeWords()[name] }

// typeWords are the words that can start a type, in one map: the parser
// asks of every identifier (four look-ups were a tenth of parsing). It is
// built on first use, not by every process at start-up.
var typeWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"void": true, "struct": true}
	for _, words := range []map[string]bool{basicTypeWords, typedefNames, typeQualifiers} {
		for w := range words {
			m[w] = true
		}
	}
	for w := range unsupportedTypeWords {
		m[w] = true
	}
	return m
})

func (p *parser) isTypeStart() bool { return p.tok.kind == tIdent && isTypeWord(p.tok.text) }

// parseType parses a type name without its pointer stars: qualifiers
// (const, volatile, _Atomic) anywhere, and one base: basic words such as
// "unsigned long", a one-word type name, void, or struct srcu_struct. The
// words are kept in the order written.
func (p *parser) parseType() string {
	start := p.tok
	var words []string
	seen := map[string]int{}
	kind := "" // "basic" or "named" once the base has started
	for p.tok.kind == tIdent {
		t := p.tok
		w := t.text
		if msg := unsupportedTypeWords[w]; msg != "" {
			p.fail(t.pos, "%s", msg)
		}
		switch {
		case typeQualifiers[w]:
		case w == "struct":
			if kind != "" {
				p.fail(t.pos, "invalid type: %s struct", strings.Join(words, " "))
			}
			p.next()
			if !p.isIdent("srcu_struct") {
				p.fail(t.pos, "struct types are not supported (only struct srcu_struct, an SRCU domain)")
			}
			w, kind = "struct srcu_struct", "named"
		case typedefNames[w] || w == "void":
			if kind != "" {
				p.fail(t.pos, "invalid type: %s %s", strings.Join(words, " "), w)
			}
			kind = "named"
		case basicTypeWords[w]:
			if kind == "named" {
				p.fail(t.pos, "invalid type: %s %s", strings.Join(words, " "), w)
			}
			seen[w]++
			if seen[w] > 1 && !(w == "long" && seen[w] == 2) {
				p.fail(t.pos, "invalid type: repeated %q", w)
			}
			kind = "basic"
		default:
			if kind == "" {
				p.fail(t.pos, "expected a type after %s, found %s", strings.Join(words, " "), t.describe())
			}
			return strings.Join(words, " ")
		}
		words = append(words, w)
		p.next()
	}
	if kind == "" {
		p.fail(start.pos, "expected a type, found %s", start.describe())
	}
	return strings.Join(words, " ")
}

// parseStars reads the "*"s of a declarator, with the qualifiers C allows
// after each ("int *const p"), which are dropped like the others.
func (p *parser) parseStars() int {
	n := 0
	for p.is(tStar) {
		n++
		p.next()
		for p.tok.kind == tIdent && typeQualifiers[p.tok.text] {
			p.next()
		}
	}
	return n
}

// isVoid reports whether a type is void (possibly qualified).
func isVoid(typ string) bool {
	f := strings.Fields(typ)
	for _, w := range f {
		if w == "void" {
			return true
		}
	}
	return false
}

// ---- threads ----

// IsThreadName reports whether s names a thread: P0, P1, ...
func IsThreadName(s string) bool {
	if len(s) < 2 || s[0] != 'P' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func (p *parser) parseThreads(s *Scenario) {
	for p.is(tIdent) && (IsThreadName(p.tok.text) || p.tok.text == "void") {
		s.Threads = append(s.Threads, p.parseThread(len(s.Threads)))
	}
	if len(s.Threads) == 0 && p.is(tLBrace) {
		// perfbook's CodeSamples/formal/litmus files carry a second block,
		// { #include "api.h" }, for klitmus7; herd7 rejects them too.
		p.fail(p.tok.pos, "a second \"{\" block before the threads is not allowed (only one initial-state block; herd7 rejects this too)")
	}
	if len(s.Threads) == 0 {
		p.fail(p.tok.pos, "expected thread P0, found %s", p.tok.describe())
	}
}

func (p *parser) parseThread(index int) *Thread {
	t := &Thread{Pos: p.tok.pos}
	t.Lead = p.takeLead(p.tok.pos)
	p.setCode(true)
	if p.isIdent("void") {
		t.Void = true
		p.next()
	}
	name := p.expectIdent("of a thread (P0, P1, ...)")
	want := fmt.Sprintf("P%d", index)
	if name.text != want {
		if IsThreadName(name.text) {
			p.fail(name.pos, "expected thread %s, found %s (threads must be P0, P1, ... in order)", want, QuoteShort(name.text))
		}
		p.fail(name.pos, "expected thread %s, found %q", want, name.text)
	}
	t.Name = name.text
	p.expect(tLParen, "after the thread name")
	if p.isIdent("void") && p.peek().kind == tRParen {
		p.next()
	}
	seen := map[string]bool{}
	for !p.is(tRParen) {
		if len(t.Params) > 0 {
			p.expect(tComma, "between parameters")
		}
		if !p.isTypeStart() {
			if p.is(tIdent) && (p.peek().kind == tStar || p.peek().kind == tIdent) {
				p.fail(p.tok.pos, "unknown type %q in a parameter (see FORMAT.md for the types smpscope knows)", p.tok.text)
			}
			p.fail(p.tok.pos, "expected a parameter such as \"int *x\", found %s", p.tok.describe())
		}
		start := p.tok.pos
		prm := &Param{Pos: start, Type: p.parseType()}
		prm.Stars = p.parseStars()
		id := p.declName("for the parameter")
		prm.Name = id.text
		p.rejectArray()
		if prm.Stars == 0 {
			p.fail(id.pos, "parameter %s must be a pointer (%s *%s): parameters are the addresses of shared locations", id.text, prm.Type, id.text)
		}
		if seen[id.text] {
			p.fail(id.pos, "duplicate parameter %s", id.text)
		}
		seen[id.text] = true
		t.Params = append(t.Params, prm)
	}
	p.next()
	t.Lead = append(t.Lead, p.takeInner()...)
	t.Trail = p.takeTrail()
	open := p.expect(tLBrace, "to start the body of "+t.Name)
	t.Body = p.parseStmtList(open)
	t.End = p.takeLead(p.tok.pos)
	p.setCode(false)
	p.next()
	return t
}

// ---- statements ----

// parseStmtList parses statements up to (not including) the "}" matching
// open.
func (p *parser) parseStmtList(open tok) []Stmt {
	var list []Stmt
	for !p.is(tRBrace) {
		if p.is(tEOF) {
			p.fail(open.pos, "\"{\" is not closed (missing \"}\")")
		}
		list = append(list, p.parseStmt(true)...)
	}
	return list
}

var unsupportedStmts = map[string]string{
	"while": "loops are not supported", "for": "loops are not supported", "do": "loops are not supported",
	"break": "loops are not supported", "continue": "loops are not supported",
	"goto": "goto is not supported", "return": "return is not supported",
	"switch": "switch is not supported", "case": "switch is not supported", "default": "switch is not supported",
	"asm": "inline assembly is not supported", "__asm__": "inline assembly is not supported",
	"typedef": "typedef is not supported", "sizeof": "sizeof is not supported",
}

func (p *parser) parseStmt(allowDecl bool) []Stmt {
	p.ops = 0 // the operator limit is per statement
	p.enter()
	defer p.leave()
	lead := p.takeLead(p.tok.pos)
	if p.isTypeStart() {
		if !allowDecl {
			p.fail(p.tok.pos, "a declaration cannot be the body of an if or else; use braces")
		}
		decls := p.parseDecl()
		decls[0].stmtComments.Lead = append(lead, decls[0].stmtComments.Lead...)
		last := decls[len(decls)-1].comments()
		last.Lead = append(last.Lead, p.takeInner()...)
		last.Trail = p.takeTrail()
		out := make([]Stmt, len(decls))
		for i, d := range decls {
			out[i] = d
		}
		return out
	}
	var st Stmt
	switch {
	case p.is(tIdent) && unsupportedStmts[p.tok.text] != "":
		p.fail(p.tok.pos, "unsupported statement %q (%s)", p.tok.text, unsupportedStmts[p.tok.text])
	case p.isIdent("else"):
		p.fail(p.tok.pos, "else without a matching if")
	case p.isIdent("if"):
		st = p.parseIf()
	case p.is(tLBrace):
		open := p.tok
		p.next()
		b := &BlockStmt{Pos: open.pos}
		b.List = p.parseStmtList(open)
		b.End = p.takeLead(p.tok.pos)
		p.next()
		st = b
	case p.is(tSemi):
		st = &EmptyStmt{Pos: p.tok.pos}
		p.next()
	case p.is(tInc) || p.is(tDec):
		op := p.tok
		p.next()
		x := p.parseExpr()
		st = &IncDecStmt{Pos: op.pos, X: x, Op: op.kind.String(), Prefix: true}
		p.expectSemi()
	default:
		st = p.parseSimpleStmt()
	}
	c := st.comments()
	c.Lead = append(lead, p.takeInner()...)
	c.Trail = p.takeTrail()
	return []Stmt{st}
}

func (p *parser) expectSemi() {
	if p.is(tSemi) {
		p.next()
		return
	}
	switch p.tok.kind {
	case tAssign:
		p.fail(p.tok.pos, "chained assignments are not supported")
	case tComma:
		p.fail(p.tok.pos, "the comma operator is not supported")
	case tInc, tDec:
		p.fail(p.tok.pos, "%s inside an expression is not supported", p.tok.kind)
	}
	pos := p.tok.pos
	if p.prev.pos.Line < pos.Line {
		pos = p.prev.end() // point at the end of the line missing its ";"
	}
	p.fail(pos, "expected \";\" after the statement, found %s", p.tok.describe())
}

var assignOps = map[token]bool{
	tAssign: true, tAddAssign: true, tSubAssign: true, tMulAssign: true, tDivAssign: true, tModAssign: true,
	tAndAssign: true, tOrAssign: true, tXorAssign: true, tShlAssign: true, tShrAssign: true,
}

func (p *parser) parseSimpleStmt() Stmt {
	x := p.parseExpr()
	var st Stmt
	switch {
	case assignOps[p.tok.kind]:
		op := p.tok
		p.next()
		rhs := p.parseExpr()
		st = &AssignStmt{LHS: x, Op: op.kind.String(), OpPos: op.pos, RHS: rhs}
	case p.is(tInc) || p.is(tDec):
		op := p.tok
		p.next()
		st = &IncDecStmt{Pos: x.Pos(), X: x, Op: op.kind.String()}
	default:
		st = &ExprStmt{X: x}
	}
	p.expectSemi()
	return st
}

// parseDecl parses "type declarator [= init], ...;" into one DeclStmt per
// declarator.
func (p *parser) parseDecl() []*DeclStmt {
	start := p.tok.pos
	typ := p.parseType()
	var out []*DeclStmt
	for {
		d := &DeclStmt{Pos: start, Type: typ}
		d.Stars = p.parseStars()
		id := p.declName("in the declaration")
		if d.Stars == 0 && isVoid(typ) {
			p.fail(id.pos, "%s cannot have type void", id.text)
		}
		if len(out) > 0 {
			d.Pos = id.pos
		}
		d.Name = id.text
		p.rejectArray()
		if p.is(tLParen) {
			p.fail(p.tok.pos, "function declarations are not supported")
		}
		if p.is(tAssign) {
			p.next()
			d.Init = p.parseExpr()
		}
		out = append(out, d)
		if !p.is(tComma) {
			break
		}
		p.next()
	}
	p.expectSemi()
	return out
}

func (p *parser) parseIf() Stmt {
	s := &IfStmt{Pos: p.tok.pos}
	p.next()
	p.expect(tLParen, "after if")
	s.Cond = p.parseExpr()
	p.expect(tRParen, "after the if condition")
	s.Then = p.parseStmt(false)[0]
	if p.isIdent("else") {
		p.next()
		s.Else = p.parseStmt(false)[0]
	}
	return s
}

// ---- expressions ----

var binPrec = map[token]int{
	tLOr: 1, tLAnd: 2, tPipe: 3, tCaret: 4, tAmp: 5,
	tEq: 6, tNe: 6, tLt: 7, tLe: 7, tGt: 7, tGe: 7,
	tShl: 8, tShr: 8, tPlus: 9, tMinus: 9, tStar: 10, tSlash: 10, tPct: 10,
}

// countOp counts one more operator of the statement or clause being
// parsed. Long flat lists ("a \/ b \/ ...", "1+1+...") are fine; only
// their length is bounded, so that every later pass stays cheap.
func (p *parser) countOp(pos Position) {
	p.ops++
	if p.ops > MaxOperators {
		p.fail(pos, "too long: more than %d operators in one statement or clause", MaxOperators)
	}
}

// parseExpr parses an expression, including the conditional operator
// "c ? a : b" (lowest precedence, right associative).
func (p *parser) parseExpr() Expr {
	x := p.binary(1)
	if !p.is(tQuestion) {
		return x
	}
	q := p.tok
	p.countOp(q.pos)
	p.next()
	p.enter()
	then := p.parseExpr()
	p.expect(tColon, "in the conditional expression (c ? a : b)")
	els := p.parseExpr()
	p.leave()
	return &TernaryExpr{X: x, QuestionPos: q.pos, Then: then, Else: els}
}

// binary parses a binary expression whose operators have precedence at
// least minPrec. Operator chains build left-deep trees without recursion
// here; nesting is counted only for parentheses, unary operators, casts,
// calls and ?:.
func (p *parser) binary(minPrec int) Expr {
	x := p.unary()
	for {
		prec := binPrec[p.tok.kind]
		if prec == 0 || prec < minPrec {
			return x
		}
		op := p.tok
		p.countOp(op.pos)
		p.next()
		y := p.binary(prec + 1)
		x = &BinaryExpr{X: x, OpPos: op.pos, Op: op.kind.String(), Y: y}
	}
}

func (p *parser) unary() Expr {
	switch p.tok.kind {
	case tMinus, tPlus, tNot, tTilde, tStar, tAmp:
		op := p.tok
		p.next()
		p.enter()
		x := p.unary()
		p.leave()
		return &UnaryExpr{OpPos: op.pos, Op: op.kind.String(), X: x}
	case tInc, tDec:
		p.fail(p.tok.pos, "%s inside an expression is not supported", p.tok.kind)
	case tLParen:
		if p.peek().kind == tIdent && p.peekIsType() {
			open := p.tok
			p.next()
			typ := p.parseType()
			stars := p.parseStars()
			p.expect(tRParen, "after the cast type")
			p.enter()
			x := p.unary()
			p.leave()
			return &CastExpr{Lparen: open.pos, Type: typ, Stars: stars, X: x}
		}
	}
	return p.postfix()
}

// peekIsType reports whether the token after "(" starts a type (a cast).
func (p *parser) peekIsType() bool { return isTypeWord(p.peek().text) }

func (p *parser) postfix() Expr {
	x := p.primary()
	switch p.tok.kind {
	case tLBrack:
		p.fail(p.tok.pos, "arrays are not supported")
	case tDot, tArrow:
		p.fail(p.tok.pos, "struct members are not supported")
	case tLParen:
		p.fail(p.tok.pos, "only the supported kernel primitives can be called")
	}
	return x
}

func (p *parser) primary() Expr {
	switch p.tok.kind {
	case tInt:
		return p.parseIntLit()
	case tIdent:
		id := p.tok
		if msg := unsupportedStmts[id.text]; msg != "" {
			p.fail(id.pos, "unsupported %q in an expression (%s)", id.text, msg)
		}
		if id.text == "if" || id.text == "else" {
			p.fail(id.pos, "unexpected %q in an expression", id.text)
		}
		p.next()
		ident := &Ident{NamePos: id.pos, Name: id.text}
		if p.is(tLBrace) && strings.HasPrefix(id.text, "__") {
			return p.parseAnnotated(ident)
		}
		if p.is(tLParen) {
			return p.parseCall(ident)
		}
		return ident
	case tLParen:
		open, x := parens(p, p.parseExpr)
		return &ParenExpr{Lparen: open, X: x}
	}
	p.fail(p.tok.pos, "expected an expression, found %s", p.tok.describe())
	return nil
}

// parseAnnotated parses herd7's internal form of a primitive, as the
// LKMM's linux-kernel.def writes them: "__load{once}(*x)",
// "__atomic_add_unless{mb}(v, 1, 0)", and "__fence{mb}" with no
// arguments. The annotations become part of the name, lower-cased.
func (p *parser) parseAnnotated(fun *Ident) Expr {
	p.next() // "{"
	var annots []string
	for {
		a := p.expectIdent("as an annotation")
		w := a.text
		for p.is(tMinus) && p.peek().kind == tIdent {
			p.next()
			w += "-" + p.tok.text
			p.next()
		}
		annots = append(annots, strings.ToLower(w))
		if !p.is(tComma) {
			break
		}
		p.next()
	}
	p.expect(tRBrace, "after the annotations")
	fun.Name += "{" + strings.Join(annots, ",") + "}"
	if !p.is(tLParen) {
		if deref, err := p.funcs(fun.Name, fun.NamePos); err == nil && len(deref) == 0 {
			return &CallExpr{Fun: fun, Bare: true}
		}
	}
	return p.parseCall(fun)
}

func (p *parser) parseCall(fun *Ident) Expr {
	deref, err := p.funcs(fun.Name, fun.NamePos)
	if e, ok := err.(Error); ok {
		panic(e)
	} else if err != nil {
		p.fail(fun.NamePos, "%s", err)
	}
	p.expect(tLParen, "")
	call := &CallExpr{Fun: fun}
	p.enter()
	for !p.is(tRParen) {
		if len(call.Args) > 0 {
			p.expect(tComma, "between arguments")
		}
		call.Args = append(call.Args, p.parseExpr())
	}
	p.leave()
	p.next()
	if len(call.Args) != len(deref) {
		plural := "s"
		if len(deref) == 1 {
			plural = ""
		}
		p.fail(fun.NamePos, "%s takes %d argument%s, not %d", fun.Name, len(deref), plural, len(call.Args))
	}
	for i, d := range deref {
		if !d {
			continue
		}
		a := Unparen(call.Args[i])
		if u, ok := a.(*UnaryExpr); !ok || u.Op != "*" {
			p.fail(call.Args[i].Pos(), "%s needs a dereference such as *x as argument %d, not %s", fun.Name, i+1, FormatExpr(call.Args[i]))
		}
	}
	return call
}

// parens parses "(" inner ")" from the current token, one level deeper,
// and returns where it opened.
func parens[T any](p *parser, inner func() T) (Position, T) {
	open := p.tok.pos
	p.next()
	p.enter()
	x := inner()
	p.leave()
	p.expect(tRParen, "to close the parenthesis")
	return open, x
}

// Unparen strips parentheses and casts.
func Unparen(e Expr) Expr {
	for {
		switch x := e.(type) {
		case *ParenExpr:
			e = x.X
		case *CastExpr:
			e = x.X
		default:
			return e
		}
	}
}

// StripParens strips parentheses only (a cast stays).
func StripParens(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// ---- clauses ----

func (p *parser) parseClauses(s *Scenario) {
	for {
		lead := p.takeLead(p.tok.pos)
		switch {
		case p.isIdent("locations"):
			if s.Locations != nil {
				p.fail(p.tok.pos, "duplicate locations clause")
			}
			c := &LocationsClause{Pos: p.tok.pos, Lead: lead}
			p.next()
			p.expect(tLBrack, "after locations")
			for !p.is(tRBrack) {
				c.Items = append(c.Items, p.parseCondLoc())
				if p.is(tSemi) {
					p.next()
					continue
				}
				if !p.is(tRBrack) {
					p.fail(p.tok.pos, "expected \";\" or \"]\" in locations, found %s", p.tok.describe())
				}
			}
			p.next()
			c.Lead = append(c.Lead, p.takeInner()...)
			c.Trail = p.takeTrail()
			s.Locations = c
		case p.isIdent("regions") && p.peek().kind == tColon:
			if s.Regions != nil {
				p.fail(p.tok.pos, "duplicate regions clause")
			}
			c := &RegionsClause{Pos: p.tok.pos, Lead: lead}
			p.next()
			p.next()
			for p.is(tIdent) && p.peek().kind == tColon {
				loc := p.tok.text
				p.next()
				p.next()
				c.Items = append(c.Items, loc+":"+p.expectIdent("of a region").text)
				if !p.is(tComma) {
					break
				}
				p.next()
				if !p.is(tIdent) || p.peek().kind != tColon {
					p.fail(p.tok.pos, "expected location:region after \",\" in regions, found %s", p.tok.describe())
				}
			}
			c.Lead = append(c.Lead, p.takeInner()...)
			c.Trail = p.takeTrail()
			s.Regions = c
		case p.isIdent("filter"):
			if s.Filter != nil {
				p.fail(p.tok.pos, "duplicate filter clause")
			}
			c := &FilterClause{Pos: p.tok.pos, Lead: lead}
			p.next()
			c.Cond = p.parseCond()
			c.Lead = append(c.Lead, p.takeInner()...)
			c.Trail = p.takeTrail()
			s.Filter = c
		case p.isIdent("exists") || p.isIdent("forall") || p.isIdent("final") || p.is(tLParen) ||
			((p.is(tTilde) || p.isIdent("not")) && p.peek().kind == tIdent && p.peek().text == "exists"):
			// herd7 also reads "final P" and a bare "(P)" as exists, and
			// "not exists" as ~exists.
			if p.stopAtFinal {
				panic(finalAt{p.tok.pos})
			}
			c := &FinalClause{Pos: p.tok.pos, Lead: lead}
			switch {
			case p.isIdent("forall"):
				c.Kind = Forall
			case p.is(tTilde) || p.isIdent("not"):
				c.Kind = NotExists
				p.next()
			}
			if !p.is(tLParen) {
				p.next()
			}
			c.Cond = p.parseCond()
			if p.is(tSemi) {
				p.next() // herd7 allows a ";" after the final condition
			}
			c.Lead = append(c.Lead, p.takeInner()...)
			c.Trail = p.takeTrail()
			s.Final = c
			if !p.is(tEOF) {
				p.fail(p.tok.pos, "unexpected %s after the final condition", p.tok.describe())
			}
			s.EndComments = p.takeLead(Position{File: p.file, Line: 1 << 30})
			return
		case p.is(tEOF):
			p.fail(p.tok.pos, "missing final condition (exists, ~exists or forall)")
		case p.is(tIdent) && IsThreadName(p.tok.text):
			p.fail(p.tok.pos, "thread %s must come before the final condition", p.tok.text)
		default:
			p.fail(p.tok.pos, "expected locations, filter, regions, exists, ~exists or forall, found %s", p.tok.describe())
		}
	}
}

func (p *parser) parseCond() Cond {
	p.ops = 0 // and per clause
	return p.condOr()
}

// Conditions follow herd7: \/ binds loosest, then /\, then => (right
// associative), then ~ and not.
func (p *parser) condOr() Cond {
	return p.condChain(tDisj, p.condAnd, func(x, y Cond) Cond { return &CondOr{X: x, Y: y} })
}

func (p *parser) condAnd() Cond {
	return p.condChain(tConj, p.condImplies, func(x, y Cond) Cond { return &CondAnd{X: x, Y: y} })
}

// condChain parses operands joined by the left-associative operator op.
func (p *parser) condChain(op token, operand func() Cond, join func(x, y Cond) Cond) Cond {
	x := operand()
	for p.is(op) {
		p.countOp(p.tok.pos)
		p.next()
		x = join(x, operand())
	}
	return x
}

func (p *parser) condImplies() Cond {
	x := p.condUnary()
	if !p.is(tImplies) {
		return x
	}
	p.countOp(p.tok.pos)
	p.next()
	p.enter()
	y := p.condImplies()
	p.leave()
	return &CondImplies{X: x, Y: y}
}

func (p *parser) condUnary() Cond {
	switch {
	case p.is(tTilde) || p.is(tNot) || p.isIdent("not"):
		if p.is(tNot) {
			p.fail(p.tok.pos, "use ~ or not for negation in conditions, not !")
		}
		op := p.tok
		p.next()
		p.enter()
		x := p.condUnary()
		p.leave()
		return &CondNot{TildePos: op.pos, X: x, Word: op.kind == tIdent}
	case p.is(tLParen):
		open, x := parens(p, p.condOr)
		return &CondParen{Lparen: open, X: x}
	case p.isIdent("true") || p.isIdent("false"):
		b := &CondBool{ValuePos: p.tok.pos, Value: p.tok.text == "true"}
		p.next()
		return b
	case p.is(tLAnd) || p.is(tLOr):
		p.fail(p.tok.pos, "use /\\ and \\/ in conditions, not && and ||")
	}
	loc := p.parseCondLoc()
	a := &CondAtom{Loc: loc}
	switch p.tok.kind {
	case tAssign, tEq, tNe:
		a.Op = p.tok.kind.String()
		p.next()
	case tLtGt:
		a.Op = "!=" // herd7's other spelling
		p.next()
	case tLAnd, tLOr:
		p.fail(p.tok.pos, "use /\\ and \\/ in conditions, not && and ||")
	default:
		p.fail(p.tok.pos, "expected \"=\" after %s, found %s", formatCondLoc(loc), p.tok.describe())
	}
	a.Val = p.parseCondValue()
	if p.is(tLAnd) || p.is(tLOr) {
		p.fail(p.tok.pos, "use /\\ and \\/ in conditions, not && and ||")
	}
	return a
}

func (p *parser) parseCondLoc() *CondLoc {
	if p.is(tLBrack) {
		open := p.tok
		p.next()
		id := p.expectIdent("of a location")
		p.expect(tRBrack, "after the location")
		return &CondLoc{NamePos: open.pos, Thread: -1, Name: id.text, Bracket: true}
	}
	if p.is(tInt) || (p.is(tIdent) && IsThreadName(p.tok.text) && p.peek().kind == tColon) {
		t := p.tok
		n, err := strconv.Atoi(strings.TrimPrefix(t.text, "P"))
		if err != nil || n > 1000 {
			p.fail(t.pos, "invalid thread number %q", t.text)
		}
		p.next()
		p.expect(tColon, "after the thread number")
		id := p.expectIdent("of a register")
		return &CondLoc{NamePos: t.pos, Thread: n, Name: id.text}
	}
	if p.is(tIdent) {
		t := p.tok
		p.next()
		if p.is(tLBrack) {
			p.fail(p.tok.pos, "arrays are not supported")
		}
		if p.is(tColon) {
			p.fail(t.pos, "write registers as THREAD:REG with a thread number, e.g. 0:r0")
		}
		return &CondLoc{NamePos: t.pos, Thread: -1, Name: t.text}
	}
	p.fail(p.tok.pos, "expected a register (0:r0) or a location, found %s", p.tok.describe())
	return nil
}

func (p *parser) parseCondValue() *CondValue {
	switch {
	case p.is(tLBrack), p.is(tInt) && p.peek().kind == tColon, p.is(tIdent) && IsThreadName(p.tok.text) && p.peek().kind == tColon:
		// The value of a register or location, as herd7 allows.
		pos := p.tok.pos
		return &CondValue{ValuePos: pos, Ref: p.parseCondLoc()}
	case p.is(tInt):
		lit := p.parseIntLit()
		return &CondValue{ValuePos: lit.ValuePos, Int: lit.Value}
	case p.is(tMinus) && p.peek().kind == tInt:
		pos := p.tok.pos
		p.next()
		lit := p.parseIntLit()
		return &CondValue{ValuePos: pos, Int: -lit.Value}
	case p.is(tIdent):
		t := p.tok
		p.next()
		return &CondValue{ValuePos: t.pos, Loc: t.text}
	}
	p.fail(p.tok.pos, "expected a value (an integer, a location, a register or [location]), found %s", p.tok.describe())
	return nil
}

package syntax

import (
	"strconv"
	"strings"
)

// Format writes s in the C litmus format. Parsing the result gives a
// scenario equal to s apart from positions. The leading comment (with its
// metadata) and other comments are written back; layout is normalised to
// the kernel's style.
func Format(s *Scenario) string {
	var f formatter
	f.line("C " + s.Name)
	for i, c := range s.Header {
		// Free text (diy's lines) stays in one block after the name line.
		free := c.Free && (i == 0 || s.Header[i-1].Free)
		if !free && (i == 0 || !adjacentLineComments(s.Header[i-1], c)) {
			f.line("")
		}
		f.line(c.Text)
	}
	f.line("")
	if len(s.Init) == 0 && len(s.InitEnd) == 0 {
		f.line("{}")
	} else {
		f.line("{")
		for _, d := range s.Init {
			f.comments(1, d.Lead)
			f.line("\t" + formatInitDecl(d) + trail(d.Trail))
		}
		f.comments(1, s.InitEnd)
		f.line("}")
	}
	for _, t := range s.Threads {
		f.line("")
		f.comments(0, t.Lead)
		var params []string
		for _, p := range t.Params {
			params = append(params, p.Type+" "+strings.Repeat("*", p.Stars)+p.Name)
		}
		head := t.Name + "(" + strings.Join(params, ", ") + ")"
		if t.Void {
			head = "void " + head
		}
		f.line(head + trail(t.Trail))
		f.line("{")
		f.stmtList(1, t.Body)
		f.comments(1, t.End)
		f.line("}")
	}
	f.line("")
	if c := s.Regions; c != nil {
		f.comments(0, c.Lead)
		f.line(strings.TrimRight("regions: "+strings.Join(c.Items, ", "), " ") + trail(c.Trail))
	}
	if c := s.Locations; c != nil {
		f.comments(0, c.Lead)
		var items []string
		for _, l := range c.Items {
			items = append(items, formatCondLoc(l))
		}
		f.line("locations [" + strings.Join(items, "; ") + "]" + trail(c.Trail))
	}
	if c := s.Filter; c != nil {
		f.comments(0, c.Lead)
		f.line("filter " + FormatCond(c.Cond) + trail(c.Trail))
	}
	if c := s.Final; c != nil {
		f.comments(0, c.Lead)
		f.line(c.Kind.String() + " " + FormatCond(c.Cond) + trail(c.Trail))
	}
	f.comments(0, s.EndComments)
	return f.b.String()
}

// adjacentLineComments reports whether b is a // comment on the line right
// after the // comment a (or positions are unknown), so that Format keeps
// them together: metadata values run across such lines.
func adjacentLineComments(a, b Comment) bool {
	if !a.IsLine() || !b.IsLine() {
		return false
	}
	return !a.Pos.IsValid() || !b.Pos.IsValid() || b.Pos.Line == a.Pos.Line+1
}

type formatter struct{ b strings.Builder }

func (f *formatter) line(s string) {
	f.b.WriteString(s)
	f.b.WriteByte('\n')
}

func (f *formatter) comments(indent int, cs []Comment) {
	for _, c := range cs {
		f.line(strings.Repeat("\t", indent) + c.Text)
	}
}

func trail(cs []Comment) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteByte(' ')
		b.WriteString(c.Text)
	}
	return b.String()
}

func formatInitDecl(d *InitDecl) string {
	s := d.Name
	switch {
	case d.IsReg:
		s = strconv.Itoa(d.Thread) + ":" + d.Name
	case d.Bracket:
		s = "[" + d.Name + "]"
	}
	if d.Type != "" {
		s = d.Type + " " + strings.Repeat("*", d.Stars) + s
	}
	if d.Value != nil {
		s += "=" + FormatExpr(d.Value)
	}
	return s + ";"
}

func (f *formatter) stmtList(indent int, list []Stmt) {
	for i, st := range list {
		f.stmt(indent, st)
		// Kernel style: a blank line after the register declarations.
		if d, ok := st.(*DeclStmt); ok && d.Init == nil && i+1 < len(list) {
			if _, next := list[i+1].(*DeclStmt); !next {
				f.line("")
			}
		}
	}
}

// stmt writes st at the given indentation, with its comments.
func (f *formatter) stmt(indent int, st Stmt) {
	c := st.comments()
	f.comments(indent, c.Lead)
	tabs := strings.Repeat("\t", indent)
	switch s := st.(type) {
	case *IfStmt:
		f.ifStmt(indent, tabs, s, tabs)
	case *BlockStmt:
		f.line(tabs + "{")
		f.stmtList(indent+1, s.List)
		f.comments(indent+1, s.End)
		f.line(tabs + "}" + trail(c.Trail))
	default:
		f.line(tabs + StmtText(st) + trail(c.Trail))
	}
}

// ifStmt writes an if statement whose first line starts with prefix
// (indentation, or "} else " for an else-if chain).
func (f *formatter) ifStmt(indent int, tabs string, s *IfStmt, prefix string) {
	head := prefix + "if (" + FormatExpr(s.Cond) + ")"
	thenBlock, inlineThen := s.Then.(*BlockStmt)
	inlineThen = inlineThen && len(thenBlock.Lead) == 0
	if inlineThen {
		f.line(head + " {")
		f.stmtList(indent+1, thenBlock.List)
		f.comments(indent+1, thenBlock.End)
		if s.Else == nil || len(thenBlock.Trail) > 0 {
			f.line(tabs + "}" + trail(thenBlock.Trail))
		}
	} else {
		f.line(head)
		f.stmt(indent+1, s.Then)
	}
	if s.Else == nil {
		if len(s.Trail) > 0 {
			f.line(tabs + strings.TrimSpace(trail(s.Trail)))
		}
		return
	}
	elsePrefix := tabs + "else "
	if inlineThen && len(thenBlock.Trail) == 0 {
		elsePrefix = tabs + "} else "
	}
	ec := s.Else.comments()
	switch e := s.Else.(type) {
	case *IfStmt:
		if len(ec.Lead) == 0 {
			f.ifStmt(indent, tabs, e, elsePrefix)
			break
		}
		f.line(strings.TrimRight(elsePrefix, " "))
		f.stmt(indent+1, e)
	case *BlockStmt:
		if len(ec.Lead) == 0 {
			f.line(elsePrefix + "{")
			f.stmtList(indent+1, e.List)
			f.comments(indent+1, e.End)
			f.line(tabs + "}" + trail(ec.Trail))
			break
		}
		f.line(strings.TrimRight(elsePrefix, " "))
		f.stmt(indent+1, e)
	default:
		f.line(strings.TrimRight(elsePrefix, " "))
		f.stmt(indent+1, e)
	}
	if len(s.Trail) > 0 {
		f.line(tabs + strings.TrimSpace(trail(s.Trail)))
	}
}

// StmtText renders a simple statement on one line, without comments: the
// text shown for the instructions it compiles to. An if statement renders
// as its head, "if (cond)"; a block as "{ ... }".
func StmtText(st Stmt) string {
	switch s := st.(type) {
	case *DeclStmt:
		t := s.Type + " " + strings.Repeat("*", s.Stars) + s.Name
		if s.Init != nil {
			t += " = " + FormatExpr(s.Init)
		}
		return t + ";"
	case *ExprStmt:
		return FormatExpr(s.X) + ";"
	case *AssignStmt:
		return FormatExpr(s.LHS) + " " + s.Op + " " + FormatExpr(s.RHS) + ";"
	case *IncDecStmt:
		if s.Prefix {
			return s.Op + FormatExpr(s.X) + ";"
		}
		return FormatExpr(s.X) + s.Op + ";"
	case *IfStmt:
		return "if (" + FormatExpr(s.Cond) + ")"
	case *BlockStmt:
		return "{ ... }"
	case *EmptyStmt:
		return ";"
	}
	return ""
}

// exprPrec is the precedence of e for parenthesisation: 0 for ?:, binary
// operators as in binPrec, 11 for unary operators and casts, 12 for
// primaries.
func exprPrec(e Expr) int {
	switch x := e.(type) {
	case *BinaryExpr:
		for t, p := range binPrec {
			if t.String() == x.Op {
				return p
			}
		}
		return 0
	case *UnaryExpr, *CastExpr:
		return 11
	case *TernaryExpr:
		return 0
	}
	return 12
}

// FormatExpr renders an expression in C syntax. Parentheses the author
// wrote are kept (ParenExpr); others are added where precedence needs them.
func FormatExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch x := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Ident:
		b.WriteString(x.Name)
	case *IntLit:
		if x.Text != "" {
			b.WriteString(x.Text)
		} else {
			b.WriteString(strconv.FormatInt(x.Value, 10))
		}
	case *UnaryExpr:
		b.WriteString(x.Op)
		inner := FormatExpr(x.X)
		if exprPrec(x.X) < 11 {
			inner = "(" + inner + ")"
		} else if (x.Op == "-" || x.Op == "+" || x.Op == "&") && strings.HasPrefix(inner, x.Op) {
			b.WriteByte(' ') // "- -1", not "--1"
		}
		b.WriteString(inner)
	case *BinaryExpr:
		p := exprPrec(x)
		l, r := FormatExpr(x.X), FormatExpr(x.Y)
		if exprPrec(x.X) < p {
			l = "(" + l + ")"
		}
		if exprPrec(x.Y) <= p {
			r = "(" + r + ")"
		}
		b.WriteString(l + " " + x.Op + " " + r)
	case *TernaryExpr:
		c := FormatExpr(x.X)
		if exprPrec(x.X) < 1 {
			c = "(" + c + ")"
		}
		b.WriteString(c + " ? " + FormatExpr(x.Then) + " : " + FormatExpr(x.Else))
	case *CallExpr:
		b.WriteString(x.Fun.Name)
		if x.Bare {
			break
		}
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *ParenExpr:
		b.WriteByte('(')
		writeExpr(b, x.X)
		b.WriteByte(')')
	case *CastExpr:
		b.WriteString("(" + x.Type)
		if x.Stars > 0 {
			b.WriteString(" " + strings.Repeat("*", x.Stars))
		}
		b.WriteByte(')')
		inner := FormatExpr(x.X)
		if exprPrec(x.X) < 11 {
			inner = "(" + inner + ")"
		}
		b.WriteString(inner)
	}
}

// FormatCond renders a condition in herd syntax ("1:r0=1 /\ x=2").
func FormatCond(c Cond) string {
	switch x := c.(type) {
	case *CondAnd:
		return condOperand(x.X, 2) + ` /\ ` + condOperand(x.Y, 3)
	case *CondOr:
		return condOperand(x.X, 1) + ` \/ ` + condOperand(x.Y, 2)
	case *CondNot:
		if x.Word {
			return "not " + condOperand(x.X, 4)
		}
		return "~" + condOperand(x.X, 4)
	case *CondImplies:
		return condOperand(x.X, 4) + " => " + condOperand(x.Y, 3)
	case *CondParen:
		return "(" + FormatCond(x.X) + ")"
	case *CondBool:
		if x.Value {
			return "true"
		}
		return "false"
	case *CondAtom:
		return formatCondLoc(x.Loc) + x.Op + formatCondValue(x.Val)
	}
	return "<nil>"
}

// condOperand renders c, parenthesised if its precedence (1 for \/, 2 for
// /\, 3 for =>, 4 for the rest) is below min.
func condOperand(c Cond, min int) string {
	prec := 4
	switch c.(type) {
	case *CondOr:
		prec = 1
	case *CondAnd:
		prec = 2
	case *CondImplies:
		prec = 3
	}
	if prec < min {
		return "(" + FormatCond(c) + ")"
	}
	return FormatCond(c)
}

func formatCondLoc(l *CondLoc) string {
	if l.Thread >= 0 {
		return strconv.Itoa(l.Thread) + ":" + l.Name
	}
	if l.Bracket {
		return "[" + l.Name + "]"
	}
	return l.Name
}

func formatCondValue(v *CondValue) string {
	if v.Ref != nil {
		return formatCondLoc(v.Ref)
	}
	if v.Loc != "" {
		return v.Loc
	}
	return strconv.FormatInt(v.Int, 10)
}

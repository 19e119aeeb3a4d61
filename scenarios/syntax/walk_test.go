package syntax_test

import (
	"fmt"
	"strings"
	"testing"

	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/syntax/syntaxtest"
)

// TestInspect checks the walker's order (source order, depth first), that
// a false answer skips a node's children, that absent clauses and
// branches are not visited, and that a call's name is not.
func TestInspect(t *testing.T) {
	s := syntaxtest.MustParse(t, "C t\n{ x=1; }\nP0(int *x)\n{\n\tint r0 = READ_ONCE(*x);\n\tif (r0 == 1) { WRITE_ONCE(*x, r0 + 2); }\n}\n"+
		"locations [0:r0]\nexists (0:r0=1 /\\ ~x=0:r0)\n", scenarios.KernelFuncs)
	name := func(n syntax.Node) string {
		w := strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")
		switch x := n.(type) {
		case *syntax.Ident:
			w += " " + x.Name
		case *syntax.IntLit:
			w += " " + x.Text
		case *syntax.CondLoc:
			w += fmt.Sprintf(" %d:%s", x.Thread, x.Name)
		}
		return w
	}
	var got []string
	syntax.Inspect(s, func(n syntax.Node) bool {
		got = append(got, name(n))
		return true
	})
	want := "Scenario, InitDecl, IntLit 1, Thread, Param, DeclStmt, CallExpr, UnaryExpr, Ident x, " +
		"IfStmt, BinaryExpr, Ident r0, IntLit 1, BlockStmt, ExprStmt, CallExpr, UnaryExpr, Ident x, BinaryExpr, Ident r0, IntLit 2, " +
		"LocationsClause, CondLoc 0:r0, FinalClause, CondParen, CondAnd, CondAtom, CondLoc 0:r0, CondNot, CondAtom, CondLoc -1:x, CondLoc 0:r0"
	if g := strings.Join(got, ", "); g != want {
		t.Errorf("Inspect visited\n%s\nwant\n%s", g, want)
	}

	// Skipping: no expression below a statement, nothing below a thread.
	got = nil
	syntax.Inspect(s, func(n syntax.Node) bool {
		got = append(got, name(n))
		_, isStmt := n.(syntax.Stmt)
		_, isCond := n.(syntax.Cond)
		return !isStmt && !isCond
	})
	want = "Scenario, InitDecl, IntLit 1, Thread, Param, DeclStmt, IfStmt, LocationsClause, CondLoc 0:r0, FinalClause, CondParen"
	if g := strings.Join(got, ", "); g != want {
		t.Errorf("Inspect with skipping visited\n%s\nwant\n%s", g, want)
	}

	// A nil node is not visited.
	syntax.Inspect((*syntax.FilterClause)(nil), func(n syntax.Node) bool {
		t.Errorf("visited %T of a nil clause", n)
		return true
	})
}

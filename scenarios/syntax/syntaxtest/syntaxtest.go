// Package syntaxtest holds what the tests of the litmus syntax and of
// the packages that use it share: dumps of expressions and conditions,
// and the check that Format and Parse agree (like testing/fstest, it is
// imported by tests only).
package syntaxtest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"smpscope/scenarios/syntax"
)

// Sexpr dumps an expression as a compact S-expression.
func Sexpr(e syntax.Expr) string {
	switch x := e.(type) {
	case *syntax.Ident:
		return x.Name
	case *syntax.IntLit:
		return x.Text
	case *syntax.UnaryExpr:
		return "(" + x.Op + " " + Sexpr(x.X) + ")"
	case *syntax.BinaryExpr:
		return "(" + x.Op + " " + Sexpr(x.X) + " " + Sexpr(x.Y) + ")"
	case *syntax.CallExpr:
		s := "(" + x.Fun.Name
		for _, a := range x.Args {
			s += " " + Sexpr(a)
		}
		return s + ")"
	case *syntax.ParenExpr:
		return "(paren " + Sexpr(x.X) + ")"
	case *syntax.CastExpr:
		return "(cast " + x.Type + strings.Repeat("*", x.Stars) + " " + Sexpr(x.X) + ")"
	case *syntax.TernaryExpr:
		return "(? " + Sexpr(x.X) + " " + Sexpr(x.Then) + " " + Sexpr(x.Else) + ")"
	}
	return fmt.Sprintf("?%T", e)
}

// CondSexpr dumps a condition as a compact S-expression.
func CondSexpr(c syntax.Cond) string {
	switch x := c.(type) {
	case *syntax.CondAnd:
		return `(/\ ` + CondSexpr(x.X) + " " + CondSexpr(x.Y) + ")"
	case *syntax.CondOr:
		return `(\/ ` + CondSexpr(x.X) + " " + CondSexpr(x.Y) + ")"
	case *syntax.CondNot:
		return "(~ " + CondSexpr(x.X) + ")"
	case *syntax.CondImplies:
		return "(=> " + CondSexpr(x.X) + " " + CondSexpr(x.Y) + ")"
	case *syntax.CondParen:
		return CondSexpr(x.X)
	case *syntax.CondBool:
		return fmt.Sprint(x.Value)
	case *syntax.CondAtom:
		return syntax.FormatCond(x)
	}
	return fmt.Sprintf("?%T", c)
}

// ExprScenario wraps an expression as the right-hand side of "r0 = ...;"
// in a one-thread scenario.
func ExprScenario(expr string) string {
	return "C t\n{}\nP0(int *x, int *y, int **p)\n{\n\tint r0;\n\tint a;\n\tint b;\n\tint c;\n\tint *q;\n\n\tr0 = " + expr + ";\n}\nexists (0:r0=0)\n"
}

// clearPositions zeroes every Position in the tree rooted at v (a pointer),
// so that trees parsed from differently laid out sources can be compared.
func clearPositions(v any) {
	clearValue(reflect.ValueOf(v), map[uintptr]bool{})
}

var positionType = reflect.TypeOf(syntax.Position{})

func clearValue(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		clearValue(v.Elem(), seen)
	case reflect.Interface:
		if !v.IsNil() {
			clearValue(v.Elem(), seen)
		}
	case reflect.Struct:
		if v.Type() == positionType {
			if v.CanSet() {
				v.Set(reflect.Zero(positionType))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			clearValue(v.Field(i), seen)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			clearValue(v.Index(i), seen)
		}
	}
}

// Same reports whether two scenarios are equal apart from positions
// (and File). It modifies both.
func Same(a, b *syntax.Scenario) bool {
	clearPositions(a)
	clearPositions(b)
	a.File, b.File = "", ""
	return reflect.DeepEqual(a, b)
}

// RoundTrip asserts that parse → Format → parse (with funcs) gives an equal scenario and
// that formatting is idempotent.
func RoundTrip(t testing.TB, name string, s *syntax.Scenario, funcs syntax.Funcs) {
	t.Helper()
	out := syntax.Format(s)
	s2, err := syntax.Parse(name, []byte(out), funcs)
	if err != nil {
		t.Fatalf("%s: reparse of Format output: %v\n%s", name, err, out)
	}
	if out2 := syntax.Format(s2); out2 != out {
		t.Errorf("%s: Format is not idempotent:\n--- first\n%s\n--- second\n%s", name, out, out2)
	}
	if !Same(s, s2) {
		t.Errorf("%s: round trip changed the scenario; formatted:\n%s", name, out)
	}
}

// MustParse parses src (as test.litmus) with funcs, failing the test on
// an error.
func MustParse(t testing.TB, src string, funcs syntax.Funcs) *syntax.Scenario {
	t.Helper()
	s, err := syntax.Parse("test.litmus", []byte(src), funcs)
	if err != nil {
		t.Fatalf("Parse: %v\nsource:\n%s", err, src)
	}
	return s
}

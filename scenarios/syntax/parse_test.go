package syntax_test

import (
	"fmt"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/syntax/syntaxtest"
)

func TestExprPrecedence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a || b && c", "(|| a (&& b c))"},
		{"a && b || c", "(|| (&& a b) c)"},
		{"a == 1 && b == 0", "(&& (== a 1) (== b 0))"},
		{"!a", "(! a)"},
		{"-1", "(- 1)"},
		{"- -1", "(- (- 1))"},
		{"~a & b", "(& (~ a) b)"},
		{"a | b ^ c & 1", "(| a (^ b (& c 1)))"},
		{"1 << 2 + 3", "(<< 1 (+ 2 3))"},
		{"a >> 1 < b", "(< (>> a 1) b)"},
		{"a < b == b > c", "(== (< a b) (> b c))"},
		{"a <= b != c >= 1", "(!= (<= a b) (>= c 1))"},
		{"a - b - c", "(- (- a b) c)"},
		{"a - (b - c)", "(- a (paren (- b c)))"},
		{"a * b + c / 2 % 3", "(+ (* a b) (% (/ c 2) 3))"},
		{"a + b * c", "(+ a (* b c))"},
		{"0x10 + 010 + 0b11 + 7UL", "(+ (+ (+ 0x10 010) 0b11) 7UL)"},
		{"READ_ONCE(*x) + READ_ONCE(*y)", "(+ (READ_ONCE (* x)) (READ_ONCE (* y)))"},
		{"*x == 1", "(== (* x) 1)"},
		{"**p", "(* (* p))"},
		{"&x", "(& x)"},
		{"(intptr_t)q", "(cast intptr_t q)"},
		{"(int *)READ_ONCE(*p)", "(cast int* (READ_ONCE (* p)))"},
		{"!!a", "(! (! a))"},
		{"a * -b", "(* a (- b))"},
		{"cmpxchg(x, 0, 1) == 0", "(== (cmpxchg x 0 1) 0)"},
	}
	for _, tt := range tests {
		s, err := scenarios.Parse("t", []byte(syntaxtest.ExprScenario(tt.in)))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		body := s.Threads[0].Body
		got := syntaxtest.Sexpr(body[len(body)-1].(*syntax.AssignStmt).RHS)
		if got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
		syntaxtest.RoundTrip(t, tt.in, s, scenarios.KernelFuncs)
	}
}

func TestCondParse(t *testing.T) {
	tests := []struct{ in, want string }{
		{`exists (0:r0=1 /\ ~(1:r1=0 \/ x=2))`, `(/\ 0:r0=1 (~ (\/ 1:r1=0 x=2)))`},
		{`exists 0:r0=1 \/ 0:r0=2 /\ x=1`, `(\/ 0:r0=1 (/\ 0:r0=2 x=1))`},
		{`~exists (1:r0=x)`, `1:r0=x`},
		{`forall (x=-1 \/ ~x=1)`, `(\/ x=-1 (~ x=1))`},
		{`exists (0:r0!=1 /\ 0:r0==2)`, `(/\ 0:r0!=1 0:r0==2)`},
		{`exists (true /\ ~false)`, `(/\ true (~ false))`},
	}
	kinds := map[string]syntax.FinalKind{"exists": syntax.Exists, "~exists": syntax.NotExists, "forall": syntax.Forall}
	for _, tt := range tests {
		src := "C t\n{}\nP0(int *x)\n{\n\tint r0;\n\tint r1;\n}\nP1(int *x)\n{\n\tint r0;\n\tint r1;\n}\n" + tt.in + "\n"
		s, err := scenarios.Parse("t", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := syntaxtest.CondSexpr(s.Final.Cond); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
		if want := kinds[strings.Fields(tt.in)[0]]; s.Final.Kind != want {
			t.Errorf("%s: kind %v, want %v", tt.in, s.Final.Kind, want)
		}
		if _, err := scenarios.Compile(s); err != nil {
			t.Errorf("%s: Compile: %v", tt.in, err)
		}
		syntaxtest.RoundTrip(t, tt.in, s, scenarios.KernelFuncs)
	}
}

func TestParseInitBlock(t *testing.T) {
	src := `C init
{
	x=1;
	int y=2;
	int *p=x;
	q=y;
	r=&x;
	spinlock_t mylock;
	atomic_t v = ATOMIC_INIT(-3);
	int a, *b=a;
	long long n = -5;
	unsigned long u
}
P0(int *x, int *y, int **p, int **q, int **r, spinlock_t *mylock, atomic_t *v, int *a, int **b, intptr_t *w)
{
	WRITE_ONCE(*w, 1);
}
exists (x=1)
`
	c, err := scenarios.Compile(syntaxtest.MustParse(t, src, scenarios.KernelFuncs))
	if err != nil {
		t.Fatal(err)
	}
	p := c.Program
	wantLocs := []string{"x", "y", "p", "q", "r", "mylock", "v", "a", "b", "n", "u", "w"}
	if fmt.Sprint(p.Locs) != fmt.Sprint(wantLocs) {
		t.Fatalf("Locs = %v, want %v", p.Locs, wantLocs)
	}
	loc := func(n string) int64 { l, _ := c.Loc(n); return int64(machine.PtrTo(l)) }
	want := []int64{1, 2, loc("x"), loc("y"), loc("x"), 0, -3, 0, loc("a"), -5, 0, 0}
	for i, w := range want {
		if int64(p.Init[i]) != w {
			t.Errorf("Init[%s] = %d, want %d", p.Locs[i], p.Init[i], w)
		}
	}
	d := c.Scenario.Init
	if d[2].Type != "int" || d[2].Stars != 1 || d[0].Type != "" || d[9].Type != "long long" || d[10].Type != "unsigned long" {
		t.Errorf("types not kept: %+v %+v %+v", d[0], d[2], d[9])
	}
	syntaxtest.RoundTrip(t, "init", c.Scenario, scenarios.KernelFuncs)
}

func TestMetadata(t *testing.T) {
	src := `C meta
(*
 * Result: Sometimes
 * Title: Message passing
 *   without barriers
 * Story: The writer publishes data then a flag.
 * The reader may see the flag first.
 *
 * Family: MP
 * Variant: plain
 * Note: not a key, and
 * Source: https://example.org/patch
 *)
// Result-ish: nothing
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
exists (x=1)
`
	s := syntaxtest.MustParse(t, src, scenarios.KernelFuncs)
	want := syntax.Metadata{
		Result:  syntax.Sometimes,
		Title:   "Message passing without barriers",
		Story:   "The writer publishes data then a flag. The reader may see the flag first.",
		Family:  "MP",
		Variant: "plain Note: not a key, and",
		Source:  "https://example.org/patch",
	}
	if s.Meta != want {
		t.Errorf("Meta = %+v\nwant   %+v", s.Meta, want)
	}
	if len(s.Header) != 2 {
		t.Errorf("Header has %d comments, want 2", len(s.Header))
	}
	syntaxtest.RoundTrip(t, "meta", s, scenarios.KernelFuncs)

	// // comments on consecutive lines form one comment; a value stops at
	// the end of a comment.
	s = syntaxtest.MustParse(t, "C m\n// Title: one\n//   two\n\n// three\n/* Family: F */\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n", scenarios.KernelFuncs)
	if s.Meta.Title != "one two" || s.Meta.Family != "F" {
		t.Errorf("Meta = %+v", s.Meta)
	}
	syntaxtest.RoundTrip(t, "meta2", s, scenarios.KernelFuncs)

	// Metadata after the initial-state block is just a comment.
	s = syntaxtest.MustParse(t, "C m\n{}\n(* Title: late *)\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n", scenarios.KernelFuncs)
	if s.Meta.Title != "" {
		t.Errorf("Title from a comment after the init block: %q", s.Meta.Title)
	}
}

func TestCommentsRoundTrip(t *testing.T) {
	src := `C comments // on the C line
(* Title: c *)
{
	// before x
	int x; (* after x *)
	int y; /* a */ /* b */
	// end of init
}

// before P0
P0(int *x, int *y) // Producer
{
	int r0; // a register
	/* before the store */
	WRITE_ONCE(*x, 1); // the store
	r0 = READ_ONCE(*y) /* inside */ + 1;
	if (r0) // after if
		WRITE_ONCE(*y, 2);
	else {
		// in else
		smp_mb();
	} // after else
	if (r0 == 2) {
		barrier();
	} // after then
	else
		barrier();
	// end of P0
}

locations [x] // show x
(* before exists *)
exists (x=1) (* Bad outcome. *)
(* the end *)
`
	s := syntaxtest.MustParse(t, src, scenarios.KernelFuncs)
	if got := s.Threads[0].Trail; len(got) != 1 || got[0].Text != "// Producer" {
		t.Errorf("thread trailing comment = %+v", got)
	}
	if got := s.Final.Trail; len(got) != 1 || got[0].Text != "(* Bad outcome. *)" {
		t.Errorf("final trailing comment = %+v", got)
	}
	if got := s.Init[1].Trail; len(got) != 2 {
		t.Errorf("init y trailing comments = %+v", got)
	}
	out := syntax.Format(s)
	for _, c := range []string{"// on the C line", "(* after x *)", "// end of init", "// before P0", "// a register",
		"/* before the store */", "// the store", "/* inside */", "// after if", "// in else", "// after else",
		"// after then", "// end of P0", "// show x", "(* before exists *)", "(* the end *)"} {
		if !strings.Contains(out, c) {
			t.Errorf("Format lost comment %q:\n%s", c, out)
		}
	}
	if _, err := scenarios.Compile(s); err != nil {
		t.Fatal(err)
	}
	syntaxtest.RoundTrip(t, "comments", s, scenarios.KernelFuncs)
}

func TestPositionString(t *testing.T) {
	tests := []struct {
		p    syntax.Position
		want string
	}{
		{syntax.Position{File: "a.litmus", Line: 3, Col: 5}, "a.litmus:3:5"},
		{syntax.Position{File: "", Line: 3, Col: 5}, "3:5"},
		{syntax.Position{File: "a.litmus", Line: 3, Col: 0}, "a.litmus:3"},
		{syntax.Position{File: "a.litmus", Line: 0, Col: 0}, "a.litmus"},
		{syntax.Position{}, "<unknown>"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
	e := syntax.Error{Pos: syntax.Position{File: "f", Line: 1, Col: 2}, Msg: "bad"}
	if e.Error() != "f:1:2: bad" {
		t.Errorf("Error() = %q", e.Error())
	}
}

func TestParseErrorIsError(t *testing.T) {
	_, err := scenarios.Parse("x.litmus", []byte("C t\n{}\nP0(int *x)\n{\n\twhile (1) {}\n}\nexists (x=1)\n"))
	e, ok := err.(syntax.Error)
	if !ok {
		t.Fatalf("error %v is %T, want Error", err, err)
	}
	if e.Pos != (syntax.Position{File: "x.litmus", Line: 5, Col: 2}) {
		t.Errorf("Pos = %v", e.Pos)
	}
	want := `x.litmus:5:2: unsupported statement "while" (loops are not supported)`
	if err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
}

func TestLimits(t *testing.T) {
	big := make([]byte, syntax.MaxSourceSize+1)
	if _, err := scenarios.Parse("big", big); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("oversized source: %v", err)
	}
	deep := syntaxtest.ExprScenario(strings.Repeat("(", syntax.MaxDepth+5) + "1" + strings.Repeat(")", syntax.MaxDepth+5))
	if _, err := scenarios.Parse("deep", []byte(deep)); err == nil || !strings.Contains(err.Error(), "deep") {
		t.Errorf("deep parens: %v", err)
	}
	// Flat lists are length, not nesting (issue 11, item 7): 101 terms
	// and a 100-term condition are fine, and compile; only more than
	// MaxOperators operators in one statement is too long.
	flat := syntaxtest.ExprScenario("1" + strings.Repeat("+1", 100))
	flat = strings.Replace(flat, "exists (0:r0=0)", "exists (x=0"+func() string {
		var b strings.Builder
		for i := 1; i < 100; i++ {
			fmt.Fprintf(&b, ` \/ x=%d`, i)
		}
		return b.String()
	}()+")", 1)
	if s, err := scenarios.Parse("flat", []byte(flat)); err != nil {
		t.Errorf("flat lists: %v", err)
	} else if c, err := scenarios.Compile(s); err != nil {
		t.Errorf("flat lists: %v", err)
	} else if !c.Satisfies(machine.Outcome{Mem: make([]machine.Value, len(c.Program.Locs)), Regs: [][]machine.Value{make([]machine.Value, len(c.Program.Threads[0].Regs))}}) {
		t.Errorf("x=0 does not satisfy the first term of the list")
	}
	long := syntaxtest.ExprScenario("1" + strings.Repeat(" + 1", syntax.MaxOperators+1))
	if _, err := scenarios.Parse("long", []byte(long)); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("over-long chain: %v", err)
	}
	ok := syntaxtest.ExprScenario("1" + strings.Repeat("+1", syntax.MaxOperators-1))
	if _, err := scenarios.Parse("ok", []byte(ok)); err != nil {
		t.Errorf("chain within the limit: %v", err)
	}
	// The limit is per statement or clause, not across them (issue 22,
	// item 5): three statements and a condition of 6,000 each are fine.
	terms := "1" + strings.Repeat("+1", 6000)
	many := strings.Replace(syntaxtest.ExprScenario(terms), "\tr0 = ", "\ta = "+terms+";\n\tb = "+terms+";\n\tr0 = ", 1)
	many = strings.Replace(many, "exists (0:r0=0)", "exists (x=0"+strings.Repeat(` \/ x=0`, 6000)+")", 1)
	if _, err := scenarios.Parse("many", []byte(many)); err != nil {
		t.Errorf("operators counted across statements: %v", err)
	}
	nested := "C t\n{}\nP0(int *x)\n{\n" + strings.Repeat("{", syntax.MaxDepth+1) + strings.Repeat("}", syntax.MaxDepth+1) + "\n}\nexists (x=1)\n"
	if _, err := scenarios.Parse("nested", []byte(nested)); err == nil || !strings.Contains(err.Error(), "deep") {
		t.Errorf("nested blocks: %v", err)
	}
	cond := "C t\n{}\nP0(int *x)\n{\n}\nexists " + strings.Repeat("~", syntax.MaxDepth+1) + "x=1\n"
	if _, err := scenarios.Parse("cond", []byte(cond)); err == nil || !strings.Contains(err.Error(), "deep") {
		t.Errorf("deep condition: %v", err)
	}
}

func TestCRLFAndBOM(t *testing.T) {
	src := "\xEF\xBB\xBFC crlf\r\n(*\r\n * Title: with CRLF\r\n *)\r\n{\r\n\tint x; // c\r\n}\r\nP0(int *x)\r\n{\r\n\tWRITE_ONCE(*x, 1);\r\n}\r\nexists (x=1)\r\n"
	s := syntaxtest.MustParse(t, src, scenarios.KernelFuncs)
	if s.Name != "crlf" || s.Meta.Title != "with CRLF" || s.Init[0].Trail[0].Text != "// c" {
		t.Errorf("Name %q, Title %q, trail %q", s.Name, s.Meta.Title, s.Init[0].Trail[0].Text)
	}
	if _, err := scenarios.Compile(s); err != nil {
		t.Fatal(err)
	}
	syntaxtest.RoundTrip(t, "crlf", s, scenarios.KernelFuncs)
}

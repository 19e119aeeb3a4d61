package scenarios

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/syntax/syntaxtest"
)

// Tests for the constructs herd7 accepts that smpscope once rejected
// (issue 9), and for names that could reach a terminal (issue 11).

func TestHeaderFreeText(t *testing.T) {
	src := `C MP+pooncerelease+poacquireonce "PodWWOnceRelease RfeReleaseAcquire"
"PodRRAcquireOnce FreOnceOnce"
Cycle=RfeReleaseAcquire PodRRAcquireOnce FreOnceOnce PodWWOnceRelease
Relax=
Safe=Rfe Fre PodWW PodRR
Prefetch=0:x=F,0:y=W,1:y=F,1:x=T
Com=Rf Fr
Orig=PodWWOnceRelease RfeReleaseAcquire PodRRAcquireOnce FreOnceOnce
Hash=d41d8cd98f00b204e9800998ecf8427e
Generator=diy7 (version 7.56)
#include <linux/kernel.h>
C MP+again
(* Result: Never *)
{}
P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(y, 1);
}
P1(int *x, int *y)
{
	r0 = smp_load_acquire(y);
	r1 = READ_ONCE(*x);
}
exists (1:r0=1 /\ 1:r1=0)
`
	s := mustParse(t, src)
	if s.Name != "MP+pooncerelease+poacquireonce" || s.Meta.Result != syntax.Never {
		t.Errorf("Name %q, Result %q", s.Name, s.Meta.Result)
	}
	var free []string
	for _, c := range s.Header {
		if c.Free {
			free = append(free, c.Text)
		}
	}
	if len(free) != 12 || free[0] != `"PodWWOnceRelease RfeReleaseAcquire"` || free[11] != "C MP+again" {
		t.Errorf("free text = %q", free)
	}
	out := syntax.Format(s)
	if !strings.Contains(out, "Cycle=RfeReleaseAcquire PodRRAcquireOnce") || !strings.Contains(out, "#include <linux/kernel.h>") {
		t.Errorf("Format lost the free text:\n%s", out)
	}
	checkRoundTrip(t, "free", s)
	if _, err := Compile(s); err != nil {
		t.Error(err)
	}
}

func TestMetadataNotes(t *testing.T) {
	tests := []struct {
		comment string
		result  syntax.Observation
		note    string
		title   string
	}{
		{"Result: DEADLOCK", "", "Result: DEADLOCK", ""},
		{"Result: Maybe", "", "Result: Maybe", ""},
		{"Result: Sometimes P0 GRR: Never->Maybe: see the thread", syntax.Sometimes, "Result: Sometimes P0 GRR: Never->Maybe: see the thread", ""},
		{"Result: Never.", syntax.Never, "", ""},
		{"Result: Always\n * (with the fix)", syntax.Always, "Result: Always (with the fix)", ""},
		{"Result: Never\n *\n * Result: Sometimes", syntax.Never, "Result: Sometimes", ""},
		{"Title: one\n *\n * Title: two", "", "Title: two", "one"},
		{"Result:", "", "Result: ", ""},
		{"Title: evil \x1b]2;pwned\x07 name\x00 \xff \u202e.", "", "", `evil \x1b]2;pwned\x07 name\x00 \xff \u202e.`},
	}
	for _, tt := range tests {
		src := "C m\n(*\n * " + tt.comment + "\n *)\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n"
		s, err := Parse("m.litmus", []byte(src))
		if err != nil {
			t.Errorf("%q: a comment must never reject a file: %v", tt.comment, err)
			continue
		}
		if s.Meta.Result != tt.result || s.Meta.Note != tt.note || s.Meta.Title != tt.title {
			t.Errorf("%q: Result %q Note %q Title %q; want %q %q %q", tt.comment, s.Meta.Result, s.Meta.Note, s.Meta.Title, tt.result, tt.note, tt.title)
		}
	}
}

func TestNamesArePrintable(t *testing.T) {
	for _, tt := range []struct{ name, msg string }{
		{"evil\x1b]2;x\x07", "unprintable character U+001B"},
		{"nul\x00", "unprintable character U+0000"},
		{"bad\xffutf8", "invalid UTF-8 byte 0xff"},
		{"rtl\u202eoverride", "unprintable character U+202E"},
		{"del\x7f", "unprintable character U+007F"},
	} {
		src := "C " + tt.name + "\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n"
		_, err := Parse("n.litmus", []byte(src))
		e, ok := err.(syntax.Error)
		if !ok || !strings.Contains(e.Msg, tt.msg) {
			t.Errorf("%q: %v, want an Error containing %q", tt.name, err, tt.msg)
			continue
		}
		col := strings.IndexFunc(tt.name, func(r rune) bool { return r < ' ' || r == 0x7f || r == 0x202e || r == 0xfffd }) + 3
		if e.Pos.Line != 1 || e.Pos.Col != col {
			t.Errorf("%q: error at %v, want 1:%d", tt.name, e.Pos, col)
		}
	}
	// Printable Unicode is fine.
	mustParse(t, "C MP+ünïcode\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n")
}

func TestInitRegistersAndLocations(t *testing.T) {
	src := `C init
{
	0:r1=5;
	1:r0=x;
	int *1:r2;
	P0:r3=-2;
	x;
	[y]=3;
	p=z;
	q=&w;
	int *nul=0;
}
P0(int *x, int *y, int **p)
{
	r0 = READ_ONCE(*x);
	r2 = r1 + r0;
}
P1(int *x)
{
	WRITE_ONCE(*r0, 1);
}
exists ((0:r2=5 \/ 0:r2=6) /\ 1:r0=x /\ 0:r3=-2 /\ 1:r2=0 /\ p=z /\ x=1)
`
	c := mustCompile(t, src)
	p := c.Program
	if got := strings.Join(p.Locs, " "); got != "x y p q nul z w" {
		t.Errorf("Locs = %s", got)
	}
	loc := func(n string) machine.Value { l, _ := c.Loc(n); return machine.PtrTo(l) }
	wantInit := map[string]machine.Value{"x": 0, "y": 3, "p": loc("z"), "q": loc("w"), "nul": 0, "z": 0, "w": 0}
	for i, n := range p.Locs {
		if p.Init[i] != wantInit[n] {
			t.Errorf("Init[%s] = %v, want %v", n, p.Init[i], wantInit[n])
		}
	}
	if got := strings.Join(p.Threads[0].Regs, " "); got != "r0 r2 r1 r3" {
		t.Errorf("P0 registers %s (body order, then those only the initial state names)", got)
	}
	if got := strings.Join(p.Threads[1].Regs, " "); got != "r0 r2" {
		t.Errorf("P1 registers %s", got)
	}
	if got, want := p.Threads[0].Init, []machine.Value{0, 0, 5, -2}; !slices.Equal(got, want) {
		t.Errorf("P0 Init = %v, want %v", got, want)
	}
	if got, want := p.Threads[1].Init, []machine.Value{loc("x"), 0}; !slices.Equal(got, want) {
		t.Errorf("P1 Init = %v, want %v", got, want)
	}
	checkRoundTrip(t, "init", c.Scenario)
	if out := syntax.Format(c.Scenario); !strings.Contains(out, "\t0:r3=-2;") || !strings.Contains(out, "\tint *1:r2;") || !strings.Contains(out, "\t[y]=3;") {
		t.Errorf("Format:\n%s", out)
	}
	for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
		if v := explore(t, c, mode); v.Observation != syntax.Always {
			t.Errorf("mode %v: %+v, want Always (registers start from the initial state)", mode, v)
		}
	}
}

func TestUndeclaredAndBlockRegisters(t *testing.T) {
	c := mustCompile(t, `C regs
{}
P0(int *x, int *y)
{
	r0 = READ_ONCE(*x);
	if (r0) {
		int r1 = 2;
		r9 = r1;
	}
	WRITE_ONCE(*y, r1 + r9);
	int r5;
	r5 = 1;
}
exists (0:r9=2 /\ 0:r5=1)
`)
	if got := strings.Join(c.Program.Threads[0].Regs, " "); got != "r0 r1 r9 r5" {
		t.Errorf("registers %s", got)
	}
	if c.UserRegs[0] != 4 {
		t.Errorf("UserRegs = %d", c.UserRegs[0])
	}
	// A name that is a location but not this thread's parameter is still
	// an error, not a register.
	_, err := Compile(mustParse(t, "C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nP1(int *y) { r0 = READ_ONCE(*x); }\nexists (x=1)\n"))
	if err == nil || !strings.Contains(err.Error(), "x is not a parameter of P1") {
		t.Errorf("location used without the parameter: %v", err)
	}
}

func TestTypesHerdAccepts(t *testing.T) {
	c := mustCompile(t, `C types
{
	const int x = 1;
	volatile int y;
	atomic_int z = 2;
	_Atomic int w;
	__int128_t big;
	uint32_t u;
}
P0(const int *x, volatile int *y, atomic_int *z, _Atomic int *w, __int128_t *big, uint32_t *u,
   struct srcu_struct *s, void *vp, int *const cp, const volatile int *cv)
{
	const int r0 = READ_ONCE(*x);
	void *r1 = vp;
	int * volatile r2 = cp;
	(void)READ_ONCE(*y);
	(void)atomic_add_unless(z, 1, 0);
	r3 = (const int)r0;
}
exists (0:r0=1)
`)
	d := c.Scenario.Threads[0]
	if d.Params[0].Type != "const int" || d.Params[6].Type != "struct srcu_struct" || d.Params[7].Type != "void" || d.Params[9].Type != "const volatile int" {
		t.Errorf("types %q %q %q %q", d.Params[0].Type, d.Params[6].Type, d.Params[7].Type, d.Params[9].Type)
	}
	checkRoundTrip(t, "types", c.Scenario)
}

func TestHerdConditions(t *testing.T) {
	tests := []struct{ in, want string }{
		{`exists (not (0:r0=1 /\ 0:r1=2))`, `(~ (/\ 0:r0=1 0:r1=2))`},
		{`exists ([x]=1 /\ P1:r0=0)`, `(/\ [x]=1 1:r0=0)`},
		{`exists (x <> 1)`, `x!=1`},
		{`exists (x=1 => 0:r0=1)`, `(=> x=1 0:r0=1)`},
		{`exists (x=1 => y=1 => 0:r0=1)`, `(=> x=1 (=> y=1 0:r0=1))`},
		{`exists (x=1 /\ y=1 => 0:r0=1 \/ 0:r1=0)`, `(\/ (/\ x=1 (=> y=1 0:r0=1)) 0:r1=0)`},
		{`forall (0: r0 = 0 /\ 0: r1 = 1)`, `(/\ 0:r0=0 0:r1=1)`},
		{`~exists (x=0x10)`, `x=16`},
	}
	for _, tt := range tests {
		src := "C t\n{}\nP0(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n}\nP1(int *x)\n{\n\tint r0;\n}\n" + tt.in + "\n"
		s, err := Parse("t", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := syntaxtest.CondSexpr(s.Final.Cond); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
		if _, err := Compile(s); err != nil {
			t.Errorf("%s: %v", tt.in, err)
		}
		checkRoundTrip(t, tt.in, s)
	}
	// => is implication: false only when the left holds and the right does not.
	c := mustCompile(t, "C t\n{}\nP0(int *x, int *y) { WRITE_ONCE(*x, 1); }\nexists (x=1 => y=1)\n")
	for _, tt := range []struct {
		x, y machine.Value
		want bool
	}{{0, 0, true}, {0, 1, true}, {1, 0, false}, {1, 1, true}} {
		if got := c.Satisfies(machine.Outcome{Mem: []machine.Value{tt.x, tt.y}, Regs: [][]machine.Value{{}}}); got != tt.want {
			t.Errorf("x=%d y=%d: %v", tt.x, tt.y, got)
		}
	}
}

func TestFinalClauseSpellings(t *testing.T) {
	for _, tt := range []struct {
		in   string
		kind syntax.FinalKind
	}{
		{"final (x=1)", syntax.Exists},
		{"(x=1)", syntax.Exists},
		{"not exists (x=1)", syntax.NotExists},
		{"exists (x=1);", syntax.Exists},
		{"~exists (x=1) ; (* done *)", syntax.NotExists},
	} {
		s, err := Parse("t", []byte("C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\n"+tt.in+"\n"))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if s.Final.Kind != tt.kind || syntaxtest.CondSexpr(s.Final.Cond) != "x=1" {
			t.Errorf("%s: %v %s", tt.in, s.Final.Kind, syntaxtest.CondSexpr(s.Final.Cond))
		}
		checkRoundTrip(t, tt.in, s)
	}
}

func TestRegionsClause(t *testing.T) {
	s := mustParse(t, "C C12\n{ int x = 0 }\nP0(int *x) {\n  *x = 1;\n}\nregions: x:PROP, y:NOPROP\nforall ( x = 1 )\n")
	if s.Regions == nil || strings.Join(s.Regions.Items, " ") != "x:PROP y:NOPROP" {
		t.Fatalf("regions = %+v", s.Regions)
	}
	checkRoundTrip(t, "regions", s)
	s = mustParse(t, "C C12\n{}\nP0(int *x) { *x = 1; }\nregions:\nforall (x=1)\n")
	if s.Regions == nil || len(s.Regions.Items) != 0 {
		t.Errorf("empty regions = %+v", s.Regions)
	}
	checkRoundTrip(t, "regions-empty", s)
}

func TestTernaryParse(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a ? b : c", "(? a b c)"},
		{"a ? b : c ? 1 : 2", "(? a b (? c 1 2))"},
		{"a || b ? c + 1 : -c", "(? (|| a b) (+ c 1) (- c))"},
		{"(a ? b : c) + 1", "(+ (paren (? a b c)) 1)"},
		{"a ? b ? 1 : 2 : 3", "(? a (? b 1 2) 3)"},
	} {
		s, err := Parse("t", []byte(syntaxtest.ExprScenario(tt.in)))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		body := s.Threads[0].Body
		if got := syntaxtest.Sexpr(body[len(body)-1].(*syntax.AssignStmt).RHS); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
		checkRoundTrip(t, tt.in, s)
	}
}

// TestConstructsExplore runs small programs using the new constructs in
// both modes and checks the verdicts they must have.
func TestConstructsExplore(t *testing.T) {
	tests := []struct {
		name, src string
		tso, arm  syntax.Observation
	}{
		{"fake address dependency orders the reads", `C fake-addr
{}
P0(int *x, int *y)
{
	WRITE_ONCE(*y, 1);
	smp_wmb();
	WRITE_ONCE(*x, 1);
}
P1(int *x, int *y)
{
	r4 = READ_ONCE(*x);
	r5 = (y + (r4 & 8));
	r6 = READ_ONCE(*r5);
}
exists (1:r4=1 /\ 1:r6=0)
`, syntax.Never, syntax.Never},
		{"without the dependency the reads may reorder on ARM", `C no-dep
{}
P0(int *x, int *y)
{
	WRITE_ONCE(*y, 1);
	smp_wmb();
	WRITE_ONCE(*x, 1);
}
P1(int *x, int *y)
{
	r4 = READ_ONCE(*x);
	r6 = READ_ONCE(*y);
}
exists (1:r4=1 /\ 1:r6=0)
`, syntax.Never, syntax.Sometimes},
		{"only the chosen side of ?: loads", `C tern
{ y=7; }
P0(int *x, int *y)
{
	r0 = READ_ONCE(*x);
	r1 = r0 ? READ_ONCE(*y) : 3;
}
P1(int *x) { WRITE_ONCE(*x, 1); }
exists (0:r0=0 /\ 0:r1=3 \/ 0:r0=1 /\ 0:r1=7)
`, syntax.Always, syntax.Always},
		{"atomic_add_unless adds unless it sees the value", `C add-unless
{ v=5; }
P0(atomic_t *v)
{
	r0 = atomic_add_unless(v, 1, 5);
	r1 = atomic_inc_not_zero(v);
}
exists (0:r0=0 /\ 0:r1=1 /\ v=6)
`, syntax.Always, syntax.Always},
		{"C11 release/acquire message passing", `C c11-mp
{}
P0(atomic_int *x, atomic_int *y)
{
	atomic_store_explicit(x, 1, memory_order_relaxed);
	atomic_store_explicit(y, 1, memory_order_release);
}
P1(atomic_int *x, atomic_int *y)
{
	int r0 = atomic_load_explicit(y, memory_order_acquire);
	int r1 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (1:r0=1 /\ 1:r1=0)
`, syntax.Never, syntax.Never},
		{"C11 seq_cst store buffering", `C c11-sb
{}
P0(atomic_int *x, atomic_int *y)
{
	atomic_store_explicit(x, 1, memory_order_seq_cst);
	int r0 = atomic_load_explicit(y, memory_order_seq_cst);
}
P1(atomic_int *x, atomic_int *y)
{
	atomic_store_explicit(y, 1, memory_order_seq_cst);
	int r1 = atomic_load_explicit(x, memory_order_seq_cst);
}
exists (0:r0=0 /\ 1:r1=0)
`, syntax.Never, syntax.Never},
		{"C11 compare_exchange writes back the value it saw", `C c11-cas
{ x=2; }
P0(atomic_int *x, int *e)
{
	r0 = atomic_compare_exchange_strong(x, e, 5);
	r1 = 2;
	r2 = atomic_compare_exchange_strong(x, &r1, 6);
}
exists (0:r0=0 /\ e=2 /\ 0:r2=1 /\ x=6 /\ 0:r1=2)
`, syntax.Always, syntax.Always},
		{"loads on the right of && run only when the left holds", `C and
{ y=1; }
P0(int *x, int *y)
{
	r0 = READ_ONCE(*x) && xchg(y, 0);
}
exists (0:r0=0 /\ y=1)
`, syntax.Always, syntax.Always},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, tt.src)
			checkRoundTrip(t, tt.name, c.Scenario)
			if got := explore(t, c, machine.TSO).Observation; got != tt.tso {
				t.Errorf("TSO: %s, want %s", got, tt.tso)
			}
			if got := explore(t, c, machine.ARM).Observation; got != tt.arm {
				t.Errorf("ARM-like: %s, want %s", got, tt.arm)
			}
		})
	}
}

// TestEveryLKMMPrimitive checks that every macro of the LKMM's own list,
// linux-kernel.def, is a primitive smpscope compiles.
func TestEveryLKMMPrimitive(t *testing.T) {
	path := filepath.Join(corpusDir, "public/hw/linux-kernel.def")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("LKMM macro list not present: %v", err)
	}
	defer f.Close()
	macro := regexp.MustCompile(`^([a-z_][a-z0-9_]*)\(`)
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := macro.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n++
		if prims()[m[1]] == nil {
			t.Errorf("%s (linux-kernel.def) is not a supported primitive", m[1])
		}
	}
	if n < 100 {
		t.Errorf("only %d macros read from %s", n, path)
	}
}

// Conditions herd7 accepts with a register or [location] on the right of
// an atom, and registers no thread declares (herd7 reads them as 0, and
// shows them): issue 21.
func TestConditionValueRefs(t *testing.T) {
	src := `C refs
{}
P0(int *x, int *y) { int r1; r1 = READ_ONCE(*x); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r2; r2 = READ_ONCE(*y); WRITE_ONCE(*x, 1); }
locations [1:r7]
filter (P0:r1=1:r2 \/ 0:r1=[y])
exists (0:r1=1:r2 /\ 0:r9=0 /\ x=[y])
`
	s := mustParse(t, src)
	checkRoundTrip(t, "refs", s)
	if got := syntax.FormatCond(s.Final.Cond); got != "(0:r1=1:r2 /\\ 0:r9=0 /\\ x=[y])" {
		t.Errorf("FormatCond = %q", got)
	}
	c := mustCompile(t, src)
	r9, ok := c.Reg(0, "r9")
	r7, ok7 := c.Reg(1, "r7")
	if !ok || !ok7 {
		t.Fatal("registers only the clauses name must exist")
	}
	shown := c.Shown()
	if !shown(0, r9, 0, false) || !shown(1, r7, 0, false) {
		t.Error("registers only the clauses name are shown, as herd7 shows them")
	}
	for _, tc := range []struct {
		r1, r2, x, y  machine.Value
		final, filter bool
	}{
		{0, 0, 1, 1, true, true},
		{1, 0, 1, 1, false, true}, // r1=[y]
		{0, 1, 1, 1, false, false},
		{1, 1, 1, 0, false, true},
	} {
		o := machine.Outcome{Regs: [][]machine.Value{make([]machine.Value, len(c.Program.Threads[0].Regs)), make([]machine.Value, len(c.Program.Threads[1].Regs))}, Mem: make([]machine.Value, len(c.Program.Locs))}
		r1, _ := c.Reg(0, "r1")
		r2, _ := c.Reg(1, "r2")
		o.Regs[0][r1], o.Regs[1][r2] = tc.r1, tc.r2
		x, _ := c.Loc("x")
		y, _ := c.Loc("y")
		o.Mem[x], o.Mem[y] = tc.x, tc.y
		if got := c.Satisfies(o); got != tc.final {
			t.Errorf("%+v: Satisfies = %v", tc, got)
		}
		if got := c.Filtered(o); got != tc.filter {
			t.Errorf("%+v: Filtered = %v", tc, got)
		}
	}
	// Still errors: a thread that does not exist, a location nobody has.
	for _, bad := range []string{"exists (0:r1=5:r2)", "exists (0:r1=[nowhere])"} {
		if _, err := Compile(mustParse(t, strings.Replace(src, "exists (0:r1=1:r2 /\\ 0:r9=0 /\\ x=[y])", bad, 1))); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

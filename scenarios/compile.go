package scenarios

import (
	"fmt"
	"strings"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// Compiled is a scenario compiled into a machine program, with its final
// clause, filter and locations resolved against the program's names.
type Compiled struct {
	Program  *machine.Program
	Scenario *syntax.Scenario
	// UserRegs[t] is how many registers thread t declares. Registers
	// from UserRegs[t] on are temporaries (_t0, _t1, ...) the compiler
	// made for loads inside expressions.
	UserRegs []int

	locs   map[string]machine.Loc
	regs   []map[string]machine.Reg
	final  condFunc
	filter condFunc // nil: keep every state

	shownRegs []map[machine.Reg]bool
	shownLocs map[machine.Loc]bool

	// origins[t][i] is the source of instruction i of thread t: what a
	// what-if edit of that instruction rewrites (edit.go).
	origins [][]origin
}

// origin is where an instruction comes from in the source: the simple
// statement being compiled (an if statement for its branch and its else
// jump), and the primitive call that emitted it (nil for plain accesses,
// assignments and branches).
type origin struct {
	stmt syntax.Stmt
	call *syntax.CallExpr
	els  bool // the jump over the else branch
}

// Loc returns the location called name.
func (c *Compiled) Loc(name string) (machine.Loc, bool) {
	l, ok := c.locs[name]
	return l, ok
}

// Reg returns the register called name in thread t (declared registers
// only, not temporaries).
func (c *Compiled) Reg(t int, name string) (machine.Reg, bool) {
	if t < 0 || t >= len(c.regs) {
		return 0, false
	}
	r, ok := c.regs[t][name]
	return r, ok
}

// IsTemp reports whether register r of thread t is a compiler temporary.
func (c *Compiled) IsTemp(t int, r machine.Reg) bool {
	return t >= 0 && t < len(c.UserRegs) && int(r) >= c.UserRegs[t]
}

// compiler holds scenario-wide state during Compile.
type compiler struct {
	s        *syntax.Scenario
	prog     *machine.Program
	locs     map[string]machine.Loc
	regInits [][]*syntax.InitDecl // per thread, "0:r1=..." entries of the initial state
}

func (c *compiler) fail(pos syntax.Position, format string, args ...any) {
	panic(syntax.Errorf(pos, format, args...))
}

// Compile turns a parsed test into a machine program and resolves its
// conditions. Errors carry the position of the construct at fault.
func Compile(s *syntax.Scenario) (cs *Compiled, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(syntax.Error)
			if !ok {
				panic(r)
			}
			cs, err = nil, e
		}
	}()
	c := &compiler{s: s, prog: &machine.Program{Name: s.Name}, locs: map[string]machine.Loc{}}
	c.locations()
	out := &Compiled{Program: c.prog, Scenario: s, locs: c.locs}
	if len(s.Threads) == 0 {
		c.fail(s.NamePos, "no threads")
	}
	n := min(len(s.Threads), machine.MaxCPUs)
	c.prog.Threads = make([]machine.Thread, 0, n)
	out.UserRegs, out.regs, out.origins = make([]int, 0, n), make([]map[string]machine.Reg, 0, n), make([][]origin, 0, n)
	for i, t := range s.Threads {
		if i >= machine.MaxCPUs {
			c.fail(t.Pos, "too many threads: at most %d are supported", machine.MaxCPUs)
		}
		tc := newThreadCompiler(c, t, i)
		tc.compile()
		c.prog.Threads = append(c.prog.Threads, tc.th)
		out.UserRegs = append(out.UserRegs, tc.nUser)
		out.regs = append(out.regs, tc.userRegs)
		out.origins = append(out.origins, tc.origins)
	}
	out.resolveClauses()
	if err := c.prog.Validate(); err != nil {
		pos := s.NamePos
		for i, t := range c.prog.Threads {
			one := *c.prog
			one.Threads = []machine.Thread{t}
			if one.Validate() != nil {
				pos = s.Threads[i].Pos
				break
			}
		}
		return nil, syntax.Errorf(pos, "invalid program: %v", err)
	}
	return out, nil
}

// locations assigns a location to every variable of the initial-state
// block and every parameter, in order of first appearance, then to every
// name that only appears as an initial value ("p=y;" creates y, as herd7
// does), and computes initial values. Register initial values are
// collected per thread in regInits.
func (c *compiler) locations() {
	add := func(name string, pos syntax.Position) {
		if _, ok := c.locs[name]; ok {
			return
		}
		if len(c.prog.Locs) >= machine.MaxLocs {
			c.fail(pos, "too many locations: at most %d are supported", machine.MaxLocs)
		}
		c.locs[name] = machine.Loc(len(c.prog.Locs))
		c.prog.Locs = append(c.prog.Locs, name)
		c.prog.Init = append(c.prog.Init, 0)
	}
	seen := map[string]bool{}
	seenReg := map[string]bool{}
	c.regInits = make([][]*syntax.InitDecl, len(c.s.Threads))
	for _, d := range c.s.Init {
		if d.IsReg {
			key := fmt.Sprintf("%d:%s", d.Thread, d.Name)
			if seenReg[key] {
				c.fail(d.Pos, "register %s appears twice in the initial state", key)
			}
			seenReg[key] = true
			if d.Thread >= len(c.s.Threads) {
				c.fail(d.Pos, "register %s: there is no thread %d (the threads are P0 to P%d)", key, d.Thread, len(c.s.Threads)-1)
			}
			c.regInits[d.Thread] = append(c.regInits[d.Thread], d)
			continue
		}
		if seen[d.Name] {
			c.fail(d.Pos, "%s appears twice in the initial state", d.Name)
		}
		seen[d.Name] = true
		add(d.Name, d.Pos)
	}
	for _, t := range c.s.Threads {
		for _, p := range t.Params {
			add(p.Name, p.Pos)
		}
	}
	for _, d := range c.s.Init {
		if id := initLocRef(d.Value); id != nil {
			if id.Name == "NULL" {
				c.fail(id.NamePos, "write 0 for a null pointer: herd7 reads NULL in the initial state as a location called NULL")
			}
			add(id.Name, id.NamePos)
		}
	}
	for _, d := range c.s.Init {
		if d.Value != nil && !d.IsReg {
			c.prog.Init[c.locs[d.Name]] = c.initValue(d.Value)
		}
	}
}

// initLocRef returns the location an initial value names (y in "p=y;" or
// "p=&y;"), or nil.
func initLocRef(e syntax.Expr) *syntax.Ident {
	switch x := e.(type) {
	case *syntax.Ident:
		return x
	case *syntax.UnaryExpr:
		if id, ok := x.X.(*syntax.Ident); ok && x.Op == "&" {
			return id
		}
	}
	return nil
}

func (c *compiler) initValue(e syntax.Expr) machine.Value {
	switch x := e.(type) {
	case *syntax.IntLit:
		return machine.Value(x.Value)
	case *syntax.CallExpr:
		if x.Fun.Name == "ATOMIC_INIT" && len(x.Args) == 1 {
			return c.initValue(x.Args[0])
		}
	case *syntax.UnaryExpr:
		if lit, ok := x.X.(*syntax.IntLit); ok && x.Op == "-" {
			return machine.Value(-lit.Value)
		}
	}
	if id := initLocRef(e); id != nil {
		return machine.PtrTo(c.locs[id.Name])
	}
	c.fail(e.Pos(), "unsupported initial value %s", syntax.FormatExpr(e))
	return 0
}

// threadCompiler compiles one thread.
type threadCompiler struct {
	c        *compiler
	t        *syntax.Thread
	index    int
	th       machine.Thread
	params   map[string]machine.Loc
	userRegs map[string]machine.Reg // every register the source names
	nUser    int
	nextTemp int
	text     string // source of the statement being compiled
	depth    int    // if/else blocks around the statement being compiled
	pos      syntax.Position
	// from is the origin of the instructions being emitted; origins
	// records it for each one.
	from    origin
	origins []origin
	stmts   int // statements in the body that may emit code, nested ones included
}

func newThreadCompiler(c *compiler, t *syntax.Thread, index int) *threadCompiler {
	tc := &threadCompiler{c: c, t: t, index: index, th: machine.Thread{Name: t.Name}, params: map[string]machine.Loc{}, userRegs: map[string]machine.Reg{}}
	for _, p := range t.Params {
		tc.params[p.Name] = c.locs[p.Name]
	}
	return tc
}

func (tc *threadCompiler) fail(pos syntax.Position, format string, args ...any) {
	panic(syntax.Errorf(pos, format, args...))
}

func (tc *threadCompiler) compile() {
	tc.collectRegs()
	tc.nUser = len(tc.th.Regs)
	// About one instruction per statement (an if adds a branch and a
	// jump, which append makes room for): the code made at that capacity rather than grown from one
	// (issue 24: compiling was a tenth of what a batch of small tests
	// allocated). A thread that emits nothing keeps nil code, as before.
	if tc.stmts > 0 {
		tc.th.Code = make([]machine.Instr, 0, tc.stmts)
		tc.origins = make([]origin, 0, tc.stmts)
	}
	for _, st := range tc.t.Body {
		tc.stmt(st)
	}
	if len(tc.th.Code) == 0 {
		tc.th.Code, tc.origins = nil, nil
	}
}

// collectRegs makes the thread's registers, in order of first appearance:
// declared locals, names used without a declaration (as herd7 and diy's
// tests do), then registers only the initial state names. Registers are
// thread-wide, as in herd7: a declaration inside a block does not hide
// the name outside it. Temporaries come after all of them.
func (tc *threadCompiler) collectRegs() {
	declared := map[string]bool{}
	syntax.InspectList(tc.t.Body, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.DeclStmt); ok && d.Init == nil {
			// a declaration alone emits nothing
		} else if _, ok := n.(syntax.Stmt); ok {
			tc.stmts++
		}
		if d, ok := n.(*syntax.DeclStmt); ok {
			if declared[d.Name] {
				tc.fail(d.Pos, "register %s is declared twice in %s (register names must be unique in a thread)", d.Name, tc.t.Name)
			}
			if _, isParam := tc.params[d.Name]; isParam {
				tc.fail(d.Pos, "register %s has the name of a parameter of %s", d.Name, tc.t.Name)
			}
			declared[d.Name] = true
		}
		return true
	})
	use := func(name string, pos syntax.Position) {
		if _, ok := tc.userRegs[name]; !ok {
			tc.userRegs[name] = tc.newReg(name, pos)
		}
	}
	syntax.InspectList(tc.t.Body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.DeclStmt:
			use(x.Name, x.Pos)
		case *syntax.Ident:
			if !declared[x.Name] && tc.isRegName(x.Name) {
				use(x.Name, x.NamePos)
			}
		}
		return true
	})
	inits := tc.c.regInits[tc.index]
	for _, d := range inits {
		if _, isParam := tc.params[d.Name]; isParam {
			tc.fail(d.Pos, "%d:%s is a parameter of %s, not a register", d.Thread, d.Name, tc.t.Name)
		}
		use(d.Name, d.Pos)
	}
	// Registers only the final clause, the filter or the locations line
	// name: herd7 reads a register the thread never wrote as 0.
	for _, l := range clauseLocs(tc.c.s) {
		if l.Thread == tc.index && tc.isRegName(l.Name) {
			use(l.Name, l.NamePos)
		}
	}
	if len(inits) > 0 {
		tc.th.Init = make([]machine.Value, len(tc.th.Regs))
		for _, d := range inits {
			if d.Value != nil {
				tc.th.Init[tc.userRegs[d.Name]] = tc.c.initValue(d.Value)
			}
		}
	}
}

// clauseLocs returns every register and location the final clause, the
// filter and the locations line name, in order.
func clauseLocs(s *syntax.Scenario) []*syntax.CondLoc {
	var out []*syntax.CondLoc
	for _, c := range []syntax.Node{s.Final, s.Filter, s.Locations} {
		syntax.Inspect(c, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.CondLoc); ok {
				out = append(out, l)
			}
			return true
		})
	}
	return out
}

// isRegName reports whether an undeclared name in code is a register: it
// is not a parameter, not a shared location (those must be parameters to
// be used), and not a constant name.
func (tc *threadCompiler) isRegName(name string) bool {
	if _, ok := tc.params[name]; ok {
		return false
	}
	if _, ok := tc.c.locs[name]; ok {
		return false
	}
	return constNames[name] == nil
}

func (tc *threadCompiler) newReg(name string, pos syntax.Position) machine.Reg {
	if len(tc.th.Regs) >= machine.MaxRegs {
		tc.fail(pos, "too many registers in %s: at most %d are supported, counting the temporaries that hold loads inside expressions", tc.t.Name, machine.MaxRegs)
	}
	tc.th.Regs = append(tc.th.Regs, name)
	return machine.Reg(len(tc.th.Regs) - 1)
}

// temp allocates a fresh temporary register _tN.
func (tc *threadCompiler) temp() machine.Reg {
	for {
		name := fmt.Sprintf("_t%d", tc.nextTemp)
		tc.nextTemp++
		if _, taken := tc.userRegs[name]; !taken {
			return tc.newReg(name, tc.pos)
		}
	}
}

// lookupReg finds the register called name.
func (tc *threadCompiler) lookupReg(name string) (machine.Reg, bool) {
	r, ok := tc.userRegs[name]
	return r, ok
}

func (tc *threadCompiler) emit(in machine.Instr) int {
	if len(tc.th.Code) >= machine.MaxInstrs {
		tc.fail(tc.pos, "too many instructions in %s: at most %d are supported", tc.t.Name, machine.MaxInstrs)
	}
	in.Text = tc.text
	if c := tc.from.call; c != nil {
		in.Prim = prims()[c.Fun.Name].prim // what a call emits is its primitive's
	}
	in.Line = tc.pos.Line
	in.Depth = tc.depth
	tc.th.Code = append(tc.th.Code, in)
	tc.origins = append(tc.origins, tc.from)
	return len(tc.th.Code) - 1
}

func (tc *threadCompiler) at(st syntax.Stmt) {
	tc.text = syntax.StmtText(st)
	tc.pos = st.Start()
	tc.from = origin{stmt: st}
}

func (tc *threadCompiler) stmt(st syntax.Stmt) {
	switch s := st.(type) {
	case *syntax.DeclStmt:
		if s.Init != nil {
			tc.at(st)
			tc.assign(tc.userRegs[s.Name], s.Init)
		}
	case *syntax.ExprStmt:
		tc.at(st)
		x := syntax.Unparen(s.X)
		call, ok := x.(*syntax.CallExpr)
		if x == nil {
			tc.fail(tc.pos, "missing expression")
		}
		if !ok {
			msg := "statement has no effect"
			if u, ok := x.(*syntax.UnaryExpr); ok && u.Op == "*" {
				msg += " (a plain read whose value is unused may be removed by the compiler; use READ_ONCE)"
			}
			tc.fail(s.X.Pos(), "%s", msg)
		}
		tc.call(call, dstNone)
	case *syntax.AssignStmt:
		tc.at(st)
		tc.assignStmt(s)
	case *syntax.IncDecStmt:
		tc.at(st)
		r := tc.regLvalue(s.X, s.Op)
		op := machine.EAdd
		if s.Op == "--" {
			op = machine.ESub
		}
		tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: r, Val: machine.Bin(op, machine.RegExpr(r), machine.Const(1))})
	case *syntax.IfStmt:
		tc.at(st)
		cond := tc.value(s.Cond)
		br := tc.emit(machine.Instr{Op: machine.OpBranch, Cond: cond})
		tc.depth++
		tc.stmt(s.Then)
		tc.depth--
		if s.Else != nil {
			tc.text, tc.pos = "else", s.Else.Start()
			tc.from = origin{stmt: s, els: true}
			j := tc.emit(machine.Instr{Op: machine.OpJump})
			tc.th.Code[br].Target = len(tc.th.Code)
			tc.depth++
			tc.stmt(s.Else)
			tc.depth--
			tc.th.Code[j].Target = len(tc.th.Code)
		} else {
			tc.th.Code[br].Target = len(tc.th.Code)
		}
	case *syntax.BlockStmt:
		for _, x := range s.List {
			tc.stmt(x)
		}
	case *syntax.EmptyStmt:
	default:
		tc.fail(st.Start(), "unsupported statement")
	}
}

// regLvalue resolves the target of an assignment or ++/-- that must be a
// register.
func (tc *threadCompiler) regLvalue(e syntax.Expr, op string) machine.Reg {
	e = syntax.StripParens(e)
	switch x := e.(type) {
	case *syntax.Ident:
		if r, ok := tc.lookupReg(x.Name); ok {
			return r
		}
		if _, ok := tc.params[x.Name]; ok {
			tc.fail(x.NamePos, "cannot assign to %s: it is the address of location %s (write *%s %s ... or WRITE_ONCE(*%s, ...))", x.Name, x.Name, x.Name, op, x.Name)
		}
		tc.undeclared(x)
	case *syntax.UnaryExpr:
		if x.Op == "*" {
			tc.fail(x.OpPos, "%s on memory is not supported; load into a register, compute, and store", op)
		}
	}
	tc.fail(e.Pos(), "cannot assign to %s", syntax.FormatExpr(e))
	return 0
}

func (tc *threadCompiler) undeclared(x *syntax.Ident) {
	if _, ok := tc.c.locs[x.Name]; ok {
		tc.fail(x.NamePos, "%s is not a parameter of %s (add \"int *%s\" to its parameter list)", x.Name, tc.t.Name, x.Name)
	}
	tc.fail(x.NamePos, "undeclared name %s", x.Name)
}

var assignBinOps = map[string]machine.ExprOp{
	"+=": machine.EAdd, "-=": machine.ESub, "*=": machine.EMul, "/=": machine.EDiv, "%=": machine.EMod,
	"&=": machine.EAnd, "|=": machine.EOr, "^=": machine.EXor, "<<=": machine.EShl, ">>=": machine.EShr,
}

func (tc *threadCompiler) assignStmt(s *syntax.AssignStmt) {
	lhs := s.LHS
	lhs = syntax.StripParens(lhs)
	if u, ok := lhs.(*syntax.UnaryExpr); ok && u.Op == "*" {
		if s.Op != "=" {
			tc.fail(s.OpPos, "compound assignment %s to memory is not supported; load into a register, compute, and store", s.Op)
		}
		addr := tc.pointer(u.X, "*")
		val := tc.value(s.RHS)
		tc.emit(machine.Instr{Op: machine.OpStore, Access: machine.Plain, Addr: addr, Val: val})
		return
	}
	r := tc.regLvalue(lhs, s.Op)
	if s.Op == "=" {
		tc.assign(r, s.RHS)
		return
	}
	v := tc.value(s.RHS)
	tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: r, Val: machine.Bin(assignBinOps[s.Op], machine.RegExpr(r), v)})
}

// assign compiles "r = e": loads and primitives write r directly.
func (tc *threadCompiler) assign(r machine.Reg, e syntax.Expr) {
	switch x := syntax.Unparen(e).(type) {
	case *syntax.CallExpr:
		tc.call(x, dstReg(r))
		return
	case *syntax.UnaryExpr:
		if x.Op == "*" {
			addr := tc.pointer(x.X, "*")
			tc.emit(machine.Instr{Op: machine.OpLoad, Access: machine.Plain, HasDst: true, Dst: r, Addr: addr})
			return
		}
	case *syntax.TernaryExpr:
		tc.ternary(r, x)
		return
	}
	v := tc.value(e)
	tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: r, Val: v})
}

// ternary compiles "r = c ? a : b" as "if (c) r = a; else r = b;": only
// the chosen side runs, loads included.
func (tc *threadCompiler) ternary(r machine.Reg, x *syntax.TernaryExpr) {
	cond := tc.value(x.X)
	br := tc.emit(machine.Instr{Op: machine.OpBranch, Cond: cond})
	tc.depth++
	tc.assign(r, x.Then)
	tc.depth--
	j := tc.emit(machine.Instr{Op: machine.OpJump})
	tc.th.Code[br].Target = len(tc.th.Code)
	tc.depth++
	tc.assign(r, x.Else)
	tc.depth--
	tc.th.Code[j].Target = len(tc.th.Code)
}

// shortCircuit compiles "a && b" or "a || b" whose right side loads or
// calls an atomic: b runs only when a lets it, as in C.
func (tc *threadCompiler) shortCircuit(x *syntax.BinaryExpr) *machine.Expr {
	t := tc.temp()
	tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: t, Val: machine.Bin(machine.ENe, tc.value(x.X), machine.Const(0))})
	goOn := machine.RegExpr(t) // &&: the right side runs only if the left holds
	if x.Op == "||" {
		goOn = machine.Un(machine.ENot, machine.RegExpr(t))
	}
	br := tc.emit(machine.Instr{Op: machine.OpBranch, Cond: goOn})
	tc.depth++
	tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: t, Val: machine.Bin(machine.ENe, tc.value(x.Y), machine.Const(0))})
	tc.depth--
	tc.th.Code[br].Target = len(tc.th.Code)
	return machine.RegExpr(t)
}

// constNames are names with a fixed value in code.
var constNames = func() map[string]*machine.Value {
	names := map[string]*machine.Value{"NULL": new(machine.Value)}
	for name, v := range memoryOrders {
		names[name] = &v
	}
	return names
}()

var binOps = map[string]machine.ExprOp{
	"+": machine.EAdd, "-": machine.ESub, "*": machine.EMul, "/": machine.EDiv, "%": machine.EMod,
	"&": machine.EAnd, "|": machine.EOr, "^": machine.EXor, "<<": machine.EShl, ">>": machine.EShr,
	"==": machine.EEq, "!=": machine.ENe, "<": machine.ELt, "<=": machine.ELe, ">": machine.EGt, ">=": machine.EGe,
	"&&": machine.ELAnd, "||": machine.ELOr,
}

// isAddr reports whether e is a constant location address.
func isAddr(e *machine.Expr) bool {
	if e.Op != machine.EConst {
		return false
	}
	_, ok := e.Val.AsLoc()
	return ok
}

// value compiles e into a register expression, emitting the loads and
// primitives it contains (into temporaries) left to right.
func (tc *threadCompiler) value(e syntax.Expr) *machine.Expr {
	if e == nil {
		tc.fail(tc.pos, "missing expression")
	}
	switch x := e.(type) {
	case *syntax.IntLit:
		return machine.Const(machine.Value(x.Value))
	case *syntax.Ident:
		if r, ok := tc.lookupReg(x.Name); ok {
			return machine.RegExpr(r)
		}
		if l, ok := tc.params[x.Name]; ok {
			return machine.Const(machine.PtrTo(l))
		}
		if v := constNames[x.Name]; v != nil {
			return machine.Const(*v)
		}
		tc.undeclared(x)
	case *syntax.ParenExpr:
		return tc.value(x.X)
	case *syntax.CastExpr:
		return tc.value(x.X)
	case *syntax.UnaryExpr:
		switch x.Op {
		case "-", "!", "~":
			v := tc.value(x.X)
			if isAddr(v) {
				tc.fail(x.OpPos, "operator %s on the address of a location is not supported", x.Op)
			}
			op := map[string]machine.ExprOp{"-": machine.ENeg, "!": machine.ENot, "~": machine.EBitNot}[x.Op]
			return machine.Un(op, v)
		case "+":
			return tc.value(x.X)
		case "*":
			addr := tc.pointer(x.X, "*")
			t := tc.temp()
			tc.emit(machine.Instr{Op: machine.OpLoad, Access: machine.Plain, HasDst: true, Dst: t, Addr: addr})
			return machine.RegExpr(t)
		case "&":
			return tc.addrOf(x)
		}
	case *syntax.BinaryExpr:
		op, ok := binOps[x.Op]
		if !ok {
			break
		}
		if (x.Op == "&&" || x.Op == "||") && hasEffects(x.Y) {
			return tc.shortCircuit(x)
		}
		l := tc.value(x.X)
		r := tc.value(x.Y)
		switch {
		case x.Op == "==" || x.Op == "!=" || x.Op == "&&" || x.Op == "||":
		case isAddr(l) && isAddr(r):
			tc.fail(x.OpPos, "arithmetic on two location addresses is not supported")
		case isAddr(l) && (x.Op == "+" || x.Op == "-"), isAddr(r) && x.Op == "+":
			// A pointer plus an offset, as diy's fake dependencies write
			// "x + (r4 & 8)": an offset of 0 at run time gives the
			// location and carries the dependency; any other offset is
			// no address and faults when used. A constant one is known now.
			off := r
			if isAddr(r) {
				off = l
			}
			if off.Op == machine.EConst && off.Val != 0 {
				tc.fail(x.OpPos, "%s is not the address of a location (locations are single variables, not arrays)", syntax.FormatExpr(x))
			}
		case isAddr(l) || isAddr(r):
			tc.fail(x.OpPos, "operator %s on the address of a location is not supported (only a pointer plus or minus an offset)", x.Op)
		}
		return machine.Bin(op, l, r)
	case *syntax.TernaryExpr:
		t := tc.temp()
		tc.ternary(t, x)
		return machine.RegExpr(t)
	case *syntax.CallExpr:
		return tc.call(x, dstValue)
	}
	tc.fail(e.Pos(), "unsupported expression %s", syntax.FormatExpr(e))
	return nil
}

// hasEffects reports whether evaluating e touches memory.
func hasEffects(e syntax.Expr) bool {
	switch x := e.(type) {
	case *syntax.CallExpr:
		return true
	case *syntax.UnaryExpr:
		return x.Op == "*" || hasEffects(x.X)
	case *syntax.BinaryExpr:
		return hasEffects(x.X) || hasEffects(x.Y)
	case *syntax.ParenExpr:
		return hasEffects(x.X)
	case *syntax.CastExpr:
		return hasEffects(x.X)
	case *syntax.TernaryExpr:
		return hasEffects(x.X) || hasEffects(x.Then) || hasEffects(x.Else)
	}
	return false
}

// addrOf compiles "&e": only "&location" and "&*p" are supported.
func (tc *threadCompiler) addrOf(u *syntax.UnaryExpr) *machine.Expr {
	inner := u.X
	inner = syntax.StripParens(inner)
	switch x := inner.(type) {
	case *syntax.Ident:
		if _, ok := tc.lookupReg(x.Name); ok {
			tc.fail(u.OpPos, "cannot take the address of register %s", x.Name)
		}
		if l, ok := tc.c.locs[x.Name]; ok {
			return machine.Const(machine.PtrTo(l))
		}
		tc.undeclared(x)
	case *syntax.UnaryExpr:
		if x.Op == "*" {
			return tc.pointer(x.X, "&*")
		}
	}
	tc.fail(u.OpPos, "unsupported use of &: only &location and &*pointer are supported")
	return nil
}

// pointer compiles an expression that must yield an address.
func (tc *threadCompiler) pointer(e syntax.Expr, what string) *machine.Expr {
	v := tc.value(e)
	if v.Op == machine.EConst && !isAddr(v) {
		tc.fail(e.Pos(), "%s needs a pointer such as x or a register holding an address, not %s", what, syntax.FormatExpr(e))
	}
	return v
}

// constInt evaluates a constant integer expression.
func (tc *threadCompiler) constInt(e syntax.Expr) (int64, bool) {
	switch x := e.(type) {
	case *syntax.IntLit:
		return x.Value, true
	case *syntax.ParenExpr:
		return tc.constInt(x.X)
	case *syntax.CastExpr:
		return tc.constInt(x.X)
	case *syntax.UnaryExpr:
		if v, ok := tc.constInt(x.X); ok {
			switch x.Op {
			case "-":
				return -v, true
			case "+":
				return v, true
			case "~":
				return ^v, true
			}
		}
	case *syntax.BinaryExpr:
		l, ok1 := tc.constInt(x.X)
		r, ok2 := tc.constInt(x.Y)
		if op, ok := binOps[x.Op]; ok && ok1 && ok2 {
			return int64(machine.Bin(op, machine.Const(machine.Value(l)), machine.Const(machine.Value(r))).Eval(nil)), true
		}
	}
	return 0, false
}

// dest is where call puts a call's result.
type dest struct {
	kind destKind
	reg  machine.Reg // destReg
}

type destKind uint8

const (
	destNone  destKind = iota // the result is unused
	destValue                 // the result is returned as an expression
	destReg                   // the result is assigned to register reg
)

var (
	dstNone  = dest{kind: destNone}
	dstValue = dest{kind: destValue}
)

func dstReg(r machine.Reg) dest { return dest{kind: destReg, reg: r} }

// call compiles a primitive call. dst is dstNone, dstValue or a register
// that receives the result. For dstValue it returns the result.
func (tc *threadCompiler) call(c *syntax.CallExpr, dst dest) *machine.Expr {
	name := c.Fun.Name
	pr := prims()[name]
	if pr == nil {
		tc.fail(c.Fun.NamePos, "unknown function %q", name)
	}
	if len(c.Args) != len(pr.args) {
		tc.fail(c.Fun.NamePos, "%s takes %d arguments, not %d", name, len(pr.args), len(c.Args))
	}
	if dst != dstNone && pr.ret == retNone {
		tc.fail(c.Fun.NamePos, "%s does not return a value", name)
	}
	a := tc.callArgs(c, pr)
	// What this call emits comes from it (its arguments' calls, compiled
	// above, from themselves).
	outer := tc.from.call
	tc.from.call = c
	defer func() { tc.from.call = outer }()
	in := machine.Instr{Addr: a.addr, Val: a.val, Exp: a.exp}
	switch pr.class {
	case pLoad:
		in.Op, in.Access = machine.OpLoad, pr.access
		return tc.emitTo(in, dst)
	case pStore:
		in.Op, in.Access = machine.OpStore, pr.access
		tc.emit(in)
	case pStoreMb:
		in.Op, in.Access = machine.OpStore, pr.access
		tc.emit(in)
		tc.emit(machine.Instr{Op: machine.OpFence, Fence: machine.FenceMb})
	case pFence:
		tc.emit(machine.Instr{Op: machine.OpFence, Fence: pr.fence})
	case pLock:
		in.Op = machine.OpLock
		tc.emit(in)
	case pUnlock:
		in.Op = machine.OpUnlock
		tc.emit(in)
	case pTryLock:
		in.Op = machine.OpTryLock
		return tc.emitTo(in, dst)
	case pRCULock:
		tc.emit(machine.Instr{Op: machine.OpRCULock})
	case pRCUUnlock:
		tc.emit(machine.Instr{Op: machine.OpRCUUnlock})
	case pSyncRCU:
		tc.emit(machine.Instr{Op: machine.OpSyncRCU})
	case pSRCULock:
		in.Op, in.Cross = machine.OpSRCULock, pr.cross
		return tc.emitTo(in, dst)
	case pSRCUUnlock:
		in.Op, in.Cross = machine.OpSRCUUnlock, pr.cross
		tc.emit(in)
	case pSyncSRCU:
		in.Op = machine.OpSyncSRCU
		tc.emit(in)
	case pC11Load, pC11Store, pC11Fence, pC11RMW, pC11CAS:
		return tc.c11Call(pr, in, a, dst)
	case pRMW:
		return tc.rmwCall(pr, in, a.nr, dst)
	}
	return nil
}

// callArgs is what a call's arguments compile to.
type callArgs struct {
	addr, val, exp *machine.Expr
	nr             int64           // the bit number (argBit)
	mos            []machine.Value // the memory orders (argMO), seq_cst when none
	expArg         syntax.Expr     // compare_exchange's "expected" (argExpPtr)
}

// callArgs compiles the arguments of call c of primitive pr.
func (tc *threadCompiler) callArgs(c *syntax.CallExpr, pr *prim) callArgs {
	name := c.Fun.Name
	var out callArgs
	for i, k := range pr.args {
		a := c.Args[i]
		switch {
		case k == argMO:
			id, ok := syntax.Unparen(a).(*syntax.Ident)
			mo, known := memoryOrders[identName(id, ok)]
			if !known {
				tc.fail(a.Pos(), "argument %d of %s must be a memory order such as memory_order_relaxed, not %s", i+1, name, syntax.FormatExpr(a))
			}
			out.mos = append(out.mos, mo)
		case k == argExpPtr:
			out.expArg = a
		case k == argBit:
			v, ok := tc.constInt(a)
			if !ok {
				tc.fail(a.Pos(), "the bit number of %s must be a constant", name)
			}
			if v < 0 || v > 62 {
				tc.fail(a.Pos(), "bit number %d of %s is out of range (0 to 62)", v, name)
			}
			out.nr = v
		case i == pr.addr && k == argLvalue:
			u, ok := syntax.Unparen(a).(*syntax.UnaryExpr)
			if !ok || u.Op != "*" {
				tc.fail(a.Pos(), "%s needs a dereference such as *x, not %s", name, syntax.FormatExpr(a))
			}
			out.addr = tc.pointer(u.X, name)
		case i == pr.addr:
			if lit, ok := syntax.Unparen(a).(*syntax.IntLit); ok {
				tc.fail(a.Pos(), "%s needs a pointer such as x, not %s", name, lit.Text)
			}
			if id, ok := syntax.Unparen(a).(*syntax.Ident); ok {
				if _, isReg := tc.lookupReg(id.Name); !isReg {
					if _, isParam := tc.params[id.Name]; !isParam {
						tc.undeclared(id)
					}
				}
			}
			out.addr = tc.pointer(a, name)
		case i == pr.val:
			out.val = tc.value(a)
		case i == pr.exp:
			out.exp = tc.value(a)
		}
	}
	if len(out.mos) == 0 {
		out.mos = append(out.mos, memoryOrders["memory_order_seq_cst"])
	}
	return out
}

// emitTo sets the destination of in according to dst and emits it; for
// dstValue it returns the temporary that holds the result.
func (tc *threadCompiler) emitTo(in machine.Instr, dst dest) *machine.Expr {
	switch dst.kind {
	case destNone:
		tc.emit(in)
		return nil
	case destValue:
		t := tc.temp()
		in.HasDst, in.Dst = true, t
		tc.emit(in)
		return machine.RegExpr(t)
	}
	in.HasDst, in.Dst = true, dst.reg
	tc.emit(in)
	return nil
}

// c11Call emits a C11 primitive (in holds its address and values): its
// memory order picks the kernel access, fence or ordering it maps to.
func (tc *threadCompiler) c11Call(pr *prim, in machine.Instr, a callArgs, dst dest) *machine.Expr {
	mo := a.mos[0]
	switch pr.class {
	case pC11Load:
		in.Op, in.Access = machine.OpLoad, machine.Once
		switch mo {
		case memoryOrders["memory_order_acquire"], memoryOrders["memory_order_acq_rel"]:
			in.Access = machine.Acquire
		case memoryOrders["memory_order_seq_cst"]:
			tc.emit(machine.Instr{Op: machine.OpFence, Fence: machine.FenceMb})
			r := tc.emitTo(in, dst)
			tc.emit(machine.Instr{Op: machine.OpFence, Fence: machine.FenceMb})
			return r
		}
		return tc.emitTo(in, dst)
	case pC11Store:
		in.Op, in.Access = machine.OpStore, machine.Once
		switch mo {
		case memoryOrders["memory_order_release"], memoryOrders["memory_order_acq_rel"]:
			in.Access = machine.Release
		case memoryOrders["memory_order_seq_cst"]:
			tc.emit(machine.Instr{Op: machine.OpFence, Fence: machine.FenceMb})
			tc.emit(in)
			tc.emit(machine.Instr{Op: machine.OpFence, Fence: machine.FenceMb})
			return nil
		}
		tc.emit(in)
	case pC11Fence:
		f := machine.FenceMb
		if mo == memoryOrders["memory_order_relaxed"] {
			f = machine.FenceBarrier // a relaxed fence orders nothing
		}
		tc.emit(machine.Instr{Op: machine.OpFence, Fence: f})
	case pC11RMW:
		in.Op, in.Order, in.RMW = machine.OpRMW, c11Order(mo), pr.rmw
		return tc.emitTo(in, dst)
	case pC11CAS:
		in.Op, in.Order, in.RMW = machine.OpRMW, c11Order(mo), pr.rmw
		return tc.compareExchange(in, a.expArg, dst)
	}
	return nil
}

// rmwCall emits a kernel read-modify-write (in holds its address and
// values; nr is the bit number of a bit operation), and computes what it
// returns from the old value when that is not the old value itself.
func (tc *threadCompiler) rmwCall(pr *prim, in machine.Instr, nr int64, dst dest) *machine.Expr {
	in.Op, in.Order, in.RMW = machine.OpRMW, pr.order, pr.rmw
	switch {
	case pr.one:
		in.Val = machine.Const(1)
	case pr.args[pr.val] == argBit:
		in.Val = machine.Const(machine.Value(int64(1) << nr))
	}
	if pr.zeroExp {
		in.Exp = machine.Const(0)
	}
	if pr.ret == retNone || pr.ret == retOld || dst == dstNone {
		return tc.emitTo(in, dst)
	}
	// The result is computed from the old value.
	t := tc.temp()
	in.HasDst, in.Dst = true, t
	tc.emit(in)
	old := machine.RegExpr(t)
	var res *machine.Expr
	switch pr.ret {
	case retNew:
		res = machine.Bin(rmwExprOp(pr.rmw), old, in.Val)
	case retZero:
		res = machine.Bin(machine.EEq, machine.Bin(rmwExprOp(pr.rmw), old, in.Val), machine.Const(0))
	case retBit:
		res = machine.Bin(machine.EAnd, machine.Bin(machine.EShr, old, machine.Const(machine.Value(nr))), machine.Const(1))
	case retNeg:
		res = machine.Bin(machine.ELt, machine.Bin(rmwExprOp(pr.rmw), old, in.Val), machine.Const(0))
	case retAdded:
		res = machine.Bin(machine.ENe, old, in.Exp)
	}
	if dst == dstValue {
		return res
	}
	tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: dst.reg, Val: res})
	return nil
}

// c11Order maps a C11 memory order of a read-modify-write to the kernel's:
// relaxed (and consume) to _relaxed, acquire to _acquire, release to
// _release, and acq_rel and seq_cst to the fully ordered form, whose
// implied full barriers on both sides are what seq_cst needs.
func c11Order(mo machine.Value) machine.Order {
	switch mo {
	case memoryOrders["memory_order_relaxed"], memoryOrders["memory_order_consume"]:
		return machine.OrderRelaxed
	case memoryOrders["memory_order_acquire"]:
		return machine.OrderAcquire
	case memoryOrders["memory_order_release"]:
		return machine.OrderRelease
	}
	return machine.OrderFull
}

func identName(id *syntax.Ident, ok bool) string {
	if !ok {
		return ""
	}
	return id.Name
}

// compareExchange compiles C11's atomic_compare_exchange_*(p, e, d): a
// cmpxchg of *p from *e to d; on failure *e receives the value read; the
// result is whether it succeeded. e is "&r" for a register r, or a
// pointer to a location (read and written with plain accesses). A weak
// exchange never fails spuriously here.
func (tc *threadCompiler) compareExchange(in machine.Instr, e syntax.Expr, dst dest) *machine.Expr {
	old := tc.temp()
	in.HasDst, in.Dst = true, old
	var expected *machine.Expr
	var update func()
	if u, ok := syntax.Unparen(e).(*syntax.UnaryExpr); ok && u.Op == "&" {
		if id, ok := syntax.Unparen(u.X).(*syntax.Ident); ok {
			if r, isReg := tc.lookupReg(id.Name); isReg {
				expected = machine.RegExpr(r)
				update = func() { // equal or not, r ends up holding the value read
					tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: r, Val: machine.RegExpr(old)})
				}
			}
		}
	}
	if expected == nil {
		ptr := tc.pointer(e, "the expected value of compare_exchange")
		te := tc.temp()
		tc.emit(machine.Instr{Op: machine.OpLoad, Access: machine.Plain, HasDst: true, Dst: te, Addr: ptr})
		expected = machine.RegExpr(te)
		update = func() {
			br := tc.emit(machine.Instr{Op: machine.OpBranch, Cond: machine.Bin(machine.ENe, machine.RegExpr(old), machine.RegExpr(te))})
			tc.depth++
			tc.emit(machine.Instr{Op: machine.OpStore, Access: machine.Plain, Addr: ptr, Val: machine.RegExpr(old)})
			tc.depth--
			tc.th.Code[br].Target = len(tc.th.Code)
		}
	}
	in.Exp = expected
	tc.emit(in)
	ok := machine.Bin(machine.EEq, machine.RegExpr(old), expected)
	var res *machine.Expr
	switch dst.kind {
	case destNone:
	case destValue:
		t := tc.temp()
		tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: t, Val: ok})
		res = machine.RegExpr(t)
	case destReg:
		tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: dst.reg, Val: ok})
	}
	update()
	return res
}

func rmwExprOp(k machine.RMWKind) machine.ExprOp {
	switch k {
	case machine.RMWSub:
		return machine.ESub
	case machine.RMWAnd:
		return machine.EAnd
	case machine.RMWOr:
		return machine.EOr
	case machine.RMWXor:
		return machine.EXor
	}
	return machine.EAdd
}

// describeRegs is used in messages listing a thread's registers.
func describeRegs(th machine.Thread, n int) string {
	if n == 0 {
		return "it declares none"
	}
	return "it has " + strings.Join(th.Regs[:n], ", ")
}

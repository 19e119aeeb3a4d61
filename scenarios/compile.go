package scenarios

import (
	"fmt"
	"strings"

	"smpscope/machine"
)

// Compiled is a scenario compiled into a machine program, with its final
// clause, filter and locations resolved against the program's names.
type Compiled struct {
	Program  *machine.Program
	Scenario *Scenario
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
	s    *Scenario
	prog *machine.Program
	locs map[string]machine.Loc
}

func (c *compiler) fail(pos Position, format string, args ...any) {
	panic(errorf(pos, format, args...))
}

// Compile turns the scenario into a machine program and resolves its
// conditions. Errors carry the position of the construct at fault.
func (s *Scenario) Compile() (cs *Compiled, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(Error)
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
	for i, t := range s.Threads {
		if i >= machine.MaxCPUs {
			c.fail(t.Pos, "too many threads: at most %d are supported", machine.MaxCPUs)
		}
		tc := newThreadCompiler(c, t)
		tc.compile()
		c.prog.Threads = append(c.prog.Threads, tc.th)
		out.UserRegs = append(out.UserRegs, tc.nUser)
		out.regs = append(out.regs, tc.userRegs)
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
		return nil, errorf(pos, "invalid program: %v", err)
	}
	return out, nil
}

// locations assigns a location to every variable of the initial-state
// block and every parameter, in order of first appearance, and computes
// initial values.
func (c *compiler) locations() {
	add := func(name string, pos Position) {
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
	for _, d := range c.s.Init {
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
		if d.Value != nil {
			c.prog.Init[c.locs[d.Name]] = c.initValue(d.Value)
		}
	}
}

func (c *compiler) initValue(e Expr) machine.Value {
	locValue := func(id *Ident) machine.Value {
		l, ok := c.locs[id.Name]
		if !ok {
			c.fail(id.NamePos, "unknown location %s in the initial state (not declared there nor a parameter)", id.Name)
		}
		return machine.PtrTo(l)
	}
	switch x := e.(type) {
	case *IntLit:
		return machine.Value(x.Value)
	case *Ident:
		return locValue(x)
	case *UnaryExpr:
		switch lit, _ := x.X.(*IntLit); {
		case x.Op == "-" && lit != nil:
			return machine.Value(-lit.Value)
		case x.Op == "&":
			if id, ok := x.X.(*Ident); ok {
				return locValue(id)
			}
		}
	case *CallExpr:
		if x.Fun.Name == "ATOMIC_INIT" && len(x.Args) == 1 {
			return c.initValue(x.Args[0])
		}
	}
	c.fail(e.Pos(), "unsupported initial value %s", FormatExpr(e))
	return 0
}

// threadCompiler compiles one thread.
type threadCompiler struct {
	c        *compiler
	t        *Thread
	th       machine.Thread
	params   map[string]machine.Loc
	userRegs map[string]machine.Reg // every declared register
	scopes   []map[string]bool      // registers declared so far, per block
	nUser    int
	nextTemp int
	text     string // source of the statement being compiled
	depth    int    // if/else blocks around the statement being compiled
	pos      Position
}

func newThreadCompiler(c *compiler, t *Thread) *threadCompiler {
	tc := &threadCompiler{c: c, t: t, th: machine.Thread{Name: t.Name}, params: map[string]machine.Loc{}, userRegs: map[string]machine.Reg{}}
	for _, p := range t.Params {
		tc.params[p.Name] = c.locs[p.Name]
	}
	return tc
}

func (tc *threadCompiler) fail(pos Position, format string, args ...any) {
	panic(errorf(pos, format, args...))
}

func (tc *threadCompiler) compile() {
	// Registers are the declared locals, in declaration order; temporaries
	// come after them.
	var collect func(list []Stmt)
	collect = func(list []Stmt) {
		for _, st := range list {
			switch s := st.(type) {
			case *DeclStmt:
				if _, dup := tc.userRegs[s.Name]; dup {
					tc.fail(s.Pos, "register %s is declared twice in %s (register names must be unique in a thread)", s.Name, tc.t.Name)
				}
				if _, isParam := tc.params[s.Name]; isParam {
					tc.fail(s.Pos, "register %s has the name of a parameter of %s", s.Name, tc.t.Name)
				}
				tc.newReg(s.Name, s.Pos)
				tc.userRegs[s.Name] = machine.Reg(len(tc.th.Regs) - 1)
			case *IfStmt:
				collect([]Stmt{s.Then})
				if s.Else != nil {
					collect([]Stmt{s.Else})
				}
			case *BlockStmt:
				collect(s.List)
			}
		}
	}
	collect(tc.t.Body)
	tc.nUser = len(tc.th.Regs)
	tc.scopes = []map[string]bool{{}}
	for _, st := range tc.t.Body {
		tc.stmt(st)
	}
}

func (tc *threadCompiler) newReg(name string, pos Position) machine.Reg {
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

// lookupReg finds a register declared in an enclosing scope.
func (tc *threadCompiler) lookupReg(name string) (machine.Reg, bool) {
	for i := len(tc.scopes) - 1; i >= 0; i-- {
		if tc.scopes[i][name] {
			return tc.userRegs[name], true
		}
	}
	return 0, false
}

func (tc *threadCompiler) emit(in machine.Instr) int {
	if len(tc.th.Code) >= machine.MaxInstrs {
		tc.fail(tc.pos, "too many instructions in %s: at most %d are supported", tc.t.Name, machine.MaxInstrs)
	}
	in.Text = tc.text
	in.Line = tc.pos.Line
	in.Depth = tc.depth
	tc.th.Code = append(tc.th.Code, in)
	return len(tc.th.Code) - 1
}

func (tc *threadCompiler) at(st Stmt) {
	tc.text = StmtText(st)
	tc.pos = st.Start()
}

// scoped compiles a statement in a scope of its own (an if branch).
func (tc *threadCompiler) scoped(st Stmt) {
	tc.scopes = append(tc.scopes, map[string]bool{})
	tc.stmt(st)
	tc.scopes = tc.scopes[:len(tc.scopes)-1]
}

func (tc *threadCompiler) stmt(st Stmt) {
	switch s := st.(type) {
	case *DeclStmt:
		tc.scopes[len(tc.scopes)-1][s.Name] = true
		if s.Init != nil {
			tc.at(st)
			tc.assign(tc.userRegs[s.Name], s.Init)
		}
	case *ExprStmt:
		tc.at(st)
		x := unparen(s.X)
		call, ok := x.(*CallExpr)
		if x == nil {
			tc.fail(tc.pos, "missing expression")
		}
		if !ok {
			msg := "statement has no effect"
			if u, ok := x.(*UnaryExpr); ok && u.Op == "*" {
				msg += " (a plain read whose value is unused may be removed by the compiler; use READ_ONCE)"
			}
			tc.fail(s.X.Pos(), "%s", msg)
		}
		tc.call(call, dstNone)
	case *AssignStmt:
		tc.at(st)
		tc.assignStmt(s)
	case *IncDecStmt:
		tc.at(st)
		r := tc.regLvalue(s.X, s.Op)
		op := machine.EAdd
		if s.Op == "--" {
			op = machine.ESub
		}
		tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: r, Val: machine.Bin(op, machine.RegExpr(r), machine.Const(1))})
	case *IfStmt:
		tc.at(st)
		cond := tc.value(s.Cond)
		br := tc.emit(machine.Instr{Op: machine.OpBranch, Cond: cond})
		tc.depth++
		tc.scoped(s.Then)
		tc.depth--
		if s.Else != nil {
			tc.text, tc.pos = "else", s.Else.Start()
			j := tc.emit(machine.Instr{Op: machine.OpJump})
			tc.th.Code[br].Target = len(tc.th.Code)
			tc.depth++
			tc.scoped(s.Else)
			tc.depth--
			tc.th.Code[j].Target = len(tc.th.Code)
		} else {
			tc.th.Code[br].Target = len(tc.th.Code)
		}
	case *BlockStmt:
		tc.scopes = append(tc.scopes, map[string]bool{})
		for _, x := range s.List {
			tc.stmt(x)
		}
		tc.scopes = tc.scopes[:len(tc.scopes)-1]
	case *EmptyStmt:
	default:
		tc.fail(st.Start(), "unsupported statement")
	}
}

// regLvalue resolves the target of an assignment or ++/-- that must be a
// register.
func (tc *threadCompiler) regLvalue(e Expr, op string) machine.Reg {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	switch x := e.(type) {
	case *Ident:
		if r, ok := tc.lookupReg(x.Name); ok {
			return r
		}
		if _, ok := tc.params[x.Name]; ok {
			tc.fail(x.NamePos, "cannot assign to %s: it is the address of location %s (write *%s %s ... or WRITE_ONCE(*%s, ...))", x.Name, x.Name, x.Name, op, x.Name)
		}
		tc.undeclared(x)
	case *UnaryExpr:
		if x.Op == "*" {
			tc.fail(x.OpPos, "%s on memory is not supported; load into a register, compute, and store", op)
		}
	}
	tc.fail(e.Pos(), "cannot assign to %s", FormatExpr(e))
	return 0
}

func (tc *threadCompiler) undeclared(x *Ident) {
	if _, ok := tc.c.locs[x.Name]; ok {
		tc.fail(x.NamePos, "%s is not a parameter of %s (add \"int *%s\" to its parameter list)", x.Name, tc.t.Name, x.Name)
	}
	if _, ok := tc.userRegs[x.Name]; ok {
		tc.fail(x.NamePos, "register %s is used outside the block that declares it, or before its declaration", x.Name)
	}
	tc.fail(x.NamePos, "undeclared name %s", x.Name)
}

var assignBinOps = map[string]machine.ExprOp{
	"+=": machine.EAdd, "-=": machine.ESub, "*=": machine.EMul, "/=": machine.EDiv, "%=": machine.EMod,
	"&=": machine.EAnd, "|=": machine.EOr, "^=": machine.EXor, "<<=": machine.EShl, ">>=": machine.EShr,
}

func (tc *threadCompiler) assignStmt(s *AssignStmt) {
	lhs := s.LHS
	for {
		p, ok := lhs.(*ParenExpr)
		if !ok {
			break
		}
		lhs = p.X
	}
	if u, ok := lhs.(*UnaryExpr); ok && u.Op == "*" {
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
func (tc *threadCompiler) assign(r machine.Reg, e Expr) {
	switch x := unparen(e).(type) {
	case *CallExpr:
		tc.call(x, dstMode(r))
		return
	case *UnaryExpr:
		if x.Op == "*" {
			addr := tc.pointer(x.X, "*")
			tc.emit(machine.Instr{Op: machine.OpLoad, Access: machine.Plain, HasDst: true, Dst: r, Addr: addr})
			return
		}
	}
	v := tc.value(e)
	tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: r, Val: v})
}

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
func (tc *threadCompiler) value(e Expr) *machine.Expr {
	if e == nil {
		tc.fail(tc.pos, "missing expression")
	}
	switch x := e.(type) {
	case *IntLit:
		return machine.Const(machine.Value(x.Value))
	case *Ident:
		if r, ok := tc.lookupReg(x.Name); ok {
			return machine.RegExpr(r)
		}
		if l, ok := tc.params[x.Name]; ok {
			return machine.Const(machine.PtrTo(l))
		}
		tc.undeclared(x)
	case *ParenExpr:
		return tc.value(x.X)
	case *CastExpr:
		return tc.value(x.X)
	case *UnaryExpr:
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
	case *BinaryExpr:
		op, ok := binOps[x.Op]
		if !ok {
			break
		}
		if (x.Op == "&&" || x.Op == "||") && hasEffects(x.Y) {
			tc.fail(x.Y.Pos(), "a load or atomic on the right of %s runs only when the left side lets it; this is not supported (use an if statement)", x.Op)
		}
		l := tc.value(x.X)
		r := tc.value(x.Y)
		switch x.Op {
		case "==", "!=", "&&", "||":
		default:
			if isAddr(l) || isAddr(r) {
				tc.fail(x.OpPos, "arithmetic on the address of a location is not supported")
			}
		}
		return machine.Bin(op, l, r)
	case *CallExpr:
		return tc.call(x, dstValue)
	}
	tc.fail(e.Pos(), "unsupported expression %s", FormatExpr(e))
	return nil
}

// hasEffects reports whether evaluating e touches memory.
func hasEffects(e Expr) bool {
	switch x := e.(type) {
	case *CallExpr:
		return true
	case *UnaryExpr:
		return x.Op == "*" || hasEffects(x.X)
	case *BinaryExpr:
		return hasEffects(x.X) || hasEffects(x.Y)
	case *ParenExpr:
		return hasEffects(x.X)
	case *CastExpr:
		return hasEffects(x.X)
	}
	return false
}

// addrOf compiles "&e": only "&location" and "&*p" are supported.
func (tc *threadCompiler) addrOf(u *UnaryExpr) *machine.Expr {
	inner := u.X
	for {
		p, ok := inner.(*ParenExpr)
		if !ok {
			break
		}
		inner = p.X
	}
	switch x := inner.(type) {
	case *Ident:
		if _, ok := tc.lookupReg(x.Name); ok {
			tc.fail(u.OpPos, "cannot take the address of register %s", x.Name)
		}
		if l, ok := tc.c.locs[x.Name]; ok {
			return machine.Const(machine.PtrTo(l))
		}
		tc.undeclared(x)
	case *UnaryExpr:
		if x.Op == "*" {
			return tc.pointer(x.X, "&*")
		}
	}
	tc.fail(u.OpPos, "unsupported use of &: only &location and &*pointer are supported")
	return nil
}

// pointer compiles an expression that must yield an address.
func (tc *threadCompiler) pointer(e Expr, what string) *machine.Expr {
	v := tc.value(e)
	if v.Op == machine.EConst && !isAddr(v) {
		tc.fail(e.Pos(), "%s needs a pointer such as x or a register holding an address, not %s", what, FormatExpr(e))
	}
	return v
}

// constInt evaluates a constant integer expression.
func (tc *threadCompiler) constInt(e Expr) (int64, bool) {
	switch x := e.(type) {
	case *IntLit:
		return x.Value, true
	case *ParenExpr:
		return tc.constInt(x.X)
	case *CastExpr:
		return tc.constInt(x.X)
	case *UnaryExpr:
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
	case *BinaryExpr:
		l, ok1 := tc.constInt(x.X)
		r, ok2 := tc.constInt(x.Y)
		if op, ok := binOps[x.Op]; ok && ok1 && ok2 {
			return int64(machine.Bin(op, machine.Const(machine.Value(l)), machine.Const(machine.Value(r))).Eval(nil)), true
		}
	}
	return 0, false
}

// Destination modes for call.
const (
	dstNone  = -1 // result unused
	dstValue = -2 // result returned as an expression
)

func dstMode(r machine.Reg) int { return int(r) }

// call compiles a primitive call. dst is dstNone, dstValue or a register
// that receives the result. In dstValue mode it returns the result.
func (tc *threadCompiler) call(c *CallExpr, dst int) *machine.Expr {
	name := c.Fun.Name
	pr := prims[name]
	if pr == nil {
		tc.fail(c.Fun.NamePos, "unknown function %q", name)
	}
	if len(c.Args) != len(pr.args) {
		tc.fail(c.Fun.NamePos, "%s takes %d arguments, not %d", name, len(pr.args), len(c.Args))
	}
	if dst != dstNone && pr.ret == retNone {
		tc.fail(c.Fun.NamePos, "%s does not return a value", name)
	}
	var addr, val, exp *machine.Expr
	var nr int64
	for i, k := range pr.args {
		a := c.Args[i]
		switch {
		case k == argBit:
			v, ok := tc.constInt(a)
			if !ok {
				tc.fail(a.Pos(), "the bit number of %s must be a constant", name)
			}
			if v < 0 || v > 62 {
				tc.fail(a.Pos(), "bit number %d of %s is out of range (0 to 62)", v, name)
			}
			nr = v
		case i == pr.addr && k == argLvalue:
			u, ok := unparen(a).(*UnaryExpr)
			if !ok || u.Op != "*" {
				tc.fail(a.Pos(), "%s needs a dereference such as *x, not %s", name, FormatExpr(a))
			}
			addr = tc.pointer(u.X, name)
		case i == pr.addr:
			if lit, ok := unparen(a).(*IntLit); ok {
				tc.fail(a.Pos(), "%s needs a pointer such as x, not %s", name, lit.Text)
			}
			if id, ok := unparen(a).(*Ident); ok {
				if _, isReg := tc.lookupReg(id.Name); !isReg {
					if _, isParam := tc.params[id.Name]; !isParam {
						tc.undeclared(id)
					}
				}
			}
			addr = tc.pointer(a, name)
		case i == pr.val:
			val = tc.value(a)
		case i == pr.exp:
			exp = tc.value(a)
		}
	}
	in := machine.Instr{Addr: addr, Val: val, Exp: exp}
	// withDst sets the destination of in according to dst and emits it.
	withDst := func() *machine.Expr {
		switch dst {
		case dstNone:
			tc.emit(in)
			return nil
		case dstValue:
			t := tc.temp()
			in.HasDst, in.Dst = true, t
			tc.emit(in)
			return machine.RegExpr(t)
		}
		in.HasDst, in.Dst = true, machine.Reg(dst)
		tc.emit(in)
		return nil
	}
	switch pr.class {
	case pLoad:
		in.Op, in.Access = machine.OpLoad, pr.access
		return withDst()
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
		return withDst()
	case pRCULock:
		tc.emit(machine.Instr{Op: machine.OpRCULock})
	case pRCUUnlock:
		tc.emit(machine.Instr{Op: machine.OpRCUUnlock})
	case pSyncRCU:
		tc.emit(machine.Instr{Op: machine.OpSyncRCU})
	case pRMW:
		in.Op, in.Order, in.RMW = machine.OpRMW, pr.order, pr.rmw
		switch {
		case pr.one:
			in.Val = machine.Const(1)
		case pr.args[pr.val] == argBit:
			in.Val = machine.Const(machine.Value(int64(1) << nr))
		}
		if pr.ret == retNone || pr.ret == retOld || dst == dstNone {
			return withDst()
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
		}
		if dst == dstValue {
			return res
		}
		tc.emit(machine.Instr{Op: machine.OpAssign, HasDst: true, Dst: machine.Reg(dst), Val: res})
	}
	return nil
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

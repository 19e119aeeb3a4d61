package machine

import "fmt"

// Builder assembles a Program in Go code, for tests and examples; the
// scenarios package compiles litmus files into the same representation.
type Builder struct {
	p Program
}

// NewBuilder starts a program called name.
func NewBuilder(name string) *Builder { return &Builder{p: Program{Name: name}} }

// Loc declares a shared location with an initial value.
func (b *Builder) Loc(name string, init Value) Loc {
	b.p.Locs = append(b.p.Locs, name)
	b.p.Init = append(b.p.Init, init)
	return Loc(len(b.p.Locs) - 1)
}

// Thread adds a CPU and returns its builder.
func (b *Builder) Thread() *ThreadBuilder {
	b.p.Threads = append(b.p.Threads, Thread{Name: fmt.Sprintf("P%d", len(b.p.Threads))})
	return &ThreadBuilder{b: b, t: len(b.p.Threads) - 1}
}

// Program returns the assembled program.
func (b *Builder) Program() *Program {
	p := b.p
	return &p
}

// ThreadBuilder appends instructions to one thread.
type ThreadBuilder struct {
	b     *Builder
	t     int
	depth int // if/else nesting of the instructions being emitted
}

func (tb *ThreadBuilder) th() *Thread { return &tb.b.p.Threads[tb.t] }

// Reg declares a register.
func (tb *ThreadBuilder) Reg(name string) Reg {
	th := tb.th()
	th.Regs = append(th.Regs, name)
	return Reg(len(th.Regs) - 1)
}

func (tb *ThreadBuilder) emit(in Instr) int {
	in.Depth = tb.depth
	th := tb.th()
	th.Code = append(th.Code, in)
	return len(th.Code) - 1
}

func (tb *ThreadBuilder) loc(l Loc) string { return tb.b.p.Locs[l] }
func (tb *ThreadBuilder) reg(r Reg) string { return tb.th().Regs[r] }

var loadNames = map[Access]string{Once: "READ_ONCE", Plain: "", Acquire: "smp_load_acquire", RCUDeref: "rcu_dereference", AtomicRead: "atomic_read", SpinIsLocked: "spin_is_locked"}
var storeNames = map[Access]string{Once: "WRITE_ONCE", Plain: "", Release: "smp_store_release", RCUAssign: "rcu_assign_pointer", AtomicSet: "atomic_set"}

// Load emits dst = <access>(*l).
func (tb *ThreadBuilder) Load(a Access, dst Reg, l Loc) {
	tb.emit(Instr{Op: OpLoad, Access: a, HasDst: true, Dst: dst, Addr: Const(PtrTo(l)),
		Text: fmt.Sprintf("%s = %s(*%s);", tb.reg(dst), loadNames[a], tb.loc(l))})
}

// LoadVia emits dst = <access>(*ptr): the address comes from register ptr.
func (tb *ThreadBuilder) LoadVia(a Access, dst, ptr Reg) {
	tb.emit(Instr{Op: OpLoad, Access: a, HasDst: true, Dst: dst, Addr: RegExpr(ptr),
		Text: fmt.Sprintf("%s = %s(*%s);", tb.reg(dst), loadNames[a], tb.reg(ptr))})
}

// StoreVia emits <access>(*ptr, v): the address comes from register ptr.
func (tb *ThreadBuilder) StoreVia(a Access, ptr Reg, v *Expr) {
	tb.emit(Instr{Op: OpStore, Access: a, Addr: RegExpr(ptr), Val: v,
		Text: fmt.Sprintf("%s(*%s, %s);", storeNames[a], tb.reg(ptr), tb.expr(v))})
}

// Store emits <access>(*l, v).
func (tb *ThreadBuilder) Store(a Access, l Loc, v *Expr) {
	tb.emit(Instr{Op: OpStore, Access: a, Addr: Const(PtrTo(l)), Val: v,
		Text: fmt.Sprintf("%s(*%s, %s);", storeNames[a], tb.loc(l), tb.expr(v))})
}

// StoreConst emits <access>(*l, v) for a constant v.
func (tb *ThreadBuilder) StoreConst(a Access, l Loc, v Value) { tb.Store(a, l, Const(v)) }

// Fence emits a barrier.
func (tb *ThreadBuilder) Fence(f Fence) {
	tb.emit(Instr{Op: OpFence, Fence: f, Text: f.String() + "();"})
}

// RMW emits a read-modify-write; dst receives the old value when hasDst.
func (tb *ThreadBuilder) RMW(o Order, k RMWKind, hasDst bool, dst Reg, l Loc, val, exp *Expr) {
	names := [...]string{"xchg", "cmpxchg", "atomic_fetch_add", "atomic_fetch_sub", "atomic_fetch_and", "atomic_fetch_or", "atomic_fetch_xor", "atomic_fetch_andnot", "atomic_fetch_add_unless"}
	text := fmt.Sprintf("%s_%s(%s)", names[k], o, tb.loc(l))
	if hasDst {
		text = tb.reg(dst) + " = " + text
	}
	tb.emit(Instr{Op: OpRMW, Order: o, RMW: k, HasDst: hasDst, Dst: dst, Addr: Const(PtrTo(l)), Val: val, Exp: exp, Text: text + ";"})
}

// Lock emits spin_lock(l).
func (tb *ThreadBuilder) Lock(l Loc) {
	tb.emit(Instr{Op: OpLock, Addr: Const(PtrTo(l)), Text: fmt.Sprintf("spin_lock(%s);", tb.loc(l))})
}

// Unlock emits spin_unlock(l).
func (tb *ThreadBuilder) Unlock(l Loc) {
	tb.emit(Instr{Op: OpUnlock, Addr: Const(PtrTo(l)), Text: fmt.Sprintf("spin_unlock(%s);", tb.loc(l))})
}

// TryLock emits dst = spin_trylock(l).
func (tb *ThreadBuilder) TryLock(dst Reg, l Loc) {
	tb.emit(Instr{Op: OpTryLock, HasDst: true, Dst: dst, Addr: Const(PtrTo(l)), Text: fmt.Sprintf("%s = spin_trylock(%s);", tb.reg(dst), tb.loc(l))})
}

// RCULock emits rcu_read_lock().
func (tb *ThreadBuilder) RCULock() { tb.emit(Instr{Op: OpRCULock, Text: "rcu_read_lock();"}) }

// RCUUnlock emits rcu_read_unlock().
func (tb *ThreadBuilder) RCUUnlock() { tb.emit(Instr{Op: OpRCUUnlock, Text: "rcu_read_unlock();"}) }

// SRCULock appends "dst = srcu_read_lock(s);".
func (tb *ThreadBuilder) SRCULock(dst Reg, s Loc) {
	tb.emit(Instr{Op: OpSRCULock, HasDst: true, Dst: dst, Addr: Const(PtrTo(s)), Text: fmt.Sprintf("%s = srcu_read_lock(%s);", tb.reg(dst), tb.loc(s))})
}

// SRCUUnlock appends "srcu_read_unlock(s, idx);".
func (tb *ThreadBuilder) SRCUUnlock(s Loc, idx *Expr) {
	tb.emit(Instr{Op: OpSRCUUnlock, Addr: Const(PtrTo(s)), Val: idx, Text: fmt.Sprintf("srcu_read_unlock(%s, %s);", tb.loc(s), tb.expr(idx))})
}

// SyncSRCU appends "synchronize_srcu(s);".
func (tb *ThreadBuilder) SyncSRCU(s Loc) {
	tb.emit(Instr{Op: OpSyncSRCU, Addr: Const(PtrTo(s)), Text: fmt.Sprintf("synchronize_srcu(%s);", tb.loc(s))})
}

// SyncRCU emits synchronize_rcu().
func (tb *ThreadBuilder) SyncRCU() { tb.emit(Instr{Op: OpSyncRCU, Text: "synchronize_rcu();"}) }

// Assign emits dst = e.
func (tb *ThreadBuilder) Assign(dst Reg, e *Expr) {
	tb.emit(Instr{Op: OpAssign, HasDst: true, Dst: dst, Val: e, Text: fmt.Sprintf("%s = %s;", tb.reg(dst), tb.expr(e))})
}

// If emits if (cond) { then() } else { els() }; els may be nil.
func (tb *ThreadBuilder) If(cond *Expr, then, els func()) {
	br := tb.emit(Instr{Op: OpBranch, Cond: cond, Text: fmt.Sprintf("if (%s)", tb.expr(cond))})
	tb.depth++
	then()
	tb.depth--
	if els == nil {
		tb.th().Code[br].Target = len(tb.th().Code)
		return
	}
	j := tb.emit(Instr{Op: OpJump, Text: "else"})
	tb.th().Code[br].Target = len(tb.th().Code)
	tb.depth++
	els()
	tb.depth--
	tb.th().Code[j].Target = len(tb.th().Code)
}

func (tb *ThreadBuilder) expr(e *Expr) string {
	switch e.Op {
	case EConst:
		return tb.b.p.FormatValue(e.Val)
	case EReg:
		return tb.reg(e.Reg)
	case ENeg, ENot, EBitNot:
		return exprOpText[e.Op] + tb.expr(e.X)
	}
	return "(" + tb.expr(e.X) + " " + exprOpText[e.Op] + " " + tb.expr(e.Y) + ")"
}

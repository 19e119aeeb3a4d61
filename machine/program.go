package machine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Loc is the index of a shared location in [Program.Locs].
type Loc uint8

// Reg is the index of a register in [Thread.Regs].
type Reg uint8

// Limits of the program representation. They keep state encodings compact
// (bit masks fit in machine words); compilers reject larger programs with a
// clear error.
const (
	MaxCPUs         = 8
	MaxLocs         = 64
	MaxRegs         = 32
	MaxInstrs       = 64 // per thread; issued-early instructions are a 64-bit mask
	ptrBase   int64 = 1 << 40
	// ptrStride spaces location addresses apart so that a pointer plus a
	// small non-zero offset ("x + 8") is not the address of another
	// location: it is no pointer at all, and using it faults.
	ptrStride int64 = 1 << 16
)

// Value is what a register or location holds: an integer, or the address of
// a location (see [PtrTo]). Pointers are tagged integers so that states stay
// flat and comparable.
type Value int64

// PtrTo returns the value "address of l".
func PtrTo(l Loc) Value { return Value(ptrBase + int64(l)*ptrStride) }

// AsLoc reports whether v is the address of a location, and which.
func (v Value) AsLoc() (Loc, bool) {
	n := int64(v) - ptrBase
	if n >= 0 && n%ptrStride == 0 && n/ptrStride < MaxLocs {
		return Loc(n / ptrStride), true
	}
	return 0, false
}

// ExprOp is the operator of an [Expr] node.
type ExprOp uint8

// Expression operators. Binary operators follow C semantics on int64
// (comparisons and logical operators yield 0 or 1).
const (
	EConst ExprOp = iota
	EReg
	ENeg
	ENot    // logical !
	EBitNot // ~
	EAdd
	ESub
	EMul
	EDiv
	EMod
	EAnd // &
	EOr  // |
	EXor
	EShl
	EShr
	EEq
	ENe
	ELt
	ELe
	EGt
	EGe
	ELAnd // &&
	ELOr  // ||
)

var exprOpText = [...]string{
	ENeg: "-", ENot: "!", EBitNot: "~", EAdd: "+", ESub: "-", EMul: "*", EDiv: "/", EMod: "%",
	EAnd: "&", EOr: "|", EXor: "^", EShl: "<<", EShr: ">>", EEq: "==", ENe: "!=", ELt: "<",
	ELe: "<=", EGt: ">", EGe: ">=", ELAnd: "&&", ELOr: "||",
}

// Expr is a register expression: a constant, a register, or an operator
// applied to one (X) or two (X, Y) operands. Expressions have no memory
// effects; loads are instructions.
type Expr struct {
	Op   ExprOp
	Val  Value // EConst
	Reg  Reg   // EReg
	X, Y *Expr
}

// Const returns a constant expression.
func Const(v Value) *Expr { return &Expr{Op: EConst, Val: v} }

// RegExpr returns an expression reading register r.
func RegExpr(r Reg) *Expr { return &Expr{Op: EReg, Reg: r} }

// Bin returns the binary expression x op y.
func Bin(op ExprOp, x, y *Expr) *Expr { return &Expr{Op: op, X: x, Y: y} }

// Un returns the unary expression op x.
func Un(op ExprOp, x *Expr) *Expr { return &Expr{Op: op, X: x} }

// Regs returns the set of registers the expression reads, as a bit mask.
func (e *Expr) Regs() uint32 {
	if e == nil {
		return 0
	}
	switch e.Op {
	case EConst:
		return 0
	case EReg:
		return 1 << e.Reg
	}
	return e.X.Regs() | e.Y.Regs()
}

// Eval evaluates e with the given register values.
func (e *Expr) Eval(regs []Value) Value {
	switch e.Op {
	case EConst:
		return e.Val
	case EReg:
		return regs[e.Reg]
	case ENeg:
		return -e.X.Eval(regs)
	case ENot:
		return b2v(e.X.Eval(regs) == 0)
	case EBitNot:
		return ^e.X.Eval(regs)
	case ELAnd:
		return b2v(e.X.Eval(regs) != 0 && e.Y.Eval(regs) != 0)
	case ELOr:
		return b2v(e.X.Eval(regs) != 0 || e.Y.Eval(regs) != 0)
	}
	x, y := e.X.Eval(regs), e.Y.Eval(regs)
	switch e.Op {
	case EAdd:
		return x + y
	case ESub:
		return x - y
	case EMul:
		return x * y
	case EDiv:
		if y == 0 {
			return 0 // C leaves it undefined; a fixed answer keeps the machine deterministic
		}
		return x / y
	case EMod:
		if y == 0 {
			return 0
		}
		return x % y
	case EAnd:
		return x & y
	case EOr:
		return x | y
	case EXor:
		return x ^ y
	case EShl:
		return x << (uint64(y) & 63)
	case EShr:
		return x >> (uint64(y) & 63)
	case EEq:
		return b2v(x == y)
	case ENe:
		return b2v(x != y)
	case ELt:
		return b2v(x < y)
	case ELe:
		return b2v(x <= y)
	case EGt:
		return b2v(x > y)
	case EGe:
		return b2v(x >= y)
	}
	panic(fmt.Sprintf("machine: unknown expression operator %d", e.Op))
}

func b2v(b bool) Value {
	if b {
		return 1
	}
	return 0
}

// Op is the kind of an instruction.
type Op uint8

// Instruction kinds.
const (
	OpLoad       Op = iota // Dst = *Addr, flavoured by Access
	OpStore                // *Addr = Val, flavoured by Access
	OpFence                // a barrier, see Fence
	OpRMW                  // Dst = old value of *Addr; *Addr = f(old), see RMW and Order
	OpLock                 // spin_lock(Addr)
	OpUnlock               // spin_unlock(Addr)
	OpTryLock              // Dst = spin_trylock(Addr)
	OpRCULock              // rcu_read_lock()
	OpRCUUnlock            // rcu_read_unlock()
	OpSyncRCU              // synchronize_rcu()
	OpSRCULock             // Dst = srcu_read_lock(Addr), or srcu_down_read(Addr) when Cross
	OpSRCUUnlock           // srcu_read_unlock(Addr, Val), or srcu_up_read(Addr, Val) when Cross
	OpSyncSRCU             // synchronize_srcu(Addr): a grace period of the domain Addr points to
	OpAssign               // Dst = Val (register arithmetic)
	OpBranch               // if Cond == 0 goto Target
	OpJump                 // goto Target
)

// Access says which primitive a load or store came from. It decides the
// ordering rule (RULES.md's primitive table); Instr.Prim names it.
type Access uint8

// Access flavours.
const (
	Once         Access = iota // READ_ONCE / WRITE_ONCE
	Plain                      // plain C access
	Acquire                    // smp_load_acquire
	Release                    // smp_store_release
	RCUDeref                   // rcu_dereference (a plain load)
	RCUAssign                  // rcu_assign_pointer (a release store)
	AtomicRead                 // atomic_read (a plain load)
	AtomicSet                  // atomic_set (a plain store)
	SpinIsLocked               // spin_is_locked (a plain load of the lock word)
)

// IsRelease reports whether a store of this flavour is a release store.
func (a Access) IsRelease() bool { return a == Release || a == RCUAssign }

// Fence is the kind of an OpFence instruction.
type Fence uint8

// Barriers.
const (
	FenceMb                Fence = iota // smp_mb
	FenceRmb                            // smp_rmb
	FenceWmb                            // smp_wmb
	FenceMbBeforeAtomic                 // smp_mb__before_atomic
	FenceMbAfterAtomic                  // smp_mb__after_atomic
	FenceMbAfterSpinlock                // smp_mb__after_spinlock
	FenceMbAfterUnlockLock              // smp_mb__after_unlock_lock
	FenceBarrier                        // barrier (compiler only)
	FenceMbAfterSRCUUnlock              // smp_mb__after_srcu_read_unlock
)

var fenceNames = [...]string{
	FenceMb: "smp_mb", FenceRmb: "smp_rmb", FenceWmb: "smp_wmb",
	FenceMbBeforeAtomic: "smp_mb__before_atomic", FenceMbAfterAtomic: "smp_mb__after_atomic",
	FenceMbAfterSpinlock: "smp_mb__after_spinlock", FenceMbAfterUnlockLock: "smp_mb__after_unlock_lock",
	FenceBarrier: "barrier", FenceMbAfterSRCUUnlock: "smp_mb__after_srcu_read_unlock",
}

func (f Fence) String() string { return fenceNames[f] }

// Order is the ordering of a read-modify-write.
type Order uint8

// RMW orderings.
const (
	OrderFull    Order = iota // xchg, cmpxchg, atomic_*_return, atomic_fetch_*
	OrderRelaxed              // *_relaxed, and atomic ops with no return value
	OrderAcquire              // *_acquire
	OrderRelease              // *_release
)

var orderNames = [...]string{OrderFull: "fully ordered", OrderRelaxed: "relaxed", OrderAcquire: "acquire", OrderRelease: "release"}

func (o Order) String() string { return orderNames[o] }

// RMWKind is the function a read-modify-write applies to the old value.
type RMWKind uint8

// RMW functions. CmpXchg writes Val only when the old value equals Exp;
// AddUnless (atomic_add_unless) writes old+Val only when the old value
// differs from Exp. An RMW that does not write has failed: it is a plain
// load (RULES.md, "a conditional RMW that fails").
const (
	RMWXchg RMWKind = iota
	RMWCmpXchg
	RMWAdd
	RMWSub
	RMWAnd
	RMWOr
	RMWXor
	RMWAndNot
	RMWAddUnless
)

// Instr is one instruction of a thread. Text and Line tie it to the source
// the scenario was written in, for display.
type Instr struct {
	Op     Op
	Access Access  // OpLoad, OpStore
	Fence  Fence   // OpFence
	Order  Order   // OpRMW
	RMW    RMWKind // OpRMW
	HasDst bool    // OpLoad, OpRMW, OpTryLock, OpAssign: whether Dst is written
	Dst    Reg
	Addr   *Expr // loads, stores, RMWs, locks: must evaluate to a pointer
	Val    *Expr // stores, RMW operand (new value for xchg/cmpxchg), OpAssign
	Exp    *Expr // cmpxchg expected value
	Cond   *Expr // OpBranch
	Target int   // OpBranch, OpJump: instruction index
	// Cross marks srcu_down_read / srcu_up_read: a section that another
	// CPU may close.
	Cross bool
	// Prim is the primitive the instruction was compiled from (for
	// people: which C name to show); the rules read Op and its flavour.
	Prim Prim

	Text  string // what the person wrote, e.g. "r0 = READ_ONCE(*x);"
	Line  int    // 1-based line in the scenario source, 0 if unknown
	Depth int    // how many if/else blocks enclose it (for indenting listings)
}

// Thread is one CPU's program.
type Thread struct {
	Name string   // e.g. "P0"
	Regs []string // register names; Reg indexes this
	// Init holds initial register values ("0:r1=1;" in a litmus
	// initial state), indexed like Regs; nil or short means zero.
	Init []Value
	Code []Instr
}

// Program is a compiled scenario: shared locations with initial values and
// one thread per CPU.
type Program struct {
	Name    string
	Locs    []string // location names; Loc indexes this
	Init    []Value  // initial value per location
	Threads []Thread
}

// LocName returns the name of location l.
func (p *Program) LocName(l Loc) string {
	if int(l) < len(p.Locs) {
		return p.Locs[l]
	}
	return fmt.Sprintf("loc%d", l)
}

// FormatValue renders v for people: integers in decimal, pointers as the
// location name they point to.
func (p *Program) FormatValue(v Value) string {
	if l, ok := v.AsLoc(); ok && int(l) < len(p.Locs) {
		return p.Locs[l]
	}
	return strconv.FormatInt(int64(v), 10)
}

// Validate checks the structural invariants the machine relies on: sizes
// within limits, registers and targets in range, forward-only jumps (so
// every execution is finite and each instruction runs at most once).
func (p *Program) Validate() error {
	if len(p.Threads) == 0 {
		return fmt.Errorf("program %q has no threads", p.Name)
	}
	if len(p.Threads) > MaxCPUs {
		return fmt.Errorf("program %q has %d threads; at most %d are supported", p.Name, len(p.Threads), MaxCPUs)
	}
	if len(p.Locs) > MaxLocs {
		return fmt.Errorf("program %q has %d locations; at most %d are supported", p.Name, len(p.Locs), MaxLocs)
	}
	if len(p.Init) != len(p.Locs) {
		return fmt.Errorf("program %q: %d initial values for %d locations", p.Name, len(p.Init), len(p.Locs))
	}
	for ti, t := range p.Threads {
		if len(t.Regs) > MaxRegs {
			return fmt.Errorf("%s has %d registers; at most %d are supported", t.Name, len(t.Regs), MaxRegs)
		}
		if len(t.Code) > MaxInstrs {
			return fmt.Errorf("%s has %d instructions; at most %d are supported", t.Name, len(t.Code), MaxInstrs)
		}
		for i := range t.Code {
			// The instruction is named only in an error: naming each one
			// up front was most of what validating a small program cost.
			if err := validateInstr(&t.Code[i], i, len(t.Code), len(t.Regs)); err != nil {
				return fmt.Errorf("%s instruction %d (%s): %v", t.Name, i, strings.TrimSpace(t.Code[i].Text), err)
			}
		}
		if len(t.Init) > len(t.Regs) {
			return fmt.Errorf("%s has %d initial register values for %d registers", t.Name, len(t.Init), len(t.Regs))
		}
		_ = ti
	}
	return nil
}

// validateInstr checks instruction i of a thread of n instructions and
// nregs registers (see Validate, which says which instruction it is).
func validateInstr(in *Instr, i, n, nregs int) error {
	if err := checkExpr(in.Addr, nregs); err != nil {
		return err
	}
	for _, e := range []*Expr{in.Val, in.Exp, in.Cond} {
		if err := checkExpr(e, nregs); err != nil {
			return err
		}
	}
	if in.HasDst && int(in.Dst) >= nregs {
		return fmt.Errorf("register %d out of range", in.Dst)
	}
	if in.Op > OpJump {
		return fmt.Errorf("unknown operation %d", in.Op)
	}
	switch in.Op {
	case OpLoad, OpStore, OpRMW, OpLock, OpUnlock, OpTryLock, OpSRCULock, OpSRCUUnlock, OpSyncSRCU:
		if in.Addr == nil {
			return errors.New("missing address")
		}
	}
	switch in.Op {
	case OpStore, OpAssign, OpRMW:
		if in.Val == nil {
			return errors.New("missing value")
		}
	case OpBranch:
		if in.Cond == nil {
			return errors.New("missing condition")
		}
	}
	if in.Op == OpRMW && (in.RMW == RMWCmpXchg || in.RMW == RMWAddUnless) && in.Exp == nil {
		return errors.New("conditional RMW without expected value")
	}
	if in.Op == OpBranch || in.Op == OpJump {
		if in.Target <= i || in.Target > n {
			return fmt.Errorf("jump target %d must be forward and within the thread", in.Target)
		}
	}
	return nil
}

func checkExpr(e *Expr, nregs int) error {
	if e == nil {
		return nil
	}
	switch e.Op {
	case EConst:
		return nil
	case EReg:
		if int(e.Reg) >= nregs {
			return fmt.Errorf("register %d out of range", e.Reg)
		}
		return nil
	case ENeg, ENot, EBitNot:
		if e.X == nil {
			return fmt.Errorf("unary operator without operand")
		}
		return checkExpr(e.X, nregs)
	}
	if e.Op > ELOr {
		return fmt.Errorf("unknown operator %d", e.Op)
	}
	if e.X == nil || e.Y == nil {
		return fmt.Errorf("binary operator without operands")
	}
	if err := checkExpr(e.X, nregs); err != nil {
		return err
	}
	return checkExpr(e.Y, nregs)
}

package scenarios

import (
	"fmt"
	"strings"
	"testing"

	"smpscope/machine"
)

var (
	accessNames = map[machine.Access]string{
		machine.Once: "once", machine.Plain: "plain", machine.Acquire: "acquire", machine.Release: "release",
		machine.RCUDeref: "rcu_deref", machine.RCUAssign: "rcu_assign", machine.AtomicRead: "atomic_read",
		machine.AtomicSet: "atomic_set", machine.SpinIsLocked: "spin_is_locked",
	}
	orderNames = map[machine.Order]string{
		machine.OrderFull: "full", machine.OrderRelaxed: "relaxed", machine.OrderAcquire: "acquire", machine.OrderRelease: "release",
	}
	rmwNames = map[machine.RMWKind]string{
		machine.RMWXchg: "xchg", machine.RMWCmpXchg: "cmpxchg", machine.RMWAdd: "add", machine.RMWSub: "sub",
		machine.RMWAnd: "and", machine.RMWOr: "or", machine.RMWXor: "xor", machine.RMWAndNot: "andnot",
		machine.RMWAddUnless: "add_unless",
	}
	exprOps = map[machine.ExprOp]string{
		machine.ENeg: "-", machine.ENot: "!", machine.EBitNot: "~", machine.EAdd: "+", machine.ESub: "-",
		machine.EMul: "*", machine.EDiv: "/", machine.EMod: "%", machine.EAnd: "&", machine.EOr: "|",
		machine.EXor: "^", machine.EShl: "<<", machine.EShr: ">>", machine.EEq: "==", machine.ENe: "!=",
		machine.ELt: "<", machine.ELe: "<=", machine.EGt: ">", machine.EGe: ">=", machine.ELAnd: "&&", machine.ELOr: "||",
	}
)

// exprString renders a machine expression with register and location
// names, fully parenthesised.
func exprString(p *machine.Program, th machine.Thread, e *machine.Expr) string {
	if e == nil {
		return "nil"
	}
	switch e.Op {
	case machine.EConst:
		if l, ok := e.Val.AsLoc(); ok {
			return "&" + p.LocName(l)
		}
		return fmt.Sprint(int64(e.Val))
	case machine.EReg:
		return th.Regs[e.Reg]
	case machine.ENeg, machine.ENot, machine.EBitNot:
		return exprOps[e.Op] + exprString(p, th, e.X)
	}
	return "(" + exprString(p, th, e.X) + " " + exprOps[e.Op] + " " + exprString(p, th, e.Y) + ")"
}

// addrString renders an address: [x] for a location, [expr] otherwise.
func addrString(p *machine.Program, th machine.Thread, e *machine.Expr) string {
	s := exprString(p, th, e)
	return "[" + strings.TrimPrefix(s, "&") + "]"
}

// instrString renders an instruction compactly for tests.
func instrString(p *machine.Program, th machine.Thread, in machine.Instr) string {
	dst := ""
	if in.HasDst {
		dst = th.Regs[in.Dst] + " = "
	}
	switch in.Op {
	case machine.OpLoad:
		return dst + "load." + accessNames[in.Access] + " " + addrString(p, th, in.Addr)
	case machine.OpStore:
		return "store." + accessNames[in.Access] + " " + addrString(p, th, in.Addr) + " " + exprString(p, th, in.Val)
	case machine.OpFence:
		return in.Fence.String()
	case machine.OpRMW:
		s := dst + "rmw." + orderNames[in.Order] + "." + rmwNames[in.RMW] + " " + addrString(p, th, in.Addr)
		if in.Exp != nil {
			s += " " + exprString(p, th, in.Exp)
		}
		return s + " " + exprString(p, th, in.Val)
	case machine.OpLock:
		return "lock " + addrString(p, th, in.Addr)
	case machine.OpUnlock:
		return "unlock " + addrString(p, th, in.Addr)
	case machine.OpTryLock:
		return dst + "trylock " + addrString(p, th, in.Addr)
	case machine.OpRCULock:
		return "rcu_read_lock"
	case machine.OpRCUUnlock:
		return "rcu_read_unlock"
	case machine.OpSyncRCU:
		return "synchronize_rcu"
	case machine.OpSRCULock:
		return dst + map[bool]string{false: "srcu_read_lock ", true: "srcu_down_read "}[in.Cross] + addrString(p, th, in.Addr)
	case machine.OpSRCUUnlock:
		return map[bool]string{false: "srcu_read_unlock ", true: "srcu_up_read "}[in.Cross] + addrString(p, th, in.Addr) + " " + exprString(p, th, in.Val)
	case machine.OpSyncSRCU:
		return "synchronize_srcu " + addrString(p, th, in.Addr)
	case machine.OpAssign:
		return dst + exprString(p, th, in.Val)
	case machine.OpBranch:
		return fmt.Sprintf("ifnot %s goto %d", exprString(p, th, in.Cond), in.Target)
	case machine.OpJump:
		return fmt.Sprintf("goto %d", in.Target)
	}
	return fmt.Sprintf("op%d", in.Op)
}

func threadCode(c *Compiled, t int) string {
	th := c.Program.Threads[t]
	var parts []string
	for _, in := range th.Code {
		parts = append(parts, instrString(c.Program, th, in))
	}
	return strings.Join(parts, "; ")
}

// stmtScenario puts statements in P0 with a fixed set of parameters and
// registers.
func stmtScenario(stmts string) string {
	return "C t\n{\n\tint *p=x;\n}\nP0(int *x, int *y, spinlock_t *l, atomic_t *v, int **p, unsigned long *f, struct srcu_struct *s)\n{\n\tint r0;\n\tint r1;\n\tint *q;\n\n\t" +
		stmts + "\n}\nexists (0:r0=0)\n"
}

func TestPrimitiveMapping(t *testing.T) {
	tests := []struct{ stmt, want string }{
		// Loads and stores.
		{"r0 = READ_ONCE(*x);", "r0 = load.once [x]"},
		{"WRITE_ONCE(*x, 1);", "store.once [x] 1"},
		{"r0 = *x;", "r0 = load.plain [x]"},
		{"*x = 1;", "store.plain [x] 1"},
		{"*y = *x;", "_t0 = load.plain [x]; store.plain [y] _t0"},
		{"r0 = smp_load_acquire(x);", "r0 = load.acquire [x]"},
		{"smp_store_release(x, r1);", "store.release [x] r1"},
		{"smp_store_release(&x, 1);", "store.release [x] 1"},
		{"r0 = smp_load_acquire(&x);", "r0 = load.acquire [x]"},
		{"q = rcu_dereference(*p);", "q = load.rcu_deref [p]"},
		{"rcu_assign_pointer(*p, y);", "store.rcu_assign [p] &y"},
		{"q = READ_ONCE(*p); r0 = READ_ONCE(*q);", "q = load.once [p]; r0 = load.once [q]"},
		{"r0 = READ_ONCE(**p);", "_t0 = load.plain [p]; r0 = load.once [_t0]"},
		{"r0 = atomic_read(v);", "r0 = load.atomic_read [v]"},
		{"atomic_set(v, 5);", "store.atomic_set [v] 5"},
		{"r0 = atomic_read_acquire(v);", "r0 = load.acquire [v]"},
		{"atomic_set_release(v, 5);", "store.release [v] 5"},
		{"smp_store_mb(*x, 2);", "store.once [x] 2; smp_mb"},
		{"READ_ONCE(*x);", "load.once [x]"},
		// Barriers.
		{"smp_mb();", "smp_mb"},
		{"smp_rmb();", "smp_rmb"},
		{"smp_wmb();", "smp_wmb"},
		{"smp_mb__before_atomic();", "smp_mb__before_atomic"},
		{"smp_mb__after_atomic();", "smp_mb__after_atomic"},
		{"smp_mb__after_spinlock();", "smp_mb__after_spinlock"},
		{"smp_mb__after_unlock_lock();", "smp_mb__after_unlock_lock"},
		{"barrier();", "barrier"},
		// Exchange.
		{"r0 = xchg(x, 1);", "r0 = rmw.full.xchg [x] 1"},
		{"r0 = xchg_relaxed(x, 1);", "r0 = rmw.relaxed.xchg [x] 1"},
		{"r0 = xchg_acquire(x, 1);", "r0 = rmw.acquire.xchg [x] 1"},
		{"r0 = xchg_release(x, 1);", "r0 = rmw.release.xchg [x] 1"},
		{"r0 = cmpxchg(x, 0, 1);", "r0 = rmw.full.cmpxchg [x] 0 1"},
		{"r0 = cmpxchg_relaxed(x, r1, 2);", "r0 = rmw.relaxed.cmpxchg [x] r1 2"},
		{"r0 = cmpxchg_acquire(x, 0, 1);", "r0 = rmw.acquire.cmpxchg [x] 0 1"},
		{"r0 = cmpxchg_release(x, 0, 1);", "r0 = rmw.release.cmpxchg [x] 0 1"},
		{"xchg(x, 1);", "rmw.full.xchg [x] 1"},
		{"r0 = atomic_xchg(v, 3);", "r0 = rmw.full.xchg [v] 3"},
		{"r0 = atomic_xchg_relaxed(v, 3);", "r0 = rmw.relaxed.xchg [v] 3"},
		{"r0 = atomic_cmpxchg(v, 1, 2);", "r0 = rmw.full.cmpxchg [v] 1 2"},
		{"r0 = atomic_cmpxchg_acquire(v, 1, 2);", "r0 = rmw.acquire.cmpxchg [v] 1 2"},
		// Atomics without a return value are relaxed.
		{"atomic_add(2, v);", "rmw.relaxed.add [v] 2"},
		{"atomic_sub(2, v);", "rmw.relaxed.sub [v] 2"},
		{"atomic_inc(v);", "rmw.relaxed.add [v] 1"},
		{"atomic_dec(v);", "rmw.relaxed.sub [v] 1"},
		{"atomic_and(6, v);", "rmw.relaxed.and [v] 6"},
		{"atomic_or(6, v);", "rmw.relaxed.or [v] 6"},
		{"atomic_xor(6, v);", "rmw.relaxed.xor [v] 6"},
		{"atomic_andnot(6, v);", "rmw.relaxed.andnot [v] 6"},
		// _return forms: the new value, computed from the old one.
		{"r0 = atomic_add_return(2, v);", "_t0 = rmw.full.add [v] 2; r0 = (_t0 + 2)"},
		{"r0 = atomic_sub_return_relaxed(2, v);", "_t0 = rmw.relaxed.sub [v] 2; r0 = (_t0 - 2)"},
		{"r0 = atomic_inc_return_acquire(v);", "_t0 = rmw.acquire.add [v] 1; r0 = (_t0 + 1)"},
		{"r0 = atomic_dec_return_release(v);", "_t0 = rmw.release.sub [v] 1; r0 = (_t0 - 1)"},
		{"r0 = atomic_add_return(r0, v);", "_t0 = rmw.full.add [v] r0; r0 = (_t0 + r0)"},
		{"atomic_inc_return(v);", "rmw.full.add [v] 1"},
		// fetch forms: the old value.
		{"r0 = atomic_fetch_add(2, v);", "r0 = rmw.full.add [v] 2"},
		{"r0 = atomic_fetch_sub_relaxed(2, v);", "r0 = rmw.relaxed.sub [v] 2"},
		{"r0 = atomic_fetch_inc_acquire(v);", "r0 = rmw.acquire.add [v] 1"},
		{"r0 = atomic_fetch_dec_release(v);", "r0 = rmw.release.sub [v] 1"},
		{"r0 = atomic_fetch_and(3, v);", "r0 = rmw.full.and [v] 3"},
		{"r0 = atomic_fetch_or_relaxed(3, v);", "r0 = rmw.relaxed.or [v] 3"},
		{"r0 = atomic_fetch_xor_acquire(3, v);", "r0 = rmw.acquire.xor [v] 3"},
		{"r0 = atomic_fetch_andnot_release(3, v);", "r0 = rmw.release.andnot [v] 3"},
		// _and_test: fully ordered, result new == 0.
		{"r0 = atomic_dec_and_test(v);", "_t0 = rmw.full.sub [v] 1; r0 = ((_t0 - 1) == 0)"},
		{"r0 = atomic_inc_and_test(v);", "_t0 = rmw.full.add [v] 1; r0 = ((_t0 + 1) == 0)"},
		{"r0 = atomic_sub_and_test(3, v);", "_t0 = rmw.full.sub [v] 3; r0 = ((_t0 - 3) == 0)"},
		// Bit operations.
		{"r0 = test_and_set_bit(3, f);", "_t0 = rmw.full.or [f] 8; r0 = ((_t0 >> 3) & 1)"},
		{"r0 = test_and_clear_bit(0, f);", "_t0 = rmw.full.andnot [f] 1; r0 = ((_t0 >> 0) & 1)"},
		{"r0 = test_and_set_bit_lock(1, f);", "_t0 = rmw.acquire.or [f] 2; r0 = ((_t0 >> 1) & 1)"},
		{"set_bit(2, f);", "rmw.relaxed.or [f] 4"},
		{"clear_bit(2, f);", "rmw.relaxed.andnot [f] 4"},
		{"clear_bit_unlock(1 + 1, f);", "rmw.release.andnot [f] 4"},
		// Locks and RCU.
		{"spin_lock(l);", "lock [l]"},
		{"spin_unlock(l);", "unlock [l]"},
		{"r0 = spin_trylock(l);", "r0 = trylock [l]"},
		{"r0 = spin_is_locked(l);", "r0 = load.spin_is_locked [l]"},
		{"rcu_read_lock();", "rcu_read_lock"},
		{"rcu_read_unlock();", "rcu_read_unlock"},
		{"synchronize_rcu();", "synchronize_rcu"},
		{"synchronize_rcu_expedited();", "synchronize_rcu"},
		// SRCU: a struct srcu_struct parameter is the domain's location.
		{"r0 = srcu_read_lock(s); srcu_read_unlock(s, r0);", "r0 = srcu_read_lock [s]; srcu_read_unlock [s] r0"},
		{"r0 = srcu_down_read(s); srcu_up_read(s, r0);", "r0 = srcu_down_read [s]; srcu_up_read [s] r0"},
		{"synchronize_srcu(s);", "synchronize_srcu [s]"},
		{"synchronize_srcu_expedited(s);", "synchronize_srcu [s]"},
		{"smp_mb__after_srcu_read_unlock();", "smp_mb__after_srcu_read_unlock"},
		// Conditional adds: the result says whether it added.
		{"r0 = atomic_add_unless(v, 1, 5);", "_t0 = rmw.full.add_unless [v] 5 1; r0 = (_t0 != 5)"},
		{"(void)atomic_add_unless(v, 1, 0);", "rmw.full.add_unless [v] 0 1"},
		{"r0 = atomic_inc_not_zero(v);", "_t0 = rmw.full.add_unless [v] 0 1; r0 = (_t0 != 0)"},
		{"r0 = atomic_fetch_add_unless(v, 2, r1);", "r0 = rmw.full.add_unless [v] r1 2"},
		{"r0 = atomic_add_negative(-2, v);", "_t0 = rmw.full.add [v] -2; r0 = ((_t0 + -2) < 0)"},
		{"r0 = atomic_add_negative_relaxed(1, v);", "_t0 = rmw.relaxed.add [v] 1; r0 = ((_t0 + 1) < 0)"},
		// herd7's internal forms compile like the kernel names.
		{"r0 = __load{once}(*x);", "r0 = load.once [x]"},
		{"r0 = __load{ACQUIRE}(*x);", "r0 = load.acquire [x]"},
		{"__store{release}(*x, 2);", "store.release [x] 2"},
		{"r0 = __xchg{mb}(x, 3);", "r0 = rmw.full.xchg [x] 3"},
		{"r0 = __cmpxchg{acquire}(x, 3, 4);", "r0 = rmw.acquire.cmpxchg [x] 3 4"},
		{"__fence{mb};", "smp_mb"},
		{"__fence{after-unlock-lock};", "smp_mb__after_unlock_lock"},
		{"r0 = __atomic_add_unless{mb}(v, 10, 0);", "_t0 = rmw.full.add_unless [v] 0 10; r0 = (_t0 != 0)"},
		{"__lock(l); __unlock(l);", "lock [l]; unlock [l]"},
		// C11 atomics map to their kernel counterparts.
		{"r0 = atomic_load_explicit(x, memory_order_relaxed);", "r0 = load.once [x]"},
		{"r0 = atomic_load_explicit(x, memory_order_consume);", "r0 = load.once [x]"},
		{"r0 = atomic_load_explicit(x, memory_order_acquire);", "r0 = load.acquire [x]"},
		{"r0 = atomic_load_explicit(x, memory_order_seq_cst);", "smp_mb; r0 = load.once [x]; smp_mb"},
		{"atomic_store_explicit(x, 1, memory_order_relaxed);", "store.once [x] 1"},
		{"atomic_store_explicit(x, 1, memory_order_release);", "store.release [x] 1"},
		{"atomic_store_explicit(x, 1, memory_order_seq_cst);", "smp_mb; store.once [x] 1; smp_mb"},
		{"r0 = atomic_exchange_explicit(x, 2, memory_order_relaxed);", "r0 = rmw.relaxed.xchg [x] 2"},
		{"r0 = atomic_exchange_explicit(x, 2, memory_order_acq_rel);", "r0 = rmw.full.xchg [x] 2"},
		{"r0 = atomic_fetch_add_explicit(x, 2, memory_order_acquire);", "r0 = rmw.acquire.add [x] 2"},
		{"atomic_fetch_sub_explicit(x, 2, memory_order_release);", "rmw.release.sub [x] 2"},
		{"r0 = atomic_fetch_or_explicit(x, 2, memory_order_seq_cst);", "r0 = rmw.full.or [x] 2"},
		{"atomic_thread_fence(memory_order_relaxed);", "barrier"},
		{"atomic_thread_fence(memory_order_acquire);", "smp_mb"},
		{"atomic_thread_fence(memory_order_seq_cst);", "smp_mb"},
		{"r0 = atomic_compare_exchange_strong(x, &r1, 5);", "_t0 = rmw.full.cmpxchg [x] r1 5; r0 = (_t0 == r1); r1 = _t0"},
		{"r0 = atomic_compare_exchange_weak_explicit(x, y, 5, memory_order_relaxed, memory_order_relaxed);",
			"_t1 = load.plain [y]; _t0 = rmw.relaxed.cmpxchg [x] _t1 5; r0 = (_t0 == _t1); ifnot (_t0 != _t1) goto 5; store.plain [y] _t0"},
		{"atomic_compare_exchange_strong(x, y, 5);",
			"_t1 = load.plain [y]; _t0 = rmw.full.cmpxchg [x] _t1 5; ifnot (_t0 != _t1) goto 4; store.plain [y] _t0"},
		// The conditional operator and && / || with loads on the right
		// are branches: only the side that runs loads.
		{"r0 = r1 ? READ_ONCE(*x) : 2;", "ifnot r1 goto 3; r0 = load.once [x]; goto 4; r0 = 2"},
		{"WRITE_ONCE(*y, READ_ONCE(*x) ? 1 : r1);", "_t1 = load.once [x]; ifnot _t1 goto 4; _t0 = 1; goto 5; _t0 = r1; store.once [y] _t0"},
		{"r0 = r1 && READ_ONCE(*x);", "_t0 = (r1 != 0); ifnot _t0 goto 4; _t1 = load.once [x]; _t0 = (_t1 != 0); r0 = _t0"},
		{"r0 = r1 || READ_ONCE(*x);", "_t0 = (r1 != 0); ifnot !_t0 goto 4; _t1 = load.once [x]; _t0 = (_t1 != 0); r0 = _t0"},
		// A pointer plus an offset (diy's fake dependencies).
		{"q = (x + (r1 & 8)); r0 = READ_ONCE(*q);", "q = (&x + (r1 & 8)); r0 = load.once [q]"},
		{"r0 = READ_ONCE(*(r1 + x));", "r0 = load.once [(r1 + &x)]"},
		{"WRITE_ONCE(*(y - r1), 1);", "store.once [(&y - r1)] 1"},
		{"r0 = READ_ONCE(*(x + 0));", "r0 = load.once [(&x + 0)]"},
		{"WRITE_ONCE(*x, NULL);", "store.once [x] 0"},
		// Register arithmetic and temporaries.
		{"r0 = r1 + 1;", "r0 = (r1 + 1)"},
		{"r0 = READ_ONCE(*x) + READ_ONCE(*y);", "_t0 = load.once [x]; _t1 = load.once [y]; r0 = (_t0 + _t1)"},
		{"r0 += 2;", "r0 = (r0 + 2)"},
		{"r0 <<= r1;", "r0 = (r0 << r1)"},
		{"r0++;", "r0 = (r0 + 1)"},
		{"--r0;", "r0 = (r0 - 1)"},
		{"r0 = (int)r1;", "r0 = r1"},
		{"q = x;", "q = &x"},
		{"r0 = q == x;", "r0 = (q == &x)"},
		{"r0 = xchg(x, 1) + atomic_inc_return(v);", "_t0 = rmw.full.xchg [x] 1; _t1 = rmw.full.add [v] 1; r0 = (_t0 + (_t1 + 1))"},
		// Control flow.
		{"if (r0) WRITE_ONCE(*y, 1);", "ifnot r0 goto 2; store.once [y] 1"},
		{"if (READ_ONCE(*x) == 1) WRITE_ONCE(*y, 1); else { smp_mb(); r1 = 2; }",
			"_t0 = load.once [x]; ifnot (_t0 == 1) goto 4; store.once [y] 1; goto 6; smp_mb; r1 = 2"},
		{"if (spin_trylock(l)) { spin_unlock(l); }", "_t0 = trylock [l]; ifnot _t0 goto 3; unlock [l]"},
		{"if (r0) {} else r1 = 1;", "ifnot r0 goto 2; goto 3; r1 = 1"},
		{"if (r0 && !r1) r1 = 1; else if (r1) r1 = 2;", "ifnot (r0 && !r1) goto 3; r1 = 1; goto 5; ifnot r1 goto 5; r1 = 2"},
		{"{ int t = 1; r0 = t; }", "t = 1; r0 = t"},
	}
	for _, tt := range tests {
		s, err := Parse("t", []byte(stmtScenario(tt.stmt)))
		if err != nil {
			t.Errorf("%s: Parse: %v", tt.stmt, err)
			continue
		}
		c, err := Compile(s)
		if err != nil {
			t.Errorf("%s: Compile: %v", tt.stmt, err)
			continue
		}
		if got := threadCode(c, 0); got != tt.want {
			t.Errorf("%s\n got: %s\nwant: %s", tt.stmt, got, tt.want)
		}
		checkRoundTrip(t, tt.stmt, s)
	}
}

// TestEveryPrimitiveCompiles makes sure every name in the primitive table
// is exercised by TestPrimitiveMapping or compiles in a generic call.
func TestEveryPrimitiveCompiles(t *testing.T) {
	for _, name := range Primitives() {
		pr := prims()[name]
		var args []string
		for _, k := range pr.args {
			switch k {
			case argLvalue:
				args = append(args, "*x")
			case argPtr:
				args = append(args, "x")
			case argVal:
				args = append(args, "1")
			case argBit:
				args = append(args, "2")
			case argMO:
				args = append(args, "memory_order_relaxed")
			case argExpPtr:
				args = append(args, "y")
			}
		}
		call := name + "(" + strings.Join(args, ", ") + ")"
		stmt := call + ";"
		if pr.ret != retNone {
			stmt = "r0 = " + stmt
		}
		c, err := Compile(mustParse(t, stmtScenario(stmt)))
		if err != nil {
			t.Errorf("%s: %v", stmt, err)
			continue
		}
		code := c.Program.Threads[0].Code
		if len(code) == 0 {
			t.Errorf("%s: no instructions", stmt)
			continue
		}
		for _, in := range code {
			if in.Text != stmt || in.Line != 11 {
				t.Errorf("%s: instruction text %q line %d", stmt, in.Text, in.Line)
			}
			// Every instruction names its primitive: the one called, or
			// for herd7's internal forms the kernel primitive it is.
			if in.Prim != pr.prim || in.Prim == machine.PrimNone || !strings.HasPrefix(name, "__") && in.Prim.String() != name {
				t.Errorf("%s: instruction %q has primitive %q", stmt, in.Text, in.Prim)
			}
		}
		if pr.ret == retNone {
			if _, err := Compile(mustParse(t, stmtScenario("r0 = "+stmt))); err == nil || !strings.Contains(err.Error(), "does not return a value") {
				t.Errorf("r0 = %s: got %v, want a 'does not return a value' error", stmt, err)
			}
		}
	}
}

// TestPrimsAreTheCompilersPrimitives: machine's Prim enum and the
// compiler's table name the same primitives, and each Prim takes itself
// apart into its family and ordering.
func TestPrimsAreTheCompilersPrimitives(t *testing.T) {
	used := map[machine.Prim]bool{}
	for name, pr := range prims() {
		used[pr.prim] = true
		if pr.prim.HasVariants() && pr.class == pRMW && pr.prim.Order() != pr.order {
			t.Errorf("%s: Prim %s orders %v, the compiler %v", name, pr.prim, pr.prim.Order(), pr.order)
		}
	}
	for _, p := range machine.Prims() {
		if !used[p] {
			t.Errorf("machine.%s names no primitive the compiler accepts", p)
		}
		if q, ok := machine.PrimNamed(p.String()); !ok || q != p {
			t.Errorf("PrimNamed(%q) = %v, %v", p, q, ok)
		}
		if p.Family().WithOrder(p.Order()) != p {
			t.Errorf("%s: family %s with order %v is %s", p, p.Family(), p.Order(), p.Family().WithOrder(p.Order()))
		}
	}
}

func TestInstrTextAndLine(t *testing.T) {
	src := "C t\n{}\nP0(int *x, int *y)\n{\n\tint r0 = READ_ONCE(*x);\n\n\tif (r0 == 1)\n\t\tWRITE_ONCE(*y,1);\n\telse\n\t\tr0=*y+1;\n}\nexists (0:r0=0)\n"
	c := mustCompile(t, src)
	want := []struct {
		text string
		line int
	}{
		{"int r0 = READ_ONCE(*x);", 5},
		{"if (r0 == 1)", 7},
		{"WRITE_ONCE(*y, 1);", 8},
		{"else", 10},
		{"r0 = *y + 1;", 10},
		{"r0 = *y + 1;", 10},
	}
	code := c.Program.Threads[0].Code
	if len(code) != len(want) {
		t.Fatalf("%d instructions: %s", len(code), threadCode(c, 0))
	}
	for i, w := range want {
		if code[i].Text != w.text || code[i].Line != w.line {
			t.Errorf("instr %d: %q line %d, want %q line %d", i, code[i].Text, code[i].Line, w.text, w.line)
		}
	}
}

// TestExprEval checks that compiled expressions compute what C computes.
func TestExprEval(t *testing.T) {
	tests := []struct {
		expr string
		want int64
	}{
		{"1 || 0 && 0", 1},
		{"(1 || 0) && 0", 0},
		{"-1", -1},
		{"!5", 0},
		{"!0", 1},
		{"~0", -1},
		{"1 << 4 >> 2", 4},
		{"1 << 2 + 1", 8},
		{"7 & 3 | 8", 11},
		{"6 ^ 3 & 1", 7},
		{"2 + 3 * 4", 14},
		{"(2 + 3) * 4", 20},
		{"10 - 3 - 2", 5},
		{"17 / 5 % 2", 1},
		{"-7 / 2", -3},
		{"-7 % 2", -1},
		{"3 < 4 == 1", 1},
		{"4 <= 3", 0},
		{"5 > 4 > 3", 0},
		{"5 >= 5", 1},
		{"2 != 3", 1},
		{"1 + (r1 == 0)", 2},
		{"r1 - 1", -1},
	}
	for _, tt := range tests {
		c, err := Compile(mustParse(t, stmtScenario("r0 = "+tt.expr+";")))
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		code := c.Program.Threads[0].Code
		if len(code) != 1 || code[0].Op != machine.OpAssign {
			t.Errorf("%s: compiled to %s", tt.expr, threadCode(c, 0))
			continue
		}
		regs := make([]machine.Value, len(c.Program.Threads[0].Regs))
		if got := int64(code[0].Val.Eval(regs)); got != tt.want {
			t.Errorf("%s = %d, want %d", tt.expr, got, tt.want)
		}
	}
}

func TestLocationsAndRegisters(t *testing.T) {
	src := `C locs
{
	int z=3;
	int *p=w;
}
P0(int *x, int *z)
{
	int r0;
	int *r1;

	r0 = READ_ONCE(*x) + READ_ONCE(*z);
	if (r0) { int r2 = 1; r0 = r2; }
}
P1(int *w, int **p, int *x)
{
	int a;

	a = *x;
}
exists (0:r0=1)
`
	c := mustCompile(t, src)
	if got := fmt.Sprint(c.Program.Locs); got != "[z p x w]" {
		t.Errorf("Locs = %s", got)
	}
	if got := fmt.Sprint(c.Program.Threads[0].Regs); got != "[r0 r1 r2 _t0 _t1]" {
		t.Errorf("P0 Regs = %s", got)
	}
	if c.UserRegs[0] != 3 || c.UserRegs[1] != 1 {
		t.Errorf("UserRegs = %v", c.UserRegs)
	}
	if !c.IsTemp(0, 3) || c.IsTemp(0, 2) {
		t.Errorf("IsTemp wrong")
	}
	if r, ok := c.Reg(0, "r2"); !ok || r != 2 {
		t.Errorf("Reg(0, r2) = %d, %v", r, ok)
	}
	if _, ok := c.Reg(0, "_t0"); ok {
		t.Errorf("temporaries must not be nameable")
	}
	w, _ := c.Loc("w")
	if c.Program.Init[1] != machine.PtrTo(w) || c.Program.Init[0] != 3 {
		t.Errorf("Init = %v", c.Program.Init)
	}
	if c.Program.Name != "locs" || c.Program.Threads[1].Name != "P1" {
		t.Errorf("names: %q %q", c.Program.Name, c.Program.Threads[1].Name)
	}
}

func TestTempNamesAvoidUserRegisters(t *testing.T) {
	c := mustCompile(t, stmtScenario("int _t0 = 1; r0 = *x + _t0;"))
	if got := fmt.Sprint(c.Program.Threads[0].Regs); got != "[r0 r1 q _t0 _t1]" {
		t.Errorf("Regs = %s", got)
	}
	if got := threadCode(c, 0); got != "_t0 = 1; _t1 = load.plain [x]; r0 = (_t1 + _t0)" {
		t.Errorf("code = %s", got)
	}
}

func TestCompileLimits(t *testing.T) {
	many := strings.Repeat("WRITE_ONCE(*x, 1);\n", machine.MaxInstrs+1)
	_, err := Compile(mustParse(t, stmtScenario(many)))
	if err == nil || !strings.Contains(err.Error(), "too many instructions") {
		t.Errorf("too many instructions: %v", err)
	}
	var decls []string
	for i := 0; i < machine.MaxRegs+1; i++ {
		decls = append(decls, fmt.Sprintf("int a%d;", i))
	}
	_, err = Compile(mustParse(t, stmtScenario(strings.Join(decls, " "))))
	if err == nil || !strings.Contains(err.Error(), "too many registers") {
		t.Errorf("too many registers: %v", err)
	}
	var threads strings.Builder
	for i := 0; i <= machine.MaxCPUs; i++ {
		fmt.Fprintf(&threads, "P%d(int *x) { WRITE_ONCE(*x, 1); }\n", i)
	}
	_, err = Compile(mustParse(t, "C t\n{}\n"+threads.String()+"exists (x=1)\n"))
	if err == nil || !strings.Contains(err.Error(), "too many threads") {
		t.Errorf("too many threads: %v", err)
	}
	var params []string
	for i := 0; i <= machine.MaxLocs; i++ {
		params = append(params, fmt.Sprintf("int *v%d", i))
	}
	_, err = Compile(mustParse(t, "C t\n{}\nP0("+strings.Join(params, ", ")+") { WRITE_ONCE(*v0, 1); }\nexists (v0=1)\n"))
	if err == nil || !strings.Contains(err.Error(), "too many locations") {
		t.Errorf("too many locations: %v", err)
	}
}

func TestCompileDepthFollowsIfBlocks(t *testing.T) {
	src := "C depth\n{}\nP0(int *x) {\n int r0 = READ_ONCE(*x);\n if (r0) {\n  WRITE_ONCE(*x, 2);\n  if (r0 == 1) WRITE_ONCE(*x, 3);\n } else {\n  WRITE_ONCE(*x, 4);\n }\n WRITE_ONCE(*x, 5);\n}\nexists (x=5)\n"
	s, err := Parse("depth.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	depth := map[string]int{}
	for _, in := range c.Program.Threads[0].Code {
		if in.Op == machine.OpStore {
			depth[in.Text] = in.Depth
		}
	}
	want := map[string]int{"WRITE_ONCE(*x, 2);": 1, "WRITE_ONCE(*x, 3);": 2, "WRITE_ONCE(*x, 4);": 1, "WRITE_ONCE(*x, 5);": 0}
	for text, d := range want {
		if depth[text] != d {
			t.Errorf("%s: depth %d, want %d (all: %v)", text, depth[text], d, depth)
		}
	}
}

package scenarios

import (
	"sort"
	"strings"
	"sync"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// argKind says what a primitive's argument must be.
type argKind uint8

const (
	argLvalue argKind = iota // "*p": the location p points to (READ_ONCE(*x))
	argPtr                   // a pointer: "x", a register, "&x" (smp_load_acquire(x))
	argVal                   // any value
	argBit                   // a constant bit number (test_and_set_bit(nr, p))
)

// primClass is the kind of instruction(s) a primitive compiles to.
type primClass uint8

const (
	pLoad primClass = iota
	pStore
	pStoreMb // store then smp_mb
	pFence
	pRMW
	pLock
	pUnlock
	pTryLock
	pRCULock
	pRCUUnlock
	pSyncRCU
	pSRCULock   // srcu_read_lock, srcu_down_read (cross)
	pSRCUUnlock // srcu_read_unlock, srcu_up_read (cross)
	pSyncSRCU
	pC11Load  // atomic_load_explicit
	pC11Store // atomic_store_explicit
	pC11RMW   // atomic_exchange_explicit, atomic_fetch_*_explicit
	pC11CAS   // atomic_compare_exchange_*
	pC11Fence // atomic_thread_fence
)

// retKind is what a primitive returns, in terms of the old value of the
// location it modifies.
type retKind uint8

const (
	retNone  retKind = iota // no value (void)
	retValue                // the loaded value (loads, trylock)
	retOld                  // the old value (xchg, cmpxchg, atomic_fetch_*)
	retNew                  // old op operand (atomic_*_return)
	retZero                 // (old op operand) == 0 (atomic_*_and_test)
	retBit                  // (old >> nr) & 1 (test_and_*_bit)
	retNeg                  // (old op operand) < 0 (atomic_add_negative)
	retAdded                // old != unless value (atomic_add_unless: whether it added)
)

// prim describes one supported kernel primitive.
type prim struct {
	name   string
	class  primClass
	args   []argKind
	addr   int // index of the address argument, -1 if none
	val    int // index of the value / operand / bit argument, -1 if none
	exp    int // index of cmpxchg's expected value, -1 if none
	access machine.Access
	fence  machine.Fence
	order  machine.Order
	rmw    machine.RMWKind
	one    bool // operand is the constant 1 (inc/dec)
	ret    retKind
	cross  bool // srcu_down_read / srcu_up_read
	// zeroExp: the "unless" value is the constant 0 (atomic_inc_not_zero).
	zeroExp bool
	// prim is the primitive's machine name, which every instruction a
	// call emits carries: its own, or for herd7's internal forms (named
	// "__...") the kernel primitive's it was copied from.
	prim machine.Prim
	// deref flags the arguments that must be a dereference such as *x
	// (argLvalue): what the parser checks of a call (KernelFuncs).
	deref []bool
}

// prims is the table of supported primitives by name. It is built on
// first use (parsing, compiling or editing a test) rather than at start-up,
// so that commands that read no test (--version, help, list) do not pay
// for its ~170 entries (issue 24: it was a third of the program's
// package-initialisation time).
var prims = sync.OnceValue(buildPrims)

// buildPrims builds the primitive table: the kernel's primitives, C11's,
// and herd7's internal forms of the kernel's.
func buildPrims() map[string]*prim {
	b := primBuilder{prims: make(map[string]*prim, 192), named: make(map[string]machine.Prim, 192)}
	for _, mp := range machine.Prims() {
		b.named[mp.String()] = mp
	}
	kernelPrims(&b)
	c11Prims(&b)
	return b.prims
}

// primBuilder is the table being built, with the machine's primitives by
// name (machine.PrimNamed searches them one by one, which for every entry
// made building the table take ten times as long).
type primBuilder struct {
	prims map[string]*prim
	named map[string]machine.Prim
}

func (b *primBuilder) add(p *prim) {
	if _, dup := b.prims[p.name]; dup {
		panic("scenarios: duplicate primitive " + p.name)
	}
	if !strings.HasPrefix(p.name, "__") {
		mp, ok := b.named[p.name]
		if !ok {
			panic("scenarios: primitive " + p.name + " has no machine.Prim")
		}
		p.prim = mp
	}
	p.deref = make([]bool, len(p.args))
	for i, k := range p.args {
		p.deref[i] = k == argLvalue
	}
	b.prims[p.name] = p
}

// Parse parses a C litmus test of the primitives smpscope supports (see
// syntax.Parse). filename is used in positions only. Every error is a
// syntax.Error carrying file:line:col.
func Parse(filename string, src []byte) (*syntax.Scenario, error) {
	return syntax.Parse(filename, src, KernelFuncs)
}

// KernelFuncs tells syntax.Parse the primitives a test may call, and why
// another function cannot be called.
func KernelFuncs(name string, at syntax.Position) ([]bool, error) {
	if p := prims()[name]; p != nil {
		return p.deref, nil
	}
	if msg, ok := unsupportedCalls[name]; ok {
		return nil, syntax.Errorf(at, "unsupported function %s: %s", name, msg)
	}
	if strings.HasPrefix(name, "__") && strings.Contains(name, "{") {
		return nil, syntax.Errorf(at, "herd7's internal form %s is not supported; use the kernel primitive it stands for (see FORMAT.md)", name)
	}
	return nil, syntax.Errorf(at, "unknown function %q (see FORMAT.md for the supported primitives)", name)
}

func kernelPrims(b *primBuilder) {
	addPrim := b.add
	load := func(name string, a argKind, acc machine.Access) {
		addPrim(&prim{name: name, class: pLoad, args: []argKind{a}, addr: 0, val: -1, exp: -1, access: acc, ret: retValue})
	}
	store := func(name string, a argKind, acc machine.Access) {
		addPrim(&prim{name: name, class: pStore, args: []argKind{a, argVal}, addr: 0, val: 1, exp: -1, access: acc})
	}
	load("READ_ONCE", argLvalue, machine.Once)
	load("smp_load_acquire", argPtr, machine.Acquire)
	load("rcu_dereference", argLvalue, machine.RCUDeref)
	load("atomic_read", argPtr, machine.AtomicRead)
	load("atomic_read_acquire", argPtr, machine.Acquire)
	load("spin_is_locked", argPtr, machine.SpinIsLocked)
	store("WRITE_ONCE", argLvalue, machine.Once)
	store("smp_store_release", argPtr, machine.Release)
	store("rcu_assign_pointer", argLvalue, machine.RCUAssign)
	store("atomic_set", argPtr, machine.AtomicSet)
	store("atomic_set_release", argPtr, machine.Release)
	addPrim(&prim{name: "smp_store_mb", class: pStoreMb, args: []argKind{argLvalue, argVal}, addr: 0, val: 1, exp: -1, access: machine.Once})

	fences := map[string]machine.Fence{
		"smp_mb": machine.FenceMb, "smp_rmb": machine.FenceRmb, "smp_wmb": machine.FenceWmb,
		"smp_mb__before_atomic": machine.FenceMbBeforeAtomic, "smp_mb__after_atomic": machine.FenceMbAfterAtomic,
		"smp_mb__after_spinlock": machine.FenceMbAfterSpinlock, "smp_mb__after_unlock_lock": machine.FenceMbAfterUnlockLock,
		"barrier": machine.FenceBarrier, "smp_mb__after_srcu_read_unlock": machine.FenceMbAfterSRCUUnlock,
	}
	for name, f := range fences {
		addPrim(&prim{name: name, class: pFence, addr: -1, val: -1, exp: -1, fence: f})
	}

	addPrim(&prim{name: "spin_lock", class: pLock, args: []argKind{argPtr}, addr: 0, val: -1, exp: -1})
	addPrim(&prim{name: "spin_unlock", class: pUnlock, args: []argKind{argPtr}, addr: 0, val: -1, exp: -1})
	addPrim(&prim{name: "spin_trylock", class: pTryLock, args: []argKind{argPtr}, addr: 0, val: -1, exp: -1, ret: retValue})
	addPrim(&prim{name: "rcu_read_lock", class: pRCULock, addr: -1, val: -1, exp: -1})
	addPrim(&prim{name: "rcu_read_unlock", class: pRCUUnlock, addr: -1, val: -1, exp: -1})
	addPrim(&prim{name: "synchronize_rcu", class: pSyncRCU, addr: -1, val: -1, exp: -1})
	addPrim(&prim{name: "synchronize_rcu_expedited", class: pSyncRCU, addr: -1, val: -1, exp: -1})
	for _, cross := range []bool{false, true} {
		lock, unlock := "srcu_read_lock", "srcu_read_unlock"
		if cross {
			lock, unlock = "srcu_down_read", "srcu_up_read"
		}
		addPrim(&prim{name: lock, class: pSRCULock, args: []argKind{argPtr}, addr: 0, val: -1, exp: -1, ret: retValue, cross: cross})
		addPrim(&prim{name: unlock, class: pSRCUUnlock, args: []argKind{argPtr, argVal}, addr: 0, val: 1, exp: -1, cross: cross})
	}
	addPrim(&prim{name: "synchronize_srcu", class: pSyncSRCU, args: []argKind{argPtr}, addr: 0, val: -1, exp: -1})
	addPrim(&prim{name: "synchronize_srcu_expedited", class: pSyncSRCU, args: []argKind{argPtr}, addr: 0, val: -1, exp: -1})

	orders := []struct {
		suffix string
		order  machine.Order
	}{{"", machine.OrderFull}, {"_relaxed", machine.OrderRelaxed}, {"_acquire", machine.OrderAcquire}, {"_release", machine.OrderRelease}}
	rmw := func(name string, args []argKind, addr, val, exp int, o machine.Order, k machine.RMWKind, one bool, ret retKind) {
		addPrim(&prim{name: name, class: pRMW, args: args, addr: addr, val: val, exp: exp, order: o, rmw: k, one: one, ret: ret})
	}
	ops := []struct {
		name string
		kind machine.RMWKind
	}{{"add", machine.RMWAdd}, {"sub", machine.RMWSub}, {"and", machine.RMWAnd}, {"or", machine.RMWOr},
		{"xor", machine.RMWXor}, {"andnot", machine.RMWAndNot}}
	for _, o := range orders {
		rmw("xchg"+o.suffix, []argKind{argPtr, argVal}, 0, 1, -1, o.order, machine.RMWXchg, false, retOld)
		rmw("cmpxchg"+o.suffix, []argKind{argPtr, argVal, argVal}, 0, 2, 1, o.order, machine.RMWCmpXchg, false, retOld)
		rmw("atomic_xchg"+o.suffix, []argKind{argPtr, argVal}, 0, 1, -1, o.order, machine.RMWXchg, false, retOld)
		rmw("atomic_cmpxchg"+o.suffix, []argKind{argPtr, argVal, argVal}, 0, 2, 1, o.order, machine.RMWCmpXchg, false, retOld)
		rmw("atomic_add_return"+o.suffix, []argKind{argVal, argPtr}, 1, 0, -1, o.order, machine.RMWAdd, false, retNew)
		rmw("atomic_sub_return"+o.suffix, []argKind{argVal, argPtr}, 1, 0, -1, o.order, machine.RMWSub, false, retNew)
		rmw("atomic_inc_return"+o.suffix, []argKind{argPtr}, 0, -1, -1, o.order, machine.RMWAdd, true, retNew)
		rmw("atomic_dec_return"+o.suffix, []argKind{argPtr}, 0, -1, -1, o.order, machine.RMWSub, true, retNew)
		for _, op := range ops {
			rmw("atomic_fetch_"+op.name+o.suffix, []argKind{argVal, argPtr}, 1, 0, -1, o.order, op.kind, false, retOld)
		}
		rmw("atomic_fetch_inc"+o.suffix, []argKind{argPtr}, 0, -1, -1, o.order, machine.RMWAdd, true, retOld)
		rmw("atomic_fetch_dec"+o.suffix, []argKind{argPtr}, 0, -1, -1, o.order, machine.RMWSub, true, retOld)
		rmw("atomic_add_negative"+o.suffix, []argKind{argVal, argPtr}, 1, 0, -1, o.order, machine.RMWAdd, false, retNeg)
	}
	// Conditional adds: fully ordered when they add, a plain load when
	// they do not (machine/RULES.md, "a conditional RMW that fails"). herd7 has
	// atomic_add_unless; the other two are the kernel's.
	rmw("atomic_add_unless", []argKind{argPtr, argVal, argVal}, 0, 1, 2, machine.OrderFull, machine.RMWAddUnless, false, retAdded)
	rmw("atomic_fetch_add_unless", []argKind{argPtr, argVal, argVal}, 0, 1, 2, machine.OrderFull, machine.RMWAddUnless, false, retOld)
	addPrim(&prim{name: "atomic_inc_not_zero", class: pRMW, args: []argKind{argPtr}, addr: 0, val: -1, exp: -1,
		order: machine.OrderFull, rmw: machine.RMWAddUnless, one: true, ret: retAdded, zeroExp: true})
	// No return value: relaxed.
	for _, op := range ops {
		rmw("atomic_"+op.name, []argKind{argVal, argPtr}, 1, 0, -1, machine.OrderRelaxed, op.kind, false, retNone)
	}
	rmw("atomic_inc", []argKind{argPtr}, 0, -1, -1, machine.OrderRelaxed, machine.RMWAdd, true, retNone)
	rmw("atomic_dec", []argKind{argPtr}, 0, -1, -1, machine.OrderRelaxed, machine.RMWSub, true, retNone)
	// Fully ordered tests.
	rmw("atomic_inc_and_test", []argKind{argPtr}, 0, -1, -1, machine.OrderFull, machine.RMWAdd, true, retZero)
	rmw("atomic_dec_and_test", []argKind{argPtr}, 0, -1, -1, machine.OrderFull, machine.RMWSub, true, retZero)
	rmw("atomic_sub_and_test", []argKind{argVal, argPtr}, 1, 0, -1, machine.OrderFull, machine.RMWSub, false, retZero)
	// Bit operations.
	bits := []argKind{argBit, argPtr}
	rmw("test_and_set_bit", bits, 1, 0, -1, machine.OrderFull, machine.RMWOr, false, retBit)
	rmw("test_and_clear_bit", bits, 1, 0, -1, machine.OrderFull, machine.RMWAndNot, false, retBit)
	rmw("test_and_change_bit", bits, 1, 0, -1, machine.OrderFull, machine.RMWXor, false, retBit)
	rmw("test_and_set_bit_lock", bits, 1, 0, -1, machine.OrderAcquire, machine.RMWOr, false, retBit)
	rmw("set_bit", bits, 1, 0, -1, machine.OrderRelaxed, machine.RMWOr, false, retNone)
	rmw("clear_bit", bits, 1, 0, -1, machine.OrderRelaxed, machine.RMWAndNot, false, retNone)
	rmw("change_bit", bits, 1, 0, -1, machine.OrderRelaxed, machine.RMWXor, false, retNone)
	rmw("clear_bit_unlock", bits, 1, 0, -1, machine.OrderRelease, machine.RMWAndNot, false, retNone)
}

// Primitives returns the names of every supported kernel primitive, sorted.
func Primitives() []string {
	t := prims()
	names := make([]string, 0, len(t))
	for n := range t {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// unsupportedCalls explains well-known kernel functions that are not
// supported, so the error says more than "unknown function".
var unsupportedCalls = map[string]string{
	"__atomic_op":              "herd7's internal form is not supported; use atomic_add, atomic_sub, ...",
	"__atomic_op_return":       "herd7's internal form is not supported; use atomic_add_return, ...",
	"__atomic_fetch_op":        "herd7's internal form is not supported; use atomic_fetch_add, ...",
	"__srcu":                   "herd7's internal form is not supported; use srcu_read_lock, srcu_read_unlock or synchronize_srcu",
	"atomic_load":              "use atomic_load_explicit(p, memory_order_seq_cst) (herd7 has only the _explicit form)",
	"atomic_store":             "use atomic_store_explicit(p, v, memory_order_seq_cst) (herd7 has only the _explicit form)",
	"atomic_exchange":          "use atomic_exchange_explicit(p, v, memory_order_seq_cst) (herd7 has only the _explicit form)",
	"try_cmpxchg":              "herd7's LKMM has no try_cmpxchg; use cmpxchg and compare its result",
	"try_cmpxchg_relaxed":      "herd7's LKMM has no try_cmpxchg; use cmpxchg_relaxed and compare its result",
	"try_cmpxchg_acquire":      "herd7's LKMM has no try_cmpxchg; use cmpxchg_acquire and compare its result",
	"try_cmpxchg_release":      "herd7's LKMM has no try_cmpxchg; use cmpxchg_release and compare its result",
	"spin_lock_irqsave":        "use spin_lock",
	"spin_unlock_irqrestore":   "use spin_unlock",
	"smp_read_barrier_depends": "smp_read_barrier_depends is not supported (LKMM folded it into READ_ONCE)",
	"lockless_dereference":     "lockless_dereference is not supported; use rcu_dereference or READ_ONCE",
	"ATOMIC_INIT":              "ATOMIC_INIT may only be used in the initial-state block",
}

// C11 primitives, as herdtools' own C tests use them. Each maps to its
// kernel counterpart (FORMAT.md lists the mapping).
const (
	argMO     argKind = iota + 100 // a memory_order_* constant
	argExpPtr                      // compare_exchange's "expected": a pointer, or &register
)

// memoryOrders are C11's orders, with the values C gives the enum.
var memoryOrders = map[string]machine.Value{
	"memory_order_relaxed": 0, "memory_order_consume": 1, "memory_order_acquire": 2,
	"memory_order_release": 3, "memory_order_acq_rel": 4, "memory_order_seq_cst": 5,
}

func c11Prims(b *primBuilder) {
	addPrim, prims := b.add, b.prims
	c11 := func(name string, class primClass, args []argKind, addr, val int, k machine.RMWKind) {
		addPrim(&prim{name: name, class: class, args: args, addr: addr, val: val, exp: -1, rmw: k, ret: retValue})
	}
	c11("atomic_load_explicit", pC11Load, []argKind{argPtr, argMO}, 0, -1, 0)
	addPrim(&prim{name: "atomic_store_explicit", class: pC11Store, args: []argKind{argPtr, argVal, argMO}, addr: 0, val: 1, exp: -1})
	c11("atomic_exchange_explicit", pC11RMW, []argKind{argPtr, argVal, argMO}, 0, 1, machine.RMWXchg)
	for op, k := range map[string]machine.RMWKind{"add": machine.RMWAdd, "sub": machine.RMWSub, "or": machine.RMWOr, "xor": machine.RMWXor, "and": machine.RMWAnd} {
		c11("atomic_fetch_"+op+"_explicit", pC11RMW, []argKind{argPtr, argVal, argMO}, 0, 1, k)
	}
	for _, strength := range []string{"strong", "weak"} {
		c11("atomic_compare_exchange_"+strength, pC11CAS, []argKind{argPtr, argExpPtr, argVal}, 0, 2, machine.RMWCmpXchg)
		c11("atomic_compare_exchange_"+strength+"_explicit", pC11CAS, []argKind{argPtr, argExpPtr, argVal, argMO, argMO}, 0, 2, machine.RMWCmpXchg)
	}
	addPrim(&prim{name: "atomic_thread_fence", class: pC11Fence, args: []argKind{argMO}, addr: -1, val: -1, exp: -1})

	// herd7's internal forms, in which linux-kernel.def defines the
	// kernel's primitives (annotations lower-cased).
	alias := func(name, of string) {
		p := *prims[of]
		p.name = name
		addPrim(&p)
	}
	for annot, suffix := range map[string]string{"mb": "", "once": "_relaxed", "acquire": "_acquire", "release": "_release"} {
		alias("__xchg{"+annot+"}", "xchg"+suffix)
		alias("__cmpxchg{"+annot+"}", "cmpxchg"+suffix)
	}
	alias("__load{once}", "READ_ONCE")
	load := *prims["READ_ONCE"]
	load.name, load.access, load.prim = "__load{acquire}", machine.Acquire, machine.PrimSmpLoadAcquire
	addPrim(&load)
	alias("__store{once}", "WRITE_ONCE")
	store := *prims["WRITE_ONCE"]
	store.name, store.access, store.prim = "__store{release}", machine.Release, machine.PrimSmpStoreRelease
	addPrim(&store)
	for annot, of := range map[string]string{"mb": "smp_mb", "rmb": "smp_rmb", "wmb": "smp_wmb",
		"before-atomic": "smp_mb__before_atomic", "after-atomic": "smp_mb__after_atomic",
		"after-spinlock": "smp_mb__after_spinlock", "after-unlock-lock": "smp_mb__after_unlock_lock",
		"after-srcu-read-unlock": "smp_mb__after_srcu_read_unlock", "barrier": "barrier",
		"rcu-lock": "rcu_read_lock", "rcu-unlock": "rcu_read_unlock", "sync-rcu": "synchronize_rcu"} {
		alias("__fence{"+annot+"}", of)
	}
	alias("__lock", "spin_lock")
	alias("__unlock", "spin_unlock")
	alias("__trylock", "spin_trylock")
	alias("__islocked", "spin_is_locked")
	alias("__atomic_add_unless{mb}", "atomic_add_unless")
}

package machine

// Prim is the kernel (or C11) primitive an instruction was compiled from,
// exactly as written ("xchg_acquire"). The compiler sets it on every
// instruction a call emits (an RMW's result arithmetic and the fences of
// smp_store_mb and of C11's seq_cst accesses included); herd7's internal
// forms (__xchg{mb}, __fence{rmb}, ...) compile to the kernel primitive
// they stand for. PrimNone marks plain C (assignments, plain accesses, if
// and else) and instructions built without a source. The rules read Op and
// its flavour (Access, Fence, Order, RMW), never Prim: Prim says which C
// name people wrote.
//
// An RMW family with _relaxed, _acquire and _release variants has one
// constant, its fully ordered form; [Prim.WithOrder] gives the others,
// and [Prim.Family] and [Prim.Order] take one apart.
type Prim uint8

// Primitives without ordering variants.
const (
	PrimNone Prim = iota // plain C, or no source
	// Loads.
	PrimReadOnce          // READ_ONCE
	PrimSmpLoadAcquire    // smp_load_acquire
	PrimRCUDereference    // rcu_dereference
	PrimAtomicRead        // atomic_read
	PrimAtomicReadAcquire // atomic_read_acquire
	PrimSpinIsLocked      // spin_is_locked
	// Stores.
	PrimWriteOnce        // WRITE_ONCE
	PrimSmpStoreRelease  // smp_store_release
	PrimRCUAssignPointer // rcu_assign_pointer
	PrimAtomicSet        // atomic_set
	PrimAtomicSetRelease // atomic_set_release
	PrimSmpStoreMb       // smp_store_mb
	// Barriers.
	PrimSmpMb                    // smp_mb
	PrimSmpRmb                   // smp_rmb
	PrimSmpWmb                   // smp_wmb
	PrimSmpMbBeforeAtomic        // smp_mb__before_atomic
	PrimSmpMbAfterAtomic         // smp_mb__after_atomic
	PrimSmpMbAfterSpinlock       // smp_mb__after_spinlock
	PrimSmpMbAfterUnlockLock     // smp_mb__after_unlock_lock
	PrimBarrier                  // barrier
	PrimSmpMbAfterSRCUReadUnlock // smp_mb__after_srcu_read_unlock
	// Locks.
	PrimSpinLock    // spin_lock
	PrimSpinUnlock  // spin_unlock
	PrimSpinTrylock // spin_trylock
	// RCU and SRCU.
	PrimRCUReadLock              // rcu_read_lock
	PrimRCUReadUnlock            // rcu_read_unlock
	PrimSynchronizeRCU           // synchronize_rcu
	PrimSynchronizeRCUExpedited  // synchronize_rcu_expedited
	PrimSRCUReadLock             // srcu_read_lock
	PrimSRCUReadUnlock           // srcu_read_unlock
	PrimSRCUDownRead             // srcu_down_read
	PrimSRCUUpRead               // srcu_up_read
	PrimSynchronizeSRCU          // synchronize_srcu
	PrimSynchronizeSRCUExpedited // synchronize_srcu_expedited
	// Read-modify-writes without ordering variants.
	PrimAtomicAddUnless      // atomic_add_unless
	PrimAtomicFetchAddUnless // atomic_fetch_add_unless
	PrimAtomicIncNotZero     // atomic_inc_not_zero
	PrimAtomicAdd            // atomic_add
	PrimAtomicSub            // atomic_sub
	PrimAtomicAnd            // atomic_and
	PrimAtomicOr             // atomic_or
	PrimAtomicXor            // atomic_xor
	PrimAtomicAndNot         // atomic_andnot
	PrimAtomicInc            // atomic_inc
	PrimAtomicDec            // atomic_dec
	PrimAtomicIncAndTest     // atomic_inc_and_test
	PrimAtomicDecAndTest     // atomic_dec_and_test
	PrimAtomicSubAndTest     // atomic_sub_and_test
	PrimTestAndSetBit        // test_and_set_bit
	PrimTestAndClearBit      // test_and_clear_bit
	PrimTestAndChangeBit     // test_and_change_bit
	PrimTestAndSetBitLock    // test_and_set_bit_lock
	PrimSetBit               // set_bit
	PrimClearBit             // clear_bit
	PrimChangeBit            // change_bit
	PrimClearBitUnlock       // clear_bit_unlock
	// C11, as herdtools' C tests use it (the memory order is an argument).
	PrimAtomicLoadExplicit                  // atomic_load_explicit
	PrimAtomicStoreExplicit                 // atomic_store_explicit
	PrimAtomicExchangeExplicit              // atomic_exchange_explicit
	PrimAtomicFetchAddExplicit              // atomic_fetch_add_explicit
	PrimAtomicFetchSubExplicit              // atomic_fetch_sub_explicit
	PrimAtomicFetchOrExplicit               // atomic_fetch_or_explicit
	PrimAtomicFetchXorExplicit              // atomic_fetch_xor_explicit
	PrimAtomicFetchAndExplicit              // atomic_fetch_and_explicit
	PrimAtomicCompareExchangeStrong         // atomic_compare_exchange_strong
	PrimAtomicCompareExchangeWeak           // atomic_compare_exchange_weak
	PrimAtomicCompareExchangeStrongExplicit // atomic_compare_exchange_strong_explicit
	PrimAtomicCompareExchangeWeakExplicit   // atomic_compare_exchange_weak_explicit
	PrimAtomicThreadFence                   // atomic_thread_fence
	primOrderedBase                         // the first ordered family
)

// RMW families with ordering variants: four values each, in Order's order
// (fully ordered, _relaxed, _acquire, _release).
const (
	PrimXchg              Prim = primOrderedBase + 4*iota // xchg
	PrimCmpXchg                                           // cmpxchg
	PrimAtomicXchg                                        // atomic_xchg
	PrimAtomicCmpXchg                                     // atomic_cmpxchg
	PrimAtomicAddReturn                                   // atomic_add_return
	PrimAtomicSubReturn                                   // atomic_sub_return
	PrimAtomicIncReturn                                   // atomic_inc_return
	PrimAtomicDecReturn                                   // atomic_dec_return
	PrimAtomicFetchAdd                                    // atomic_fetch_add
	PrimAtomicFetchSub                                    // atomic_fetch_sub
	PrimAtomicFetchAnd                                    // atomic_fetch_and
	PrimAtomicFetchOr                                     // atomic_fetch_or
	PrimAtomicFetchXor                                    // atomic_fetch_xor
	PrimAtomicFetchAndNot                                 // atomic_fetch_andnot
	PrimAtomicFetchInc                                    // atomic_fetch_inc
	PrimAtomicFetchDec                                    // atomic_fetch_dec
	PrimAtomicAddNegative                                 // atomic_add_negative
	numPrims
)

var primNames = [...]string{
	PrimNone:                                "",
	PrimReadOnce:                            "READ_ONCE",
	PrimSmpLoadAcquire:                      "smp_load_acquire",
	PrimRCUDereference:                      "rcu_dereference",
	PrimAtomicRead:                          "atomic_read",
	PrimAtomicReadAcquire:                   "atomic_read_acquire",
	PrimSpinIsLocked:                        "spin_is_locked",
	PrimWriteOnce:                           "WRITE_ONCE",
	PrimSmpStoreRelease:                     "smp_store_release",
	PrimRCUAssignPointer:                    "rcu_assign_pointer",
	PrimAtomicSet:                           "atomic_set",
	PrimAtomicSetRelease:                    "atomic_set_release",
	PrimSmpStoreMb:                          "smp_store_mb",
	PrimSmpMb:                               "smp_mb",
	PrimSmpRmb:                              "smp_rmb",
	PrimSmpWmb:                              "smp_wmb",
	PrimSmpMbBeforeAtomic:                   "smp_mb__before_atomic",
	PrimSmpMbAfterAtomic:                    "smp_mb__after_atomic",
	PrimSmpMbAfterSpinlock:                  "smp_mb__after_spinlock",
	PrimSmpMbAfterUnlockLock:                "smp_mb__after_unlock_lock",
	PrimBarrier:                             "barrier",
	PrimSmpMbAfterSRCUReadUnlock:            "smp_mb__after_srcu_read_unlock",
	PrimSpinLock:                            "spin_lock",
	PrimSpinUnlock:                          "spin_unlock",
	PrimSpinTrylock:                         "spin_trylock",
	PrimRCUReadLock:                         "rcu_read_lock",
	PrimRCUReadUnlock:                       "rcu_read_unlock",
	PrimSynchronizeRCU:                      "synchronize_rcu",
	PrimSynchronizeRCUExpedited:             "synchronize_rcu_expedited",
	PrimSRCUReadLock:                        "srcu_read_lock",
	PrimSRCUReadUnlock:                      "srcu_read_unlock",
	PrimSRCUDownRead:                        "srcu_down_read",
	PrimSRCUUpRead:                          "srcu_up_read",
	PrimSynchronizeSRCU:                     "synchronize_srcu",
	PrimSynchronizeSRCUExpedited:            "synchronize_srcu_expedited",
	PrimAtomicAddUnless:                     "atomic_add_unless",
	PrimAtomicFetchAddUnless:                "atomic_fetch_add_unless",
	PrimAtomicIncNotZero:                    "atomic_inc_not_zero",
	PrimAtomicAdd:                           "atomic_add",
	PrimAtomicSub:                           "atomic_sub",
	PrimAtomicAnd:                           "atomic_and",
	PrimAtomicOr:                            "atomic_or",
	PrimAtomicXor:                           "atomic_xor",
	PrimAtomicAndNot:                        "atomic_andnot",
	PrimAtomicInc:                           "atomic_inc",
	PrimAtomicDec:                           "atomic_dec",
	PrimAtomicIncAndTest:                    "atomic_inc_and_test",
	PrimAtomicDecAndTest:                    "atomic_dec_and_test",
	PrimAtomicSubAndTest:                    "atomic_sub_and_test",
	PrimTestAndSetBit:                       "test_and_set_bit",
	PrimTestAndClearBit:                     "test_and_clear_bit",
	PrimTestAndChangeBit:                    "test_and_change_bit",
	PrimTestAndSetBitLock:                   "test_and_set_bit_lock",
	PrimSetBit:                              "set_bit",
	PrimClearBit:                            "clear_bit",
	PrimChangeBit:                           "change_bit",
	PrimClearBitUnlock:                      "clear_bit_unlock",
	PrimAtomicLoadExplicit:                  "atomic_load_explicit",
	PrimAtomicStoreExplicit:                 "atomic_store_explicit",
	PrimAtomicExchangeExplicit:              "atomic_exchange_explicit",
	PrimAtomicFetchAddExplicit:              "atomic_fetch_add_explicit",
	PrimAtomicFetchSubExplicit:              "atomic_fetch_sub_explicit",
	PrimAtomicFetchOrExplicit:               "atomic_fetch_or_explicit",
	PrimAtomicFetchXorExplicit:              "atomic_fetch_xor_explicit",
	PrimAtomicFetchAndExplicit:              "atomic_fetch_and_explicit",
	PrimAtomicCompareExchangeStrong:         "atomic_compare_exchange_strong",
	PrimAtomicCompareExchangeWeak:           "atomic_compare_exchange_weak",
	PrimAtomicCompareExchangeStrongExplicit: "atomic_compare_exchange_strong_explicit",
	PrimAtomicCompareExchangeWeakExplicit:   "atomic_compare_exchange_weak_explicit",
	PrimAtomicThreadFence:                   "atomic_thread_fence",
}

var orderedNames = [...]string{
	"xchg",
	"cmpxchg",
	"atomic_xchg",
	"atomic_cmpxchg",
	"atomic_add_return",
	"atomic_sub_return",
	"atomic_inc_return",
	"atomic_dec_return",
	"atomic_fetch_add",
	"atomic_fetch_sub",
	"atomic_fetch_and",
	"atomic_fetch_or",
	"atomic_fetch_xor",
	"atomic_fetch_andnot",
	"atomic_fetch_inc",
	"atomic_fetch_dec",
	"atomic_add_negative",
}

func (p Prim) ordered() bool { return p >= primOrderedBase && p < numPrims }

// Family is the primitive without its ordering: PrimXchg for
// xchg_acquire. A primitive with no ordering variants is its own family.
func (p Prim) Family() Prim {
	if !p.ordered() {
		return p
	}
	return primOrderedBase + (p-primOrderedBase)/4*4
}

// Order is the ordering an ordered family's primitive names (OrderFull
// for every other primitive).
func (p Prim) Order() Order {
	if !p.ordered() {
		return OrderFull
	}
	return Order((p - primOrderedBase) % 4)
}

// HasVariants reports whether the primitive belongs to an RMW family with
// _relaxed, _acquire and _release variants.
func (p Prim) HasVariants() bool { return p.ordered() }

// WithOrder is the member of p's family with ordering o (p itself when it
// has no ordering variants).
func (p Prim) WithOrder(o Order) Prim {
	if !p.ordered() {
		return p
	}
	return p.Family() + Prim(o)
}

// String is the primitive's name as written ("xchg_acquire"); "" for
// PrimNone.
func (p Prim) String() string {
	switch {
	case p < primOrderedBase:
		return primNames[p]
	case p < numPrims:
		name := orderedNames[(p-primOrderedBase)/4]
		if o := p.Order(); o != OrderFull {
			name += "_" + o.String()
		}
		return name
	}
	return "?"
}

// Prims returns every primitive but PrimNone, in declaration order.
func Prims() []Prim {
	out := make([]Prim, 0, numPrims-1)
	for p := PrimNone + 1; p < numPrims; p++ {
		out = append(out, p)
	}
	return out
}

// PrimNamed returns the primitive called name, or false.
func PrimNamed(name string) (Prim, bool) {
	for p := PrimNone + 1; p < numPrims; p++ {
		if p.String() == name {
			return p, true
		}
	}
	return PrimNone, false
}

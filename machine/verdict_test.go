package machine_test

import (
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
)

// Cases that once got a wrong answer, each written as a litmus test with
// what ARMv8 / x86-TSO allow (herd7's hardware models, and LKMM where it
// forbids). Each is also checked against the reference explorer.
var verdictCases = []struct {
	name, src string
	tso, arm  bool // is the exists clause reachable?
	rule      string
	// noRef, when set, says why the case is not also compared with the
	// reference explorer (which would not finish in the test's time).
	noRef string
	// refLimit, when set, raises the reference's state limit for the case.
	refLimit int
}{
	{
		name: "fail-cmpxchg-addr",
		rule: "a failed cmpxchg is a plain load, address-dependency rule included",
		src: `C fail-cmpxchg-addr
{ int *p=z; int x=3; int z=0; }
P0(int **p, int *x) { WRITE_ONCE(*x, 1); rcu_assign_pointer(*p, x); }
P1(int **p) { int *r0; int r1; r0 = rcu_dereference(*p); r1 = cmpxchg_relaxed(r0, 7, 9); }
exists (1:r0=x /\ 1:r1=3)`,
	},
	{
		name: "fail-cmpxchg-acquire-addr",
		rule: "a failed cmpxchg_acquire is an acquire load, address-dependency rule included",
		src: `C fail-cmpxchg-acquire-addr
{ int *p=z; int x=3; int z=0; }
P0(int **p, int *x) { WRITE_ONCE(*x, 1); rcu_assign_pointer(*p, x); }
P1(int **p) { int *r0; int r1; r0 = rcu_dereference(*p); r1 = cmpxchg_acquire(r0, 7, 9); }
exists (1:r0=x /\ 1:r1=3)`,
	},

	{
		name: "fail-add-unless-addr",
		rule: "a failed atomic_add_unless is a plain load, address-dependency rule included",
		src: `C fail-add-unless-addr
{ int *p=z; int x=3; int z=0; }
P0(int **p, int *x) { WRITE_ONCE(*x, 1); rcu_assign_pointer(*p, x); }
P1(int **p) { int *r0; int r1; r0 = rcu_dereference(*p); r1 = atomic_add_unless(r0, 5, 3); }
exists (1:r0=x /\ 1:r1=0)`,
	}, {
		name: "pointer-offset",
		rule: "a pointer plus a zero offset is the location; any other offset faults",
		src: `C pointer-offset
{ int x=0; int y=0; }
P0(int *x, int *y) { WRITE_ONCE(*x, 1); smp_wmb(); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; int *r2; r0 = READ_ONCE(*y); r2 = x + (r0 & 8); r1 = READ_ONCE(*r2); }
exists (1:r0=1 /\ 1:r1=0)`,
		tso: false, arm: false,
	}, {
		name: "sb-xchg-release-acquire",
		rule: "a _release RMW orders before a later acquire (ARMv8 release->acquire)",
		src: `C sb-xchg-release-acquire
{}
P0(int *x, int *y) { int r0; int r1; r0 = xchg_release(x, 1); r1 = smp_load_acquire(y); }
P1(int *x, int *y) { int r2; int r3; r2 = xchg_release(y, 1); r3 = smp_load_acquire(x); }
exists (0:r1=0 /\ 1:r3=0)`,
		tso: false, arm: false,
	},
	{
		name: "sb-store-release-acquire",
		rule: "a release store orders before a later acquire",
		src: `C sb-store-release-acquire
{}
P0(int *x, int *y) { int r1; smp_store_release(x, 1); r1 = smp_load_acquire(y); }
P1(int *x, int *y) { int r3; smp_store_release(y, 1); r3 = smp_load_acquire(x); }
exists (0:r1=0 /\ 1:r3=0)`,
		tso: true, arm: false,
	},
	{
		name: "cmpxchg-sees-store",
		rule: "a fully ordered cmpxchg that needs the drained queue to succeed is offered with it drained",
		src: `C cmpxchg-sees-store
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
P1(int *x) { int r0; r0 = cmpxchg(x, 1, 2); }
P2(int *a) { WRITE_ONCE(*a, 1); }
exists (1:r0=1 /\ x=2)`,
		tso: true, arm: true,
	},
	{
		name: "mesi-letter",
		rule: "the state key keeps MESI states: an S copy left by a miss can go stale, an E copy cannot",
		src: `C mesi-letter
{ int x=0; int y=0; }
P0(int *x, int *y) { int r1; int r2; WRITE_ONCE(*x, 1); r1 = READ_ONCE(*y); r2 = READ_ONCE(*x); }
P1(int *x) { int r0; r0 = READ_ONCE(*x); }
P2(int *x, int *y) { WRITE_ONCE(*x, 2); smp_wmb(); WRITE_ONCE(*y, 1); }
exists (0:r1=1 /\ 0:r2=1 /\ x=2)`,
		tso: false, arm: true,
	},
	{
		name: "trylock-stale",
		rule: "a failed spin_trylock is a plain load that may read a stale lock word",
		src: `C trylock-stale
{}
P0(int *y, spinlock_t *l) { int r0; int r1; int r2; r2 = spin_is_locked(l); r0 = READ_ONCE(*y); r1 = spin_trylock(l); }
P1(int *y, spinlock_t *l) { spin_lock(l); spin_unlock(l); smp_store_release(y, 1); }
exists (0:r2=1 /\ 0:r0=1 /\ 0:r1=0)`,
		tso: false, arm: true,
	},
	{
		name: "acquire-reads-before-release",
		rule: "an acquire load that reads x before P0 writes it, then y after P0's release: an SC outcome (the full search once missed it while the reduced one found it; rapid's fail file of TestPropReductionKeepsOutcomes, a test since removed)",
		src: `C acquire-reads-before-release
{}
P0(int *x, int *y) { int r0; int r2; r0 = READ_ONCE(*x); WRITE_ONCE(*x, 1); r2 = READ_ONCE(*x); smp_store_release(y, 2); }
P1(int *x, int *y) { int r0; int r1; r0 = smp_load_acquire(x); r1 = READ_ONCE(*y); }
exists (0:r0=0 /\ 0:r2=1 /\ 1:r0=0 /\ 1:r1=2)`,
		tso: true, arm: true,
	},
	{
		name: "trylock-fails-then-stale",
		rule: "a failed spin_trylock drains nothing: a later load may still read a stale copy (found by the grace-period random programs)",
		src: `C trylock-fails-then-stale
{}
P0(int *y, spinlock_t *l) { smp_mb(); smp_store_release(y, 1); spin_lock(l); spin_unlock(l); }
P1(int *y, spinlock_t *l) { int r0; int r1; r0 = spin_trylock(l); r1 = READ_ONCE(*y); }
exists (1:r0=0 /\ 1:r1=0)`,
		tso: false, arm: true,
	},
	{
		name: "acquire-then-drained",
		rule: "an acquire load taken with its queue drained does not leave the CPU waiting",
		src: `C acquire-then-drained
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = smp_load_acquire(y); r1 = READ_ONCE(*x); }
P2(int *a) { WRITE_ONCE(*a, 1); }
exists (1:r0=1 /\ 1:r1=1 /\ a=1)`,
		tso: true, arm: true,
	},
	{
		name: "srcu-late-section-mp",
		rule: "an SRCU section opened after a grace period of its domain started reads nothing older than the start (LKMM: Never)",
		src: `C srcu-late-section-mp
{}
P0(int *x, int *y, struct srcu_struct *s) { WRITE_ONCE(*x, 1); synchronize_srcu(s); WRITE_ONCE(*y, 1); }
P1(int *x, int *y, struct srcu_struct *s) { int r0; int r1; int r2; r0 = srcu_read_lock(s); r1 = READ_ONCE(*y); r2 = READ_ONCE(*x); srcu_read_unlock(s, r0); }
exists (1:r1=1 /\ 1:r2=0)`,
		tso: false, arm: false,
	},
	{
		name: "srcu-late-section-two-domains",
		rule: "two SRCU domains in a cycle: each late section still reads nothing older than its grace period's start (LKMM: Never)",
		src: `C srcu-late-section-two-domains
{}
P0(int *x0, int *x1, struct srcu_struct *s1) { int r0; int r1; r0 = srcu_read_lock(s1); r1 = READ_ONCE(*x1); WRITE_ONCE(*x0, 1); srcu_read_unlock(s1, r0); }
P1(int *x1, int *x2, struct srcu_struct *s1) { int r1; WRITE_ONCE(*x1, 1); synchronize_srcu(s1); r1 = READ_ONCE(*x2); }
P2(int *x2, int *x3, struct srcu_struct *s2) { int r0; int r1; r0 = srcu_read_lock(s2); r1 = READ_ONCE(*x3); WRITE_ONCE(*x2, 1); srcu_read_unlock(s2, r0); }
P3(int *x3, int *x0, struct srcu_struct *s2) { int r1; WRITE_ONCE(*x3, 1); synchronize_srcu(s2); r1 = READ_ONCE(*x0); }
exists (0:r1=0 /\ 1:r1=0 /\ 2:r1=0 /\ 3:r1=0)`,
		tso: false, arm: false,
		noRef: "4 CPUs and two grace periods: the reference search takes millions of states",
	},
	{
		name: "srcu-lock-not-full-barrier-sb",
		rule: "srcu_read_lock is no full barrier: SB through it stays allowed (LKMM, ARMv8 and x86-TSO: Sometimes)",
		src: `C srcu-lock-not-full-barrier-sb
{}
P0(int *x, int *y, struct srcu_struct *s) { int r0; int r1; WRITE_ONCE(*x, 1); r0 = srcu_read_lock(s); r1 = READ_ONCE(*y); srcu_read_unlock(s, r0); }
P1(int *x, int *y, struct srcu_struct *s) { int r0; int r1; WRITE_ONCE(*y, 1); r0 = srcu_read_lock(s); r1 = READ_ONCE(*x); srcu_read_unlock(s, r0); }
exists (0:r1=0 /\ 1:r1=0)`,
		tso: true, arm: true,
	},
	{
		name: "srcu-late-section-read-before-lock",
		rule: "a load before a late section is not in it: MP through synchronize_srcu stays allowed (LKMM: Sometimes)",
		src: `C srcu-late-section-read-before-lock
{}
P0(int *x, int *y, struct srcu_struct *s) { WRITE_ONCE(*x, 1); synchronize_srcu(s); WRITE_ONCE(*y, 1); }
P1(int *x, int *y, struct srcu_struct *s) { int r0; int r1; int r2; r2 = READ_ONCE(*x); r0 = srcu_read_lock(s); r1 = READ_ONCE(*y); srcu_read_unlock(s, r0); }
exists (1:r1=1 /\ 1:r2=0)`,
		tso: true, arm: true,
	},
	{
		name: "srcu-index-unlock-masked",
		rule: "the SRCU index is a small integer; srcu_read_unlock(s, r0 & 1) closes the section r0 came from (LKMM: Never)",
		src: `C srcu-index-unlock-masked
{}
P0(int *x, int *y, struct srcu_struct *s) { WRITE_ONCE(*x, 1); synchronize_srcu(s); WRITE_ONCE(*y, 1); }
P1(int *x, int *y, struct srcu_struct *s) { int r0; int r1; int r2; r0 = srcu_read_lock(s); r1 = READ_ONCE(*y); r2 = READ_ONCE(*x); srcu_read_unlock(s, r0 & 1); }
exists (1:r1=1 /\ 1:r2=0)`,
		tso: false, arm: false,
	},
	{
		name: "srcu-index-arith",
		rule: "arithmetic and comparisons see the index itself: r0*2 is 0 and r0 == 1 is false",
		src: `C srcu-index-arith
{}
P0(int *x, int *z, struct srcu_struct *s) { int r0; int r1; int r2; r0 = srcu_read_lock(s); r1 = r0 * 2; if (r0 == 1) WRITE_ONCE(*z, 1); r2 = READ_ONCE(*x); srcu_read_unlock(s, r0); }
P1(int *x, struct srcu_struct *s) { WRITE_ONCE(*x, 1); synchronize_srcu(s); }
exists (0:r1=0 /\ z=0)`,
		tso: true, arm: true,
	},
	{
		name: "srcu-index-stored",
		rule: "the index stored to memory and compared on another CPU is the integer",
		src: `C srcu-index-stored
{}
P0(int *i, struct srcu_struct *s) { int r0; r0 = srcu_read_lock(s); WRITE_ONCE(*i, r0 + 5); srcu_read_unlock(s, r0); }
P1(int *i, int *x, struct srcu_struct *s) { int r1; int r2; r1 = srcu_read_lock(s); r2 = READ_ONCE(*i); if (r2 == r1 + 5) WRITE_ONCE(*x, 1); srcu_read_unlock(s, r1); }
exists (1:r2=5 /\ x=1)`,
		tso: true, arm: true,
	},
	{
		name: "srcu-index-up-read-through-memory",
		rule: "srcu_up_read on another CPU closes the section whose index it read from memory (LKMM: Never)",
		src: `C srcu-index-up-read-through-memory
{}
P0(int *i, int *f, int *x, struct srcu_struct *s) { int r0; int r2; r0 = srcu_down_read(s); r2 = READ_ONCE(*x); WRITE_ONCE(*i, r0); smp_store_release(f, 1); }
P1(int *i, int *f, int *y, struct srcu_struct *s) { int r1; int r3; int r4; r4 = smp_load_acquire(f); r1 = READ_ONCE(*i); r3 = READ_ONCE(*y); srcu_up_read(s, r1); }
P2(int *x, int *y, struct srcu_struct *s) { WRITE_ONCE(*y, 1); synchronize_srcu(s); WRITE_ONCE(*x, 1); }
exists (1:r4=1 /\ 0:r2=1 /\ 1:r3=0)`,
		tso: false, arm: false,
		refLimit: 400_000,
	},
	{
		name: "gap-lb-empty-rcu-sections",
		rule: "without synchronize_rcu, rcu_read_lock and rcu_read_unlock order nothing: a store may go ahead of a load past them (perfbook's C-LB+o-rl-rul-o+o-rl-rul-o; herd7: ARMv8 and LKMM Sometimes)",
		src: `C gap-lb-empty-rcu-sections
{}
P0(int *x0, int *x1) { int r1; r1 = READ_ONCE(*x0); rcu_read_lock(); rcu_read_unlock(); WRITE_ONCE(*x1, 1); }
P1(int *x0, int *x1) { int r1; r1 = READ_ONCE(*x1); rcu_read_lock(); rcu_read_unlock(); WRITE_ONCE(*x0, 1); }
exists (0:r1=1 /\ 1:r1=1)`,
		tso: false, arm: true,
	},
	{
		name: "sb-rcusync-no-reader",
		rule: "a CPU with no read-side section reports its quiescent state with stores still buffered: store buffering with synchronize_rcu on one side and nothing on the other (perfbook's C-SB+o-rcusync-o+o-o; herd7: LKMM, ARMv8 and x86-TSO Sometimes)",
		src: `C sb-rcusync-no-reader
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); synchronize_rcu(); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r1; WRITE_ONCE(*y, 1); r1 = READ_ONCE(*x); }
exists (0:r0=0 /\ 1:r1=0)`,
		tso: true, arm: true,
	},
	{
		name: "sb-rcusync-empty-section-before-load",
		rule: "a CPU with read-side sections reports its quiescent state only drained: a store before an empty section is visible before the grace period ends when the load after it came before the grace period (herd7: LKMM Never, by the RCU guarantee)",
		src: `C sb-rcusync-empty-section-before-load
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); rcu_read_lock(); rcu_read_unlock(); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r1; WRITE_ONCE(*y, 1); synchronize_rcu(); r1 = READ_ONCE(*x); }
exists (0:r0=0 /\ 1:r1=0)`,
		tso: false, arm: false,
	},
	{
		name: "sb-srcusync-no-reader",
		rule: "a CPU with no SRCU section reports its quiescent state to an SRCU grace period with stores still buffered (herd7: LKMM, ARMv8 and x86-TSO Sometimes)",
		src: `C sb-srcusync-no-reader
{}
P0(int *x, int *y, struct srcu_struct *s) { int r0; WRITE_ONCE(*x, 1); synchronize_srcu(s); r0 = READ_ONCE(*y); }
P1(int *x, int *y, struct srcu_struct *s) { int r1; WRITE_ONCE(*y, 1); r1 = READ_ONCE(*x); }
exists (0:r0=0 /\ 1:r1=0)`,
		tso: true, arm: true,
	},
	{
		name: "sb-srcusync-empty-section-before-load",
		rule: "a CPU with SRCU sections of the domain reports to its grace period only drained (herd7: LKMM Never)",
		src: `C sb-srcusync-empty-section-before-load
{}
P0(int *x, int *y, struct srcu_struct *s) { int r0; int r2; WRITE_ONCE(*x, 1); r2 = srcu_read_lock(s); srcu_read_unlock(s, r2); r0 = READ_ONCE(*y); }
P1(int *x, int *y, struct srcu_struct *s) { int r1; WRITE_ONCE(*y, 1); synchronize_srcu(s); r1 = READ_ONCE(*x); }
exists (0:r0=0 /\ 1:r1=0)`,
		tso: false, arm: false,
	},
	{
		name: "lb-rcu-sections-with-gp",
		rule: "with a synchronize_rcu in the program a store does not go ahead of a load past rcu_read_lock (the section's start is observed; LKMM: Never, by the RCU guarantee)",
		src: `C lb-rcu-sections-with-gp
{}
P0(int *x0, int *x1) { int r1; r1 = READ_ONCE(*x0); rcu_read_lock(); WRITE_ONCE(*x1, 1); rcu_read_unlock(); }
P1(int *x0, int *x1) { int r1; r1 = READ_ONCE(*x1); synchronize_rcu(); WRITE_ONCE(*x0, 1); }
exists (0:r1=1 /\ 1:r1=1)`,
		tso: false, arm: false,
	},
	{
		name: "gap-lb-relaxed-rmw",
		rule: "a relaxed RMW (or no-return atomic) may be performed ahead of an earlier load (LB through relaxed RMWs)",
		src: `C gap-lb-relaxed-rmw

{}

P0(int *x, int *y)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*x);
	r1 = xchg_relaxed(y, 1);
}

P1(int *x, int *y)
{
	int r2;

	r2 = READ_ONCE(*y);
	atomic_inc(x);
}

exists (0:r0=1 /\ 1:r2=1)`,
		tso: false, arm: true,
	},
	{
		name: "gap-2+2w-xchg-relaxed",
		rule: "a plain store may become visible before an earlier relaxed RMW of its CPU (2+2W with xchg_relaxed)",
		src: `C gap-2+2w-xchg-relaxed

{}

P0(int *x, int *y)
{
	int r0;

	r0 = xchg_relaxed(x, 1);
	WRITE_ONCE(*y, 2);
}

P1(int *x, int *y)
{
	int r1;

	r1 = xchg_relaxed(y, 1);
	WRITE_ONCE(*x, 2);
}

exists (x=1 /\ y=1)`,
		tso: false, arm: true,
	},
	{
		name: "gap-acquire-before-load",
		rule: "an acquire may be satisfied before an earlier plain load: it orders only what follows it",
		src: `C gap-acquire-before-load

{}

P0(int *x, int *y, int *z)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*x);
	r1 = smp_load_acquire(y);
	WRITE_ONCE(*z, 1);
}

P1(int *x, int *z)
{
	int r2;

	r2 = READ_ONCE(*z);
	smp_store_release(x, r2);
}

exists (0:r0=1 /\ 1:r2=1)`,
		tso: false, arm: true,
	},
	{
		name: "gap-lock-before-load",
		rule: "spin_lock's acquire may be taken before an earlier plain load",
		src: `C gap-lock-before-load

{}

P0(int *x, int *z, spinlock_t *l)
{
	int r0;

	r0 = READ_ONCE(*x);
	spin_lock(l);
	WRITE_ONCE(*z, 1);
	spin_unlock(l);
}

P1(int *x, int *z)
{
	int r2;

	r2 = READ_ONCE(*z);
	smp_store_release(x, r2);
}

exists (0:r0=1 /\ 1:r2=1)`,
		tso: false, arm: true,
	},
	{
		name: "gap-load-past-cmpxchg-relaxed",
		rule: "a load may be satisfied before an earlier successful cmpxchg_relaxed (it reads an intermediate value)",
		src: `C gap-load-past-cmpxchg-relaxed

{}

P0(int *x, int *y)
{
	int r0;
	int r1;

	r0 = cmpxchg_relaxed(x, 1, 2);
	r1 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	WRITE_ONCE(*y, 1);
	WRITE_ONCE(*y, 2);
	smp_mb();
	WRITE_ONCE(*x, 1);
}

exists (0:r0=1 /\ 0:r1=1)`,
		tso: false, arm: true,
	},
	{
		name: "gap-noret-rmb",
		rule: "smp_rmb does not order a no-return atomic's read: a later load may pass both",
		src: `C gap-noret-rmb

{}

P0(int *x, int *y)
{
	int r1;

	atomic_inc(x);
	smp_rmb();
	r1 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	WRITE_ONCE(*y, 1);
	smp_mb();
	WRITE_ONCE(*x, 1);
}

exists (x=2 /\ 0:r1=0)`,
		tso: false, arm: true,
	},
	{
		name: "gap-store-past-release-rmw",
		rule: "a store may become visible before an earlier _release RMW's write",
		src: `C gap-store-past-release-rmw

{}

P0(int *x, int *y)
{
	int r0;

	r0 = xchg_release(x, 1);
	WRITE_ONCE(*y, 1);
}

P1(int *x, int *y)
{
	int r1;
	int r2;

	r1 = READ_ONCE(*y);
	smp_rmb();
	r2 = READ_ONCE(*x);
}

exists (1:r1=1 /\ 1:r2=0)`,
		tso: false, arm: true,
	},
	{
		name: "gap-ctrl-load-intermediate",
		rule: "a load inside an if may be performed before the condition's load (ARMv8 orders only stores after a branch)",
		src: `C gap-ctrl-load-intermediate

{}

P0(int *data, int *flag)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*flag);
	if (r0) {
		r1 = READ_ONCE(*data);
	}
}

P1(int *data, int *flag)
{
	WRITE_ONCE(*data, 2);
	smp_mb();
	WRITE_ONCE(*flag, 1);
}

P2(int *data)
{
	WRITE_ONCE(*data, 1);
}

exists (0:r0=1 /\ 0:r1=1 /\ data=2)`,
		tso: false, arm: true,
	},
	{
		name: "gap-ctrl-load-else",
		rule: "a load inside an else may be performed before the condition's load",
		src: `C gap-ctrl-load-else

{
	int flag = 1;
}

P0(int *data, int *flag)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*flag);
	if (r0) {
		WRITE_ONCE(*data, 3);
	} else {
		r1 = READ_ONCE(*data);
	}
}

P1(int *data, int *flag)
{
	WRITE_ONCE(*data, 2);
	smp_mb();
	WRITE_ONCE(*flag, 0);
}

P2(int *data)
{
	WRITE_ONCE(*data, 1);
}

exists (0:r0=0 /\ 0:r1=1 /\ data=2)`,
		tso: false, arm: true,
	},
	{
		name: "gap-ctrl-load-after-join",
		rule: "a load after an if may be performed before the condition's load when it may be on both paths",
		src: `C gap-ctrl-load-after-join

{}

P0(int *data, int *flag, int *z)
{
	int r0;
	int r1;
	int r2;

	r0 = READ_ONCE(*flag);
	if (r0) {
		r2 = READ_ONCE(*z);
	}
	r1 = READ_ONCE(*data);
}

P1(int *data, int *flag)
{
	WRITE_ONCE(*data, 2);
	smp_mb();
	WRITE_ONCE(*flag, 1);
}

P2(int *data)
{
	WRITE_ONCE(*data, 1);
}

exists (0:r0=1 /\ 0:r1=1 /\ data=2)`,
		tso: false, arm: true,
	},
	{
		name: "ctrl-load-corr",
		rule: "a load after an unresolved if does not pass a load of its location inside the body (CoRR)",
		src: `C ctrl-load-corr

{}

P0(int *flag, int *y)
{
	int r0;
	int r1;
	int r2;

	r0 = READ_ONCE(*flag);
	if (r0) {
		r1 = READ_ONCE(*y);
	}
	r2 = READ_ONCE(*y);
}

P1(int *flag, int *y)
{
	WRITE_ONCE(*y, 1);
	smp_mb();
	WRITE_ONCE(*flag, 1);
}

exists (0:r0=1 /\ 0:r1=1 /\ 0:r2=0)`,
		tso: false, arm: false,
	},
	{
		name: "ctrl-rmb-in-body",
		rule: "smp_rmb inside an unresolved if still orders the condition's load before later loads",
		src: `C ctrl-rmb-in-body

{}

P0(int *data, int *flag)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*flag);
	if (r0) {
		smp_rmb();
		r1 = READ_ONCE(*data);
	}
}

P1(int *data, int *flag)
{
	WRITE_ONCE(*data, 2);
	smp_mb();
	WRITE_ONCE(*flag, 1);
}

P2(int *data)
{
	WRITE_ONCE(*data, 1);
}

exists (0:r0=1 /\ 0:r1=1 /\ data=2)`,
		tso: false, arm: false,
	},
	{
		name: "ctrl-store-in-body",
		rule: "a store inside an unresolved if stays ordered after the condition's load",
		src: `C ctrl-store-in-body

{}

P0(int *x, int *y)
{
	int r0;

	r0 = READ_ONCE(*x);
	if (r0) {
		WRITE_ONCE(*y, 1);
	}
}

P1(int *x, int *y)
{
	int r1;

	r1 = READ_ONCE(*y);
	if (r1) {
		WRITE_ONCE(*x, 1);
	}
}

exists (0:r0=1 /\ 1:r1=1)`,
		tso: false, arm: false,
	},
	{
		name: "gap-ppoca",
		rule: "a store inside an unresolved if is forwarded to a later load before the condition is known (PPOCA); it commits only after the branch",
		src: `C gap-ppoca

{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	smp_wmb();
	WRITE_ONCE(*y, 1);
}

P1(int *x, int *y, int *z)
{
	int r0;
	int r1;
	int r2;

	r0 = READ_ONCE(*y);
	if (r0) {
		WRITE_ONCE(*z, 1);
		r1 = READ_ONCE(*z);
		r2 = READ_ONCE(*(x + (r1 & 8)));
	}
}

exists (1:r0=1 /\ 1:r1=1 /\ 1:r2=0)`,
		tso: false, arm: true,
	},
	{
		name: "ctrl-guess-blocked",
		rule: "guessed moves alone are no persistent set while the CPU's in-order step waits for another CPU",
		src: `C ctrl-guess-blocked

{
	int flags = 1;
}

P0(int *flags)
{
	int r0;

	r0 = atomic_fetch_andnot_release(1, flags);
}

P1(int *flags, int *z, int *w)
{
	int r1;
	int r2;

	atomic_or(2, flags);
	r1 = atomic_read(flags);
	if (r1 & 1) {
		r2 = READ_ONCE(*z);
	} else {
		smp_mb();
		WRITE_ONCE(*w, 1);
	}
}

exists (0:r0=1 /\ 1:r1=2 /\ w=1)`,
		tso: true, arm: true,
	},
	{
		name: "ctrl-store-guarded-lb",
		rule: "a store inside an unresolved if is not visible to other CPUs before the condition's load",
		src: `C ctrl-store-guarded-lb

{}

P0(int *x, int *y)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*x);
	if (r0) {
		WRITE_ONCE(*y, 1);
		r1 = READ_ONCE(*y);
	}
}

P1(int *x, int *y)
{
	int r2;

	r2 = READ_ONCE(*y);
	WRITE_ONCE(*x, r2);
}

exists (0:r0=1 /\ 1:r2=1)`,
		tso: false, arm: false,
	},
}

func TestVerdictCases(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	for _, tc := range verdictCases {
		t.Run(tc.name, func(t *testing.T) {
			c := compile(t, tc.name, []byte(tc.src))
			for _, mode := range modes {
				want := tc.tso
				if mode == machine.ARM {
					want = tc.arm
				}
				m := machine.MustNew(c.Program, mode)
				res := machine.Explore(m, machine.Options{})
				if !res.Complete {
					t.Fatalf("%s: %s", mode, words.Summary(res))
				}
				got := c.ResultVerdict(res).Observation != syntax.Never
				if got != want {
					t.Errorf("%s: exists reachable = %v, want %v (rule: %s)", mode, got, want, tc.rule)
				}
				if tc.noRef != "" {
					continue
				}
				if diff, ref := compareWithReference(c.Program, mode, max(refLimit, tc.refLimit)); !ref.complete {
					t.Errorf("%s: reference search too large", mode)
				} else if diff != "" {
					t.Errorf("%s: explorer and reference differ:\n%s", mode, diff)
				}
			}
		})
	}
}

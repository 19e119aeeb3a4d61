package syntax_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/syntax/syntaxtest"
)

// fuzzSeeds are small scenarios covering the dialect, written for the
// fuzzer (not taken from any corpus).
var fuzzSeeds = []string{
	"C a\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n",
	"C b\n(*\n * Result: Never\n * Title: t\n *)\n{\n\tint x;\n\tint *p=x;\n\tq=&x;\n\tatomic_t v = ATOMIC_INIT(2);\n\tspinlock_t l;\n}\n" +
		"P0(int *x, int **p, int **q, atomic_t *v, spinlock_t *l) // c\n{\n\tint r0;\n\tint *r1 = READ_ONCE(*p);\n\n" +
		"\tspin_lock(l);\n\tr0 = READ_ONCE(*r1) + atomic_inc_return(v);\n\tspin_unlock(l);\n\tif (r0 == 1 && !r0) { smp_mb(); } else r0 = -1;\n}\n" +
		"locations [x; 0:r1]\nfilter (0:r0=1)\nexists (0:r0=1 /\\ ~(x=2 \\/ p=x)) (* end *)\n",
	"C c\n{}\nP0(int *x, int *y)\n{\n\tint r0;\n\n\tr0 = smp_load_acquire(x);\n\tsmp_store_release(y, r0 << 2 | 1);\n}\n" +
		"P1(int *x, int *y)\n{\n\tint r1 = xchg_relaxed(y, 3);\n\n\t*x = *y;\n\tr1 = cmpxchg(x, r1, 4) == 0;\n}\n~exists (0:r0=1 /\\ 1:r1=0)\n",
	"C d\n{ x=-1; }\nvoid P0(unsigned long *x)\n{\n\tint r0 = test_and_set_bit(3, x);\n\tclear_bit_unlock(3, x);\n\trcu_read_lock();\n\tsynchronize_rcu();\n}\nforall (x=0 \\/ 0:r0=1)\n",
	"C f // c\n(* Title: t\n * Story: s *)\n{\n\t// a\n\tint x; (* b *)\n\t/* c */\n}\n// d\nP0(int *x) /* e */\n{\n\tint r0; // f\n" +
		"\tif (r0) // g\n\t\tr0 = 1;\n\telse { /* h */ } // i\n\t// j\n}\nlocations [x] // k\nexists (x=1) (* l *)\n(* m *)\n",
	"C e\n{}\nP0(int *x)\n{\n\t/* c */ int r0; r0 += (int)READ_ONCE(*x) * 2 % 3; r0++; --r0;\n\tif (r0) if (!r0) ; else { }\n}\nexists (true)\n",
	// herd7's dialect: free text, notes, register initial values, init-only
	// locations, undeclared registers, qualifiers, SRCU, conditional
	// atomics, pointer + offset, ?:, herd's internal forms, C11, and the
	// condition syntax.
	"C g \"doc\"\nCycle=Rfe PodRR\nGenerator=diy7\n(* Result: Sometimes P0: Never->Maybe\n * Result: DEADLOCK *)\n{ 0:r1=5; P1:r0=x; int *1:r2; x; [y]=3; p=z; }\n" +
		"P0(const int *x, volatile int *y, int **p, struct srcu_struct *s)\n{\n\tr0 = srcu_read_lock(s);\n\tr2 = r1 ? READ_ONCE(*x) : 0;\n\tsrcu_read_unlock(s, r0);\n" +
		"\tr3 = READ_ONCE(*(y + (r2 & 8)));\n\t(void)atomic_add_unless(y, 1, 0);\n}\nP1(int *x, struct srcu_struct *s)\n{\n\tsynchronize_srcu(s);\n\tWRITE_ONCE(*r0, 1);\n}\n" +
		"regions: x:PROP, y:NOPROP\nlocations [x;]\nexists (not (0:r2=1) /\\ [x]=1 => P0:r3 <> 0 \\/ 1:r2=x)\n",
	"C h\n{ atomic_int x = 2; }\nP0(atomic_int *x, int *e)\n{\n\tint r0 = atomic_load_explicit(x, memory_order_seq_cst);\n" +
		"\tatomic_store_explicit(x, r0, memory_order_release);\n\tr1 = atomic_compare_exchange_strong(x, e, 5);\n\tr2 = atomic_compare_exchange_weak_explicit(x, &r0, 6, memory_order_acq_rel, memory_order_relaxed);\n" +
		"\tatomic_thread_fence(memory_order_acquire);\n\tr3 = atomic_fetch_add_explicit(x, 1, memory_order_relaxed) && xchg(e, 0);\n" +
		"\t__fence{mb};\n\tr4 = __load{ONCE}(*x) + __xchg{acquire}(e, 1) + __atomic_add_unless{mb}(x, 1, 0);\n}\nforall (0:r1=0 \\/ e=2)\n",
}

// FuzzParse checks that Parse never panics or hangs, that whatever parses
// formats and re-parses to an equal scenario (whose tree Inspect walks
// alike), and that Compile and the condition evaluators never panic.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	// Every bad input of the error tests, without its marker.
	if data, err := os.ReadFile("../testdata/errors.litmus-chunks"); err == nil {
		marker := regexp.MustCompile(`\s*### ".*"`)
		for _, chunk := range strings.Split(string(data), "\n---\n")[1:] {
			f.Add([]byte(marker.ReplaceAllString(chunk, "")))
		}
	}
	lib, err := scenarios.Library()
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range lib {
		f.Add([]byte(e.Source))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := scenarios.Parse("fuzz", src)
		if err != nil {
			if _, ok := err.(syntax.Error); !ok {
				t.Fatalf("error %v is a %T, not an Error", err, err)
			}
			return
		}
		// The walker reaches every node: as many as the formatted text
		// parses back to.
		nodes := 0
		syntax.Inspect(s, func(syntax.Node) bool { nodes++; return true })
		out := syntax.Format(s)
		s2, err := scenarios.Parse("fuzz", []byte(out))
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, out)
		}
		if out2 := syntax.Format(s2); out2 != out {
			t.Fatalf("Format not idempotent:\n%s\n---\n%s", out, out2)
		}
		c, cerr := scenarios.Compile(s)
		nodes2 := 0
		syntax.Inspect(s2, func(syntax.Node) bool { nodes2++; return true })
		if nodes != nodes2 {
			t.Fatalf("Inspect visits %d nodes, and %d after the round trip:\n%s", nodes, nodes2, out)
		}
		if !syntaxtest.Same(s, s2) {
			t.Fatalf("round trip changed the scenario:\n%s", out)
		}
		if cerr != nil {
			if _, ok := cerr.(syntax.Error); !ok {
				t.Fatalf("compile error %v is a %T, not an Error", cerr, cerr)
			}
			return
		}
		if err := c.Program.Validate(); err != nil {
			t.Fatalf("compiled program invalid: %v", err)
		}
		// Evaluate the conditions on an all-zero outcome of the right shape
		// and on an empty one.
		o := machine.Outcome{Mem: make([]machine.Value, len(c.Program.Locs))}
		for _, th := range c.Program.Threads {
			o.Regs = append(o.Regs, make([]machine.Value, len(th.Regs)))
		}
		c.Verdict([]machine.Outcome{o, {}})
		_ = o.Format(c.Program, c.Shown())
	})
}

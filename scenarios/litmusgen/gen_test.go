package litmusgen

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
)

func TestRandomDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		a, b := Random(seed, Config{}), Random(seed, Config{})
		if a != b {
			t.Fatalf("seed %d gave two programs:\n%s\n---\n%s", seed, a, b)
		}
	}
	if Random(1, Config{}) == Random(2, Config{}) {
		t.Errorf("seeds 1 and 2 gave the same program")
	}
}

// TestRandomCompiles parses and compiles many random programs and checks
// the configuration's bounds on each.
func TestRandomCompiles(t *testing.T) {
	cfgs := []Config{{}, {MaxCPUs: 2, MaxInstrs: 2}, {MinCPUs: 4, MinInstrs: 4}, {Families: Hardware}, {Families: Once | RMW}, {Families: Lock | Plain}}
	for ci, cfg := range cfgs {
		full := cfg.withDefaults()
		for seed := uint64(0); seed < 400; seed++ {
			p := Generate(seed, cfg)
			src := p.Source()
			c, err := Compile(p.Name, src)
			if err != nil {
				t.Fatalf("config %d seed %d: %v\n%s", ci, seed, err, src)
			}
			if n := len(c.Program.Threads); n < full.MinCPUs || n > full.MaxCPUs {
				t.Errorf("config %d seed %d: %d CPUs", ci, seed, n)
			}
			for i, th := range p.Threads {
				n := 0
				for _, s := range th.Body {
					n += s.Instrs()
				}
				if n < full.MinInstrs || n > full.MaxInstrs {
					t.Errorf("config %d seed %d: P%d has %d instructions", ci, seed, i, n)
				}
			}
			if full.Families&RCU == 0 && (strings.Contains(src, "rcu_read_lock") || strings.Contains(src, "synchronize_rcu")) {
				t.Errorf("config %d seed %d: RCU without the RCU family:\n%s", ci, seed, src)
			}
			if full.Families&SRCU == 0 && strings.Contains(src, "srcu") {
				t.Errorf("config %d seed %d: SRCU without the SRCU family:\n%s", ci, seed, src)
			}
			if full.Families&Lock == 0 && strings.Contains(src, "spin_") {
				t.Errorf("config %d seed %d: locks without the Lock family", ci, seed)
			}
			// Every register and data location is printed.
			keys := p.StateKeys()
			shown := c.Shown()
			for ti, th := range c.Program.Threads {
				for r := 0; r < c.UserRegs[ti]; r++ {
					if !shown(ti, machine.Reg(r), 0, false) {
						t.Errorf("config %d seed %d: %d:%s not in the locations clause", ci, seed, ti, th.Regs[r])
					}
				}
			}
			for l, name := range c.Program.Locs {
				isLock := false
				for _, k := range append(slices.Clone(p.Locks), p.Srcus...) {
					isLock = isLock || k == name
				}
				if !isLock && !shown(0, 0, machine.Loc(l), true) {
					t.Errorf("config %d seed %d: location %s not shown (keys %v)", ci, seed, name, keys)
				}
			}
		}
	}
}

// TestRandomCoverage checks that the generator draws every primitive
// family: each listed primitive appears in some of the first 3000
// programs, and failing cmpxchgs, address dependencies through a
// pointer (including cmpxchg through one) and control dependencies
// occur.
func TestRandomCoverage(t *testing.T) {
	var all strings.Builder
	for seed := uint64(0); seed < 3000; seed++ {
		all.WriteString(Random(seed, Config{}))
	}
	src := all.String()
	prims := []string{
		"READ_ONCE(", "WRITE_ONCE(", "atomic_read(", "atomic_set(", "smp_load_acquire(", "smp_store_release(",
		"smp_mb()", "smp_rmb()", "smp_wmb()", "smp_mb__before_atomic()", "smp_mb__after_atomic()", "barrier()",
		"smp_mb__after_spinlock()", "smp_mb__after_unlock_lock()",
		"spin_lock(", "spin_unlock(", "spin_trylock(", "spin_is_locked(",
		"rcu_read_lock()", "rcu_read_unlock()", "synchronize_rcu()", "srcu_read_lock(s)", "synchronize_srcu(s)", "srcu_read_unlock(s, r", " & 1);", " * 2);", "rcu_dereference(", "rcu_assign_pointer(",
		"atomic_inc(", "atomic_dec(", "atomic_add(", "atomic_sub(", "atomic_or(", "atomic_and(", "atomic_xor(", "atomic_andnot(",
	}
	for _, base := range []string{"xchg", "cmpxchg", "atomic_xchg", "atomic_cmpxchg", "atomic_add_return", "atomic_inc_return", "atomic_fetch_add", "atomic_fetch_andnot", "atomic_fetch_inc"} {
		for _, o := range []string{"", "_relaxed", "_acquire", "_release"} {
			prims = append(prims, base+o+"(")
		}
	}
	for _, p := range prims {
		if !strings.Contains(src, p) {
			t.Errorf("no program uses %s", p)
		}
	}
	patterns := map[string]string{
		"plain read":                    `= \*[xyz];`,
		"plain write":                   `\*[xyz] = `,
		"address dependency":            `= READ_ONCE\(\*r\d+\)`,
		"store through a pointer":       `WRITE_ONCE\(\*r\d+, `,
		"cmpxchg through a pointer":     `cmpxchg(_relaxed|_acquire|_release)?\(r\d+, `,
		"control dependency":            `if \(r\d+( == \d)?\) \{\n\t+(WRITE_ONCE|\*[xyz] =|smp_store_release)`,
		"data dependency":               `WRITE_ONCE\(\*[xyz], r\d+\)`,
		"cmpxchg expecting another val": `cmpxchg\([xyz], [12], `,
		"if with else":                  `\} else \{`,
		"pointer register":              `int \*r\d+;`,
	}
	for what, re := range patterns {
		if !regexp.MustCompile(re).MatchString(src) {
			t.Errorf("no program has a %s (%s)", what, re)
		}
	}
}

func TestParseFamilies(t *testing.T) {
	f, err := ParseFamilies("once+rmw,lock")
	if err != nil || f != Once|RMW|Lock {
		t.Errorf("ParseFamilies = %v, %v", f, err)
	}
	if f, _ := ParseFamilies("hw"); f != Hardware || f&RCU != 0 {
		t.Errorf("hw = %v", f)
	}
	if _, err := ParseFamilies("nope"); err == nil {
		t.Errorf("no error for an unknown family")
	}
	if got := (Once | Lock).String(); got != "once+lock" {
		t.Errorf("String = %q", got)
	}
}

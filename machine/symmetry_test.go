package machine_test

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"smpscope/machine"
	"smpscope/scenarios/litmusgen"
)

// The symmetry reduction (symmetry.go) acts only on programs with
// automorphisms, which random programs almost never have: these tests draw
// symmetric ones, a ring in which CPU c runs one random template with
// its ring locations shifted by c (every shared lock or location left
// in place), sometimes with one CPU of other code beside them (whose
// neighbours may then only be swapped), and compare every reduction
// alone, none and all with the reference on them.

// symmetricKinds are the statement kinds of the template: every kind but
// pointers (an automorphism renames no values) and SRCU.
var symmetricKinds = []int{0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12}

// genSymmetric draws a symmetric program: ncpu copies of one template
// over ring locations x0…x(n-1), a shared location y and a lock, the
// copies shifted along the ring (rotate) or all alike (every CPU on the
// same locations: any permutation of them is an automorphism), and
// sometimes one extra CPU of its own code.
func genSymmetric(t *rapid.T, kinds []int) *machine.Program {
	n := rapid.IntRange(2, 3).Draw(t, "copies")
	rotate := rapid.Bool().Draw(t, "rotate")
	extra := rapid.IntRange(0, 2).Draw(t, "extra") == 0
	p := &machine.Program{Name: "symmetric"}
	add := func(name string) machine.Loc {
		p.Locs = append(p.Locs, name)
		p.Init = append(p.Init, 0)
		return machine.Loc(len(p.Locs) - 1)
	}
	var ring []machine.Loc
	for i := 0; i < n; i++ {
		ring = append(ring, add(fmt.Sprintf("x%d", i)))
	}
	y := add("y")
	lock := add("l")
	g := &gen{t: t, p: p, kinds: kinds, lock: lock, ptr: y, srcu: y}
	g.locs = append(append([]machine.Loc(nil), ring...), y)
	p.Threads = append(p.Threads, machine.Thread{Name: "P0"})
	g.th = &p.Threads[0]
	emitBody(g, rapid.IntRange(1, 3).Draw(t, "len"))
	tmpl := p.Threads[0]
	for c := 1; c < n; c++ {
		th := machine.Thread{Name: fmt.Sprintf("P%d", c), Regs: append([]string(nil), tmpl.Regs...)}
		for _, in := range tmpl.Code {
			if in.Addr != nil && rotate {
				l, _ := in.Addr.Val.AsLoc()
				for i, r := range ring {
					if r == l {
						l = ring[(i+c)%n]
						break
					}
				}
				in.Addr = machine.Const(machine.PtrTo(l))
			}
			th.Code = append(th.Code, in)
		}
		p.Threads = append(p.Threads, th)
	}
	if extra {
		p.Threads = append(p.Threads, machine.Thread{Name: fmt.Sprintf("P%d", n)})
		g.th = &p.Threads[n]
		emitBody(g, rapid.IntRange(1, 2).Draw(t, "extralen"))
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("generator made an invalid program: %v", err)
	}
	return p
}

// TestReductionsSymmetric compares every variant with the reference on
// symmetric random programs.
func TestReductionsSymmetric(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	// Half of -reduction.programs per kind of template: three kinds.
	n, perRound := max(1, *reductionPrograms/2), 100
	if testing.Short() {
		n, perRound = max(1, n/5), 20
	}
	var compared, skipped, symmetric atomic.Int64
	for _, kinds := range []struct {
		name  string
		kinds []int
	}{{"all", symmetricKinds}, {"locks", []int{0, 2, 5, 10, 10, 10}}, {"grace", []int{0, 2, 10, 11, 12, 12}}} {
		for round := 0; round*perRound < n; round++ {
			share := int64(min(perRound, n-round*perRound))
			t.Run(fmt.Sprintf("%s/%d", kinds.name, round), func(t *testing.T) {
				t.Parallel()
				rapid.Check(t, func(rt *rapid.T) {
					p := genSymmetric(rt, kinds.kinds)
					if !sampled(p, int(share), perRound) {
						return
					}
					if machine.Automorphisms(p) > 0 {
						symmetric.Add(1)
					}
					compareVariants(rt, p, &compared, &skipped)
				})
			})
		}
	}
	t.Cleanup(func() {
		t.Logf("%d explorations compared, %d programs with automorphisms, %d over the reference limit", compared.Load(), symmetric.Load(), skipped.Load())
	})
}

// TestAutomorphisms checks which programs the symmetry reduction finds
// symmetric: the lock cycles (a rotation of the ring: n-1 besides the
// identity), not a cycle whose CPUs differ, nor a program whose values
// may be pointers.
func TestAutomorphisms(t *testing.T) {
	for n := 2; n <= 6; n++ {
		src, err := litmusgen.LockCycle(n, "WR", "X")
		if err != nil {
			t.Fatal(err)
		}
		c := compile(t, "lock", []byte(src))
		if got := machine.Automorphisms(c.Program); got != n-1 {
			t.Errorf("%d-CPU lock cycle: %d automorphisms besides the identity, want %d", n, got, n-1)
		}
	}
	src, err := litmusgen.LockCycle(4, "WR+WW+WW+WW", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := machine.Automorphisms(compile(t, "mixed", []byte(src)).Program); got != 0 {
		t.Errorf("a cycle of different shapes: %d automorphisms, want 0", got)
	}
	// Two CPUs storing to x, alike but for a pointer to x in memory.
	p := &machine.Program{Name: "ptr", Locs: []string{"x", "p"}, Init: []machine.Value{0, 0}}
	for c := 0; c < 2; c++ {
		p.Threads = append(p.Threads, machine.Thread{Name: fmt.Sprintf("P%d", c), Code: []machine.Instr{
			{Op: machine.OpStore, Addr: at(0), Val: machine.Const(1)},
		}})
	}
	if got := machine.Automorphisms(p); got != 1 {
		t.Errorf("two CPUs alike: %d automorphisms, want 1", got)
	}
	// Four CPUs alike: the whole group of their permutations (23 besides
	// the identity); five: more than the search tries, so none (a part
	// of the group would not do).
	for n, want := range map[int]int{4: 23, 5: 0} {
		q := &machine.Program{Name: "alike", Locs: []string{"x"}, Init: []machine.Value{0}}
		for c := 0; c < n; c++ {
			q.Threads = append(q.Threads, machine.Thread{Name: fmt.Sprintf("P%d", c), Code: []machine.Instr{
				{Op: machine.OpStore, Addr: at(0), Val: machine.Const(1)},
			}})
		}
		if got := machine.Automorphisms(q); got != want {
			t.Errorf("%d CPUs alike: %d automorphisms, want %d", n, got, want)
		}
	}
	p.Init[1] = machine.PtrTo(0)
	p.Locs = append(p.Locs, "q")
	p.Init = append(p.Init, 0)
	if got := machine.Automorphisms(p); got != 0 {
		t.Errorf("a program with a pointer value: %d automorphisms, want 0", got)
	}
}

// TestSymmetryWitnesses explores the lock cycles with and without the
// symmetry reduction: the same outcomes, deadlocks and faults, each
// outcome's witness replaying step by step to it, and fewer states.
func TestSymmetryWitnesses(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for _, v := range []string{"", "C", "X"} {
			src, err := litmusgen.LockCycle(n, "WR", v)
			if err != nil {
				t.Fatal(err)
			}
			c := compile(t, "lock", []byte(src))
			for _, mode := range modes {
				m := machine.MustNew(c.Program, mode)
				full := machine.ExploreWithout(m, machine.Options{Workers: 1}, machine.RedSymmetry)
				sym := machine.Explore(m, machine.Options{Workers: 1})
				ref := refResult{outcomes: map[string]machine.Outcome{}, complete: true, deadlock: full.DeadlockStates > 0, fault: full.FaultStates > 0}
				for _, o := range full.Outcomes {
					ref.outcomes[o.Outcome.Key()] = o.Outcome
				}
				if diff := variantDiff(m, ref, sym); diff != "" {
					t.Errorf("%s %s: %s", mode, c.Program.Name, diff)
				}
				if sym.States >= full.States {
					t.Errorf("%s %s: %d states with symmetry, %d without", mode, c.Program.Name, sym.States, full.States)
				}
			}
		}
	}
}

// TestSymmetryEquivariant checks what the symmetry reduction's argument
// assumes of the rules, on random walks through symmetric random
// programs: for every automorphism g and reached state s, the steps
// enabled at g·s are g applied to those at s, each leads to g applied to
// its successor from s (equal complete keys), and g·s is final, stuck or
// faulted exactly when s is, with g applied to its outcome.
func TestSymmetryEquivariant(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := genSymmetric(rt, symmetricKinds)
		n := machine.Automorphisms(p)
		if n == 0 {
			return
		}
		mode := modes[rapid.IntRange(0, 1).Draw(rt, "mode")]
		m := machine.MustNew(p, mode)
		s := m.Initial()
		for depth := 0; depth < 40; depth++ {
			steps := m.Enabled(s)
			for i := 0; i < n; i++ {
				gs := machine.Permuted(m, i, s)
				var want []string
				for _, st := range steps {
					want = append(want, m.ID(machine.PermutedStep(m, i, st)))
				}
				var got []string
				for _, st := range m.Enabled(gs) {
					got = append(got, m.ID(st))
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(want, got) {
					rt.Fatalf("automorphism %d: enabled %v at g·s, g of those at s %v\n%s", i, got, want, programText(p))
				}
				if m.Final(gs) != m.Final(s) || m.Deadlocked(gs) != m.Deadlocked(s) {
					rt.Fatalf("automorphism %d: final or stuck differs\n%s", i, programText(p))
				}
				if _, f := m.Fault(s); func() bool { _, g := m.Fault(gs); return f != g }() {
					rt.Fatalf("automorphism %d: fault differs\n%s", i, programText(p))
				}
				if m.Final(s) && m.Outcome(gs).Key() != machine.PermutedOutcome(m, i, m.Outcome(s)).Key() {
					rt.Fatalf("automorphism %d: outcome of g·s is not g of the outcome\n%s", i, programText(p))
				}
				for _, st := range steps {
					a, _, err := m.Apply(s, st)
					if err != nil {
						rt.Fatal(err)
					}
					b, _, err := m.Apply(gs, machine.PermutedStep(m, i, st))
					if err != nil {
						rt.Fatalf("automorphism %d: g·%s at g·s: %v\n%s", i, m.ID(st), err, programText(p))
					}
					if m.Key(b) != m.Key(machine.Permuted(m, i, a)) {
						rt.Fatalf("automorphism %d: after %s, g·s' and the successor of g·s differ\n%q\n%q\n%s", i, m.ID(st), m.Key(b), m.Key(machine.Permuted(m, i, a)), programText(p))
					}
				}
			}
			next, ok := randomStep(rt, m, s)
			if !ok {
				break
			}
			s = next
		}
	})
}

// TestSymmetryDeadlock: two CPUs alike that can deadlock (each inside a
// reader waits for the lock the other holds across synchronize_rcu):
// with symmetry the deadlock is still found, and its witness, renamed
// as it was replayed, replays to a deadlock.
func TestSymmetryDeadlock(t *testing.T) {
	src := `C sym-deadlock
{}
P0(spinlock_t *l, int *x) {
	rcu_read_lock();
	spin_lock(l);
	spin_unlock(l);
	rcu_read_unlock();
	spin_lock(l);
	synchronize_rcu();
	spin_unlock(l);
}
P1(spinlock_t *l, int *x) {
	rcu_read_lock();
	spin_lock(l);
	spin_unlock(l);
	rcu_read_unlock();
	spin_lock(l);
	synchronize_rcu();
	spin_unlock(l);
}
exists (x=0)`
	c := compile(t, "sym-deadlock", []byte(src))
	if machine.Automorphisms(c.Program) != 1 {
		t.Fatalf("want the swap of the two CPUs")
	}
	for _, mode := range modes {
		m := machine.MustNew(c.Program, mode)
		ref := refExplore(m, 100000)
		if !ref.complete || !ref.deadlock {
			t.Fatalf("%s: the reference finds no deadlock (complete %v)", mode, ref.complete)
		}
		res := machine.Explore(m, machine.Options{Workers: 1})
		if diff := variantDiff(m, ref, res); diff != "" {
			t.Errorf("%s: %s", mode, diff)
		}
		if len(res.Deadlocks) == 0 {
			t.Errorf("%s: no deadlock reported", mode)
		}
		// What each CPU waits for is said of the state the witness
		// reaches.
		for _, d := range res.Deadlocks {
			states, _, err := m.Replay(d.Witness)
			if err != nil {
				t.Fatal(err)
			}
			last := states[len(states)-1]
			var waits []machine.Wait
			for cpu := 0; cpu < len(c.Program.Threads); cpu++ {
				if w := m.Wait(last, cpu); w.Kind != machine.WaitFinished {
					waits = append(waits, w)
				}
			}
			if fmt.Sprint(waits) != fmt.Sprint(d.Waits) {
				t.Errorf("%s: the deadlock's waits %v, its witness's end %v", mode, d.Waits, waits)
			}
		}
	}
}

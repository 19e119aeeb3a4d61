package machine_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"smpscope/machine"
	"smpscope/scenarios/litmusgen"
	"smpscope/scenarios/words"
)

// Each of the explorer's reductions alone (with what it requires), none,
// and all together, against the reference explorer, on random programs:
// so that a reduction whose argument is wrong cannot hide behind another
// that happens to cover for it (issue 23, item 6). And the state encoding
// the search stores states in round-trips.

var reductionRefLimit = flag.Int("reduction.reflimit", 4000, "largest reference search TestReductionsAlone compares with")

var reductionPrograms = flag.Int("reduction.programs", 8, "random programs per size TestReductionsAlone compares with every reduction alone, none and all, and TestFoldingChangesNoOutcome folded with unfolded (a fifth with -short)")

var reductionGraceAll = flag.Bool("reduction.grace", false, "TestReductionsGraceCycles: every member of the class it draws (default: every fourth, a quarter of them with -short), and compareCases: the cases whose reference search is over longCaseStates too; .ci/run's long lane sets it")

// longCaseStates is the largest reference search of a fixed case that
// compareCases runs without -reduction.grace: one SRCU case of 64,000
// states took two thirds of TestReductionsSRCUCases, which the long lane
// runs whole.
const longCaseStates = 20000

// sampled reports whether p is among the share of every perRound random
// programs a test compares: decided by the program itself, not by how
// many were drawn, so that rapid's replay of a failing program, and its
// shrinking, see the same choice.
func sampled(p *machine.Program, share, perRound int) bool {
	if share >= perRound {
		return true
	}
	text, err := json.Marshal(p) // every exported field, pointers followed
	if err != nil {
		panic(err)
	}
	h := fnv.New32a()
	h.Write(text)
	return int(h.Sum32()%uint32(perRound)) < share
}

// variants are the explorations compared: every reduction alone, none,
// and all.
func variants() []struct {
	name string
	off  machine.Reduction
} {
	out := []struct {
		name string
		off  machine.Reduction
	}{{"none", machine.AllReductions}, {"all", 0}}
	for _, r := range machine.Reductions {
		out = append(out, struct {
			name string
			off  machine.Reduction
		}{r.Name + " alone", machine.AllReductions &^ (r.R | machine.Requires(r.R))})
	}
	// Each with lazy and unreadable invalidations beside it: they change
	// what a move is (a variant applying queued entries first, not a
	// step of its own), and a reduction's argument must hold of those
	// moves too. (The CPU-level persistent sets were wrong only so:
	// reductionRegressions' persistent-cpu-reserved-commit.)
	base := machine.RedLazy | machine.RedUnreadable
	for _, r := range machine.Reductions {
		if r.R&base != 0 {
			continue
		}
		out = append(out, struct {
			name string
			off  machine.Reduction
		}{r.Name + " with lazy", machine.AllReductions &^ (r.R | machine.Requires(r.R) | base)})
	}
	// Every other reduction with postponed stores or locks left out: the
	// persistent sets meet the stores and locks as moves of their own.
	// And with lazy invalidations left out: the others then meet every
	// invalidation as a free step (a rule that turns lazy off where it
	// costs states must be sound beside them).
	for _, r := range machine.Reductions {
		if r.Name == "postpone" || r.Name == "postponeLock" || r.Name == "lazy" {
			out = append(out, struct {
				name string
				off  machine.Reduction
			}{"all but " + r.Name, r.R})
		}
	}
	return out
}

// TestReductionsAlone compares every variant with the reference on random
// programs: general ones, and ones about grace periods (readers, stores,
// synchronize_rcu, locks, dependencies), where most reductions act.
func TestReductionsAlone(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	sizes := []struct {
		name         string
		cpus, budget int
		kinds        []int
	}{
		{"small", 3, 6, nil},
		{"grace", 4, 8, gracePeriodKinds},
		{"readers", 4, 8, readerKinds},
		{"partial", 4, 8, partialKinds},
		// SRCU: sections of two domains (closed across CPUs, through
		// indices in memory, jumped over), late sections, several grace
		// periods, RCU beside them (the persistent sets take SRCU
		// programs).
		{"srcu", 4, 8, srcuKinds},
		{"srcumix", 4, 9, srcuMixKinds},
		// Exclusive RMWs without grace periods (reservedCommit): RMWs of
		// every kind and order, stores, loads, barriers and locks.
		{"rmw", 3, 7, rmwKinds},
	}
	n, perRound := *reductionPrograms, 100 // rapid's default -rapid.checks
	if testing.Short() {
		n, perRound = max(1, n/5), 20
	}
	var compared, skipped atomic.Int64
	for _, size := range sizes {
		for round := 0; round*perRound < n; round++ {
			share := int64(min(perRound, n-round*perRound))
			t.Run(fmt.Sprintf("%s/%d", size.name, round), func(t *testing.T) {
				t.Parallel()
				rapid.Check(t, func(rt *rapid.T) {
					p := genRandomOf(rt, size.cpus, size.budget, size.kinds)
					if !sampled(p, int(share), perRound) {
						return // not in this round's share
					}
					compareVariants(rt, p, &compared, &skipped)
				})
			})
		}
	}
	t.Cleanup(func() {
		t.Logf("%d explorations compared, %d programs over the reference limit", compared.Load(), skipped.Load())
	})
}

// rmwKinds are statement kinds for programs in which an exclusive RMW's
// write is pending while other CPUs run (reservedCommit): RMWs (drawn
// often), stores, loads, barriers and locks, no grace period.
var rmwKinds = []int{0, 2, 4, 5, 6, 6, 10}

// partialKinds are statement kinds for programs of the class in which a
// CPU may take part in a persistent set with some of its moves only
// (persistentpart.go): loads and stores (most of them READ_ONCE and
// WRITE_ONCE), RCU read-side markers and synchronize_rcu.
var partialKinds = []int{0, 0, 2, 2, 11, 12}

// readerKinds are statement kinds for RCU reader programs: loads, stores,
// dependencies through a published pointer, control dependencies, RCU
// read-side markers and synchronize_rcu (drawn often).
var readerKinds = []int{0, 0, 2, 7, 8, 9, 11, 11, 12, 12}

// TestEncodingRoundTrips walks random programs step by step and checks at
// every state that the search's encoding decodes to a state with the same
// future one step deep: the same encoding again, the same enabled steps,
// final state, outcome, deadlock and fault, and equal encodings after
// every step — with the search's dead lines left out and without.
func TestEncodingRoundTrips(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := genRandomOf(rt, 4, 9, nil)
		for _, mode := range modes {
			m := machine.MustNew(p, mode)
			s := m.Initial()
			for i := 0; i < 40; i++ {
				for _, off := range []machine.Reduction{0, machine.AllReductions} {
					if err := machine.RoundTrip(m, s, off); err != nil {
						rt.Fatalf("%s, step %d, off %b: %v\n%s", mode, i, off, err, programText(p))
					}
				}
				steps := m.Enabled(s)
				if len(steps) == 0 {
					break
				}
				st := steps[rapid.IntRange(0, len(steps)-1).Draw(rt, "step")]
				next, _, err := m.Apply(s, st)
				if err != nil {
					rt.Fatal(err)
				}
				s = next
			}
		}
	})
}

// variantDiff reports how res differs from the reference's
// result on m: outcomes, deadlocks, faults, and witnesses that do not
// replay to their outcome.
func variantDiff(m *machine.Machine, ref refResult, res *machine.Result) string {
	p := m.Prog
	if !res.Complete {
		return fmt.Sprintf("explorer incomplete (%s) where the reference finished in %d states\n", words.Summary(res), ref.states)
	}
	var b strings.Builder
	got := map[string]bool{}
	for _, o := range res.Outcomes {
		got[o.Outcome.Key()] = true
		states, _, err := m.Replay(o.Witness)
		if err != nil {
			fmt.Fprintf(&b, "witness of %s does not replay: %v\n", o.Outcome.Format(p, nil), err)
			continue
		}
		if last := states[len(states)-1]; !m.Final(last) || m.Outcome(last).Key() != o.Outcome.Key() {
			fmt.Fprintf(&b, "witness of %s does not end in that outcome\n", o.Outcome.Format(p, nil))
		}
		if _, ok := ref.outcomes[o.Outcome.Key()]; !ok {
			fmt.Fprintf(&b, "explorer reaches %s, the reference does not\n", o.Outcome.Format(p, nil))
		}
	}
	for _, k := range outcomeKeys(ref.outcomes) {
		if !got[k] {
			fmt.Fprintf(&b, "explorer misses %s\n", ref.outcomes[k].Format(p, nil))
		}
	}
	if (res.DeadlockStates > 0) != ref.deadlock {
		fmt.Fprintf(&b, "deadlocks: explorer %d states, reference %v\n", res.DeadlockStates, ref.deadlock)
	}
	if (res.FaultStates > 0) != ref.fault {
		fmt.Fprintf(&b, "faults: explorer %d states, reference %v\n", res.FaultStates, ref.fault)
	}
	for _, d := range res.Deadlocks {
		states, _, err := m.Replay(d.Witness)
		if err != nil || !m.Deadlocked(states[len(states)-1]) {
			fmt.Fprintf(&b, "a deadlock witness does not replay to a deadlock (%v)\n", err)
		}
	}
	return b.String()
}

// TestReductionsGraceCycles compares every variant with the reference on
// small members of issue 24's class (litmusgen.GraceCycleProgram): three
// CPUs, a grace period and two readers of every form, RCU and SRCU, and
// read-read cycles closed by a CPU storing every location.
func TestReductionsGraceCycles(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	var srcs []string
	for _, srcu := range []bool{false, true} {
		for _, role := range litmusgen.GraceRoles {
			for _, roles := range []string{"G+" + role + "+R", "GG+R+" + role} {
				for _, shapes := range []string{"RW", "WR", "WW"} {
					p, err := litmusgen.GraceCycleProgram(roles, shapes, srcu)
					if err != nil {
						continue // a role that needs another shape
					}
					srcs = append(srcs, p.Source())
				}
			}
		}
		for _, roles := range []string{"G+R", "GG+RN", "R+G"} {
			p, err := litmusgen.ReadersCycle(roles, srcu)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, p.Source())
		}
	}
	switch {
	case testing.Short():
		srcs = srcs[:len(srcs)/4]
	case !*reductionGraceAll:
		// Half of them take the reference past its limit: each costs
		// the limit's worth of states for nothing. Every fourth is a
		// sample across the roles, forms and shapes.
		var some []string
		for i := 0; i < len(srcs); i += 4 {
			some = append(some, srcs[i])
		}
		srcs = some
	}
	compared, skipped := 0, 0
	for _, src := range srcs {
		c := compile(t, "grace", []byte(src))
		for _, mode := range modes {
			m := machine.MustNew(c.Program, mode)
			ref := refExplore(m, *reductionRefLimit)
			if !ref.complete {
				skipped++
				continue
			}
			for _, v := range variants() {
				compared++
				res := machine.ExploreWithout(m, machine.Options{Workers: 1}, v.off)
				if diff := variantDiff(m, ref, res); diff != "" {
					t.Errorf("%s, %s:\n%s%s", mode, v.name, diff, src)
				}
			}
		}
	}
	t.Logf("%d tests, %d explorations compared, %d over the reference limit", len(srcs), compared, skipped)
}

// TestFoldingChangesNoOutcome checks the folding inside Enabled and Apply
// (exec.go's isLocal and advance), which every explorer, the reference
// included, sees: the reference on the machine as it is and on one that
// folds nothing reach the same outcomes, deadlocks and faults.
func TestFoldingChangesNoOutcome(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	compared, skipped, more := 0, 0, 0
	same := func(p *machine.Program, fatalf func(string, ...any)) {
		for _, mode := range modes {
			folded := refExplore(machine.MustNew(p, mode), *reductionRefLimit)
			unfolded := refExplore(machine.Unfolded(p, mode), 4**reductionRefLimit)
			if !folded.complete || !unfolded.complete {
				skipped++
				continue
			}
			compared++
			if unfolded.states > folded.states {
				more++
			}
			a, b := outcomeKeys(folded.outcomes), outcomeKeys(unfolded.outcomes)
			if fmt.Sprint(a) != fmt.Sprint(b) || folded.deadlock != unfolded.deadlock || folded.fault != unfolded.fault {
				fatalf("%s: folded %v (deadlock %v, fault %v)\nunfolded %v (deadlock %v, fault %v)\n%s",
					mode, a, folded.deadlock, folded.fault, b, unfolded.deadlock, unfolded.fault, programText(p))
			}
		}
	}
	// One program that certainly folds (register arithmetic between the
	// accesses), so that a small random sample that happens to fold
	// nothing does not make the test fail (or pass) by chance.
	same(compile(t, "fold", []byte(`C fold
{}
P0(int *x, int *y) { int r1; int r2; WRITE_ONCE(*x, 1); r1 = 2; r2 = r1 + 1; WRITE_ONCE(*y, r2); }
P1(int *x, int *y) { int r0; int r3; r0 = READ_ONCE(*y); r3 = r0 * 2; r0 = READ_ONCE(*x); }
exists (1:r0=0)
`)).Program, t.Fatalf)
	if more == 0 {
		t.Fatal("the unfolded machine had no more states on a program with register arithmetic: folding is off")
	}
	more = 0
	// About -reduction.programs of each kind, as TestReductionsAlone (at
	// most rapid's 100 a Check).
	share := *reductionPrograms
	if testing.Short() {
		share = max(1, share/5)
	}
	for _, size := range []struct {
		cpus, budget int
		kinds        []int
	}{{3, 6, nil}, {3, 7, readerKinds}, {3, 7, gracePeriodKinds}} {
		rapid.Check(t, func(rt *rapid.T) {
			p := genRandomOf(rt, size.cpus, size.budget, size.kinds)
			if !sampled(p, share, 100) {
				return
			}
			same(p, rt.Fatalf)
		})
	}
	t.Logf("%d compared (%d random ones with more states unfolded), %d over the reference limit", compared, more, skipped)
}

// TestPersistentSetActs checks that the persistent sets of CPUs
// (persistentset.go) act where issue 24 needs them, and change no
// result there: the relaxed load-buffering ring, whose CPUs each touch
// two lines of their own neighbours, and grace-period cycles with RCU
// readers touching different lines. With the reduction off the search
// must store more states and reach the same outcomes, deadlocks and
// faults.
func TestPersistentSetActs(t *testing.T) {
	var cases []struct{ name, src string }
	for _, links := range []string{"O+O+O+O+O", "G+R+R+R"} {
		src, err := litmusgen.Cycle(links, "RW")
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ name, src string }{links, src})
	}
	p, err := litmusgen.GraceCycleProgram("G+G+R+R+R", "RW", false)
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct{ name, src string }{"grace G+G+R+R+R", p.Source()})
	set := reductionNamed(t, "persistentSet")
	for _, tc := range cases {
		c := compile(t, tc.name, []byte(tc.src))
		for _, mode := range modes {
			m := machine.MustNew(c.Program, mode)
			with := machine.ExploreWithout(m, machine.Options{Workers: 1, NoWitnesses: true}, 0)
			without := machine.ExploreWithout(m, machine.Options{Workers: 1, NoWitnesses: true}, set)
			if !with.Complete || !without.Complete {
				t.Fatalf("%s, %s: incomplete", tc.name, mode)
			}
			if with.States >= without.States {
				t.Errorf("%s, %s: %d states with persistent sets, %d without: the reduction does not act", tc.name, mode, with.States, without.States)
			}
			if a, b := resultKeys(with), resultKeys(without); a != b {
				t.Errorf("%s, %s: outcomes differ:\nwith    %s\nwithout %s", tc.name, mode, a, b)
			}
			t.Logf("%-16s %-4s %6d states, %6d without persistent sets", tc.name, mode, with.States, without.States)
		}
	}
}

// TestReservedCommitActs checks, on perfbook's lock cycles taken by
// xchg_acquire and cmpxchg_acquire (litmusgen.LockCycle, explored without
// the filter's pruning, as the UI does), that taking a reserved line's
// exclusive commit alone (reservedCommit) finds the reference's outcomes
// and stores fewer states than without it, in ARM-like mode, where the
// lock's write is an exclusive entry.
func TestReservedCommitActs(t *testing.T) {
	red := reductionNamed(t, "reservedCommit")
	for _, v := range []string{"X", "C"} {
		for _, n := range []int{2, 3, 4} {
			src, err := litmusgen.LockCycle(n, "WR", v)
			if err != nil {
				t.Fatal(err)
			}
			c := compile(t, "lock", []byte(src))
			m := machine.MustNew(c.Program, machine.ARM)
			with := machine.ExploreWithout(m, machine.Options{Workers: 1}, 0)
			without := machine.ExploreWithout(m, machine.Options{Workers: 1, NoWitnesses: true}, red)
			if !with.Complete || !without.Complete {
				t.Fatalf("%s/%d: incomplete", v, n)
			}
			if n > 2 && with.States >= without.States {
				t.Errorf("%s/%d: %d states with reservedCommit, %d without: the reduction does not act", v, n, with.States, without.States)
			}
			if n == 2 {
				// (At three CPUs the reference passes a million states.)
				ref := refExplore(m, 1<<20)
				if !ref.complete {
					t.Fatalf("%s/%d: the reference did not finish", v, n)
				}
				alone := machine.ExploreWithout(m, machine.Options{Workers: 1}, machine.AllReductions&^(red|machine.Requires(red)))
				for name, res := range map[string]*machine.Result{"all": with, "alone": alone} {
					if diff := variantDiff(m, ref, res); diff != "" {
						t.Errorf("%s/%d, %s:\n%s", v, n, name, diff)
					}
				}
			} else if a, b := resultKeys(with), resultKeys(without); a != b {
				t.Errorf("%s/%d: outcomes differ:\nwith    %s\nwithout %s", v, n, a, b)
			}
			t.Logf("lock-%s/%d %6d states, %6d without reservedCommit", v, n, with.States, without.States)
		}
	}
}

// An rcu_read_lock whose step finishes its CPU (here the unlock after it
// is folded into it) has no next step to be postponed to: postponing it
// kept the CPU from finishing, so the search reported a stuck state with
// the lock still to run, whose witness did not replay to a deadlock (P0
// spins for ever on the lock P2's trylock took; found by
// TestReductionsAlone, grace, in TSO mode with every reduction on).
func TestPostponedLockThatFinishesItsCPU(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	src := []byte(`C lock-then-nothing

{}

P0(int *x, spinlock_t *l)
{
	spin_lock(l);
	synchronize_rcu();
	WRITE_ONCE(*x, 2);
	spin_unlock(l);
}

P1(int *x)
{
	synchronize_rcu();
}

P2(spinlock_t *l)
{
	int r0;

	r0 = spin_trylock(l);
}

P3(int *x)
{
	rcu_read_lock();
	rcu_read_unlock();
}

exists (2:r0=1)
`)
	c := compile(t, "lock-then-nothing.litmus", src)
	for _, mode := range modes {
		m := machine.MustNew(c.Program, mode)
		ref := refExplore(m, 100000)
		if !ref.complete {
			t.Fatalf("%s: the reference did not finish", mode)
		}
		for _, v := range variants() {
			res := machine.ExploreWithout(m, machine.Options{Workers: 1}, v.off)
			if diff := variantDiff(m, ref, res); diff != "" {
				t.Errorf("%s, %s:\n%s", mode, v.name, diff)
			}
			if len(res.Deadlocks) == 0 {
				t.Errorf("%s, %s: no deadlock, though P0 can spin for ever", mode, v.name)
			}
		}
	}
}

// A postponed store is a move of its CPU only together with a step
// after it, so what enables that step decides the CPU's moves. ARM-like,
// P0's WRITE_ONCE(y, 1) is taken only with its commit (synchronize_rcu
// waits for the buffer), and the commit waits while P2's relaxed
// atomic_add_unless holds y reserved: P0 has no move. A persistent set
// holding P0 (with P1, whose trylock conflicts with P0's spin_lock) once
// left P2 out, as P0's empty footprint read nothing, so P0's store never
// came after P2's: y=1 was lost. Found by TestReferenceRandom (round
// small/2, its fail file kept); the litmus language has no relaxed
// atomic_add_unless, hence the program built here.
func TestPostponedStoreWaitingForReservation(t *testing.T) {
	b := machine.NewBuilder("postponed-store-reserved")
	y, l := b.Loc("y", 0), b.Loc("l", 0)
	p0 := b.Thread()
	p0.StoreConst(machine.Once, y, 1)
	p0.SyncRCU()
	p0.Lock(l)
	p0.Unlock(l)
	p1 := b.Thread()
	p1.TryLock(p1.Reg("r0"), l)
	p2 := b.Thread()
	p2.RMW(machine.OrderRelaxed, machine.RMWAddUnless, false, 0, y, machine.Const(2), machine.Const(2))
	p := b.Program()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, mode := range modes {
		m := machine.MustNew(p, mode)
		ref := refExplore(m, 100000)
		if !ref.complete {
			t.Fatalf("%s: the reference did not finish", mode)
		}
		withY1 := 0
		for _, o := range ref.outcomes {
			if strings.Contains(o.Format(p, nil), "y=1;") {
				withY1++
			}
		}
		if withY1 != 2 {
			t.Errorf("%s: the reference reaches %d outcomes with y=1, want 2 (P1's trylock fails or succeeds)", mode, withY1)
		}
		for _, v := range variants() {
			res := machine.ExploreWithout(m, machine.Options{Workers: 1}, v.off)
			if diff := variantDiff(m, ref, res); diff != "" {
				t.Errorf("%s, %s:\n%s", mode, v.name, diff)
			}
		}
	}
}

// Step-level persistent sets act where CPU-level ones cannot: in a
// read-read cycle closed by one CPU storing every location, and in a
// ring of RCU readers, every CPU's future touches its neighbours' lines.
// With the reduction off the search must store more states and reach the
// same outcomes, deadlocks and faults. The same with SRCU domains, where
// it must act too.
func TestPartialSetActs(t *testing.T) {
	var cases []struct{ name, src string }
	for _, srcu := range []bool{false, true} {
		kind := map[bool]string{false: "", true: "SRCU "}[srcu]
		for _, roles := range []string{"G+R+R", "GG+R+R+R"} {
			p, err := litmusgen.ReadersCycle(roles, srcu)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, struct{ name, src string }{kind + "RR-W " + roles, p.Source()})
		}
		p, err := litmusgen.GraceCycleProgram("G+R+R+R+R", "RW", srcu)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ name, src string }{kind + "RW G+R+R+R+R", p.Source()})
	}
	part := reductionNamed(t, "partialSet")
	acted, actedSRCU := false, false
	for _, tc := range cases {
		c := compile(t, tc.name, []byte(tc.src))
		for _, mode := range modes {
			m := machine.MustNew(c.Program, mode)
			with := machine.ExploreWithout(m, machine.Options{Workers: 1, NoWitnesses: true}, 0)
			without := machine.ExploreWithout(m, machine.Options{Workers: 1, NoWitnesses: true}, part)
			if !with.Complete || !without.Complete {
				t.Fatalf("%s, %s: incomplete", tc.name, mode)
			}
			if with.States > without.States {
				t.Errorf("%s, %s: %d states with partial sets, %d without", tc.name, mode, with.States, without.States)
			}
			acted = acted || with.States < without.States
			actedSRCU = actedSRCU || with.States < without.States && strings.HasPrefix(tc.name, "SRCU")
			if a, b := resultKeys(with), resultKeys(without); a != b {
				t.Errorf("%s, %s: outcomes differ:\nwith    %s\nwithout %s", tc.name, mode, a, b)
			}
			t.Logf("%-18s %-4s %6d states, %6d without partial sets", tc.name, mode, with.States, without.States)
		}
	}
	if !acted {
		t.Error("the reduction never acts")
	}
	if !actedSRCU {
		t.Error("the reduction never acts with SRCU")
	}
}

// TestPartialSetGraceClass compares the search with and without
// step-level persistent sets (each side proven against the reference on
// small programs above) on members of the grace-period class too big for
// the reference: cycles of four and five CPUs with grace periods and
// readers, and read-read cycles closed by a CPU storing every location,
// in both modes: the same outcomes, deadlocks and faults. Every member
// with -reduction.grace, every third otherwise, every ninth with -short.
func TestPartialSetGraceClass(t *testing.T) {
	var srcs []string
	roles := []string{"G", "GG", "R", "RN", "RL"}
	for _, shapes := range []string{"RW", "WR", "WW", "RR"} {
		for i, a := range roles {
			for _, b := range roles[i:] {
				for _, c := range roles {
					p, err := litmusgen.GraceCycleProgram("G+"+a+"+"+b+"+"+c, shapes, false)
					if err != nil {
						continue
					}
					srcs = append(srcs, p.Source())
				}
			}
		}
	}
	for _, rs := range []string{"G+R+R", "R+G+R", "GG+R+R", "G+RN+R", "G+G+R", "GG+R+R+R"} {
		p, err := litmusgen.ReadersCycle(rs, false)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, p.Source())
	}
	every := 3
	switch {
	case *reductionGraceAll:
		every = 1
	case testing.Short():
		every = 9
	}
	part := reductionNamed(t, "partialSet")
	compared, fewer := 0, 0
	for i := 0; i < len(srcs); i += every {
		c := compile(t, "grace", []byte(srcs[i]))
		for _, mode := range modes {
			m := machine.MustNew(c.Program, mode)
			opts := machine.Options{Workers: 1, NoWitnesses: true, MaxStates: 400_000}
			with := machine.ExploreWithout(m, opts, 0)
			without := machine.ExploreWithout(m, opts, part)
			if !with.Complete || !without.Complete {
				continue
			}
			compared++
			if with.States < without.States {
				fewer++
			}
			if a, b := resultKeys(with), resultKeys(without); a != b {
				t.Errorf("%s: outcomes differ:\nwith    %s\nwithout %s\n%s", mode, a, b, srcs[i])
			}
		}
	}
	t.Logf("%d explorations compared, %d with fewer states", compared, fewer)
}

// resultKeys sums up what a search found for comparing two searches: its
// outcomes in order, and whether it found a deadlock and a fault.
func resultKeys(r *machine.Result) string {
	var ks []string
	for _, o := range r.Outcomes {
		ks = append(ks, o.Outcome.Key())
	}
	return fmt.Sprint(ks, r.DeadlockStates > 0, r.FaultStates > 0)
}

// compareVariants compares every reduction variant with the reference on
// p in both modes, counting the explorations compared and those the
// reference could not finish within -reduction.reflimit.
func compareVariants(rt *rapid.T, p *machine.Program, compared, skipped *atomic.Int64) {
	for _, mode := range modes {
		m := machine.MustNew(p, mode)
		ref := refExplore(m, *reductionRefLimit)
		if !ref.complete {
			skipped.Add(1)
			continue
		}
		for _, v := range variants() {
			compared.Add(1)
			res := machine.ExploreWithout(m, machine.Options{Workers: 1}, v.off)
			if diff := variantDiff(m, ref, res); diff != "" {
				rt.Fatalf("%s, %s:\n%s%s", mode, v.name, diff, programText(p))
			}
		}
	}
}

// reductionNamed returns the reduction machine.Reductions lists as name.
func reductionNamed(t *testing.T, name string) machine.Reduction {
	t.Helper()
	for _, r := range machine.Reductions {
		if r.Name == name {
			return r.R
		}
	}
	t.Fatalf("no reduction named %q", name)
	return 0
}

// srcuReductionCases are SRCU programs in which the order of two CPUs'
// moves decides what an unlock does or what a grace period waits for,
// so that a persistent set that wrongly takes one CPU's moves alone
// loses an outcome or a deadlock.
var srcuReductionCases = map[string]string{
	// P2 holds copies of x1 and x2 when P0's commits queue their
	// invalidations, and its srcu_read_lock is late while P1's grace
	// period waits for it: it loads nothing before its queue is empty,
	// so the search applies those invalidations at once (drainsFirst).
	// Its lock before the grace period starts keeps them, and its
	// section may read x1 stale.
	"late-lock-drains-first": `C late-lock-drains-first
{}
P0(int *x0, int *x1, int *x2)
{
	WRITE_ONCE(*x0, 1);
	WRITE_ONCE(*x1, 1);
	WRITE_ONCE(*x2, 1);
}
P1(int *x0, int *x1, struct srcu_struct *s)
{
	int r1;
	int r2;
	r1 = READ_ONCE(*x1);
	synchronize_srcu(s);
	r2 = READ_ONCE(*x0);
}
P2(int *x1, int *x2, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	int r3;
	r0 = READ_ONCE(*x1);
	r1 = READ_ONCE(*x2);
	r3 = srcu_read_lock(s);
	r2 = READ_ONCE(*x1);
	srcu_read_unlock(s, r3);
}
exists (1:r1=1 /\ 1:r2=0 /\ 2:r1=1 /\ 2:r2=0)
`,
	// P0 may jump over its unlock of the section it opened; P1's unlock,
	// with the index read from memory, closes it only when no unlock of
	// P0 is left: before P0 has passed its own, the section stays open for
	// ever and P2's grace period never ends.
	"jumped-unlock": `C jumped-unlock
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r2;
	r0 = srcu_down_read(s);
	WRITE_ONCE(*x, r0);
	r2 = READ_ONCE(*y);
	if (r2)
		srcu_up_read(s, r0);
}
P1(int *x, struct srcu_struct *s)
{
	int r1;
	r1 = READ_ONCE(*x);
	srcu_up_read(s, r1);
}
P2(int *y, int *z, struct srcu_struct *s)
{
	synchronize_srcu(s);
	WRITE_ONCE(*z, 1);
}
exists (z=1)
`,
	// A reader inside an RCU reader is still quiescent for an SRCU grace
	// period: its store decides whether the grace period waits for it.
	"rcu-inside-srcu-gp": `C rcu-inside-srcu-gp
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	rcu_read_lock();
	WRITE_ONCE(*x, 1);
	r0 = READ_ONCE(*y);
	rcu_read_unlock();
}
P1(int *x, int *y, struct srcu_struct *s)
{
	int r1;
	WRITE_ONCE(*y, 1);
	synchronize_srcu(s);
	r1 = READ_ONCE(*x);
}
P2(int *x, int *y)
{
	synchronize_rcu();
}
exists (0:r0=0 /\ 1:r1=0)
`,
	// Two domains: a section of t does not hold up a grace period of s;
	// a late section of s reads nothing older than its grace period.
	"two-domains": `C two-domains
{}
P0(int *x, int *y, struct srcu_struct *s, struct srcu_struct *t)
{
	int r0;
	int r1;
	int r2;
	r0 = srcu_read_lock(t);
	r1 = READ_ONCE(*x);
	srcu_read_unlock(t, r0);
	r0 = srcu_read_lock(s);
	r2 = READ_ONCE(*y);
	srcu_read_unlock(s, r0);
}
P1(int *x, int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*y, 1);
	synchronize_srcu(s);
	WRITE_ONCE(*x, 1);
}
P2(int *x, struct srcu_struct *t)
{
	int r3;
	synchronize_srcu(t);
	r3 = READ_ONCE(*x);
}
exists (0:r1=1 /\ 0:r2=0)
`,
	// TSO, the grace-period step: P0's start, taken alone as soon as it
	// can, must not be taken before P1 opens a section that may stay
	// open for ever (here P1 sees x=1 and skips its unlock): started
	// after it, the grace period waits for ever, a deadlock.
	"srcu-gp-start-skipped-unlock": `C srcu-gp-start-skipped-unlock
{}
P0(int *x, int *z, struct srcu_struct *s)
{
	WRITE_ONCE(*x, 1);
	synchronize_srcu(s);
	WRITE_ONCE(*z, 1);
}
P1(int *x, struct srcu_struct *s)
{
	int r0;
	int r1;
	r0 = READ_ONCE(*x);
	r1 = srcu_read_lock(s);
	if (r0 == 0)
		srcu_read_unlock(s, r1);
}
exists (1:r0=1 /\ z=1)
`,
	// The same with a spin lock inside the section that P0 holds across
	// its grace period.
	"srcu-gp-start-lock-in-section": `C srcu-gp-start-lock-in-section
{}
P0(int *x, spinlock_t *l, struct srcu_struct *s)
{
	spin_lock(l);
	WRITE_ONCE(*x, 1);
	synchronize_srcu(s);
	spin_unlock(l);
}
P1(int *x, spinlock_t *l, struct srcu_struct *s)
{
	int r0;
	int r1;
	r0 = READ_ONCE(*x);
	if (r0) {
		r1 = srcu_read_lock(s);
		spin_lock(l);
		spin_unlock(l);
		srcu_read_unlock(s, r1);
	}
}
exists (1:r0=0)
`,
	// Bracketed sections, the grace-period start taken alone in TSO: a
	// section opened before the start is waited for, one after is not
	// and may read the old y.
	"srcu-gp-start-bracketed": `C srcu-gp-start-bracketed
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	r0 = READ_ONCE(*x);
	synchronize_srcu(s);
	WRITE_ONCE(*y, 1);
}
P1(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	r0 = srcu_read_lock(s);
	r1 = READ_ONCE(*y);
	WRITE_ONCE(*x, 1);
	srcu_read_unlock(s, r0);
	r0 = srcu_read_lock(s);
	r2 = READ_ONCE(*y);
	srcu_read_unlock(s, r0);
}
exists (0:r0=1 /\ 1:r1=1)
`,
	// ARM-like, the grace-period step: P1 reads y=1, so it opens its
	// section after both of P0's stores committed (the release keeps
	// their order), but before P0's start, and
	// then reads the stale x. A start taken alone while P1, which may
	// still open a section, has a queued invalidation would make P1 owe
	// the grace period and its section late, read after the queue is
	// applied: the outcome would be lost.
	"srcu-gp-start-stale-section": `C srcu-gp-start-stale-section
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(y, 1);
	synchronize_srcu(s);
}
P1(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	r2 = READ_ONCE(*y);
	r0 = srcu_read_lock(s);
	r1 = READ_ONCE(*x);
	srcu_read_unlock(s, r0);
}
exists (1:r2=1 /\ 1:r1=0)
`,
	// ARM-like, srcuStartsWithLocks with a reader inside its outer
	// section whose next move is a nested srcu_read_lock (the twin of
	// srcu-gp-start-stale-section): P1 holds a copy of x, reads y=1, so
	// P0's store to x has queued an invalidation at it and P0 is at its
	// start; the nested section reads the stale x only when it opens
	// before the start, so the two moves are taken together (a start
	// taken first would make P1 owe it a report and open the nested
	// section late).
	"srcu-gp-start-nested-lock": `C srcu-gp-start-nested-lock
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(y, 1);
	synchronize_srcu(s);
}
P1(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	int r3;
	int r4;
	r4 = READ_ONCE(*x);
	r0 = srcu_read_lock(s);
	r2 = READ_ONCE(*y);
	r1 = srcu_read_lock(s);
	r3 = READ_ONCE(*x);
	srcu_read_unlock(s, r1);
	srcu_read_unlock(s, r0);
}
exists (1:r4=0 /\ 1:r2=1 /\ 1:r3=0)
`,
	// ARM-like, srcuStartsWithLocks with a reader whose srcu_read_lock
	// waits for its queue because P0's grace period, already running,
	// waits for its report: P1's start is taken without that lock, which
	// waits for the same report in either order.
	"srcu-gp-start-blocked-lock": `C srcu-gp-start-blocked-lock
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	WRITE_ONCE(*x, 1);
	synchronize_srcu(s);
	r0 = READ_ONCE(*y);
}
P1(int *y, int *z, struct srcu_struct *s)
{
	int r0;
	WRITE_ONCE(*y, 1);
	synchronize_srcu(s);
	r0 = READ_ONCE(*z);
}
P2(int *x, int *z, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	r0 = READ_ONCE(*x);
	r1 = srcu_read_lock(s);
	r2 = READ_ONCE(*x);
	WRITE_ONCE(*z, 1);
	srcu_read_unlock(s, r1);
}
exists (0:r0=0 /\ 1:r0=0 /\ 2:r2=0)
`,
	// ARM-like, srcuStartsWithLocks while another CPU may still start a
	// grace period of the domain: P2 reads z before its synchronize_srcu.
	// P1 reads y=1, so P0's x=1 has committed and its invalidation waits
	// at P1, whose section reads the stale x only when it opens before
	// every start; P2 reads the z=1 P1 stores inside it, so P2 starts
	// after. P1's lock is taken with P0's start (a start taken alone
	// loses the outcome), and an execution in which P2's start came before
	// P1's lock has P0's start go first (the argument's last case). Its
	// reference search is over longCaseStates: the long lane's;
	// TestSRCUStartsWithLocksBeforeLaterStarter pins the set quickly.
	"srcu-gp-start-later-starter": `C srcu-gp-start-later-starter
{}
P0(int *x, int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(y, 1);
	synchronize_srcu(s);
}
P1(int *x, int *y, int *z, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	r1 = READ_ONCE(*y);
	r0 = srcu_read_lock(s);
	r2 = READ_ONCE(*x);
	WRITE_ONCE(*z, 1);
	srcu_read_unlock(s, r0);
}
P2(int *z, struct srcu_struct *s)
{
	int r0;
	r0 = READ_ONCE(*z);
	synchronize_srcu(s);
}
exists (1:r1=1 /\ 1:r2=0 /\ 2:r0=1)
`,
	// ARM-like, srcuStartsWithLocks with a reader inside its section whose
	// nested srcu_read_lock waits for its queue because P0's grace period
	// waits for its report (P2's store to z keeps it from reporting). P1's
	// start is taken without that lock when P0's grace period recorded
	// P2's open section (it then waits for P2 as long as P1's would), and
	// not when P2 opened it after P0's start (P1's would wait longer:
	// until the section closes).
	"srcu-gp-start-blocked-nested-lock": `C srcu-gp-start-blocked-nested-lock
{}
P0(int *x, struct srcu_struct *s)
{
	WRITE_ONCE(*x, 1);
	synchronize_srcu(s);
}
P1(int *y, struct srcu_struct *s)
{
	WRITE_ONCE(*y, 1);
	synchronize_srcu(s);
}
P2(int *x, int *y, int *z, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	int r3;
	WRITE_ONCE(*z, 1);
	r0 = srcu_read_lock(s);
	r1 = READ_ONCE(*y);
	r2 = srcu_read_lock(s);
	r3 = READ_ONCE(*x);
	srcu_read_unlock(s, r2);
	srcu_read_unlock(s, r0);
}
exists (2:r1=0 /\ 2:r3=0)
`,
}

// TestReductionsSRCUCases compares every variant with the reference on
// srcuReductionCases.
func TestReductionsSRCUCases(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	compareCases(t, srcuReductionCases)
}

// reductionRegressions are programs on which a reduction once lost an
// outcome, each against the reference with every variant.
var reductionRegressions = map[string]string{
	// ARM-like, P1's store to x waits for P0's xchg_release to commit
	// (P0 holds the line's reservation), and P1's fully ordered
	// atomic_add_unless can meanwhile run only as a failing read of its
	// stale copy of y (succeeding, it would wait for the store buffer).
	// The CPU-level persistent set took P1's moves alone: that failing
	// read. But P0's commit lets P1's store commit, after which the RMW
	// reads y=1 and succeeds, an outcome no reordering of the set's
	// moves reaches (rule 8 in persistent.go; found by .ci/run's long
	// lane, TestReferenceRandom/rounds/small/8).
	"persistent-cpu-reserved-commit": `C persistent-cpu-reserved-commit
{}
P0(int *x, int *y)
{
	int r0;
	int r1;
	WRITE_ONCE(*y, 1);
	r0 = READ_ONCE(*x);
	r1 = xchg_release(x, 2);
}
P1(int *x, int *y)
{
	int r0;
	WRITE_ONCE(*x, 3);
	r0 = atomic_add_unless(y, 4, 0);
}
exists (0:r0=0 /\ 0:r1=0 /\ 1:r0=1 /\ x=3 /\ y=5)
`,
	// ARM-like, a nested rcu_read_lock (postponeLock) after P0 guessed
	// the branch and issued the then-body's store early: the lock's step
	// folds the branch, which then resolves the other way, so after the
	// lock there is no execution and no next step to take the lock with.
	// Postponed, the lock was never taken and the state before it was
	// reported as a deadlock that the reference does not have (found by
	// .ci/run's long lane, TestReductionsAlone/grace).
	"postponed-lock-wrong-guess": `C postponed-lock-wrong-guess
{}
P0(int *x0, int *x1, int *x2)
{
	int r0;
	int r1;
	rcu_read_lock();
	r0 = READ_ONCE(*x0);
	rcu_read_lock();
	r1 = READ_ONCE(*x1);
	if (r1 != 0) {
		WRITE_ONCE(*x2, 1);
	} else {
		WRITE_ONCE(*x0, 2);
	}
	rcu_read_unlock();
	rcu_read_unlock();
}
P1(int *x0)
{
	synchronize_rcu();
}
exists (0:r0=0)
`,
	// Symmetric store buffering with synchronize_rcu: the outcome
	// registers' valuations (outregs.go) cross moves that write none
	// but are renamed by the automorphism, and moves that write some;
	// update's results, kept by writes and automorphism, once took the
	// first for the second (both "writes at 0") and reached
	// 0:r2=0 /\ 1:r2=0, which the grace periods forbid.
	"sb-rcusync-symmetric": `C sb-rcusync-symmetric
{}
P0(int *x0, int *x1)
{
	int r2;
	WRITE_ONCE(*x0, 2);
	synchronize_rcu();
	r2 = READ_ONCE(*x1);
}
P1(int *x0, int *x1)
{
	int r2;
	WRITE_ONCE(*x1, 2);
	synchronize_rcu();
	r2 = READ_ONCE(*x0);
}
exists (0:r2=0 /\ 1:r2=0)
`,
	// ARM-like, a reserved line's exclusive commit taken alone
	// (reservedCommit) while another CPU may still load the line: the
	// commit is then ordered before P0's store to y (which depends on
	// the RMW's read, so it is not issued early), and P1, reading y=1 and
	// then (after smp_rmb, which applies x's invalidation) x, always
	// finds x=1; the machine lets the exclusive write become visible
	// after the later store, so r0=1 /\ r1=0 is reachable (written
	// against a version of the rule that ignored other CPUs' loads,
	// which lost it).
	"exclusive-commit-read": `C exclusive-commit-read
{}
P0(int *x, int *y)
{
	int r0;
	r0 = xchg_relaxed(x, 1);
	WRITE_ONCE(*y, r0 + 1);
}
P1(int *x, int *y)
{
	int r0;
	int r1;
	r0 = READ_ONCE(*y);
	smp_rmb();
	r1 = READ_ONCE(*x);
}
exists (1:r0=1 /\ 1:r1=0)
`,
	// ARM-like, the same with P1's load of x a cmpxchg that fails on x's
	// latest value (0, while P0's write is pending): a failing cmpxchg is
	// a plain load, which the reservation does not hold up, so the
	// commit may not be taken alone while P1 may still perform it
	// (waitsForReserved; P2's store leaves P1's copy of x stale, as the
	// rule asks). Without the check that the cmpxchg would succeed,
	// r0=1 /\ r1=0 /\ x=1 was lost.
	"exclusive-commit-failing-cmpxchg": `C exclusive-commit-failing-cmpxchg
{}
P0(int *x, int *y)
{
	int r0;
	r0 = xchg_relaxed(x, 1);
	WRITE_ONCE(*y, r0 + 1);
}
P1(int *x, int *y)
{
	int r0;
	int r1;
	r0 = READ_ONCE(*y);
	smp_rmb();
	r1 = cmpxchg_relaxed(x, 7, 8);
}
P2(int *x)
{
	WRITE_ONCE(*x, 0);
}
exists (1:r0=1 /\ 1:r1=0 /\ x=1)
`,
	// TSO, postponed stores with step-level persistent sets: with y=1
	// buffered, P0's store to x is a move only with its load of x (which
	// reads 2); taken with its own commit it becomes one after y's
	// commit, so a set holding P0's store and load but not the commit of
	// y lost every execution in which P0 reads P1's x=3 (found by
	// TestReductionsAlone/grace; LKMM, x86-TSO and herd7's ARMv8 allow
	// it).
	"tso-postponed-commit": `C tso-postponed-commit
{}
P0(int *x, int *y)
{
	int r0;
	smp_store_release(y, 1);
	WRITE_ONCE(*x, 2);
	r0 = READ_ONCE(*x);
}
P1(int *x, int *y)
{
	int r0;
	int r1;
	r0 = READ_ONCE(*x);
	WRITE_ONCE(*x, 3);
	synchronize_rcu();
	r1 = READ_ONCE(*y);
}
exists (0:r0=3 /\ 1:r1=1)
`,
	// ARM-like, the search's key with dead lines: P0 issues its acquire
	// early while its queue is empty, then P1's store to p queues an
	// invalidation at P0. The acquire no longer drains anything, but the
	// key dropped P0's stale copy of p as if it did, so P0's load of p
	// read a value no store wrote and its cmpxchg faulted (found by
	// TestReductionsAlone/readers with deadLines alone).
	"early-acquire-drains-nothing": `C early-acquire-drains-nothing

{
	p = x0;
}

P0(int *x0, int *x1, int **p)
{
	int r0;
	int r1;
	int *r2;
	int r3;
	int r4;

	r0 = READ_ONCE(*x0);
	r1 = smp_load_acquire(x1);
	r2 = rcu_dereference(*p);
	r3 = cmpxchg_acquire(r2, 0, 1);
	r4 = *x1;
}

P1(int *x0, int *x1, int **p)
{
	int *r0;
	int r1;

	WRITE_ONCE(*p, x1);
	r0 = rcu_dereference(*p);
	r1 = READ_ONCE(*r0);
}

P2(int *x0, int *x1)
{
	rcu_read_lock();
	rcu_read_unlock();
}

exists (0:r3=0)
`,
	// Sleep sets with grace-period starts taken alone (sleep.go,
	// "Where"): the classic deadlock of synchronize_rcu() under a lock a
	// reader takes was lost (found on the SRCU variant below by
	// TestReferenceRandom in .ci/run's long lane).
	"sleep-lock-under-gp": `C sleep-lock-under-gp

{
}

P0(int *x, spinlock_t *l)
{
	spin_lock(l);
	synchronize_rcu();
	WRITE_ONCE(*x, 1);
	spin_unlock(l);
}

P1(int *x, spinlock_t *l)
{
	int r0;

	rcu_read_lock();
	spin_lock(l);
	r0 = READ_ONCE(*x);
	spin_unlock(l);
	rcu_read_unlock();
}

exists (1:r0=0)
`,
	"sleep-srcu-rcu-deadlock": `C sleep-srcu-rcu-deadlock

{
}

P0(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*x);
	r1 = xchg(y, 5);
}

P1(int *x, int *y, struct srcu_struct *s)
{
	int r0;
	int r1;
	int r2;
	int r3;

	r0 = srcu_read_lock(s);
	synchronize_rcu();
	r1 = READ_ONCE(*x);
	r2 = xchg(y, 1);
	r3 = xchg(x, 2);
	srcu_read_unlock(s, r0);
}

P2(int *x, int *y, struct srcu_struct *s)
{
	int r0;

	rcu_read_lock();
	synchronize_srcu(s);
	r0 = READ_ONCE(*y);
	rcu_read_unlock();
}

exists (0:r0=0)
`,
	// TSO, the grace-period step: P0's synchronize_rcu() was started
	// alone as soon as its store to x had committed, so P1, seeing x=1,
	// always entered its reader after the start and was never waited
	// for; the deadlock in which P1 enters first and then blocks on the
	// lock P0 holds across its grace period was lost (found in this
	// round while arguing the SRCU start; RCU starts are now taken alone
	// only when no reader can hang, futures.readerCanHang).
	"gp-start-after-data": `C gp-start-after-data
{}
P0(int *x, spinlock_t *l)
{
	spin_lock(l);
	WRITE_ONCE(*x, 1);
	synchronize_rcu();
	spin_unlock(l);
}
P1(int *x, spinlock_t *l)
{
	int r0;
	r0 = READ_ONCE(*x);
	if (r0) {
		rcu_read_lock();
		spin_lock(l);
		spin_unlock(l);
		rcu_read_unlock();
	}
}
exists (1:r0=0)
`,
}

func TestReductionRegressions(t *testing.T) {
	t.Parallel()
	compareCases(t, reductionRegressions)
}

// compareCases compares every variant with the reference on each litmus
// source of cases, in both modes.
func compareCases(t *testing.T, cases map[string]string) {
	t.Helper()
	long := 0
	defer func() {
		if long > 0 {
			t.Logf("%d explorations (a case in a mode) over %d reference states left to -reduction.grace", long, longCaseStates)
		}
	}()
	for name, src := range cases {
		c := compile(t, name, []byte(src))
		for _, mode := range modes {
			m := machine.MustNew(c.Program, mode)
			limit := 1 << 20
			if !*reductionGraceAll {
				limit = longCaseStates
			}
			ref := refExplore(m, limit)
			if !ref.complete {
				if limit < 1<<20 {
					long++
					continue // the long lane's
				}
				t.Fatalf("%s, %s: the reference did not finish", name, mode)
			}
			for _, v := range variants() {
				res := machine.ExploreWithout(m, machine.Options{Workers: 1}, v.off)
				if diff := variantDiff(m, ref, res); diff != "" {
					t.Errorf("%s, %s, %s:\n%s", name, mode, v.name, diff)
				}
			}
		}
	}
}

// TestSRCUStartsWithLocksBeforeLaterStarter pins the state the
// srcu-gp-start-later-starter case is about: P0 at its synchronize_srcu,
// P1 at its srcu_read_lock with x's invalidation queued, and P2, which
// will start a grace period of the same domain, not at its start yet.
// graceStep takes P0's start with P1's lock there (srcuStartsWithLocks,
// its last case); P0's start alone loses P1's stale read of x, and
// giving up leaves the state to the wider sets.
func TestSRCUStartsWithLocksBeforeLaterStarter(t *testing.T) {
	c := compile(t, "srcu-gp-start-later-starter", []byte(srcuReductionCases["srcu-gp-start-later-starter"]))
	m := machine.MustNew(c.Program, machine.ARM)
	s := applyIDs(t, m, []string{"P0 exec", "P0 exec", "P0 commit #0", "P0 commit #1", "P1 inv y", "P1 exec"})
	ids, ok := graceSetIDs(m, s)
	if want := []string{"P0 exec", "P1 exec"}; !ok || !slices.Equal(ids, want) {
		t.Fatalf("graceStep takes %v (taken: %v), want %v", ids, ok, want)
	}
}

// TestSRCUStartsWithBlockedNestedLock pins srcuStartsWithLocks' choice
// for a reader inside its section while a running grace period waits for
// its report (the srcu-gp-start-blocked-nested-lock case): P1's start is
// taken without the reader when that grace period recorded the reader's
// open section, whether the reader's next move is its nested
// srcu_read_lock, which waits for its queue, or a load before it; and
// not when the section opened after that grace period started.
func TestSRCUStartsWithBlockedNestedLock(t *testing.T) {
	c := compile(t, "srcu-gp-start-blocked-nested-lock", []byte(srcuReductionCases["srcu-gp-start-blocked-nested-lock"]))
	m := machine.MustNew(c.Program, machine.ARM)
	recorded := []string{"P2 exec", "P2 exec", "P0 exec", "P0 commit #0", "P0 exec", "P1 inv x", "P1 exec", "P1 commit #0"}
	late := []string{"P2 exec", "P0 exec", "P0 commit #0", "P2 inv x", "P0 exec", "P2 exec", "P1 inv x", "P1 exec", "P1 commit #0"}
	for _, tc := range []struct {
		name    string
		steps   []string
		blocked bool // P2 is at its nested lock, which waits
		want    []string
	}{
		{"section recorded, at the nested lock", append(slices.Clone(recorded), "P2 exec"), true, []string{"P1 exec"}},
		{"section recorded, before the nested lock", recorded, false, []string{"P1 exec"}},
		{"section opened late, at the nested lock", append(slices.Clone(late), "P2 exec"), true, nil},
		{"section opened late, before the nested lock", late, false, nil},
	} {
		s := applyIDs(t, m, tc.steps)
		if st, _ := m.ParseID("P2 exec"); m.IsEnabled(s, st) == tc.blocked {
			t.Fatalf("%s: P2's next step enabled: %v, the case wants %v", tc.name, tc.blocked, !tc.blocked)
		}
		ids, ok := graceSetIDs(m, s)
		if ok != (tc.want != nil) || !slices.Equal(ids, tc.want) {
			t.Errorf("%s: graceStep takes %v (taken: %v), want %v", tc.name, ids, ok, tc.want)
		}
	}
}

// applyIDs takes the steps named by ids (Machine.ParseID) from m's
// initial state and returns the state they lead to.
func applyIDs(t *testing.T, m *machine.Machine, ids []string) *machine.State {
	t.Helper()
	s := m.Initial()
	for _, id := range ids {
		st, err := m.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		if s, _, err = m.Apply(s, st); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	return s
}

// graceSetIDs is machine.GraceSet with the steps named.
func graceSetIDs(m *machine.Machine, s *machine.State) ([]string, bool) {
	steps, ok := machine.GraceSet(m, s)
	var ids []string
	for _, st := range steps {
		ids = append(ids, m.ID(st))
	}
	return ids, ok
}

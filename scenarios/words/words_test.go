package words_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
)

// Tests of the explanations of steps (issue 13: every instruction a step
// performs gets its sentence, every barrier says what it does, a read says
// its cause). Each drives a litmus test step by step by step identity and
// checks the typed facts of the events and the key phrases of their text.

type explainer struct {
	t      *testing.T
	m      *machine.Machine
	c      *scenarios.Compiled
	s      *machine.State
	events []machine.Event
}

func explainRun(t *testing.T, mode machine.Mode, src string) *explainer {
	t.Helper()
	c := compile(t, "explain", []byte(src))
	m := machine.MustNew(c.Program, mode)
	return &explainer{t: t, m: m, c: c, s: m.Initial()}
}

func (x *explainer) do(id string) machine.Event {
	x.t.Helper()
	st, err := x.m.ParseID(id)
	if err != nil {
		x.t.Fatal(err)
	}
	n, ev, err := x.m.Apply(x.s, st)
	if err != nil {
		var ids []string
		for _, e := range x.m.Enabled(x.s) {
			ids = append(ids, x.m.ID(e))
		}
		x.t.Fatalf("%s: %v (enabled: %v)", id, err, ids)
	}
	x.s = n
	x.events = append(x.events, ev)
	return ev
}

// reason returns CPU c's blocked reason, failing if it is not blocked.
func (x *explainer) reason(c int) string {
	x.t.Helper()
	w := x.m.Wait(x.s, c)
	if !w.Blocked() {
		x.t.Fatalf("P%d is not blocked: %+v", c, w)
	}
	return words.Wait(x.m.Prog, &w, words.Full)
}

// text is the words of an event.
func text(m *machine.Machine, ev machine.Event) string { return words.Event(m, &ev) }

var modes = []machine.Mode{machine.TSO, machine.ARM}

// compile parses and compiles litmus source.
func compile(t testing.TB, name string, src []byte) *scenarios.Compiled {
	t.Helper()
	s, err := scenarios.Parse(name, src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	c, err := scenarios.Compile(s)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return c
}

func (x *explainer) loc(name string) machine.Loc {
	x.t.Helper()
	l, ok := x.c.Loc(name)
	if !ok {
		x.t.Fatalf("no location %s", name)
	}
	return l
}

// has fails unless text contains every phrase.
func has(t *testing.T, text string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		if !strings.Contains(text, p) {
			t.Errorf("missing %q in:\n%s", p, text)
		}
	}
}

func hasNot(t *testing.T, text string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		if strings.Contains(text, p) {
			t.Errorf("unexpected %q in:\n%s", p, text)
		}
	}
}

func entries(m *machine.Machine, es []machine.SBEntry) string {
	var out []string
	for _, e := range es {
		out = append(out, m.Prog.LocName(e.Loc)+"="+m.Prog.FormatValue(e.Val))
	}
	return strings.Join(out, " ")
}

func locs(m *machine.Machine, ls []machine.Loc) string {
	var out []string
	for _, l := range ls {
		out = append(out, m.Prog.LocName(l))
	}
	return strings.Join(out, " ")
}

func foldKinds(ev machine.Event) []machine.FactKind {
	var ks []machine.FactKind
	for _, f := range ev.Folds {
		ks = append(ks, f.Kind)
	}
	return ks
}

const sbSrc = `C sb
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r1; WRITE_ONCE(*y, 1); r1 = READ_ONCE(*x); }
exists (0:r0=0 /\ 1:r1=0)`

func TestExplainOwnBufferedStore(t *testing.T) {
	for _, mode := range modes {
		x := explainRun(t, mode, sbSrc)
		x.do("P0 exec")
		ev := x.do("P0 exec")
		if ev.Load == nil || entries(x.m, ev.Load.OwnBuffered) != "x=1" {
			t.Fatalf("%s: SB read of y must name the buffered x=1: %+v", mode, ev.Load)
		}
		has(t, text(x.m, ev), "P0 executes r0 = READ_ONCE(*y).", "its own earlier store x=1 is still in its store buffer", "store→load reordering")
		// Once x=1 has committed nothing of P1's own is buffered.
		x.do("P1 exec")
		x.do("P1 commit #0")
		ev = x.do("P1 exec")
		if got := entries(x.m, ev.Load.OwnBuffered); got != "" {
			t.Errorf("%s: nothing is buffered at P1, got %q", mode, got)
		}
		hasNot(t, text(x.m, ev), "store→load")
	}
}

func TestExplainOwnBufferedNotForwardedNorLater(t *testing.T) {
	// A forwarded read is not reordered with its own store; a store
	// issued early after the load is no earlier store.
	x := explainRun(t, machine.ARM, `C fwd
{}
P0(int *x, int *y) { int r0; int r1; WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 2); r0 = READ_ONCE(*x); r1 = READ_ONCE(*y); }
P1(int *x, int *z) { int r2; r2 = READ_ONCE(*x); WRITE_ONCE(*z, 1); }
exists (0:r0=1)`)
	x.do("P0 exec")
	x.do("P0 exec")
	ev := x.do("P0 exec")
	if ev.Load.Class != machine.Forwarded || len(ev.Load.OwnBuffered) != 0 {
		t.Fatalf("forwarded read: %+v", ev.Load)
	}
	has(t, text(x.m, ev), "forwarded from its own store buffer")
	hasNot(t, text(x.m, ev), "store→load")

	ev = x.do("P1 early #1")
	if len(ev.Skipped) != 1 || ev.Skipped[0] != 0 {
		t.Fatalf("early store skipped %v, want [0]", ev.Skipped)
	}
	has(t, text(x.m, ev), "P1 issues WRITE_ONCE(*z, 1) early, ahead of r2 = READ_ONCE(*x), which it does not depend on.", "z=1 goes into its store buffer")
	ev = x.do("P1 exec")
	if len(ev.Load.OwnBuffered) != 0 {
		t.Errorf("a store after the load in program order counted as earlier: %v", entries(x.m, ev.Load.OwnBuffered))
	}
}

func TestExplainArrivedAfterBarrier(t *testing.T) {
	for _, tc := range []struct {
		name, p1, barrier string
		first             string // P1's steps until the barrier has passed
	}{
		{"rmb", "r0 = READ_ONCE(*y); smp_rmb(); r1 = READ_ONCE(*x);", "smp_rmb()", "P1 exec"},
		{"mb", "r0 = READ_ONCE(*y); smp_mb(); r1 = READ_ONCE(*x);", "smp_mb()", "P1 exec"},
		{"acquire", "r0 = smp_load_acquire(y); r1 = READ_ONCE(*x);", "r0 = smp_load_acquire(y)", "P1 exec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `C late
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); smp_wmb(); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; ` + tc.p1 + ` }
exists (1:r1=0)`
			for _, mode := range modes {
				x := explainRun(t, mode, src)
				x.do(tc.first) // P1 reads y=0 and passes its barrier (step 1)
				x.do("P0 exec")
				x.do("P0 commit #0") // step 3: x=1 commits
				ev := x.do("P1 exec")
				late := ev.Load.ArrivedAfterBarrier
				if mode == machine.TSO {
					if ev.Load.Class == machine.Stale || late != nil {
						t.Fatalf("TSO has no stale reads: %+v", ev.Load)
					}
					continue
				}
				if ev.Load.Class != machine.Stale || late == nil {
					t.Fatalf("ARM: want a stale read of x after the barrier: %+v", ev.Load)
				}
				if late.Arrived != 3 || x.m.Prog.Threads[1].Code[late.Barrier].Text == "" {
					t.Errorf("late invalidation %+v, want arrival at step 3", late)
				}
				if got := machine.InstrStep(x.events, 1, late.Barrier); got != 1 {
					t.Errorf("the barrier ran at step %d, want 1", got)
				}
				has(t, text(x.m, ev), "STALE", "The invalidation of x arrived at step 3, after P1's "+tc.barrier+" had passed", "could not prevent this stale read")
				if strings.Count(text(x.m, ev), "STALE") != 1 {
					t.Errorf("the classification must be stated once:\n%s", text(x.m, ev))
				}
			}
		})
	}
	// Without a barrier a stale read has no such fact.
	x := explainRun(t, machine.ARM, `C mp
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); }
exists (1:r1=0)`)
	x.do("P0 exec")
	x.do("P0 commit #0")
	x.do("P1 exec")
	ev := x.do("P1 exec")
	if ev.Load.Class != machine.Stale || ev.Load.ArrivedAfterBarrier != nil {
		t.Fatalf("plain MP stale read: %+v", ev.Load)
	}
	hasNot(t, text(x.m, ev), "barrier")
}

func TestExplainFoldedIfAndRCU(t *testing.T) {
	src := `C fold
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
P1(int *x, int *y) { int r0; int r1; rcu_read_lock(); r0 = READ_ONCE(*x); if (r0) { r1 = r0 + 1; } else { r1 = 7; } rcu_read_unlock(); WRITE_ONCE(*y, r1); }
exists (1:r1=2)`
	for _, mode := range modes {
		// Taken: the then branch runs, the else is skipped.
		x := explainRun(t, mode, src)
		x.do("P0 exec")
		x.do("P0 commit #0")
		if mode == machine.ARM {
			x.do("P1 inv x")
		}
		ev := x.do("P1 exec")
		want := []machine.FactKind{machine.FactBranch, machine.FactAssign, machine.FactElse, machine.FactRCUUnlock}
		if !slices.Equal(foldKinds(ev), want) {
			t.Fatalf("%s: folds %v, want %v", mode, foldKinds(ev), want)
		}
		if !ev.Folds[0].Taken || ev.Folds[1].Val != 2 {
			t.Errorf("%s: folds %+v", mode, ev.Folds)
		}
		has(t, text(x.m, ev), "if (r0): r0 = 1, so the if is taken.", "r1 = r0 + 1: r1 is now 2.", "else: skipped, because the if was taken.", "rcu_read_unlock(): P1 leaves its RCU read-side critical section.")
		if len(ev.Folded) != len(ev.Folds) {
			t.Errorf("Folded %v and Folds %d differ", ev.Folded, len(ev.Folds))
		}

		// Not taken: the else branch runs.
		x = explainRun(t, mode, src)
		ev = x.do("P1 exec")
		if k := foldKinds(ev); len(k) < 2 || k[0] != machine.FactBranch || ev.Folds[0].Taken || k[1] != machine.FactAssign || ev.Folds[1].Val != 7 {
			t.Fatalf("%s: folds %+v", mode, ev.Folds)
		}
		has(t, text(x.m, ev), "r0 = 0, so the if is not taken; the else branch runs.", "r1 = 7: r1 is now 7.")
		// With no synchronize_rcu, rcu_read_lock folds into the initial
		// state; the initial state has no event, so it is not told here.
	}
}

func TestExplainRCUStepsAndGracePeriod(t *testing.T) {
	src := `C gp
{}
P0(int *x, int *y) { int r0; rcu_read_lock(); r0 = READ_ONCE(*x); rcu_read_unlock(); }
P1(int *x) { WRITE_ONCE(*x, 1); synchronize_rcu(); }
exists (0:r0=1)`
	for _, mode := range modes {
		x := explainRun(t, mode, src)
		ev := x.do("P0 exec")
		if ev.Instr != 0 {
			t.Fatalf("rcu_read_lock is a step of its own with synchronize_rcu: %+v", ev)
		}
		has(t, text(x.m, ev), "P0 executes rcu_read_lock(): it enters an RCU read-side critical section.")
		x.do("P1 exec")
		has(t, x.reason(1), "synchronize_rcu waits for 1 store-buffer entry (x=1) to commit")
		x.do("P1 commit #0")
		ev = x.do("P1 exec")
		if !ev.GPStart {
			t.Fatalf("%s: want the grace period start: %+v", mode, ev)
		}
		has(t, text(x.m, ev), "P1 starts synchronize_rcu().", "so the full barrier at its start passes.", "A grace period begins: every CPU, P1 included, must report a quiescent state.")
		has(t, x.reason(1), "synchronize_rcu waits for a quiescent state from P0 (inside an RCU read-side critical section), P1")
		ev = x.do("P1 qs")
		has(t, text(x.m, ev), "P1 reports a quiescent state to its own synchronize_rcu(): it is outside any RCU read-side critical section", "That grace period still waits for P0.")
		if mode == machine.ARM {
			x.do("P0 inv x")
		}
		ev = x.do("P0 exec")
		has(t, text(x.m, ev), "rcu_read_unlock(): P0 leaves its RCU read-side critical section.")
		ev = x.do("P0 qs")
		has(t, text(x.m, ev), "That grace period has every report it needs: P1 can finish synchronize_rcu().")
		ev = x.do("P1 exec")
		if !ev.GPEnd {
			t.Fatalf("%s: want the grace period end: %+v", mode, ev)
		}
		has(t, text(x.m, ev), "P1 finishes synchronize_rcu(): every CPU has reported a quiescent state.", "so the full barrier at its end passes.")
	}
}

// A CPU with no read-side section reports with its store still
// buffered, and the words say so rather than claim an empty buffer.
func TestExplainUndrainedReport(t *testing.T) {
	src := `C sb-gp
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); synchronize_rcu(); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r1; WRITE_ONCE(*y, 1); r1 = READ_ONCE(*x); }
exists (0:r0=0 /\ 1:r1=0)`
	for _, mode := range modes {
		x := explainRun(t, mode, src)
		x.do("P1 exec")
		x.do("P0 exec")
		x.do("P0 commit #0")
		x.do("P0 exec")
		ev := x.do("P1 qs")
		has(t, text(x.m, ev), "P1 reports a quiescent state to P0's synchronize_rcu() with 1 store still in its store buffer", "its program has no RCU read-side critical section")
		if strings.Contains(text(x.m, ev), "store buffer is empty") || strings.Contains(text(x.m, ev), "are empty") {
			t.Errorf("%s: the report claims an empty buffer: %s", mode, text(x.m, ev))
		}
	}
}

func TestExplainSRCUFolds(t *testing.T) {
	x := explainRun(t, machine.ARM, `C srcu
{}
P0(struct srcu_struct *s, int *x) { int r0; int idx; WRITE_ONCE(*x, 1); idx = srcu_read_lock(s); r0 = READ_ONCE(*x); srcu_read_unlock(s, idx); }
exists (0:r0=1)`)
	ev := x.do("P0 exec")
	if k := foldKinds(ev); !slices.Equal(k, []machine.FactKind{machine.FactSRCULock}) {
		t.Fatalf("folds %v", k)
	}
	has(t, text(x.m, ev), "idx = srcu_read_lock(s): P0 enters an SRCU read-side section of s; the index is 0.")
	ev = x.do("P0 exec")
	if k := foldKinds(ev); !slices.Equal(k, []machine.FactKind{machine.FactSRCUUnlock}) {
		t.Fatalf("folds %v", k)
	}
	has(t, text(x.m, ev), "srcu_read_unlock(s, idx): P0 leaves its SRCU read-side section of s.")
}

// An unlock whose index came from no srcu_read_lock closes nothing: LKMM
// counts the execution (herd7 flags the unlock unmatched), so the machine
// does not fault; and a lock whose index reaches no unlock opens nothing.
func TestExplainSRCUUnmatched(t *testing.T) {
	x := explainRun(t, machine.TSO, `C srcu-unmatched
{}
P0(struct srcu_struct *s, int *x) { int r0; int r1; r0 = READ_ONCE(*x); srcu_read_unlock(s, r0); r1 = srcu_read_lock(s); r0 = READ_ONCE(*x); }
exists (0:r0=0)`)
	ev := x.do("P0 exec")
	if k := foldKinds(ev); !slices.Equal(k, []machine.FactKind{machine.FactSRCUUnlock, machine.FactSRCULock}) {
		t.Fatalf("folds %v", k)
	}
	has(t, text(x.m, ev), "srcu_read_unlock(s, r0): its index comes from no open SRCU read-side section of s, so it closes none",
		"r1 = srcu_read_lock(s): its index reaches no srcu_read_unlock of s, so it opens no section (LKMM pairs it with none); the index is 0.")
	if _, f := x.m.Fault(x.s); f {
		t.Fatal("an unmatched unlock must not fault")
	}
}

func TestExplainNoEffectFences(t *testing.T) {
	src := `C noop
{}
P0(int *x, int *y) { int r0; r0 = READ_ONCE(*x); smp_rmb(); smp_wmb(); smp_mb__before_atomic(); smp_mb__after_unlock_lock(); barrier(); WRITE_ONCE(*y, 1); }
exists (0:r0=0)`
	x := explainRun(t, machine.TSO, src)
	ev := x.do("P0 exec")
	want := []machine.FactKind{machine.FactNoEffect, machine.FactNoEffect, machine.FactNoEffect, machine.FactNoEffect, machine.FactNoEffect}
	if !slices.Equal(foldKinds(ev), want) {
		t.Fatalf("TSO folds %v, want %v", foldKinds(ev), want)
	}
	has(t, text(x.m, ev), "smp_rmb() has no effect in TSO mode: loads are never reordered with other loads.",
		"smp_wmb() has no effect in TSO mode: stores already commit in program order.",
		"smp_mb__before_atomic() has no effect in TSO mode: every atomic RMW is already a full barrier.",
		"smp_mb__after_unlock_lock() has no effect in TSO mode",
		"barrier() has no effect on the hardware")

	x = explainRun(t, machine.ARM, src)
	ev = x.do("P0 exec")
	// smp_rmb and smp_mb__before_atomic pass at once (empty queue and
	// buffer); smp_wmb orders nothing (empty buffer).
	want = []machine.FactKind{machine.FactPassed, machine.FactWmb, machine.FactPassed, machine.FactNoEffect, machine.FactNoEffect}
	if !slices.Equal(foldKinds(ev), want) {
		t.Fatalf("ARM folds %v, want %v", foldKinds(ev), want)
	}
	if len(ev.Folds[1].Stores) != 0 {
		t.Errorf("smp_wmb with an empty buffer names stores %v", ev.Folds[1].Stores)
	}
	has(t, text(x.m, ev), "smp_rmb(): its invalidation queue is already empty, so it passes at once: later reads cannot be satisfied from copies that were stale when it ran.",
		"smp_wmb(): every earlier store of P0 has committed, so it orders nothing yet.",
		"smp_mb__before_atomic(): its store buffer and invalidation queue are already empty, so it passes at once",
		"smp_mb__after_unlock_lock() has no effect: an unlock followed by a lock is already ordered")
}

const mpFencedSrc = `C mp-wmb-rmb
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); smp_wmb(); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); smp_rmb(); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\ 1:r1=0)`

func TestExplainWmb(t *testing.T) {
	x := explainRun(t, machine.ARM, mpFencedSrc)
	ev := x.do("P0 exec")
	if len(ev.Folds) != 1 || ev.Folds[0].Kind != machine.FactWmb || entries(x.m, ev.Folds[0].Stores) != "x=1" {
		t.Fatalf("smp_wmb fold: %+v", ev.Folds)
	}
	has(t, text(x.m, ev), "P0 executes WRITE_ONCE(*x, 1). x=1 goes into its store buffer; no other CPU can see it yet.",
		"smp_wmb(): wmb marker placed after x=1, so no later store of P0 can commit before x=1.")
	ev = x.do("P0 exec")
	if entries(x.m, ev.Behind) != "x=1" {
		t.Fatalf("y=1 is behind %q, want x=1", entries(x.m, ev.Behind))
	}
	has(t, text(x.m, ev), "The wmb marker ahead of it means y=1 cannot commit before x=1.")
	ev = x.do("P0 commit #0")
	if entries(x.m, ev.Freed) != "y=1" {
		t.Fatalf("freed %q, want y=1", entries(x.m, ev.Freed))
	}
	has(t, text(x.m, ev), "The wmb marker ahead of y=1 is gone: it may now commit.")

	x = explainRun(t, machine.TSO, mpFencedSrc)
	x.do("P0 exec")
	ev = x.do("P0 exec")
	if len(ev.Behind) != 0 {
		t.Errorf("TSO: no marker, nothing behind: %v", ev.Behind)
	}
	hasNot(t, text(x.m, ev), "wmb marker")
}

func TestExplainRmb(t *testing.T) {
	x := explainRun(t, machine.ARM, mpFencedSrc)
	x.do("P0 exec")
	x.do("P0 commit #0") // invalidation of x queued at P1
	ev := x.do("P1 exec")
	if len(ev.Folds) != 0 {
		t.Fatalf("smp_rmb must not fold with a queued invalidation: %+v", ev.Folds)
	}
	has(t, x.reason(1), "smp_rmb waits for 1 queued invalidation (x) to be applied")
	if w := x.m.Wait(x.s, 1); words.Wait(x.m.Prog, &w, words.Brief) != "smp_rmb waits for 1 queued invalidation" {
		t.Errorf("brief reason %q", words.Wait(x.m.Prog, &w, words.Brief))
	}
	x.do("P1 inv x")
	ev = x.do("P1 exec")
	if ev.Fact == nil || ev.Fact.Kind != machine.FactPassed {
		t.Fatalf("smp_rmb step: %+v", ev.Fact)
	}
	has(t, text(x.m, ev), "P1 executes smp_rmb(): its invalidation queue is empty, so it passes: later reads cannot be satisfied from copies that were stale when it ran.")
	hasNot(t, text(x.m, ev), "already")
}

func TestExplainMb(t *testing.T) {
	src := `C sb-mb
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); smp_mb(); r0 = READ_ONCE(*y); }
P1(int *x, int *y) { int r1; WRITE_ONCE(*y, 1); smp_mb(); r1 = READ_ONCE(*x); }
exists (0:r0=0 /\ 1:r1=0)`
	for _, mode := range modes {
		x := explainRun(t, mode, src)
		x.do("P0 exec")
		has(t, x.reason(0), "smp_mb waits for 1 store-buffer entry (x=1) to commit")
		x.do("P1 exec")
		x.do("P1 commit #0")
		if mode == machine.ARM {
			has(t, x.reason(0), "smp_mb waits for 1 store-buffer entry (x=1) to commit and 1 queued invalidation (y) to be applied")
			x.do("P0 commit #0")
			has(t, x.reason(0), "smp_mb waits for 1 queued invalidation (y) to be applied")
			x.do("P0 inv y")
		} else {
			x.do("P0 commit #0")
		}
		ev := x.do("P0 exec")
		if ev.Fact == nil || ev.Fact.Kind != machine.FactPassed {
			t.Fatalf("%s: smp_mb step %+v", mode, ev)
		}
		if mode == machine.TSO {
			has(t, text(x.m, ev), "P0 executes smp_mb(): its store buffer is empty, so it passes: every earlier store has committed before any later load.")
		} else {
			has(t, text(x.m, ev), "P0 executes smp_mb(): its store buffer and invalidation queue are empty, so it passes")
		}
	}
}

func TestExplainReleaseAcquire(t *testing.T) {
	src := `C rel-acq
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 2); smp_store_release(x, 1); r0 = smp_load_acquire(y); }
P1(int *y) { WRITE_ONCE(*y, 1); }
exists (0:r0=0)`
	x := explainRun(t, machine.ARM, src)
	x.do("P1 exec")
	x.do("P1 commit #0") // invalidation of y queued at P0
	x.do("P0 exec")
	ev := x.do("P0 exec")
	if entries(x.m, ev.Behind) != "x=2" {
		t.Fatalf("release behind %q", entries(x.m, ev.Behind))
	}
	has(t, text(x.m, ev), "It is a release: it may commit only after every earlier entry (x=2).")
	has(t, x.reason(0), "smp_load_acquire waits for its earlier release store x=1 to commit")
	x.do("P0 commit #0")
	ev = x.do("P0 commit #1")
	if locs(x.m, ev.Marked) != "y" {
		t.Fatalf("release commit marked %q, want y", locs(x.m, ev.Marked))
	}
	has(t, text(x.m, ev), "P0 commits the release store x=1", "As a release, it marks the invalidation queued at P0 (y): a later acquire of P0 applies it before it reads.")
	ev = x.do("P0 exec")
	if len(ev.Applied) != 1 || ev.Applied[0].Loc != x.loc("y") || ev.Applied[0].Cause != machine.ApplyAcquire || ev.Load.Val != 1 {
		t.Fatalf("acquire: applied %v, read %+v", ev.Applied, ev.Load)
	}
	has(t, text(x.m, ev), "As an acquire, it first applies the 1 invalidation marked by its release (y)", "It reads y=1 on a cache miss: up to date.")

	x = explainRun(t, machine.TSO, src)
	x.do("P0 exec")
	ev = x.do("P0 exec")
	has(t, text(x.m, ev), "In TSO mode the store buffer commits in order, so every store is already a release.")
	x.do("P0 commit #0")
	x.do("P0 commit #1")
	ev = x.do("P0 exec")
	has(t, text(x.m, ev), "In TSO mode an acquire is an ordinary load")
}

func TestExplainAcquireWait(t *testing.T) {
	x := explainRun(t, machine.ARM, `C acq-wait
{}
P0(int *x) { WRITE_ONCE(*x, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = smp_load_acquire(y); r1 = READ_ONCE(*x); }
exists (1:r1=0)`)
	x.do("P0 exec")
	x.do("P0 commit #0")
	ev := x.do("P1 exec")
	if locs(x.m, ev.AcqWait) != "x" {
		t.Fatalf("acquire wait %v", ev.AcqWait)
	}
	has(t, text(x.m, ev), "Its invalidation queue still holds x: as after every acquire, P1 may not execute its next instruction until it has applied it.")
	has(t, x.reason(1), "after an acquire, waits for 1 queued invalidation (x) to be applied before its next instruction")
}

func TestExplainRMWs(t *testing.T) {
	src := `C rmw
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = xchg(y, 1); }
P1(int *x, int *y) { int r1; r1 = xchg_relaxed(x, 2); }
exists (0:r0=0)`
	for _, mode := range modes {
		x := explainRun(t, mode, src)
		x.do("P0 exec")
		if mode == machine.TSO {
			has(t, x.reason(0), "locked instruction waits for 1 store-buffer entry (x=1) to commit")
		} else {
			has(t, x.reason(0), "fully ordered RMW waits for 1 store-buffer entry (x=1) to commit")
		}
		ev := x.do("P1 exec")
		if mode == machine.TSO {
			has(t, text(x.m, ev), "this locked instruction reads and writes the line at once, a full barrier", "x=2 is written to its cache at once")
			continue
		}
		has(t, text(x.m, ev), "It reads x=0 from its cache: up to date", "x=2 goes into its store buffer as an exclusive entry: until it commits, x is reserved")
		has(t, x.reason(0), "fully ordered RMW waits for 1 store-buffer entry (x=1) to commit")
		ev = x.do("P1 commit #0")
		has(t, text(x.m, ev), "P1 commits the exclusive store x=2", "The exclusive write is done: x is no longer reserved.")
		ev = x.do("P0 commit #0")
		if len(ev.Applied) != 1 || ev.Applied[0].Loc != x.loc("x") || ev.Applied[0].Cause != machine.ApplyOwn {
			t.Fatalf("P0's commit of x must apply its queued invalidation of x: %v", ev.Applied)
		}
		has(t, text(x.m, ev), "It first applies its own queued invalidation of x: a CPU never writes over a stale copy.")
		ev = x.do("P0 exec")
		has(t, text(x.m, ev), "Its store buffer and invalidation queue are empty, so this fully ordered RMW is a full barrier before and after.", "y=1 is written to its cache at once")
	}
}

func TestExplainReleaseRMWMarks(t *testing.T) {
	x := explainRun(t, machine.ARM, `C xchg-rel
{}
P0(int *x, int *y) { int r0; int r1; r0 = xchg_release(x, 1); r1 = smp_load_acquire(y); }
P1(int *y) { WRITE_ONCE(*y, 1); }
exists (0:r1=0)`)
	x.do("P1 exec")
	x.do("P1 commit #0")
	ev := x.do("P0 exec")
	has(t, text(x.m, ev), "this release RMW reads and then writes after every earlier access", "x=1 goes into its store buffer as an exclusive release entry")
	// Its write is a release entry: its commit marks the queue.
	ev = x.do("P0 commit #0")
	if locs(x.m, ev.Marked) != "y" {
		t.Fatalf("release RMW marked %v", ev.Marked)
	}
	has(t, text(x.m, ev), "The exclusive write is done: x is no longer reserved.", "As a release, it marks the invalidation queued at P0 (y)")
}

func TestExplainFailedCmpxchg(t *testing.T) {
	src := `C cmpxchg-fail
{}
P0(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = cmpxchg(x, 1, 2); }
exists (0:r0=0)`
	for _, mode := range modes {
		x := explainRun(t, mode, src)
		x.do("P0 exec")
		if mode == machine.TSO {
			x.do("P0 commit #0")
		}
		ev := x.do("P0 exec")
		if !ev.Failed {
			t.Fatalf("%s: cmpxchg must fail: %+v", mode, ev)
		}
		has(t, text(x.m, ev), "It fails: x=0 is not the expected 1, so nothing is written.")
		if mode == machine.ARM {
			has(t, text(x.m, ev), "A failed cmpxchg is a plain load: it orders nothing.")
			if entries(x.m, ev.Load.OwnBuffered) != "y=1" {
				t.Errorf("the failed cmpxchg reads while y=1 is buffered: %+v", ev.Load)
			}
		} else {
			hasNot(t, text(x.m, ev), "plain load")
		}
	}
}

func TestExplainLocks(t *testing.T) {
	src := `C locks
{}
P0(spinlock_t *l, int *x) { spin_lock(l); WRITE_ONCE(*x, 1); spin_unlock(l); }
P1(spinlock_t *l) { int r0; r0 = spin_trylock(l); }
exists (1:r0=0)`
	// ARM: a trylock while the lock's exclusive store is pending fails.
	x := explainRun(t, machine.ARM, src)
	x.do("P0 exec")
	ev := x.do("P1 exec")
	if !ev.Failed {
		t.Fatalf("trylock on a reserved lock must fail: %+v", ev)
	}
	has(t, text(x.m, ev), "It fails: P0 is taking l (its exclusive store to it is pending), so it returns 0.")
	for _, mode := range modes {
		x := explainRun(t, mode, src)
		ev := x.do("P0 exec")
		if mode == machine.TSO {
			has(t, text(x.m, ev), "Its store buffer is empty and l is free, so this locked instruction takes the lock", "l=1 is written to its cache at once")
		} else {
			has(t, text(x.m, ev), "The lock l is free, so it takes it with an acquire, exclusive RMW.", "l=1 goes into its store buffer as an exclusive entry")
			x.do("P0 commit #0")
		}
		ev = x.do("P1 exec")
		if !ev.Failed {
			t.Fatalf("%s: trylock must fail: %+v", mode, ev)
		}
		has(t, text(x.m, ev), "It fails: l is held, so it returns 0.")
		if mode == machine.ARM {
			has(t, text(x.m, ev), "A failed spin_trylock is a plain load: it orders nothing.")
		}
		x.do("P0 exec")
		ev = x.do("P0 exec")
		if mode == machine.ARM {
			has(t, text(x.m, ev), "l=0 goes into its store buffer", "It is a release: it may commit only after every earlier entry (x=1).")
		}
	}
}

// TestExplainLibrary walks random executions of every library scenario in
// both modes and checks what every explanation must satisfy: it is there,
// states each sentence once, gives every folded instruction a person wrote
// its sentence, and is plain text (ASCII, the arrow aside).
func TestExplainLibrary(t *testing.T) {
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lib {
		c, err := scenarios.Compile(e.Scenario)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		for _, mode := range modes {
			m := machine.MustNew(c.Program, mode)
			for seed := int64(0); seed < 4; seed++ {
				rng := rand.New(rand.NewSource(seed))
				s := m.Initial()
				for n := 0; n < 200; n++ {
					steps := m.Enabled(s)
					if len(steps) == 0 {
						break
					}
					st := steps[rng.Intn(len(steps))]
					next, ev, err := m.Apply(s, st)
					if err != nil {
						t.Fatal(err)
					}
					checkExplanation(t, e.Name+" "+mode.String(), m, ev)
					for cpu := 0; cpu < next.NumCPUs(); cpu++ {
						if w := m.Wait(next, cpu); w.Blocked() && words.Wait(m.Prog, &w, words.Full) == "" {
							t.Errorf("%s %s: P%d blocked without a reason", e.Name, mode, cpu)
						}
					}
					s = next
				}
			}
		}
	}
}

func checkExplanation(t *testing.T, where string, m *machine.Machine, ev machine.Event) {
	t.Helper()
	if text(m, ev) == "" {
		t.Errorf("%s: %s has no text", where, m.ID(ev.Step))
		return
	}
	seen := map[string]bool{}
	for _, s := range strings.SplitAfter(text(m, ev), ". ") {
		s = strings.TrimSpace(s)
		if seen[s] {
			t.Errorf("%s: sentence %q repeated in:\n%s", where, s, text(m, ev))
		}
		seen[s] = true
	}
	for _, r := range text(m, ev) {
		if r > unicode.MaxASCII && r != '→' {
			t.Errorf("%s: non-ASCII %q in:\n%s", where, r, text(m, ev))
		}
	}
	if len(ev.Folds) != len(ev.Folded) {
		t.Errorf("%s: %d folds for %d folded instructions", where, len(ev.Folds), len(ev.Folded))
	}
	code := m.Prog.Threads[ev.Step.CPU].Code
	for _, f := range ev.Folds {
		in := code[f.Instr]
		internal := in.Op == machine.OpJump && strings.TrimSpace(in.Text) != "else" ||
			in.Op == machine.OpBranch && !strings.HasPrefix(strings.TrimSpace(in.Text), "if") ||
			in.Op == machine.OpAssign && strings.HasPrefix(m.Prog.Threads[ev.Step.CPU].Regs[in.Dst], "_")
		if words.Fold(m, int(ev.Step.CPU), &f) == "" && !internal {
			t.Errorf("%s: folded %q has no sentence", where, in.Text)
		}
	}
	if ld := ev.Load; ld != nil && ld.Class == machine.Stale && strings.Count(text(m, ev), "STALE") != 1 {
		t.Errorf("%s: a stale read says STALE once:\n%s", where, text(m, ev))
	}
}

func TestExplainIfCondition(t *testing.T) {
	for _, mode := range modes {
		x := explainRun(t, mode, `C cond
{ x=1; }
P0(int *x, int *y) { int r0; r0 = READ_ONCE(*x); if (r0 & 2) { WRITE_ONCE(*y, 1); } }
exists (0:r0=1)`)
		ev := x.do("P0 exec")
		if len(ev.Folds) != 1 || ev.Folds[0].Kind != machine.FactBranch || ev.Folds[0].Taken {
			t.Fatalf("%s: folds %+v", mode, ev.Folds)
		}
		has(t, text(x.m, ev), "if (r0 & 2): r0 = 1, so r0 & 2 is false and the if is not taken.")
	}
}

func TestExplainEarlyWmb(t *testing.T) {
	x := explainRun(t, machine.ARM, `C early-wmb
{}
P0(int *x, int *y, int *z) { int r0; WRITE_ONCE(*z, 1); r0 = READ_ONCE(*y); smp_wmb(); WRITE_ONCE(*x, 1); }
exists (0:r0=0)`)
	x.do("P0 exec")
	ev := x.do("P0 early #2")
	if ev.Fact == nil || ev.Fact.Kind != machine.FactWmb || entries(x.m, ev.Fact.Stores) != "z=1" {
		t.Fatalf("early smp_wmb: %+v", ev.Fact)
	}
	has(t, text(x.m, ev), "P0 issues smp_wmb() early, ahead of r0 = READ_ONCE(*y), which it does not depend on: wmb marker placed after z=1")
}

func TestExplainSRCUGracePeriod(t *testing.T) {
	for _, mode := range modes {
		x := explainRun(t, mode, `C srcu-gp
{}
P0(struct srcu_struct *s, int *x) { int r0; int idx; idx = srcu_read_lock(s); r0 = READ_ONCE(*x); srcu_read_unlock(s, idx); }
P1(struct srcu_struct *s, int *x) { WRITE_ONCE(*x, 1); synchronize_srcu(s); }
exists (0:r0=0)`)
		ev := x.do("P0 exec")
		has(t, text(x.m, ev), "P0 executes idx = srcu_read_lock(s): it enters an SRCU read-side section of s; the index is 0.")
		x.do("P1 exec")
		x.do("P1 commit #0")
		if mode == machine.ARM {
			x.do("P0 inv x")
		}
		ev = x.do("P1 exec")
		if !ev.GPStart {
			t.Fatalf("%s: %+v", mode, ev)
		}
		has(t, text(x.m, ev), "A grace period of s begins: every CPU must report a quiescent state, and the 1 SRCU read-side section of s open now (opened by P0) must end.")
		has(t, x.reason(1), "synchronize_srcu waits for a quiescent state from P0 (inside an SRCU read-side section of s), P1")
	}
}

func TestExplainStatementNamedOnce(t *testing.T) {
	x := explainRun(t, machine.TSO, `C ternary
{}
P0(int *x, int *y) { int r0; int r1; int r2; r0 = READ_ONCE(*x); r1 = r0 ? 5 : 6; r2 = READ_ONCE(*y) ? 7 : 8; }
exists (0:r1=6)`)
	ev := x.do("P0 exec")
	// The ?: is compiled into a branch, a move and a jump: a person sees
	// one statement and what it did.
	has(t, text(x.m, ev), "r1 = r0 ? 5 : 6: r1 is now 6.")
	if strings.Count(text(x.m, ev), "r0 ? 5 : 6") != 1 {
		t.Errorf("the statement is named more than once:\n%s", text(x.m, ev))
	}
	ev = x.do("P0 exec")
	has(t, text(x.m, ev), "P0 executes r2 = READ_ONCE(*y) ? 7 : 8.", "It reads y=0 from its cache: up to date. r2 is now 8.")
	if strings.Count(text(x.m, ev), "? 7 : 8") != 1 {
		t.Errorf("the statement is named more than once:\n%s", text(x.m, ev))
	}
}

// Every reordering a step performs names what it passed, why the mode
// allows it, and what would have kept it in order (issue 19): the
// out-of-order commit of MP, an early load and an early store, a load
// made while the CPU's own store is buffered, and a stale read.
func TestExplainReorderingsSayWhy(t *testing.T) {
	mp := `C mp
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); }
exists (1:r0=1 /\ 1:r1=0)`
	x := explainRun(t, machine.ARM, mp)
	x.do("P0 exec")
	x.do("P0 exec")
	ev := x.do("P0 commit #1")
	has(t, text(x.m, ev), "It overtakes the older x=1, still buffered", "commit stores to different locations in any order", "An smp_wmb() between them, or making y=1 a release (smp_store_release), would have kept it behind x=1.")
	// A release overtaken: it orders only what comes before it.
	xr := explainRun(t, machine.ARM, `C ext4
{}
P0(int *goal, int *flag) { smp_store_release(goal, 8); WRITE_ONCE(*flag, 1); }
P1(int *goal, int *flag) { int r0; r0 = READ_ONCE(*flag); }
exists (1:r0=1)`)
	xr.do("P0 exec")
	xr.do("P0 exec")
	has(t, text(xr.m, xr.do("P0 commit #1")), "It overtakes the older goal=8", "The release goal=8 orders only the accesses before it, not the stores after it.")
	// P1 reads x ahead of y.
	ev = x.do("P1 early #1")
	has(t, text(x.m, ev), "ahead of r0 = READ_ONCE(*y), which it does not depend on.", "(load→load reordering): an smp_rmb() between them, or an acquire on the earlier load (smp_load_acquire), would have kept it in order.")
	// The stale read of x: its invalidation is queued, not applied.
	x = explainRun(t, machine.ARM, mp)
	x.do("P0 exec")
	x.do("P0 commit #0")
	x.do("P1 exec")
	ev = x.do("P1 exec")
	has(t, text(x.m, ev), "STALE", "ARM-like mode lets a CPU read a copy whose invalidation it has not applied yet: an smp_rmb() or smp_mb() performed after the invalidation arrived and before this load, or an acquire load between them, would have applied it first.")

	// LB: the store goes ahead of the load.
	x = explainRun(t, machine.ARM, `C lb
{}
P0(int *x, int *y) { int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) { int r1; r1 = READ_ONCE(*y); WRITE_ONCE(*x, 1); }
exists (0:r0=1 /\ 1:r1=1)`)
	ev = x.do("P0 early #1")
	has(t, text(x.m, ev), "(load→store reordering): an smp_mb() between them, a release store (smp_store_release), an acquire on the earlier load, or a dependency on the value it loads would have kept it in order.")
	hasNot(t, text(x.m, ev), "smp_wmb() between")

	// SB: the load passes the CPU's own buffered store, in both modes.
	for _, mode := range modes {
		x := explainRun(t, mode, sbSrc)
		x.do("P0 exec")
		ev := x.do("P0 exec")
		want := "only an smp_mb() (or a fully ordered RMW) between them would have made it wait for that store to commit."
		if mode == machine.ARM {
			want = "an smp_mb() between them would have made it wait for that store to commit, and so would a release store followed by an acquire load."
		}
		has(t, text(x.m, ev), "Both modes allow it, since a load does not wait for the store buffer", want)
	}
}

// Early issues of the kinds issue 21 added: an acquire and a relaxed RMW
// ahead of an earlier load, and a load past smp_rmb and a no-return
// atomic; each says why ARM-like mode allows it.
func TestExplainEarlyAcquireAndRMW(t *testing.T) {
	x := explainRun(t, machine.ARM, `C early
{}
P0(int *x, int *y, int *z) { int r0; int r1; int r2; r0 = READ_ONCE(*x); r1 = smp_load_acquire(y); r2 = xchg_relaxed(z, 1); }
exists (0:r0=0)`)
	ev := x.do("P0 early #1")
	has(t, text(x.m, ev), "P0 issues r1 = smp_load_acquire(y) early, ahead of r0 = READ_ONCE(*x)", "An acquire orders what follows it, not what precedes it")
	ev = x.do("P0 early #2")
	has(t, text(x.m, ev), "P0 issues r2 = xchg_relaxed(z, 1) early", "lets a relaxed RMW be performed before earlier loads", "goes into its store buffer as an exclusive entry")

	x = explainRun(t, machine.ARM, `C early-rmb
{}
P0(int *x, int *y) { int r1; atomic_inc(x); smp_rmb(); r1 = READ_ONCE(*y); }
exists (0:r1=0)`)
	ev = x.do("P0 early #2")
	has(t, text(x.m, ev), "ahead of atomic_inc(x)", "It passes an earlier relaxed RMW of another location", "It passes smp_rmb(), which orders earlier loads only")
}

// A load and a relaxed RMW issued ahead of an earlier _release RMW say
// that the release orders what precedes the RMW's write only.
func TestExplainEarlyPastReleaseRMW(t *testing.T) {
	x := explainRun(t, machine.ARM, `C early-release
{}
P0(int *x, int *y, int *z) { int r0; int r1; int r2; r0 = xchg_release(x, 1); r1 = READ_ONCE(*y); r2 = cmpxchg_relaxed(z, 0, 1); }
exists (0:r1=0)`)
	ev := x.do("P0 early #1")
	txt := text(x.m, ev)
	has(t, txt, "ahead of r0 = xchg_release(x, 1)", "It passes an earlier _release RMW of another location: the release orders what precedes that RMW's write")
	if strings.Contains(txt, "relaxed RMW of another location") {
		t.Errorf("a _release RMW passed is called a relaxed one:\n%s", txt)
	}
	ev = x.do("P0 early #2")
	has(t, text(x.m, ev), "It passes an earlier _release RMW of another location")
}

// Accesses performed past a fully ordered cmpxchg are a guess that it
// fails: the text says so, not that a branch was guessed or that a
// relaxed RMW was passed, and a success then ends the path in words.
func TestExplainEarlyPastFullCmpxchg(t *testing.T) {
	src := `C early-cmpxchg
{}
P0(int *x, int *y) { int r0; r0 = cmpxchg(x, 0, 2); WRITE_ONCE(*y, 1); }
exists (0:r0=0)`
	x := explainRun(t, machine.ARM, src)
	ev := x.do("P0 early #1")
	txt := text(x.m, ev)
	has(t, txt, "before it knows whether r0 = cmpxchg(x, 0, 2) fails", "on the guess that it fails")
	hasNot(t, txt, "branch", "relaxed RMW of another location")
	x.do("P0 commit #1")
	ev = x.do("P0 exec") // x is 0: it succeeds, and the guess was wrong
	has(t, text(x.m, ev), "P0 guessed wrong: it performed WRITE_ONCE(*y, 1) before r0 = cmpxchg(x, 0, 2), on the guess that it would fail, and it succeeded.")
	wait := x.m.Wait(x.s, 0)
	if w := words.Wait(x.c.Program, &wait, words.Full); !strings.Contains(w, "guessed r0 = cmpxchg(x, 0, 2) wrong") {
		t.Errorf("the wait says %q", w)
	}
}

// A right guess is said at the cmpxchg that fails as guessed.
func TestExplainRightCmpxchgGuess(t *testing.T) {
	x := explainRun(t, machine.ARM, `C right-guess
{}
P0(int *x, int *y) { int r0; r0 = cmpxchg(x, 0, 2); WRITE_ONCE(*y, 1); }
P1(int *x) { WRITE_ONCE(*x, 1); }
exists (0:r0=1)`)
	x.do("P0 early #1")
	x.do("P1 exec")
	x.do("P1 commit #0")
	x.do("P0 inv x")
	ev := x.do("P0 exec")
	if ev.RMW == nil || !slices.Equal(ev.RMW.Guessed, []int{1}) {
		t.Fatalf("the failed cmpxchg's fact does not list the instruction performed on the guess: %+v", ev.RMW)
	}
	has(t, text(x.m, ev), "It fails: x=1 is not the expected 0", "P0 guessed it would fail when it performed WRITE_ONCE(*y, 1) before it: the guess was right.")
}

// An acquire performed before a cmpxchg_release, on the guess that it
// fails: the early step says why, and a wrong guess why it is one.
func TestExplainAcquirePastCmpxchgRelease(t *testing.T) {
	src := `C early-acquire-past-cmpxchg-release
{}
P0(int *x, int *y) { int r0; int r1; r0 = cmpxchg_release(x, 0, 2); r1 = smp_load_acquire(y); }
exists (0:r0=0)`
	x := explainRun(t, machine.ARM, src)
	ev := x.do("P0 early #1")
	txt := text(x.m, ev)
	has(t, txt, "before it knows whether r0 = cmpxchg_release(x, 0, 2) fails", "on the guess that it fails", "release→acquire")
	hasNot(t, txt, "not what follows its read")
	ev = x.do("P0 exec") // x is 0: it succeeds, and the guess was wrong
	has(t, text(x.m, ev), "P0 guessed wrong: it performed r1 = smp_load_acquire(y) before r0 = cmpxchg_release(x, 0, 2), on the guess that it would fail, and it succeeded.",
		"a successful one orders every acquire after its write")

	// A plain load past it is no guess, and says what it always said.
	x = explainRun(t, machine.ARM, `C early-load-past-cmpxchg-release
{}
P0(int *x, int *y) { int r0; int r1; r0 = cmpxchg_release(x, 0, 2); r1 = READ_ONCE(*y); }
exists (0:r0=0)`)
	txt = text(x.m, x.do("P0 early #1"))
	has(t, txt, "not what follows its read")
	hasNot(t, txt, "guess")
}

// A store issued ahead of a release store and an unlock says what it
// passed, and calls neither a plain store that cannot go ahead.
func TestExplainEarlyPastReleaseStore(t *testing.T) {
	x := explainRun(t, machine.ARM, `C early-past-release-store
{}
P0(int *x, int *y, int *z, spinlock_t *l) { int r0; spin_lock(l); r0 = READ_ONCE(*y); smp_store_release(z, 1); spin_unlock(l); WRITE_ONCE(*x, 1); }
exists (0:r0=0)`)
	x.do("P0 exec") // the lock
	ev := x.do("P0 early #4")
	txt := text(x.m, ev)
	has(t, txt, "ahead of r0 = READ_ONCE(*y), smp_store_release(z, 1) and spin_unlock(l)", "It passes smp_store_release(z, 1) and spin_unlock(l), a release of another location: a release orders what precedes it, not what follows it")
	if strings.Contains(txt, "cannot go ahead itself") {
		t.Errorf("a release store passed is called a store that cannot go ahead:\n%s", txt)
	}
}

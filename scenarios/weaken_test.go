package scenarios

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"smpscope/scenarios/syntax"
)

// annotatedSrc has one of every kind of annotation, and things that must
// not be weakened (barrier(), relaxed RMWs, locks, RCU).
const annotatedSrc = `C annotated

{
	int x=0;
	int y=0;
	int l=0;
	int *p=&y;
}

P0(int *x, int *y, spinlock_t *l)
{
	int r0;

	smp_store_release(x, 1);
	smp_wmb();
	barrier();
	r0 = xchg(y, 2);
	r0 = atomic_fetch_add_relaxed(1, y);
	spin_lock(l);
	spin_unlock(l);
	synchronize_rcu();
	smp_store_mb(*x, 3);
	r0 = test_and_set_bit(0, y);
}

P1(int *x, int *y, int **p)
{
	int r1;

	rcu_read_lock();
	r1 = smp_load_acquire(y);
	rcu_assign_pointer(*p, x);
	r1 = cmpxchg_acquire(y, 2, 3);
	r1 = atomic_fetch_add_release(1, x);
	smp_mb();
	rcu_read_unlock();
}

exists (0:r0=0)
`

func TestWeakenings(t *testing.T) {
	sc, err := Parse("a.litmus", []byte(annotatedSrc))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := compileSpec(sc, "")
	if err != nil {
		t.Fatal(err)
	}
	ws, fixed := sp.Weakenings()
	var got []string
	for _, w := range ws {
		got = append(got, w.String()+" -> "+w.To+" ("+w.Edit.String()+")")
	}
	want := []string{
		"smp_store_release() (P0:1) -> WRITE_ONCE() (P0:1=once)",
		"smp_wmb() (P0:2) -> nothing (P0:2-wmb)",
		"xchg() (P0:4) -> xchg_relaxed() (P0:4=relaxed)",
		"smp_store_mb() (P0:9) -> WRITE_ONCE() (P0:9=once)",
		"smp_load_acquire() (P1:2) -> READ_ONCE() (P1:2=once)",
		"rcu_assign_pointer() (P1:3) -> WRITE_ONCE() (P1:3=once)",
		"cmpxchg_acquire() (P1:4) -> cmpxchg_relaxed() (P1:4=relaxed)",
		"atomic_fetch_add_release() (P1:5) -> atomic_fetch_add_relaxed() (P1:5=relaxed)",
		"smp_mb() (P1:6) -> nothing (P1:6-mb)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !reflect.DeepEqual(fixed, []string{"test_and_set_bit() (P0:11)"}) {
		t.Errorf("not weakenable: %q", fixed)
	}
	// Each weakening is an edit that weakens that one instruction.
	for _, w := range ws {
		if _, err := sp.Edited(w.Edit); err != nil {
			t.Errorf("%s: %v", w, err)
		}
	}
	// All of them at once, as one list of --edit flags applied in order.
	var set []Edit
	for _, w := range ws {
		set = append(set, w.Edit)
	}
	all, seq, err := sp.EditSet(set)
	if err != nil {
		t.Fatal(err)
	}
	again, err := sp.Edited(seq...)
	if err != nil || syntax.Format(again.Litmus) != syntax.Format(all.Litmus) {
		t.Fatalf("the list does not replay: %v", err)
	}
	text := syntax.Format(all.Litmus)
	for _, gone := range []string{"smp_store_release", "smp_wmb", "xchg(", "smp_store_mb", "smp_load_acquire", "rcu_assign_pointer", "cmpxchg_acquire", "_release(", "smp_mb()"} {
		if strings.Contains(text, gone) {
			t.Errorf("%s is still there:\n%s", gone, text)
		}
	}
	for _, kept := range []string{"barrier();", "spin_lock(l);", "synchronize_rcu();", "rcu_read_lock();", "test_and_set_bit("} {
		if !strings.Contains(text, kept) {
			t.Errorf("%s was weakened:\n%s", kept, text)
		}
	}
	if EditsText(seq) != "P0:1=once P0:2-wmb P0:3=relaxed P0:8=once P1:2=once P1:3=once P1:4=relaxed P1:5=relaxed P1:6-mb" {
		t.Errorf("sequence %s", EditsText(seq))
	}
}

// TestEditSetInserts: barriers inserted at several points of one CPU,
// named in the original's numbering, land where each was asked for.
func TestEditSetInserts(t *testing.T) {
	sp, err := BuiltinSpec("iriw+once")
	if err != nil {
		t.Fatal(err)
	}
	set := []Edit{{CPU: "P1", At: 1, Op: InsertBarrier, To: "mb"}, {CPU: "P1", At: 1, Op: SetOrder, To: "acquire"}, {CPU: "P3", At: 1, Op: InsertBarrier, To: "rmb"}}
	all, seq, err := sp.EditSet(set)
	if err != nil {
		t.Fatal(err)
	}
	if EditsText(seq) != "P1:1=acquire P1:1+mb P3:1+rmb" {
		t.Errorf("sequence %s", EditsText(seq))
	}
	code := all.Program.Threads[1].Code
	if !strings.Contains(code[0].Text, "smp_load_acquire") || !strings.Contains(code[1].Text, "smp_mb") {
		t.Errorf("P1: %q, %q", code[0].Text, code[1].Text)
	}
}

// TestEditSetIsTheList is the property EditSet promises: for random sets
// of the strengthenings fix chooses from (and the weakenings why makes),
// on every scenario of the library, the edited program is the one the
// --edit list it returns makes, applied one edit at a time.
func TestEditSetIsTheList(t *testing.T) {
	lib, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(rt *rapid.T) {
		e := rapid.SampledFrom(lib).Draw(rt, "scenario")
		sp, err := BuiltinSpec(e.Name)
		if err != nil {
			rt.Fatal(err)
		}
		sites, _, err := sp.fixSites()
		if err != nil {
			rt.Fatal(err)
		}
		var set []Edit
		for i, s := range sites {
			if l := rapid.IntRange(0, len(s.levels)-1).Draw(rt, "level"+strconv.Itoa(i)); l > 0 && rapid.Bool().Draw(rt, "take"+strconv.Itoa(i)) {
				set = append(set, s.levels[l].edit)
			}
		}
		if ws, _ := sp.Weakenings(); len(ws) > 0 && len(set) == 0 {
			set = append(set, rapid.SampledFrom(ws).Draw(rt, "weakening").Edit)
		}
		got, seq, err := sp.EditSet(set)
		if err != nil {
			rt.Fatalf("%s %s: %v", e.Name, EditsText(set), err)
		}
		want, err := sp.Edited(seq...)
		if err != nil {
			rt.Fatalf("%s: the list %s does not apply: %v", e.Name, EditsText(seq), err)
		}
		if syntax.Format(got.Litmus) != syntax.Format(want.Litmus) || !slices.Equal(got.Edits, want.Edits) {
			rt.Fatalf("%s %s: the set and the list %s differ:\n%s\n%s", e.Name, EditsText(set), EditsText(seq), syntax.Format(got.Litmus), syntax.Format(want.Litmus))
		}
	})
}

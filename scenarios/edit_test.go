package scenarios

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
)

func TestParseEdit(t *testing.T) {
	good := map[string]Edit{
		"P1:2=acquire":      {CPU: "P1", At: 2, Op: SetOrder, To: "acquire"},
		" P0:1+mb ":         {CPU: "P0", At: 1, Op: InsertBarrier, To: "mb"},
		"P0:0+smp_wmb":      {CPU: "P0", At: 0, Op: InsertBarrier, To: "smp_wmb"},
		"P2:3-wmb":          {CPU: "P2", At: 3, Op: RemoveBarrier, To: "wmb"},
		"P2:3-":             {CPU: "P2", At: 3, Op: RemoveBarrier},
		"P0:4=xchg_acquire": {CPU: "P0", At: 4, Op: SetOrder, To: "xchg_acquire"},
	}
	for in, want := range good {
		got, err := ParseEdit(in)
		if err != nil || got != want {
			t.Errorf("ParseEdit(%q) = %+v, %v; want %+v", in, got, err, want)
			continue
		}
		if again, err := ParseEdit(got.String()); err != nil || again != got {
			t.Errorf("ParseEdit(%q.String() = %q) = %+v, %v", in, got.String(), again, err)
		}
	}
	bad := map[string]string{
		"":             "want CPU:N",
		"P1":           "want CPU:N",
		"X1:2=acquire": "want CPU:N",
		"P1:=acquire":  "want CPU:N",
		"P1:2":         "want CPU:N",
		"P1:2*mb":      "want CPU:N",
		"P1:2=fast":    "unknown ordering",
		"P1:2+fence":   "unknown barrier",
		"P1:2+":        "unknown barrier",
		"P1:0=acquire": "numbered from 1",
		"P1:999+mb":    "out of range",
	}
	for in, want := range bad {
		if _, err := ParseEdit(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseEdit(%q) error = %v, want one containing %q", in, err, want)
		}
	}
}

func builtin(t testing.TB, name string) *Spec {
	t.Helper()
	sp, err := BuiltinSpec(name)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func edited(t testing.TB, sp *Spec, edits ...string) *Spec {
	t.Helper()
	es, err := ParseEdits(edits)
	if err != nil {
		t.Fatal(err)
	}
	out, err := sp.Edited(es...)
	if err != nil {
		t.Fatalf("%s %v: %v", sp.Name, edits, err)
	}
	return out
}

func verdictIn(t testing.TB, sp *Spec, mode machine.Mode) syntax.Observation {
	t.Helper()
	m, err := sp.Machine(mode)
	if err != nil {
		t.Fatal(err)
	}
	res := machine.Explore(m, machine.Options{})
	if !res.Complete {
		t.Fatalf("%s: exploration incomplete: %s", sp.Name, words.Stop(res.Stop))
	}
	return sp.Verdict(res).Observation
}

// The review of the ext4 s_mb_last_group patch, replayed as edits: the
// ordering has to sit on the flag, on both sides.
func TestEditedVerdictsExt4(t *testing.T) {
	sp := builtin(t, "ext4-last-group+rel-acq")
	acq := edited(t, sp, "P1:1=acquire")
	both := edited(t, sp, "P1:1=acquire", "P0:2=release")
	for _, c := range []struct {
		sp   *Spec
		want syntax.Observation
	}{{sp, syntax.Sometimes}, {acq, syntax.Sometimes}, {both, syntax.Never}} {
		if got := verdictIn(t, c.sp, machine.ARM); got != c.want {
			t.Errorf("%v: ARM-like verdict %s, want %s", c.sp.Edits, got, c.want)
		}
	}
	src := syntax.Format(both.Litmus)
	for _, want := range []string{"r0 = smp_load_acquire(flag);", "smp_store_release(flag, 1);", "smp_store_release(goal, 8);"} {
		if !strings.Contains(src, want) {
			t.Errorf("edited source lacks %q:\n%s", want, src)
		}
	}
	if both.Expected != "" || both.Original() != sp || len(both.Edits) != 2 {
		t.Errorf("edited spec: expected %q, original %p (want %p), edits %v", both.Expected, both.Original(), sp, both.Edits)
	}
}

func TestEditedVerdictsMP(t *testing.T) {
	sp := builtin(t, "mp+wmb-rmb")
	word, at, err := sp.BarrierAfter("P0", 1)
	if err != nil || word != "wmb" || at != 2 {
		t.Fatalf("BarrierAfter(P0, 1) = %q, %d, %v; want wmb, 2", word, at, err)
	}
	e, ok, err := sp.BarrierEdit("P0", 1, "")
	if err != nil || !ok || e.String() != "P0:2-wmb" {
		t.Fatalf("BarrierEdit(P0, 1, none) = %v, %v, %v", e, ok, err)
	}
	nowmb, err := sp.Edited(e)
	if err != nil {
		t.Fatal(err)
	}
	for mode, want := range map[machine.Mode][2]syntax.Observation{machine.ARM: {syntax.Never, syntax.Sometimes}, machine.TSO: {syntax.Never, syntax.Never}} {
		if before, after := verdictIn(t, sp, mode), verdictIn(t, nowmb, mode); before != want[0] || after != want[1] {
			t.Errorf("%s: %s → %s, want %s → %s", mode.Title(), before, after, want[0], want[1])
		}
	}
	if code := syntax.Format(nowmb.Litmus); strings.Contains(code[strings.Index(code, "P0("):], "smp_wmb") {
		t.Errorf("smp_wmb still there:\n%s", code)
	}
}

const branchyLitmus = `C branchy

{
	int *p=x;
	int x=0;
	int y=0;
}

P0(int **p, int *x, int *y)
{
	int r0;
	int *r1;

	r1 = READ_ONCE(*p);
	if (r0)
		WRITE_ONCE(*y, 1);
	else
		r0 = xchg_relaxed(y, 2);
	smp_mb();
	r0 = atomic_read(x);
}

exists (0:r0=0)
`

func branchy(t *testing.T) *Spec {
	c := mustCompile(t, branchyLitmus)
	return NewSpec(c)
}

func TestEditForms(t *testing.T) {
	sp := branchy(t)
	// P0's listing: 1 r1 = READ_ONCE(*p), 2 if (r0), 3 WRITE_ONCE(*y, 1),
	// 4 else, 5 r0 = xchg_relaxed(y, 2), 6 smp_mb(), 7 r0 = atomic_read(x).
	cases := []struct {
		edits []string
		want  string // a line of the edited source
	}{
		{[]string{"P0:1=acquire"}, "r1 = smp_load_acquire(p);"},
		{[]string{"P0:1=rcu"}, "r1 = rcu_dereference(*p);"},
		{[]string{"P0:1=acquire", "P0:1=once"}, "r1 = READ_ONCE(*p);"},
		{[]string{"P0:3=release"}, "smp_store_release(y, 1);"},
		{[]string{"P0:5=full"}, "r0 = xchg(y, 2);"},
		{[]string{"P0:5=mb"}, "r0 = xchg(y, 2);"},
		{[]string{"P0:5=release"}, "r0 = xchg_release(y, 2);"},
		{[]string{"P0:6=rmb"}, "smp_rmb();"},
		{[]string{"P0:6=barrier"}, "barrier();"},
		{[]string{"P0:7=acquire"}, "r0 = atomic_read_acquire(x);"},
		{[]string{"P0:2+rmb"}, "if (r0) {\n\t\tsmp_rmb();\n\t\tWRITE_ONCE(*y, 1);\n\t} else"},
		{[]string{"P0:3+wmb"}, "if (r0) {\n\t\tWRITE_ONCE(*y, 1);\n\t\tsmp_wmb();\n\t} else"},
		{[]string{"P0:4+mb"}, "\telse {\n\t\tsmp_mb();\n\t\tr0 = xchg_relaxed(y, 2);\n\t}"},
		{[]string{"P0:0+mb"}, "int *r1;\n\n\tsmp_mb();\n\tr1 = READ_ONCE(*p);"},
		{[]string{"P0:6-mb"}, "r0 = xchg_relaxed(y, 2);\n\tr0 = atomic_read(x);"},
		{[]string{"P0:6-"}, "r0 = xchg_relaxed(y, 2);\n\tr0 = atomic_read(x);"},
	}
	for _, c := range cases {
		e := edited(t, sp, c.edits...)
		if src := syntax.Format(e.Litmus); !strings.Contains(src, c.want) {
			t.Errorf("%v: edited source lacks %q:\n%s", c.edits, c.want, src)
		}
	}
	errs := map[string]string{
		"P3:1=acquire": "no CPU named P3",
		"P0:9=acquire": "P0 has 7 instructions",
		"P0:2=acquire": "no ordering to change",
		"P0:1=release": "READ_ONCE() can be once, acquire, rcu",
		"P0:6-wmb":     "is smp_mb(), not smp_wmb()",
		"P0:5-":        "not a barrier statement",
		"P0:7=rcu":     "atomic_read() can be relaxed, acquire",
	}
	for in, want := range errs {
		e, err := ParseEdit(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sp.Edited(e); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", in, err, want)
		}
	}
}

func TestOrderingCycles(t *testing.T) {
	sp := branchy(t)
	words := func(cpu string, at int) string {
		forms, cur, err := sp.Orderings(cpu, at)
		if err != nil {
			return "error: " + err.Error()
		}
		var w []string
		for i, f := range forms {
			if i == cur {
				w = append(w, "["+f.Word+"]")
			} else {
				w = append(w, f.Word)
			}
		}
		return strings.Join(w, " ")
	}
	for at, want := range map[int]string{
		1: "[once] acquire rcu", // p holds a pointer
		5: "[relaxed] acquire release full",
		6: "[mb] rmb wmb",
		7: "[relaxed] acquire",
	} {
		if got := words("P0", at); got != want {
			t.Errorf("P0:%d cycles %q, want %q", at, got, want)
		}
	}
	ext4 := builtin(t, "ext4-last-group+rel-acq")
	forms, cur, err := ext4.Orderings("P1", 2)
	if err != nil || len(forms) != 2 || forms[cur].Prim != "smp_load_acquire" {
		t.Errorf("ext4 P1:2 (not a pointer) cycles %v (current %d), %v; want READ_ONCE and smp_load_acquire", forms, cur, err)
	}
	if e, err := ext4.NextOrdering("P1", 2); err != nil || e.String() != "P1:2=once" {
		t.Errorf("NextOrdering(P1, 2) = %v, %v; want P1:2=once", e, err)
	}
	if _, ok, err := ext4.OrderingEdit("P1", 2, "acquire"); ok || err != nil {
		t.Errorf("OrderingEdit to the current ordering = %v, %v; want no edit", ok, err)
	}
	// The barrier after an instruction cycles none → mb → rmb → wmb → none.
	if got := NextBarrier(""); got != "mb" {
		t.Errorf("NextBarrier(none) = %q", got)
	}
	if got := NextBarrier("wmb"); got != "" {
		t.Errorf("NextBarrier(wmb) = %q", got)
	}
	// After the xchg in the else branch means inside that branch, not at
	// the smp_mb() after the if.
	for at, want := range map[int]string{5: "P0:5+rmb", 1: "P0:1+rmb"} {
		if e, ok, err := sp.BarrierEdit("P0", at, "rmb"); err != nil || !ok || e.String() != want {
			t.Errorf("BarrierEdit(P0:%d, rmb) = %v, %v, %v; want %s", at, e, ok, err, want)
		}
	}
	mp := builtin(t, "mp+wmb-rmb")
	if e, ok, err := mp.BarrierEdit("P0", 1, "rmb"); err != nil || !ok || e.String() != "P0:2=rmb" {
		t.Errorf("mp BarrierEdit(P0:1, rmb) = %v, %v, %v; want P0:2=rmb", e, ok, err)
	}
	if _, ok, err := mp.BarrierEdit("P0", 1, "wmb"); ok || err != nil {
		t.Errorf("mp BarrierEdit(P0:1, wmb) = %v, %v; want no edit (it is there)", ok, err)
	}
}

func TestSourceDiffAndChangedInstrs(t *testing.T) {
	sp := builtin(t, "mp+once")
	e := edited(t, sp, "P0:1+wmb", "P1:1=acquire")
	var changed []string
	for _, d := range e.SourceDiff() {
		if d.Op != ' ' {
			changed = append(changed, string(d.Op)+strings.TrimSpace(d.Text))
		}
	}
	want := []string{"+smp_wmb();", "-r0 = READ_ONCE(*y);", "+r0 = smp_load_acquire(y);"}
	if strings.Join(changed, "|") != strings.Join(want, "|") {
		t.Errorf("diff %q, want %q", changed, want)
	}
	got := e.ChangedInstrs()
	if len(got) != 2 || len(got[0]) != 3 || !got[0][1] || got[0][0] || got[0][2] || !got[1][0] || got[1][1] {
		t.Errorf("ChangedInstrs = %v, want P0's second and P1's first", got)
	}
	if sp.ChangedInstrs() != nil {
		t.Errorf("an unedited spec has changed instructions")
	}
}

func TestRemapSteps(t *testing.T) {
	sp := builtin(t, "mp+once")
	e := edited(t, sp, "P0:1+mb") // P0: store x, smp_mb, store y
	steps := []machine.Step{
		{CPU: 0, Kind: machine.StepExec},
		{CPU: 0, Kind: machine.StepCommit, Arg: 0},
		{CPU: 0, Kind: machine.StepExec},
		{CPU: 0, Kind: machine.StepCommit, Arg: 1},
	}
	got := RemapSteps(sp.Program, e.Program, steps)
	if len(got) != 4 || got[1].Arg != 0 || got[3].Arg != 2 {
		t.Errorf("RemapSteps = %v, want commit #0 and commit #2", got)
	}
	back := RemapSteps(e.Program, sp.Program, []machine.Step{{CPU: 0, Kind: machine.StepEarly, Arg: 1}, {CPU: 0, Kind: machine.StepExec}})
	if len(back) != 0 {
		t.Errorf("a step naming the removed barrier was kept: %v", back)
	}
}

func TestTraceRecordsEdits(t *testing.T) {
	sp := edited(t, builtin(t, "mp+wmb-rmb"), "P0:2-wmb")
	ex, err := WitnessExecution(sp, machine.ARM, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, err := WriteNewTrace(dir, ex.Trace(dir))
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(path)
	if !strings.Contains(string(src), "\nedits: P0:2-wmb\n") {
		t.Errorf("trace lacks the edits line:\n%s", src)
	}
	back, err := ReplayTraceFile(path, "", nil, nil)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, src)
	}
	if ProgramKey(back.Spec.Program) != ProgramKey(sp.Program) || len(back.Steps) != len(ex.Steps) {
		t.Errorf("replayed another program or history: edits %v, %d steps (want %d)", back.Spec.Edits, len(back.Steps), len(ex.Steps))
	}
	if _, err := ParseTrace("bad.trace", []byte("smpscope trace 1\nscenario: mp+wmb-rmb\nmode: arm\nedits: P0:2*wmb\n")); err == nil || !strings.Contains(err.Error(), "bad.trace:4:8") {
		t.Errorf("a bad edits line: %v, want an error at bad.trace:4:8", err)
	}
}

func TestWriteNewEdited(t *testing.T) {
	sp := edited(t, builtin(t, "ext4-last-group+rel-acq"), "P1:1=acquire", "P0:2=release")
	dir := t.TempDir()
	p1, err := WriteNewEdited(dir, sp)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := WriteNewEdited(dir, sp)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p1) != "ext4-last-group+rel-acq+edited.litmus" || filepath.Base(p2) != "ext4-last-group+rel-acq+edited-2.litmus" {
		t.Errorf("wrote %s and %s", p1, p2)
	}
	back, err := Resolve(p2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.Name != "ext4-last-group+rel-acq+edited-2" || back.Expected != "" || back.Variant != "rel-acq+edited" {
		t.Errorf("saved test: name %q, expected %q, variant %q", back.Name, back.Expected, back.Variant)
	}
	if !strings.Contains(back.Source, "--edit P1:1=acquire --edit P0:2=release") {
		t.Errorf("saved test's Source does not say how it was made: %q", back.Source)
	}
	if samePrograms(back.Program, sp.Program) != "" {
		t.Errorf("the saved program differs: %s", samePrograms(back.Program, sp.Program))
	}
	if _, err := WriteNewEdited(dir, builtin(t, "mp+once")); err == nil {
		t.Errorf("saved a scenario without edits")
	}
}

// samePrograms compares programs apart from their names and source lines
// (a saved file has its own name and header); "" when they are equal.
func samePrograms(a, b *machine.Program) string {
	norm := func(p *machine.Program) string {
		q := *p
		q.Name = ""
		q.Threads = append([]machine.Thread(nil), p.Threads...)
		for t := range q.Threads {
			q.Threads[t].Code = append([]machine.Instr(nil), q.Threads[t].Code...)
			for i := range q.Threads[t].Code {
				q.Threads[t].Code[i].Line = 0
			}
		}
		b, _ := json.Marshal(q)
		return string(b)
	}
	if x, y := norm(a), norm(b); x != y {
		return x + "\n≠\n" + y
	}
	return ""
}

// drawEdit draws an edit that fits sp: a new ordering for an annotated
// instruction, a barrier after one (inserted, changed or removed), or the
// removal of a barrier.
func drawEdit(t *rapid.T, sp *Spec) (Edit, bool) {
	th := rapid.IntRange(0, len(sp.Program.Threads)-1).Draw(t, "thread")
	cpu := sp.Program.Threads[th].Name
	n := len(sp.Program.Threads[th].Code)
	at := rapid.IntRange(0, n).Draw(t, "at")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		forms, _, err := sp.Orderings(cpu, at)
		if at == 0 || err != nil {
			return Edit{}, false
		}
		f := rapid.SampledFrom(forms).Draw(t, "form")
		return Edit{CPU: cpu, At: at, Op: SetOrder, To: f.Word}, true
	case 1:
		e, ok, err := sp.BarrierEdit(cpu, at, rapid.SampledFrom(barrierCycle).Draw(t, "barrier"))
		return e, ok && err == nil
	}
	// Only a barrier statement of its own can be removed: the fence that
	// smp_store_mb (or a C11 seq_cst access) compiles to is part of its
	// store, and removing it is rightly an error.
	if at == 0 {
		return Edit{}, false
	}
	if in := sp.Program.Threads[th].Code[at-1]; in.Op != machine.OpFence ||
		in.Prim < machine.PrimSmpMb || in.Prim > machine.PrimSmpMbAfterSRCUReadUnlock {
		return Edit{}, false
	}
	return Edit{CPU: cpu, At: at, Op: RemoveBarrier}, true
}

// Every edit round-trips: the edited source, saved as a file of its own,
// parses and compiles to the same program; the edit's text reads back as
// the same edit and applies alike to a freshly read original; and the
// tree an edit leaves compiles as its printed source does (so Format
// prints inserted and rewritten code faithfully).
func TestEditRoundTripProperty(t *testing.T) {
	// The library, and the conformance corpus when it is there (herd7's
	// own forms: C11 atomics, __fence{mb}, …).
	var specs []*Spec
	entries, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		specs = append(specs, builtin(t, e.Name))
	}
	if _, err := os.Stat(corpusDir); err == nil {
		for _, f := range corpusFiles(t) {
			if sp, err := Resolve(f, nil); err == nil {
				specs = append(specs, sp)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		sp := rapid.SampledFrom(specs).Draw(t, "scenario")
		cur := sp
		var edits []Edit
		for k := rapid.IntRange(1, 4).Draw(t, "edits"); k > 0; k-- {
			ed, ok := drawEdit(t, cur)
			if !ok {
				continue
			}
			if back, err := ParseEdit(ed.String()); err != nil || back != ed {
				t.Fatalf("edit %+v reads back as %+v, %v", ed, back, err)
			}
			// The tree the edit leaves compiles as its printed source.
			sc, c, err := editable(cur.Litmus)
			if err != nil {
				t.Fatal(err)
			}
			if err := ed.apply(sc, c); err != nil {
				t.Fatalf("%s %v: %v", sp.Name, ed, err)
			}
			direct, err := Compile(sc)
			if err != nil {
				t.Fatalf("%s %v: the edited tree does not compile: %v", sp.Name, ed, err)
			}
			next, err := cur.Edited(ed)
			if err != nil {
				t.Fatalf("%s %v: %v", sp.Name, ed, err)
			}
			if d := samePrograms(direct.Program, next.Program); d != "" {
				t.Fatalf("%s %v: the printed source compiles to another program:\n%s\n%s", sp.Name, ed, d, syntax.Format(next.Litmus))
			}
			edits = append(edits, ed)
			cur = next
		}
		if len(edits) == 0 {
			return
		}
		src, err := cur.EditedSource("saved")
		if err != nil {
			t.Fatal(err)
		}
		saved, err := Parse("saved.litmus", []byte(src))
		if err != nil {
			t.Fatalf("saved source does not parse: %v\n%s", err, src)
		}
		c, err := Compile(saved)
		if err != nil {
			t.Fatalf("saved source does not compile: %v\n%s", err, src)
		}
		if d := samePrograms(c.Program, cur.Program); d != "" {
			t.Fatalf("save → parse gives another program (%v):\n%s\n%s", edits, d, src)
		}
		fresh, err := Parse(sp.Litmus.File, []byte(syntax.Format(sp.Litmus)))
		if err != nil {
			t.Fatal(err)
		}
		c, err = Compile(fresh)
		if err != nil {
			t.Fatal(err)
		}
		again, err := NewSpec(c).Edited(edits...)
		if err != nil {
			t.Fatalf("%v on a fresh %s: %v", edits, sp.Name, err)
		}
		if ProgramKey(again.Program) != ProgramKey(cur.Program) {
			t.Fatalf("%v applied at once to a freshly read %s gives another program than one by one", edits, sp.Name)
		}
	})
}

// TestSavedEditKeepsComment checks issue 18's S file: a valid litmus test
// that keeps the original's leading comment (its prose too), drops its
// Result, and whose Source is a provenance line that works: run where
// the file is, its command makes the same program.
func TestSavedEditKeepsComment(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	src := `C MP+rel+acq

(*
 * Result: Never
 *
 * This litmus test demonstrates that smp_store_release() and
 * smp_load_acquire() provide sufficient ordering for the message-passing
 * pattern.
 *)

{}

P0(int *buf, int *flag) // Producer
{
	WRITE_ONCE(*buf, 1);
	smp_store_release(flag, 1);
}

P1(int *buf, int *flag) // Consumer
{
	int r0;
	int r1;

	r0 = smp_load_acquire(flag);
	r1 = READ_ONCE(*buf);
}

exists (1:r0=1 /\ 1:r1=0)
`
	file := filepath.Join(dir, "tests", "mp rel.litmus")
	os.WriteFile(file, []byte(src), 0o644)
	sp, err := Resolve(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	ed := edited(t, sp, "P0:2=once", "P1:1+rmb")
	path, err := WriteNewEdited(dir, ed)
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	text := string(saved)
	for _, want := range []string{
		" * This litmus test demonstrates that smp_store_release() and\n * smp_load_acquire() provide sufficient ordering for the message-passing\n * pattern.\n",
		"P0(int *buf, int *flag) // Producer\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the original's comment is lost: no %q in\n%s", want, text)
		}
	}
	back, err := Resolve(path, nil)
	if err != nil {
		t.Fatalf("the saved test does not parse: %v\n%s", err, text)
	}
	if back.Expected != "" || strings.Contains(text, "Result:") || !strings.HasSuffix(back.Title, "what if P0:2=once P1:1+rmb") {
		t.Errorf("saved metadata: expected %q, title %q\n%s", back.Expected, back.Title, text)
	}
	// The provenance runs: "smpscope check 'tests/mp rel.litmus' --edit
	// P0:2=once --edit P1:1+rmb", from the saved file's directory.
	cmd := regexp.MustCompile(`smpscope check ('[^']*'|\S+)((?: --edit \S+)+)`).FindStringSubmatch(strings.Join(strings.Fields(back.Source), " "))
	if cmd == nil {
		t.Fatalf("no command in the Source line %q", back.Source)
	}
	arg := strings.Trim(cmd[1], "'")
	if arg != "tests/mp rel.litmus" {
		t.Errorf("the command names %q, not the original relative to the saved file", arg)
	}
	orig, err := Resolve(filepath.Join(dir, arg), nil)
	if err != nil {
		t.Fatal(err)
	}
	again := edited(t, orig, strings.Fields(strings.ReplaceAll(cmd[2], "--edit ", ""))...)
	if d := samePrograms(again.Program, back.Program); d != "" {
		t.Errorf("the provenance makes another program: %s", d)
	}
	savedForHerd = append(savedForHerd, text)
}

// savedForHerd are saved what-ifs that TestSavedEditsHerd (an external
// test: herd7's runner imports this package) gives herd7.
var savedForHerd []string

// SavedForHerd runs TestSavedEditKeepsComment's saving and returns what
// it saved.
func SavedForHerd(t *testing.T) []string {
	savedForHerd = nil
	TestSavedEditKeepsComment(t)
	return savedForHerd
}

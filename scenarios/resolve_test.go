package scenarios

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// TestResolveRule checks the one name rule: "-" is standard input, an
// existing file wins over a built-in name, anything else is a built-in.
func TestResolveRule(t *testing.T) {
	lib, err := Lookup("mp+once")
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := Resolve("mp+once", nil)
	if err != nil || builtin.File != "" || builtin.Expected != syntax.Sometimes || builtin.Condition() != `exists (1:r0=1 /\ 1:r1=0)` {
		t.Fatalf("built-in: %+v, %v", builtin, err)
	}
	// Standard input, with positions named <stdin>.
	src := strings.Replace(string(mustRead(t, lib.File)), "C mp+once", "C from-stdin", 1)
	sp, err := Resolve("-", strings.NewReader(src))
	if err != nil || sp.Name != "from-stdin" || sp.File != "" {
		t.Fatalf("stdin: %+v, %v", sp, err)
	}
	if _, err := Resolve("-", strings.NewReader("C broken\n{")); err == nil || !strings.HasPrefix(err.Error(), "<stdin>:") {
		t.Errorf("stdin parse error: %v", err)
	}
	if _, err := Resolve("-", nil); err == nil {
		t.Error("no stdin: no error")
	}
	// A file named like a built-in scenario wins, in every front-end.
	dir := t.TempDir()
	mine := strings.Replace(src, "C from-stdin", "C mine", 1)
	if err := os.WriteFile(filepath.Join(dir, "mp+once"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	chdir(t, dir)
	sp, err = Resolve("mp+once", nil)
	if err != nil || sp.Name != "mine" || sp.File != "mp+once" {
		t.Fatalf("a file named mp+once: %+v, %v", sp, err)
	}
	// The library's entries (the picker, a trace without a source) are
	// the built-ins all the same.
	if sp, err := BuiltinSpec("mp+once"); err != nil || sp.Name != "mp+once" || sp.File != "" {
		t.Errorf("BuiltinSpec: %+v, %v", sp, err)
	}
	ex, _ := RandomExecution(builtin, machine.ARM, 1)
	if err := os.WriteFile("t.trace", []byte(ex.Trace(".").Format()), 0o644); err != nil {
		t.Fatal(err)
	}
	if back, err := ReplayTraceFile("t.trace", "", nil, nil); err != nil || back.Spec.Name != "mp+once" {
		t.Errorf("a trace of the built-in replays on the file: %v", err)
	}
	// A directory is not a scenario file: the built-in is meant.
	if err := os.Mkdir(filepath.Join(dir, "sb+once"), 0o755); err != nil {
		t.Fatal(err)
	}
	if sp, err := Resolve("sb+once", nil); err != nil || sp.Name != "sb+once" || sp.File != "" {
		t.Errorf("a directory named sb+once: %+v, %v", sp, err)
	}
	if _, err := Resolve("no-such", nil); err == nil || !strings.Contains(err.Error(), "no such file, and no built-in scenario has that name") {
		t.Errorf("missing: %v", err)
	}
}

func mustRead(t *testing.T, libFile string) []byte {
	t.Helper()
	src, err := libraryFS.ReadFile("library/" + filepath.Base(libFile))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func chdir(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(old) })
}

// TestExecutionTraceFile writes an execution's trace away from its
// .litmus file and replays it after the file has gone: a trace carries
// its litmus source (issue 18). Beside the file, it names it too, and
// the two must agree.
func TestExecutionTraceFile(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	os.MkdirAll(filepath.Join(dir, "traces"), 0o755)
	litmus := filepath.Join(dir, "tests", "my sb.litmus")
	if err := os.WriteFile(litmus, mustRead(t, "sb+once.litmus"), 0o644); err != nil {
		t.Fatal(err)
	}
	sp, err := Resolve(litmus, nil)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := WitnessExecution(sp, machine.TSO, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := ex.Trace(filepath.Join(dir, "traces")).Format()
	for _, want := range []string{"\n# Shortest witness of exists (0:r0=0 /\\ 1:r1=0)\n", "\n# Ends in outcome 0:r0=0; 1:r1=0;\n", "\nlitmus: ", "\nC sb+once\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "source:") {
		t.Errorf("a source outside the trace's directory is named:\n%s", text)
	}
	path := filepath.Join(dir, "traces", "sb.trace")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(litmus)
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	back, err := ReplayTraceFile(filepath.Join(moved, "traces", "sb.trace"), "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.Mach.Mode != machine.TSO || len(back.Steps) != len(ex.Steps) || !back.Last().Equal(ex.Last()) {
		t.Errorf("replayed %d steps in %v", len(back.Steps), back.Mach.Mode)
	}
	// Beside its file, a trace names it; a changed file is an error that
	// names both.
	beside := filepath.Join(moved, "traces", "my sb.litmus")
	os.WriteFile(beside, mustRead(t, "sb+once.litmus"), 0o644)
	sp, _ = Resolve(beside, nil)
	ex, _ = WitnessExecution(sp, machine.TSO, machine.Options{})
	text = ex.Trace(filepath.Join(moved, "traces")).Format()
	if !strings.Contains(text, "\nsource: my sb.litmus\n") {
		t.Errorf("no source line:\n%s", text)
	}
	path = filepath.Join(moved, "traces", "sb.trace")
	os.WriteFile(path, []byte(text), 0o644)
	if back, err := ReplayTraceFile(path, "", nil, nil); err != nil || back.Spec.File != beside {
		t.Errorf("beside its file: %v", err)
	}
	changed := strings.Replace(string(mustRead(t, "sb+once.litmus")), "r0 = READ_ONCE(*y);", "r0 = smp_load_acquire(y);", 1)
	os.WriteFile(beside, []byte(changed), 0o644)
	if _, err := ReplayTraceFile(path, "", nil, nil); err == nil || !strings.Contains(err.Error(), "sb.trace:3:1: the trace carries a test that is not its source \"my sb.litmus\": the copy at line ") {
		t.Errorf("a changed source: %v", err)
	}
	// Gone again: the copy is the test.
	os.Remove(beside)
	if _, err := ReplayTraceFile(path, "", nil, nil); err != nil {
		t.Errorf("source gone: %v", err)
	}
	// A trace of a built-in names no source and carries the built-in's
	// source; replayed, it is the built-in (title, story) again.
	bi, _ := Resolve("mp+once", nil)
	ex, _ = RandomExecution(bi, machine.ARM, 3)
	text = ex.Trace("").Format()
	if strings.Contains(text, "source:") || !strings.Contains(text, "# Random execution, seed 3\n") {
		t.Errorf("built-in trace:\n%s", text)
	}
	back, err = ReplayTraceFile("-", "", nil, strings.NewReader(text))
	if err != nil || !back.Last().Equal(ex.Last()) || back.Spec.Story != bi.Story {
		t.Errorf("trace from stdin: %v", err)
	}
	// A trace without its source, of a built-in: the header's name.
	old := text[:strings.Index(text, "\nlitmus: ")+1]
	if back, err := ReplayTraceFile("-", "", nil, strings.NewReader(old)); err != nil || !back.Last().Equal(ex.Last()) {
		t.Errorf("a trace without its source: %v", err)
	}
}

// TestTraceSourceConfined checks issue 22, item 4: a trace's source: is
// read only as a .litmus file beside the trace or below it; nothing else
// is opened, and what does not parse as litmus is not quoted.
func TestTraceSourceConfined(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "secret.litmus"), []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "ok.litmus"), mustRead(t, "mp+once.litmus"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(dir, "sub", "passwd.litmus"))
	os.Symlink("loop.litmus", filepath.Join(dir, "sub", "loop.litmus"))
	os.Mkdir(filepath.Join(dir, "sub", "dir.litmus"), 0o755)
	os.Symlink("/dev/zero", filepath.Join(dir, "sub", "zero.litmus"))
	os.WriteFile(filepath.Join(dir, "sub", "notes.txt"), mustRead(t, "mp+once.litmus"), 0o644)
	for src, want := range map[string]string{
		"ok.litmus":         "",
		"mp+once":           "", // a built-in
		"../secret.litmus":  "a trace's source is a .litmus file beside the trace or below it",
		"/etc/passwd":       "a trace's source is a .litmus file beside the trace or below it",
		"passwd.litmus":     "a symbolic link out of the trace's directory",
		"loop.litmus":       "a loop of symbolic links",
		"dir.litmus":        "a directory, not a litmus file",
		"zero.litmus":       "not a regular file (a character device)",
		"notes.txt":         "", // any name, if it is a litmus test
		"nowhere.litmus":    "no such file beside the trace",
		"../sub/../../x.lt": "a trace's source is a .litmus file beside the trace or below it",
	} {
		tr := "smpscope trace 1\nscenario: mp+once\nsource: " + src + "\nmode: arm\nP0 exec\n"
		path := filepath.Join(dir, "sub", "t.trace")
		os.WriteFile(path, []byte(tr), 0o644)
		_, err := ReplayTraceFile(path, "", nil, nil)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", src, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: got %v, want %q", src, err, want)
		case err != nil && (strings.Contains(err.Error(), "root") || !strings.HasPrefix(err.Error(), path+":3:1: source ")):
			t.Errorf("%s: %v", src, err)
		}
	}
	// What does not parse as litmus is not quoted, only placed.
	os.WriteFile(filepath.Join(dir, "sub", "shadow.litmus"), []byte("root:$6$secret\n"), 0o644)
	path := filepath.Join(dir, "sub", "t.trace")
	os.WriteFile(path, []byte("smpscope trace 1\nscenario: x\nsource: shadow.litmus\nmode: arm\n"), 0o644)
	_, err := ReplayTraceFile(path, "", nil, nil)
	if err == nil || strings.Contains(err.Error(), "root") || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "does not parse as a litmus test (at line 1, column 1)") {
		t.Errorf("not litmus: %v", err)
	}
	// A device is refused from its stat, by every reader.
	for _, p := range []string{"/dev/zero", filepath.Join(dir, "sub", "zero.litmus")} {
		if _, err := Resolve(p, nil); err == nil || !strings.Contains(err.Error(), "not a regular file (a character device)") {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := Resolve(filepath.Join(dir, "sub", "loop.litmus"), nil); err == nil || !strings.Contains(err.Error(), "a loop of symbolic links") {
		t.Errorf("a symlink loop as an argument: %v", err)
	}
}

// TestRandomStream: one seed, one execution, from every entry point.
func TestRandomStream(t *testing.T) {
	sp, err := Resolve("iriw+once", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := RandomExecution(sp, machine.ARM, 7)
	b, _ := RandomExecution(sp, machine.ARM, 7)
	c, _ := RandomExecution(sp, machine.ARM, 8)
	if len(a.Steps) == 0 || !a.Mach.Final(a.Last()) {
		t.Fatalf("a random run ends in a final state: %d steps", len(a.Steps))
	}
	if !slices.Equal(a.Steps, b.Steps) || slices.Equal(a.Steps, c.Steps) {
		t.Errorf("seed 7 twice: equal %v; seeds 7 and 8: equal %v", slices.Equal(a.Steps, b.Steps), slices.Equal(a.Steps, c.Steps))
	}
	// Drawing step by step, as the UI does, gives the same run; a copy of
	// the stream continues from where it was.
	r := NewRandom(7)
	m := a.Mach
	s := m.Initial()
	var steps []machine.Step
	var fork Random
	for i := 0; !m.Final(s); i++ {
		if i == 2 {
			fork = r
		}
		st, ok := r.Step(m, s)
		if !ok {
			break
		}
		s, _, _ = m.Apply(s, st)
		steps = append(steps, st)
	}
	if !slices.Equal(steps, a.Steps) {
		t.Error("step by step differs from RandomExecution")
	}
	s2 := a.States[2]
	if rest := fork.Run(m, s2); !slices.Equal(append(append([]machine.Step{}, a.Steps[:2]...), rest...), a.Steps) {
		t.Error("a copy of the stream does not continue where it was")
	}
}

// TestVerdictCountsShownStates: the one counting rule is herd7's: distinct
// valuations of the shown registers and locations, however many outcomes
// (or explorer states) stand for each.
func TestVerdictCountsShownStates(t *testing.T) {
	sp, err := Resolve("mp+once", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := sp.Program
	mk := func(r0, r1 machine.Value, x machine.Value) machine.Outcome {
		o := machine.Outcome{Regs: make([][]machine.Value, len(p.Threads)), Mem: make([]machine.Value, len(p.Locs))}
		for t := range p.Threads {
			o.Regs[t] = make([]machine.Value, len(p.Threads[t].Regs))
		}
		o.Regs[1][0], o.Regs[1][1] = r0, r1
		o.Mem[0] = x // not shown: outcomes differing only here are one state
		return o
	}
	res := &machine.Result{Complete: true, Outcomes: []machine.OutcomeResult{
		{Outcome: mk(1, 0, 0), States: 3},
		{Outcome: mk(1, 0, 7), States: 1},
		{Outcome: mk(0, 0, 0), States: 2},
	}}
	if v := sp.Verdict(res); v.Positive != 1 || v.Negative != 1 || v.Observation != syntax.Sometimes || !v.Validated {
		t.Errorf("verdict %+v, want 1 positive and 1 negative state", v)
	}
	if v := (&Spec{}).Verdict(res); v != (Verdict{}) {
		t.Errorf("no final clause: %+v", v)
	}
}

func TestWitnessExecutionNone(t *testing.T) {
	sp, _ := Resolve("mp+once", nil)
	_, err := WitnessExecution(sp, machine.TSO, machine.Options{})
	nw, ok := err.(*NoWitnessError)
	if !ok || !nw.Unreachable() || !strings.Contains(err.Error(), "the exists outcome (1:r0=1 /\\ 1:r1=0) is unreachable in TSO mode") {
		t.Fatalf("%T %v", err, err)
	}
	_, err = WitnessExecution(sp, machine.ARM, machine.Options{MaxStates: 2})
	if nw, ok := err.(*NoWitnessError); !ok || nw.Unreachable() || !strings.Contains(err.Error(), "stopped after") {
		t.Fatalf("limited: %v", err)
	}
}

func TestExploreAllProgress(t *testing.T) {
	var jobs []Job
	for _, name := range []string{"mp+once", "sb+once", "lb+once"} {
		sp, _ := Resolve(name, nil)
		for _, m := range []machine.Mode{machine.TSO, machine.ARM} {
			jobs = append(jobs, Job{Spec: sp, Mode: m})
		}
	}
	seen := map[int]bool{}
	runs := ExploreAll(jobs, machine.Options{}, func(i int, r Run) {
		if seen[i] || r.Spec != jobs[i].Spec || r.Mode != jobs[i].Mode || r.Result == nil {
			t.Errorf("job %d reported as %+v (seen before: %v)", i, r, seen[i])
		}
		seen[i] = true
	})
	for i, r := range runs {
		if r.Spec != jobs[i].Spec || r.Mode != jobs[i].Mode || r.Result == nil || !r.Result.Complete {
			t.Fatalf("run %d: %+v", i, r)
		}
	}
	if len(seen) != len(jobs) {
		t.Errorf("%d of %d jobs reported", len(seen), len(jobs))
	}
	if v := runs[1].Verdict(); v.Observation != syntax.Sometimes { // mp+once in ARM-like mode
		t.Errorf("mp+once ARM: %+v", v)
	}
}

func TestKeys(t *testing.T) {
	a, _ := Resolve("mp+once", nil)
	b, _ := Resolve("mp+once", nil)
	c, _ := Resolve("mp+wmb-rmb", nil)
	if a.Program == b.Program || ProgramKey(a.Program) != ProgramKey(b.Program) || a.Key() != b.Key() {
		t.Error("two loads of one scenario have different keys")
	}
	if ProgramKey(a.Program) == ProgramKey(c.Program) || a.Key() == c.Key() {
		t.Error("different programs share a key")
	}
	forall := *a
	forall.Final = &Final{Kind: syntax.Forall, Clause: a.Final.Clause}
	if forall.Key() == a.Key() {
		t.Error("another clause, the same key")
	}
}

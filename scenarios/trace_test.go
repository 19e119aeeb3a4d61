package scenarios

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

func traceMachine(t *testing.T, name string, mode machine.Mode) *machine.Machine {
	t.Helper()
	sc, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	return machine.MustNew(cs.Program, mode)
}

// randomWalk takes up to n seeded random enabled steps from the initial
// state and returns them with the state reached.
func randomWalk(m *machine.Machine, seed uint64, n int) ([]machine.Step, *machine.State) {
	r := rand.New(rand.NewPCG(seed, 7))
	s := m.Initial()
	var steps []machine.Step
	for len(steps) < n {
		en := m.Enabled(s)
		if len(en) == 0 {
			break
		}
		st := en[r.IntN(len(en))]
		next, _, err := m.Apply(s, st)
		if err != nil {
			panic(err)
		}
		steps = append(steps, st)
		s = next
	}
	return steps, s
}

func TestTraceRoundTrip(t *testing.T) {
	kinds := map[machine.StepKind]int{}
	names := []string{"mp+once", "mp+wmb-rmb", "sb+mb", "lb+once", "iriw+rmb", "rcu-free+sync", "seqcount+acq-rmb", "folio-lock-waiters+atomic", "ext4-last-group+lock", "2+2w+wmb"}
	for _, name := range names {
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			m := traceMachine(t, name, mode)
			for seed := uint64(0); seed < 25; seed++ {
				steps, want := randomWalk(m, seed, int(seed)*3%40+1)
				for _, st := range steps {
					kinds[st.Kind]++
				}
				tr, err := NewTrace(m, steps)
				if err != nil {
					t.Fatalf("%s %s seed %d: %v", name, mode, seed, err)
				}
				tr.Variant = "v"
				tr.Notes = []string{"a note", "#3 is not a step"}
				text := tr.Format()
				back, err := ParseTrace("rt.trace", []byte(text))
				if err != nil {
					t.Fatalf("%s %s seed %d: %v\n%s", name, mode, seed, err, text)
				}
				if back.Scenario != name || back.Mode != mode || back.Variant != "v" || len(back.Steps) != len(steps) ||
					strings.Join(back.Notes, "|") != "a note|#3 is not a step" {
					t.Fatalf("%s %s seed %d: header or steps lost:\n%s\n%+v", name, mode, seed, text, back)
				}
				if again := back.Format(); again != text {
					t.Fatalf("Format(Parse(Format(t))) differs:\n%s\n---\n%s", text, again)
				}
				states, events, err := back.Replay(m)
				if err != nil {
					t.Fatalf("%s %s seed %d: replay: %v\n%s", name, mode, seed, err, text)
				}
				if len(states) != len(steps)+1 || len(events) != len(steps) {
					t.Fatalf("%d states, %d events for %d steps", len(states), len(events), len(steps))
				}
				if got := states[len(states)-1]; !got.Equal(want) {
					t.Fatalf("%s %s seed %d: replayed state differs from the walked one", name, mode, seed)
				}
				for i, ts := range back.Steps {
					if ts.Pos.Line == 0 || events[i].Step != steps[i] || ts.Comment != tr.Steps[i].Comment {
						t.Fatalf("step %d: %+v vs %+v", i, ts, tr.Steps[i])
					}
				}
			}
		}
	}
	for k := machine.StepExec; k <= machine.StepReportQS; k++ {
		if kinds[k] == 0 {
			t.Errorf("no %s step in any walk: the round trip does not cover it", k)
		}
	}
}

// TestTraceWitnessReplays replays the explorer's shortest witnesses of every
// outcome through the file format.
func TestTraceWitnessReplays(t *testing.T) {
	for _, name := range []string{"mp+once", "sb+rel-acq", "rcu-mp+assign-deref"} {
		m := traceMachine(t, name, machine.ARM)
		res := machine.Explore(m, machine.Options{})
		for _, o := range res.Outcomes {
			tr, err := NewTrace(m, o.Witness)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseTrace("w.trace", []byte(tr.Format()))
			if err != nil {
				t.Fatal(err)
			}
			states, _, err := back.Replay(m)
			if err != nil {
				t.Fatal(err)
			}
			last := states[len(states)-1]
			if !m.Final(last) || m.Outcome(last).Key() != o.Outcome.Key() {
				t.Fatalf("%s: witness of %s replays to another outcome", name, o.Outcome.Format(m.Prog, nil))
			}
		}
	}
}

const goodTrace = `smpscope trace 1
scenario: mp+once
variant: once
mode: arm
# Commit y before x.

P0 exec        # P0: execute WRITE_ONCE(*x, 1);
P0 exec
P0 commit #1   # y first
`

func TestTraceNotEnabled(t *testing.T) {
	m := traceMachine(t, "mp+once", machine.ARM)
	tr, err := ParseTrace("good.trace", []byte(goodTrace))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Notes[0] != "Commit y before x." || tr.Steps[2].ID != "P0 commit #1" || tr.Steps[2].Comment != "y first" || tr.Steps[1].Comment != "" {
		t.Fatalf("%+v", tr)
	}
	states, _, err := tr.Replay(m)
	if err != nil {
		t.Fatal(err)
	}
	if sb := states[3].StoreBuffer(0); len(sb) != 1 || m.Prog.LocName(sb[0].Loc) != "x" {
		t.Fatalf("store buffer after committing y: %+v", sb)
	}

	// Committing x=1 twice: the second is not enabled.
	bad := goodTrace + "P0 commit #0\nP1 exec\nP0 commit #0   # again\n"
	tr, err = ParseTrace("bad.trace", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	states, events, err := tr.Replay(m)
	if err == nil {
		t.Fatal("replayed a step that is not enabled")
	}
	msg := err.Error()
	for _, want := range []string{
		"bad.trace:12:1: step 6 \"P0 commit #0\" is not enabled",
		"steps enabled there:",
		"\tP1 exec   # P1: execute r1 = READ_ONCE(*x)",
		"\tP1 inv y  # P1: drop stale y=0 (apply its queued invalidation of y)",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in\n%s", want, msg)
		}
	}
	if len(states) != 6 || len(events) != 5 {
		t.Fatalf("%d states, %d events before the failure", len(states), len(events))
	}

	// A step naming a CPU or location the program does not have.
	tr, _ = ParseTrace("cpu.trace", []byte(goodTrace+"P7 exec\n"))
	if _, _, err := tr.Replay(m); err == nil || !strings.Contains(err.Error(), "cpu.trace:10:1: step \"P7 exec\": no CPU named P7") ||
		!strings.Contains(err.Error(), "P1 exec") {
		t.Fatalf("unknown CPU: %v", err)
	}
	// Running out of steps at the end of the execution.
	steps, _ := randomWalk(m, 1, 1000)
	full, _ := NewTrace(m, steps)
	full.Steps = append(full.Steps, TraceStep{ID: "P0 exec", Pos: syntax.Position{File: "x", Line: 99, Col: 1}})
	if _, _, err := full.Replay(m); err == nil || !strings.Contains(err.Error(), "x:99:1:") || !strings.Contains(err.Error(), "already ended") {
		t.Fatalf("step after the end: %v", err)
	}
}

func TestTraceWrongScenarioOrMode(t *testing.T) {
	tr, err := ParseTrace("good.trace", []byte(goodTrace))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tr.Replay(traceMachine(t, "sb+once", machine.ARM))
	if err == nil || err.Error() != `good.trace:2:1: this trace is for scenario "mp+once", not "sb+once"` {
		t.Fatalf("wrong scenario: %v", err)
	}
	_, _, err = tr.Replay(traceMachine(t, "mp+once", machine.TSO))
	if err == nil || err.Error() != "good.trace:4:1: this trace was recorded in ARM-like mode, not TSO mode" {
		t.Fatalf("wrong mode: %v", err)
	}
}

func TestParseTraceErrors(t *testing.T) {
	head := "smpscope trace 1\nscenario: mp+once\nmode: arm\n"
	for _, tc := range []struct{ src, want string }{
		{"", "t:1:1: empty trace"},
		{"hello\n", "t:1:1: not a smpscope trace"},
		{"smpscope trace 3\n", "t:1:16: trace format version 3 is not supported"},
		{"smpscope trace x\n", "t:1:16: bad trace version"},
		{"smpscope trace 1\nmode: arm\n", "missing \"scenario:\" line"},
		{"smpscope trace 1\nscenario: a\n", "missing \"mode:\" line"},
		{"smpscope trace 1\nscenario: a\nmode: power\n", "t:3:7: unknown mode \"power\""},
		{"smpscope trace 1\nscenario:\n", "t:2:1: \"scenario:\" needs a value"},
		{"smpscope trace 1\nscenario: a\nscenario: b\n", "t:3:1: duplicate \"scenario:\" line (first at line 2)"},
		{"smpscope trace 1\ncolour: red\n", "t:2:1: unknown header \"colour:\""},
		{head + "P0 exec\nvariant: x\n", "t:5:1: header line \"variant:\" after the first step"},
		{head + "P0\n", "t:4:1: step \"P0\" is incomplete"},
		{head + "  P0 run\n", "t:4:6: unknown step kind \"run\""},
		{head + "P0 exec now\n", "t:4:9: unexpected \"now\" after the step \"P0 exec\""},
		{head + "P0 exec #1 # no space\n", "t:4:9: unexpected \"#1\""},
		{head + "P0 commit\n", "t:4:1: \"commit\" needs its instruction, e.g. \"P0:3 commit\""},
		{head + "P0 commit 3\n", "t:4:11: want an instruction like \"P0:3 commit\""},
		{head + "P0 early #99\n", "t:4:10: want an instruction like \"P0:3 early\""},
		{head + "P0:0 commit\n", "t:4:1: want an instruction like P0:3 (numbered from 1), not \"P0:0\""},
		{head + "P0:x commit\n", "t:4:1: want an instruction like P0:3 (numbered from 1)"},
		{head + "P0:2 exec\n", "t:4:1: \"P0:2\" names an instruction, but a \"exec\" step has none"},
		{head + "P0:2 commit #1\n", "t:4:13: unexpected \"#1\" after the step"},
		{head + "P1 inv\n", "t:4:4: \"inv\" needs the location"},
		{head + "P1 qs x\n", "t:4:7: unexpected \"x\""},
		{"smpscope trace 1\n\xff\n", "t:2:1: the trace is not valid UTF-8 (byte 0xff"},
		// Nothing that could reach a terminal as an escape sequence (issue
		// 11, item 2), wherever it is: header, step, comment, note.
		{head + "variant: o\x1b]2;PWNED\a\n", "t:4:11: the trace contains the control or unprintable character U+001B"},
		{head + "# a \x1b[31m note\n", "t:4:5: the trace contains the control or unprintable character U+001B"},
		{head + "P0 exec # \u202e reversed\n", "t:4:11: the trace contains the control or unprintable character U+202E"},
		{head + "P0 exec\rP1 exec\n", "t:4:8: the trace contains the control or unprintable character U+000D"},
		{head + "P0\x00 exec\n", "t:4:3: the trace contains the control or unprintable character U+0000"},
		{head + "P0 exec\u009b2J\n", "t:4:8: the trace contains the control or unprintable character U+009B"},
	} {
		_, err := ParseTrace("t", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
			continue
		}
		if _, ok := err.(syntax.Error); !ok {
			t.Errorf("%q: error %T is not a syntax.Error", tc.src, err)
		}
	}
}

func TestParseTraceLenient(t *testing.T) {
	// CRLF line ends, leading comments, tabs, trailing "#" and extra
	// spaces inside a step are all accepted.
	src := "# saved by hand\r\nsmpscope trace 1\r\nscenario:   mp+once  \r\nsource: ./my tests/mp.litmus\r\nmode: tso\r\n\r\n\tP0   exec\t#\r\nP0 commit #0#x\r\n"
	tr, err := ParseTrace("t", []byte(src))
	if err == nil {
		t.Fatalf("\"#0#x\" accepted as an instruction number: %+v", tr)
	}
	src = strings.Replace(src, "#0#x", "#0 # first", 1)
	tr, err = ParseTrace("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Scenario != "mp+once" || tr.Source != "./my tests/mp.litmus" || tr.Mode != machine.TSO || len(tr.Steps) != 2 ||
		tr.Steps[0].ID != "P0 exec" || tr.Steps[0].Pos.Col != 2 || tr.Steps[1].Comment != "first" || len(tr.Notes) != 0 {
		t.Fatalf("%+v", tr)
	}
	if !strings.Contains(tr.Format(), "source: ./my tests/mp.litmus\n") {
		t.Fatalf("source lost:\n%s", tr.Format())
	}
}

func TestTraceFileName(t *testing.T) {
	for in, want := range map[string]string{
		"mp+wmb-rmb": "mp+wmb-rmb-tso",
		"a/b c":      "a_b_c-tso",
		"../x":       "_x-tso",
		"":           "scenario-tso",
	} {
		if got := TraceFileName(in, machine.TSO); got != want {
			t.Errorf("TraceFileName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTraceFileFits72Columns: every line Format writes fits the width a
// mail carries; long notes and step comments go on below, and reading
// the file back joins them again.
func TestTraceFileFits72Columns(t *testing.T) {
	m := traceMachine(t, "iriw+once", machine.ARM)
	steps, _ := randomWalk(m, 3, 40)
	tr, err := NewTrace(m, steps)
	if err != nil {
		t.Fatal(err)
	}
	long := "A note long enough to need two comment lines: " + strings.Repeat("words and more words ", 4)
	tr.Notes = []string{long, "short"}
	text := tr.Format()
	wrapped := false
	for _, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > TraceFileWidth {
			t.Errorf("%d columns: %q", n, l)
		}
		if strings.HasPrefix(l, "      ") && strings.Contains(l, "# ") {
			wrapped = true
		}
	}
	if !wrapped {
		t.Fatalf("no step comment was wrapped; the test no longer covers it:\n%s", text)
	}
	back, err := ParseTrace("w.trace", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Notes) != 2 || back.Notes[0] != strings.Join(strings.Fields(long), " ") || back.Notes[1] != "short" {
		t.Errorf("notes read back as %q", back.Notes)
	}
	for i := range back.Steps {
		if back.Steps[i].Comment != tr.Steps[i].Comment {
			t.Errorf("step %d: comment %q read back as %q", i+1, tr.Steps[i].Comment, back.Steps[i].Comment)
		}
	}
	if back.Format() != text {
		t.Errorf("Format(Parse(Format(t))) differs")
	}
}

// A version 1 trace, whose commit and early steps number instructions
// from 0 ("P0 commit #1"), replays the steps a version 2 trace names by
// the one numbering people see ("P0:2 commit"); traces are written in
// version 2.
func TestTraceVersion1StillReads(t *testing.T) {
	sp, err := BuiltinSpec("mp+once")
	if err != nil {
		t.Fatal(err)
	}
	m := machine.MustNew(sp.Program, machine.ARM)
	v1 := "smpscope trace 1\nscenario: mp+once\nmode: arm\nP0 exec\nP0 exec\nP0 commit #1\nP1 inv y\nP1 exec\nP1 exec\nP0 commit #0\n"
	v2 := "smpscope trace 2\nscenario: mp+once\nmode: arm\nP0 exec\nP0 exec\nP0:2 commit\nP1 inv y\nP1 exec\nP1 exec\nP0:1 commit\n"
	var got [2][]machine.Step
	for i, src := range []string{v1, v2} {
		tr, err := ParseTrace("t", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range tr.Steps {
			st, err := ts.step(m.Prog)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = append(got[i], st)
		}
		if _, _, err := tr.Replay(m); err != nil {
			t.Fatalf("version %d: %v", i+1, err)
		}
	}
	if !slices.Equal(got[0], got[1]) {
		t.Fatalf("version 1 reads %v, version 2 %v", got[0], got[1])
	}
	tr, err := NewTrace(m, got[1])
	if err != nil {
		t.Fatal(err)
	}
	if f := tr.Format(); !strings.HasPrefix(f, "smpscope trace 2\n") || !strings.Contains(f, "P0:2 commit") || strings.Contains(f, "#") && strings.Contains(f, "commit #") {
		t.Errorf("a new trace is written as:\n%s", f)
	}
}

package views

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/scenariotest"
)

// TestCPUMarks checks the source-line marks: executed (✓), passed over by
// a branch (–), the program counter (▶) and not reached yet. They come
// from the state alone (machine.State.Executed), so a state without the
// events that led to it is marked the same.
func TestCPUMarks(t *testing.T) {
	b := machine.NewBuilder("branch")
	x, y := b.Loc("x", 0), b.Loc("y", 0)
	p0 := b.Thread()
	r0 := p0.Reg("r0")
	p0.Load(machine.Once, r0, x)
	p0.If(machine.RegExpr(r0), func() { p0.StoreConst(machine.Once, y, 1) }, nil)
	p0.StoreConst(machine.Once, y, 2)
	p0.StoreConst(machine.Once, x, 3)
	m := machine.MustNew(b.Program(), machine.TSO)
	s := m.Initial()
	// One step: the load reads x=0, the branch folds and skips y=1.
	for _, st := range m.Enabled(s) {
		if st.Kind == machine.StepExec {
			s, _, _ = m.Apply(s, st)
			break
		}
	}
	in := ScenarioInput{Spec: &scenarios.Spec{Program: m.Prog}, Mach: m, Initial: m.Initial(), State: s, Cursor: 0}
	col := cpuColumn(in, Styles{}, 0, 40, false)
	var code []string
	for _, l := range col[secCode] {
		code = append(code, ansi.Strip(l))
	}
	want := []string{
		"1 ✓ r0 = READ_ONCE(*x);",
		"2 ✓ if (r0)",
		"3 –   WRITE_ONCE(*y, 1);", // inside the if
		"4 ▶ WRITE_ONCE(*y, 2);",
		"5   WRITE_ONCE(*x, 3);",
	}
	if strings.Join(code, "\n") != strings.Join(want, "\n") {
		t.Errorf("code marks:\n%s\nwant:\n%s", strings.Join(code, "\n"), strings.Join(want, "\n"))
	}
}

// TestPresentLayoutTiles checks that presentation mode's regions cover
// every cell exactly once at every size, for a small and a large machine,
// and that the rendering fills the window exactly.
func TestPresentLayoutTiles(t *testing.T) {
	small := machine.NewBuilder("small")
	x := small.Loc("x", 0)
	small.Thread().StoreConst(machine.Once, x, 1)
	big := machine.NewBuilder("big")
	var locs []machine.Loc
	for i := 0; i < 6; i++ {
		locs = append(locs, big.Loc(string(rune('a'+i)), 0))
	}
	for c := 0; c < 6; c++ {
		th := big.Thread()
		for i := 0; i < 8; i++ {
			th.StoreConst(machine.Once, locs[(c+i)%6], machine.Value(i))
		}
	}
	for _, p := range []*machine.Program{small.Program(), big.Program()} {
		m := machine.MustNew(p, machine.ARM)
		in := ScenarioInput{Spec: &scenarios.Spec{Program: m.Prog}, Mach: m, Initial: m.Initial(), State: m.Initial(), Present: &PresentInput{Every: time.Second}}
		for w := MinWidth; w <= 220; w += 9 {
			for h := MinHeight; h <= 70; h += 5 {
				r, ok := PresentLayout(in, w, h)
				if !ok {
					t.Fatalf("PresentLayout(%d, %d) refused", w, h)
				}
				cover := make([]int, w*h)
				for _, rect := range []Rect{r.Header, r.Bar, r.CPUs, r.Memory, r.Event, r.Story} {
					if rect.W <= 0 || rect.H <= 0 {
						t.Fatalf("%dx%d: empty region %+v", w, h, rect)
					}
					for y := rect.Y; y < rect.Y+rect.H; y++ {
						for x := rect.X; x < rect.X+rect.W; x++ {
							if x < 0 || x >= w || y < 0 || y >= h {
								t.Fatalf("%dx%d: region %+v outside the window", w, h, rect)
							}
							cover[y*w+x]++
						}
					}
				}
				for i, n := range cover {
					if n != 1 {
						t.Fatalf("%dx%d: cell (%d,%d) covered %d times", w, h, i%w, i/w, n)
					}
				}
				if r.Event.H < 8 || r.Story.H < 8 {
					t.Errorf("%dx%d: event %d and story %d rows high, want at least 8", w, h, r.Event.H, r.Story.H)
				}
				lines := strings.Split(RenderScenario(in, Styles{}, w, h), "\n")
				if len(lines) != h {
					t.Fatalf("%dx%d: %d lines", w, h, len(lines))
				}
				for _, l := range lines {
					if ansi.StringWidth(l) != w {
						t.Fatalf("%dx%d: line %d wide: %q", w, h, ansi.StringWidth(l), l)
					}
				}
			}
		}
	}
	if _, ok := PresentLayout(ScenarioInput{}, 100, 30); ok {
		t.Error("PresentLayout without a machine accepted")
	}
}

func TestPresentIndicator(t *testing.T) {
	in := ScenarioInput{Steps: make([]machine.Step, 9), Cursor: 3, Present: &PresentInput{Every: 1500 * time.Millisecond}}
	for _, c := range []struct {
		paused bool
		cursor int
		want   string
	}{
		{false, 3, "▶ presenting · step 3/9 · every 1.5s"},
		{true, 3, "⏸ paused · step 3/9"},
		{false, 9, "■ the end · step 9/9"},
	} {
		in.Present.Paused, in.Cursor = c.paused, c.cursor
		if got := PresentIndicator(in); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	for d, want := range map[time.Duration]string{3 * time.Second: "3s", 800 * time.Millisecond: "800ms", 2500 * time.Millisecond: "2.5s"} {
		if got := formatPace(d); got != want {
			t.Errorf("formatPace(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestWrapCode: a source line wraps at its spaces, and a word too long
// for a line after an opening parenthesis or a comma, so that the
// primitive's name stays whole; only a name longer than the line is cut.
func TestWrapCode(t *testing.T) {
	for _, c := range []struct {
		text string
		w    int
		want string
	}{
		{"WRITE_ONCE(*x, 1);", 40, "WRITE_ONCE(*x, 1);"},
		{"smp_store_release(goal, 8);", 21, "smp_store_release(|goal, 8);"},
		{"  WRITE_ONCE(*woken, 1);", 20, "  WRITE_ONCE(*woken,|  1);"},
		{"r1 = smp_load_acquire(goal);", 21, "r1 =|smp_load_acquire(|goal);"},
		{"smp_store_release(goalgoalgoalgoal,8);", 21, "smp_store_release(|goalgoalgoalgoal,8);"},
		{"smp_mb__after_unlock_lock();", 10, "smp_mb__af|ter_unlock|_lock();"},
		{"", 5, ""},
	} {
		if got := strings.Join(wrapCode(c.text, c.w), "|"); got != c.want {
			t.Errorf("wrapCode(%q, %d) = %q, want %q", c.text, c.w, got, c.want)
		}
		for _, l := range wrapCode(c.text, c.w) {
			if ansi.StringWidth(l) > c.w {
				t.Errorf("wrapCode(%q, %d): line %q is wider", c.text, c.w, l)
			}
		}
	}
}

// TestCPUStatementParts checks that a statement compiled to several
// instructions is listed once, its later parts under it by what they do,
// each still numbered as the edit syntax numbers it.
func TestCPUStatementParts(t *testing.T) {
	sp := scenariotest.Spec(t, "parts.litmus", `C parts
{}
P0(int *x, atomic_t *y, int *z)
{
	int r0; int r4;
	r0 = atomic_inc_return_release(y);
	r4 = READ_ONCE(*x) + READ_ONCE(*z);
}
exists (0:r0=0)
`)
	m := machine.MustNew(sp.Program, machine.ARM)
	in := ScenarioInput{Spec: &scenarios.Spec{Program: m.Prog}, Mach: m, Initial: m.Initial(), State: m.Initial()}
	var code []string
	for _, l := range cpuColumn(in, Styles{}, 0, 44, false)[secCode] {
		code = append(code, strings.TrimRight(ansi.Strip(l), " "))
	}
	want := []string{
		"1 ▶ r0 = atomic_inc_return_release(y);",
		"2   ↳ sets r0",
		"3   r4 = READ_ONCE(*x) + READ_ONCE(*z);",
		"4   ↳ reads z",
		"5   ↳ sets r4",
	}
	if strings.Join(code, "\n") != strings.Join(want, "\n") {
		t.Errorf("code:\n%s\nwant:\n%s", strings.Join(code, "\n"), strings.Join(want, "\n"))
	}
}

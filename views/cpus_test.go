package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
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
	in := ScenarioInput{Mach: m, Initial: m.Initial(), State: s, Cursor: 0}
	col := cpuColumn(in, Styles{}, 0, 40, false)
	var code []string
	for _, l := range col[secCode] {
		code = append(code, ansi.Strip(l))
	}
	want := []string{
		"✓ r0 = READ_ONCE(*x);",
		"✓ if (r0)",
		"– WRITE_ONCE(*y, 1);",
		"▶ WRITE_ONCE(*y, 2);",
		"  WRITE_ONCE(*x, 3);",
	}
	if strings.Join(code, "\n") != strings.Join(want, "\n") {
		t.Errorf("code marks:\n%s\nwant:\n%s", strings.Join(code, "\n"), strings.Join(want, "\n"))
	}
}

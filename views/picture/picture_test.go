package picture

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"smpscope/machine"
	"smpscope/scenarios"
)

func spec(t testing.TB, name string) *scenarios.Spec {
	t.Helper()
	sp, err := scenarios.Resolve(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// witness is the execution the front-ends show for name in mode: its
// shortest witness, or the closest attempt.
func witness(t testing.TB, name string, mode machine.Mode) *scenarios.Execution {
	t.Helper()
	ex, err := scenarios.WitnessOrAttempt(spec(t, name), mode, machine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func exec(c int) machine.Step { return machine.Step{Kind: machine.StepExec, CPU: uint8(c)} }
func commit(c, i int) machine.Step {
	return machine.Step{Kind: machine.StepCommit, CPU: uint8(c), Arg: uint8(i)}
}
func inv(c, l int) machine.Step {
	return machine.Step{Kind: machine.StepInvalidate, CPU: uint8(c), Arg: uint8(l)}
}

// mpStale is mp+once in ARM-like mode with the out-of-order commit and a
// stale x: P0 commits y=1 before x=1, P1 applies only y's invalidation,
// reads y=1, P0 commits x=1, and P1 reads the stale x=0.
func mpStale(t testing.TB) *scenarios.Execution {
	ex, err := scenarios.NewExecution(spec(t, "mp+once"), machine.ARM,
		[]machine.Step{exec(0), exec(0), commit(0, 1), inv(1, 1), exec(1), commit(0, 0), exec(1)}, "")
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func goldens(t *testing.T, ex *scenarios.Execution) {
	pic := Build(ex)
	t.Run("unicode", func(t *testing.T) { golden.RequireEqual(t, []byte(Text(pic, TextOptions{}))) })
	t.Run("ascii", func(t *testing.T) { golden.RequireEqual(t, []byte(Text(pic, TextOptions{ASCII: true}))) })
}

func TestTimelineMPStale(t *testing.T)   { goldens(t, mpStale(t)) }
func TestTimelineMPWitness(t *testing.T) { goldens(t, witness(t, "mp+once", machine.ARM)) }
func TestTimelineSB(t *testing.T)        { goldens(t, witness(t, "sb+once", machine.ARM)) }
func TestTimelineExt4(t *testing.T) {
	goldens(t, witness(t, "ext4-last-group+rel-acq", machine.ARM))
}
func TestTimelineIRIW(t *testing.T)     { goldens(t, witness(t, "iriw+once", machine.ARM)) }
func TestTimelineMPWmbRmb(t *testing.T) { goldens(t, witness(t, "mp+wmb-rmb", machine.ARM)) }

// An access performed past a fully ordered cmpxchg is a guess that the
// cmpxchg fails: the note says so, not that the cmpxchg "is known".
func TestTimelineGuessedCmpxchg(t *testing.T) {
	sp, err := scenarios.Resolve("-", strings.NewReader(`C guessed-cmpxchg
{}
P0(int *x, int *y) { int r0; r0 = cmpxchg(x, 0, 2); WRITE_ONCE(*y, 1); }
P1(int *x) { WRITE_ONCE(*x, 1); }
exists (0:r0=1)`))
	if err != nil {
		t.Fatal(err)
	}
	early := machine.Step{Kind: machine.StepEarly, CPU: 0, Arg: 1}
	ex, err := scenarios.NewExecution(sp, machine.ARM, []machine.Step{early, exec(1), commit(1, 0), inv(0, 0), exec(0)}, "")
	if err != nil {
		t.Fatal(err)
	}
	txt := Text(Build(ex), TextOptions{Width: 160})
	if !strings.Contains(txt, "on the guess that r0 = cmpxchg(x, 0, 2) fails") || strings.Contains(txt, "is known") {
		t.Errorf("the early store's note does not say it was issued on the guess that the cmpxchg fails:\n%s", txt)
	}
}

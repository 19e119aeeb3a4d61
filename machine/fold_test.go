package machine_test

import (
	"testing"

	"pgregory.net/rapid"

	"smpscope/machine"
)

// TestMayFoldSRCUUnlockForesees checks persistentCPU's shortcut: it
// performs a CPU's next instruction on a copy only when
// MayFoldSRCUUnlock says the step may fold an srcu_read_unlock or
// srcu_up_read, so that must hold whenever Apply folds one, at every
// state of random walks through random SRCU programs, in both modes.
func TestMayFoldSRCUUnlockForesees(t *testing.T) {
	folded := 0
	rapid.Check(t, func(rt *rapid.T) {
		p := genRandomOf(rt, 3, 8, srcuMixKinds)
		// Several walks per program and mode: a fold past an instruction
		// issued early (ARM-like) is rare in one.
		for walk := 0; walk < 16; walk++ {
			m := machine.MustNew(p, []machine.Mode{machine.TSO, machine.ARM}[walk%2])
			walkFolds(rt, p, m, &folded)
		}
	})
	if folded == 0 {
		t.Fatal("no step folded an unlock: the property was never exercised")
	}
	t.Logf("%d folded unlocks checked", folded)
}

// walkFolds takes a random walk of up to 40 steps from m's initial state,
// checking MayFoldSRCUUnlock at each state; folded counts the unlocks
// folded.
func walkFolds(rt *rapid.T, p *machine.Program, m *machine.Machine, folded *int) {
	s := m.Initial()
	for step := 0; step < 40; step++ {
		for _, st := range m.Enabled(s) {
			if st.Kind != machine.StepExec {
				continue
			}
			c := int(st.CPU)
			_, ev, err := m.Apply(s, st)
			if err != nil {
				rt.Fatal(err)
			}
			for _, i := range ev.Folded {
				if p.Threads[c].Code[i].Op != machine.OpSRCUUnlock {
					continue
				}
				*folded++
				if !machine.MayFoldSRCUUnlock(m, s, c) {
					rt.Fatalf("P%d's step from pc %d folds the unlock at %d, which MayFoldSRCUUnlock did not foresee", c, s.PC(c), i)
				}
			}
		}
		next, ok := randomStep(rt, m, s)
		if !ok {
			break
		}
		s = next
	}
}

// TestMayFoldSRCUUnlockIfElse checks the same at every reachable state of
// a reader whose if/else ends just before its srcu_read_unlock: the
// then-body's last step folds the jump over the else-body and the
// unlock, a path the random programs seldom take.
func TestMayFoldSRCUUnlockIfElse(t *testing.T) {
	x, y, s := machine.Loc(0), machine.Loc(1), machine.Loc(2)
	reader := []machine.Instr{
		{Op: machine.OpSRCULock, HasDst: true, Dst: 0, Addr: at(s)},
		{Op: machine.OpLoad, Access: machine.Once, HasDst: true, Dst: 1, Addr: at(x)},
		{Op: machine.OpBranch, Cond: machine.Bin(machine.ENe, machine.RegExpr(1), machine.Const(0)), Target: 5},
		{Op: machine.OpStore, Access: machine.Once, Addr: at(y), Val: machine.Const(1), Depth: 1},
		{Op: machine.OpJump, Target: 6},
		{Op: machine.OpStore, Access: machine.Once, Addr: at(y), Val: machine.Const(2), Depth: 1},
		{Op: machine.OpSRCUUnlock, Addr: at(s), Val: machine.RegExpr(0)},
	}
	writer := []machine.Instr{
		{Op: machine.OpStore, Access: machine.Once, Addr: at(x), Val: machine.Const(1)},
		{Op: machine.OpSyncSRCU, Addr: at(s)},
	}
	p := &machine.Program{Name: "if-else-unlock", Locs: []string{"x", "y", "s"}, Init: []machine.Value{0, 0, 0},
		Threads: []machine.Thread{{Name: "P0", Code: reader, Regs: []string{"r0", "r1"}}, {Name: "P1", Code: writer}}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
		m := machine.MustNew(p, mode)
		seen := map[string]bool{}
		todo := []*machine.State{m.Initial()}
		folded := 0
		for len(todo) > 0 {
			s := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, st := range m.Enabled(s) {
				next, ev, err := m.Apply(s, st)
				if err != nil {
					t.Fatal(err)
				}
				for _, i := range ev.Folded {
					if st.Kind == machine.StepExec && p.Threads[st.CPU].Code[i].Op == machine.OpSRCUUnlock {
						folded++
						if !machine.MayFoldSRCUUnlock(m, s, int(st.CPU)) {
							t.Fatalf("%s: P%d's step from pc %d folds the unlock, which MayFoldSRCUUnlock did not foresee", mode, st.CPU, s.PC(int(st.CPU)))
						}
					}
				}
				if k := m.Key(next); !seen[k] {
					seen[k] = true
					todo = append(todo, next)
				}
			}
		}
		if folded == 0 {
			t.Fatalf("%s: no step folded the unlock", mode)
		}
	}
}

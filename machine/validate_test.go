package machine_test

import (
	"testing"

	"smpscope/machine"
)

// TestValidateMessages: Validate names the thread, index and text of the
// instruction it rejects, and why, for each structural fault, and accepts
// the program once the fault is gone.
func TestValidateMessages(t *testing.T) {
	x := machine.Const(machine.PtrTo(0))
	ok := machine.Instr{Op: machine.OpStore, Addr: x, Val: machine.Const(1), Text: "WRITE_ONCE(*x, 1);"}
	cases := []struct {
		bad  machine.Instr
		want string
	}{
		{machine.Instr{Op: machine.OpLoad, HasDst: true, Dst: 1, Addr: x, Text: " r1 = READ_ONCE(*x); "}, "P1 instruction 1 (r1 = READ_ONCE(*x);): register 1 out of range"},
		{machine.Instr{Op: machine.OpStore, Addr: machine.RegExpr(3), Val: machine.Const(1), Text: "s"}, "P1 instruction 1 (s): register 3 out of range"},
		{machine.Instr{Op: machine.OpStore, Addr: x, Val: machine.Un(machine.ENeg, nil), Text: "s"}, "P1 instruction 1 (s): unary operator without operand"},
		{machine.Instr{Op: machine.OpJump + 1, Text: "j"}, "P1 instruction 1 (j): unknown operation 16"},
		{machine.Instr{Op: machine.OpLock, Text: "spin_lock(l);"}, "P1 instruction 1 (spin_lock(l);): missing address"},
		{machine.Instr{Op: machine.OpStore, Addr: x, Text: "s"}, "P1 instruction 1 (s): missing value"},
		{machine.Instr{Op: machine.OpBranch, Target: 2, Text: "if"}, "P1 instruction 1 (if): missing condition"},
		{machine.Instr{Op: machine.OpRMW, RMW: machine.RMWCmpXchg, HasDst: true, Addr: x, Val: machine.Const(1), Text: "c"}, "P1 instruction 1 (c): conditional RMW without expected value"},
		{machine.Instr{Op: machine.OpJump, Target: 1, Text: "goto"}, "P1 instruction 1 (goto): jump target 1 must be forward and within the thread"},
		{machine.Instr{Op: machine.OpJump, Target: 3, Text: "goto"}, "P1 instruction 1 (goto): jump target 3 must be forward and within the thread"},
	}
	for _, c := range cases {
		p := &machine.Program{Name: "v", Locs: []string{"x"}, Init: []machine.Value{0}, Threads: []machine.Thread{
			{Name: "P0", Code: []machine.Instr{ok}},
			{Name: "P1", Regs: []string{"r0"}, Code: []machine.Instr{ok, c.bad}},
		}}
		err := p.Validate()
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v: Validate() = %v, want %q", c.bad, err, c.want)
		}
		p.Threads[1].Code[1] = ok
		if err := p.Validate(); err != nil {
			t.Errorf("without the fault: %v", err)
		}
	}
}

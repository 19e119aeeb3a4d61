package machine

import (
	"fmt"
	"strings"
)

// Weakening is one ordering annotation of a program and what it becomes
// when weakened: a barrier removed, an acquire load turned into
// READ_ONCE, a release store (smp_store_release, rcu_assign_pointer) into
// WRITE_ONCE, an ordered read-modify-write into a relaxed one. Asking
// which weakenings make an outcome reachable answers "is this barrier
// needed?". Spin locks and RCU are never weakened.
type Weakening struct {
	Thread int    // index in Program.Threads
	Instr  int    // index in the thread's code
	CPU    string // the thread's name, e.g. "P0"
	Line   int    // the instruction's line in the scenario source, 0 if unknown
	// What names the annotation as written, e.g. "smp_wmb()",
	// "smp_load_acquire()", "xchg()".
	What string
	// To says what it becomes, e.g. "nothing", "READ_ONCE()",
	// "WRITE_ONCE()", "xchg_relaxed()".
	To string
}

// Where locates the annotation for people: "P0 line 12", or "P0
// instruction 3" when the source line is unknown.
func (w Weakening) Where() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s line %d", w.CPU, w.Line)
	}
	return fmt.Sprintf("%s instruction %d", w.CPU, w.Instr)
}

// String is "smp_wmb() (P0 line 12)".
func (w Weakening) String() string { return w.What + " (" + w.Where() + ")" }

// Weakenings lists every ordering annotation of p that can be weakened, in
// thread and program order: every barrier other than barrier() (which
// orders nothing on either machine), every acquire load, every release
// store, and every fully ordered, acquire or release read-modify-write.
func Weakenings(p *Program) []Weakening {
	var out []Weakening
	for t := range p.Threads {
		th := &p.Threads[t]
		for i := range th.Code {
			in := &th.Code[i]
			w := Weakening{Thread: t, Instr: i, CPU: th.Name, Line: in.Line}
			switch {
			case in.Op == OpFence && in.Fence != FenceBarrier:
				w.What, w.To = in.Fence.String()+"()", "nothing"
			case in.Op == OpLoad && in.Access == Acquire:
				w.What, w.To = primitiveName(in, "smp_load_acquire"), "READ_ONCE()"
			case in.Op == OpStore && in.Access == Release:
				w.What, w.To = primitiveName(in, "smp_store_release"), "WRITE_ONCE()"
			case in.Op == OpStore && in.Access == RCUAssign:
				w.What, w.To = primitiveName(in, "rcu_assign_pointer"), "WRITE_ONCE()"
			case in.Op == OpRMW && in.Order != OrderRelaxed:
				w.What = primitiveName(in, in.Order.String()+" RMW")
				w.To = relaxedName(w.What)
			default:
				continue
			}
			out = append(out, w)
		}
	}
	return out
}

// Apply returns a copy of p with the annotation weakened. p is not
// changed: the program, its thread list and the weakened thread's code are
// copied, and everything else (expressions, other threads' code) is
// shared, as programs are never modified once built. Apply panics if w
// does not name a weakenable instruction of p (a Weakening of another
// program).
func (w Weakening) Apply(p *Program) *Program {
	if w.Thread < 0 || w.Thread >= len(p.Threads) || w.Instr < 0 || w.Instr >= len(p.Threads[w.Thread].Code) {
		panic(fmt.Sprintf("machine: weakening %s does not fit program %q", w, p.Name))
	}
	q := *p
	q.Threads = append([]Thread(nil), p.Threads...)
	th := &q.Threads[w.Thread]
	th.Code = append([]Instr(nil), th.Code...)
	in := &th.Code[w.Instr]
	switch {
	case in.Op == OpFence && in.Fence != FenceBarrier:
		in.Fence = FenceBarrier
	case in.Op == OpLoad && in.Access == Acquire:
		in.Access, in.Prim = Once, PrimReadOnce
	case in.Op == OpStore && in.Access.IsRelease():
		in.Access, in.Prim = Once, PrimWriteOnce
	case in.Op == OpRMW && in.Order != OrderRelaxed:
		in.Order, in.Prim = OrderRelaxed, in.Prim.WithOrder(OrderRelaxed)
	default:
		panic(fmt.Sprintf("machine: weakening %s: instruction %q has no ordering to weaken", w, strings.TrimSpace(in.Text)))
	}
	return &q
}

// WeakenAll applies every weakening of ws to p (see [Weakening.Apply]).
func WeakenAll(p *Program, ws []Weakening) *Program {
	for _, w := range ws {
		p = w.Apply(p)
	}
	return p
}

// plainPrimitives are names that never name the annotation itself.
var plainPrimitives = map[string]bool{
	"READ_ONCE": true, "WRITE_ONCE": true, "rcu_dereference": true, "atomic_read": true,
	"atomic_set": true, "if": true, "while": true, "sizeof": true,
}

// primitiveName finds the kernel primitive an instruction was written
// with: the first called name in its text that is not a plain access (an
// RMW may sit inside READ_ONCE's argument, an acquire next to a plain
// load). It falls back to def.
func primitiveName(in *Instr, def string) string {
	text := in.Text
	for i := 0; i < len(text); {
		if !isIdentStart(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isIdentPart(text[j]) {
			j++
		}
		name := text[i:j]
		k := j
		for k < len(text) && text[k] == ' ' {
			k++
		}
		if k < len(text) && text[k] == '(' && !plainPrimitives[name] && wantName(in, name) {
			return name + "()"
		}
		i = j
	}
	return def + "()"
}

// wantName reports whether name fits the kind of instruction: the acquire
// of an acquire load, the release of a release store.
func wantName(in *Instr, name string) bool {
	switch {
	case in.Op == OpLoad:
		return strings.Contains(name, "acquire")
	case in.Op == OpStore && in.Access == RCUAssign:
		return name == "rcu_assign_pointer"
	case in.Op == OpStore:
		return strings.Contains(name, "release")
	}
	return true
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// relaxedName names the relaxed form of an RMW primitive: xchg() becomes
// xchg_relaxed(), atomic_fetch_add_acquire() atomic_fetch_add_relaxed().
func relaxedName(what string) string {
	base := strings.TrimSuffix(what, "()")
	if !strings.HasPrefix(base, "atomic") && !strings.HasPrefix(base, "xchg") && !strings.HasPrefix(base, "cmpxchg") {
		return "a relaxed RMW"
	}
	for _, suf := range []string{"_acquire", "_release"} {
		base = strings.TrimSuffix(base, suf)
	}
	return base + "_relaxed()"
}

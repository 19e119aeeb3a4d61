package words

import (
	"fmt"
	"strings"

	"smpscope/machine"
)

// namer names a program's CPUs, locations, values and instructions.
type namer struct{ p *machine.Program }

func newNamer(p *machine.Program) namer { return namer{p: p} }

func (n namer) code(c int) []machine.Instr { return n.p.Threads[c].Code }

func (n namer) cpu(c int) string { return n.p.Threads[c].Name }

func (n namer) loc(l machine.Loc) string { return n.p.LocName(l) }

func (n namer) val(v machine.Value) string { return n.p.FormatValue(v) }

// instr is instruction i of CPU c as written, without the final
// semicolon, for use inside sentences; a later part of a statement
// says which part it is, first ("the read of z in r4 = READ_ONCE(*x) +
// READ_ONCE(*z)"), so that two steps never read the same, not even cut
// to a narrow pane's width.
func (n namer) instr(c, i int) string {
	if i < 0 || i >= len(n.code(c)) {
		return "?"
	}
	if _, noun := part(n.p, c, i); noun != "" {
		return noun + " in " + n.stmt(c, i) // not the statement's first
	}
	return n.stmt(c, i)
}

// stmt is the statement instruction i of CPU c belongs to, as written,
// without the final semicolon: where a sentence says what the
// instruction did, which names the part.
func (n namer) stmt(c, i int) string {
	code := n.code(c)
	if i < 0 || i >= len(code) {
		return "?"
	}
	if t := strings.TrimSuffix(strings.TrimSpace(code[i].Text), ";"); t != "" {
		return t
	}
	return fmt.Sprintf("instruction %d", i)
}

// internalReg reports whether register r of CPU c is a compiler temporary
// (named with a leading underscore), which people never wrote.
func (n namer) internalReg(c int, r machine.Reg) bool {
	return strings.HasPrefix(n.p.Threads[c].Regs[r], "_")
}

// entry is a store-buffer entry as people write it: x=1.
func (n namer) entry(e machine.SBEntry) string { return n.loc(e.Loc) + "=" + n.val(e.Val) }

// entries names stores: "x=1", "x=1 and y=2", "x=1, y=2 and z=3".
func (n namer) entries(es []machine.SBEntry) string {
	var names []string
	for _, e := range es {
		if e.Kind != machine.EntryWmb {
			names = append(names, n.entry(e))
		}
	}
	return joinAnd(names)
}

func (n namer) locs(ls []machine.Loc) string {
	var names []string
	for _, l := range ls {
		names = append(names, n.loc(l))
	}
	return strings.Join(names, ", ")
}

func (n namer) cpus(cs []int) string {
	var names []string
	for _, c := range cs {
		names = append(names, n.cpu(c))
	}
	return strings.Join(names, ", ")
}

// rmw names a read-modify-write as written: its primitive, or for a
// program built without a source the function it applies.
func (n namer) rmw(in *machine.Instr) string {
	if in.Prim != machine.PrimNone {
		return in.Prim.String()
	}
	switch {
	case in.RMW == machine.RMWAddUnless:
		return "atomic_add_unless"
	case in.Order == machine.OrderAcquire:
		return "cmpxchg_acquire"
	}
	return "cmpxchg"
}

// entryKind is the word a store entry's kind adds before "store":
// "release ", "exclusive ", or nothing.
func entryKind(k machine.EntryKind) string {
	switch k {
	case machine.EntryRelease:
		return "release "
	case machine.EntryExclusive:
		return "exclusive "
	case machine.EntryReleaseExclusive:
		return "exclusive release "
	}
	return ""
}

func joinAnd(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// plural is "1 entry" or "3 entries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func pronoun(n int) string { return pluralWord(n, "it", "them") }

// Continues reports whether instruction i of CPU c is a later part of the
// statement instruction i-1 belongs to: a statement that compiles to
// several instructions (two loads and the sum of their values, a
// read-modify-write and the result computed from the old value) gives
// each of them the statement's text and line.
func Continues(p *machine.Program, c, i int) bool {
	code := p.Threads[c].Code
	return i > 0 && i < len(code) && code[i].Text != "" && sameStatement(&code[i], &code[i-1])
}

// sameStatement reports whether two instructions of a CPU come from the
// same statement: the compiler gives each the statement's text and line.
func sameStatement(a, b *machine.Instr) bool { return a.Text == b.Text && a.Line == b.Line }

// Part says, in a few words, what a later part of a statement does
// (Continues), so that a listing shows it under the statement's text
// instead of the same text again: "reads z", "sets r0". It is "" for the
// first instruction of a statement.
func Part(p *machine.Program, c, i int) string {
	verb, _ := part(p, c, i)
	return verb
}

// part is Part as a verb phrase ("reads z") and as a noun phrase ("the
// read of z"), for sentences that name the instruction.
func part(p *machine.Program, c, i int) (verb, noun string) {
	if !Continues(p, c, i) {
		return "", ""
	}
	n := newNamer(p)
	in := &p.Threads[c].Code[i]
	loc := ""
	if in.Addr != nil && in.Addr.Op == machine.EConst {
		if l, ok := in.Addr.Val.AsLoc(); ok {
			loc = n.loc(l)
		}
	}
	at := func(verb, noun string) (string, string) {
		if loc == "" {
			return verb + " through a pointer", noun + " through a pointer"
		}
		return verb + " " + loc, noun + " of " + loc
	}
	switch in.Op {
	case machine.OpLoad:
		return at("reads", "the read")
	case machine.OpStore:
		return at("writes", "the write")
	case machine.OpRMW:
		return at("updates", "the update")
	case machine.OpAssign:
		if in.HasDst && !n.internalReg(c, in.Dst) {
			r := p.Threads[c].Regs[in.Dst]
			return "sets " + r, "the assignment to " + r
		}
		return "computes a value", "the computation"
	case machine.OpFence:
		return "fences", "the barrier"
	case machine.OpBranch, machine.OpJump:
		return "branches", "the branch"
	}
	return "finishes the statement", "the last part"
}

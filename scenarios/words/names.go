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
// semicolon, for use inside sentences.
func (n namer) instr(c, i int) string {
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

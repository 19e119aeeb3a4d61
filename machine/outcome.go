package machine

import (
	"strconv"
	"strings"
)

// Outcome is what a final state leaves behind: every thread's registers and
// the latest committed value of every location. Scenario conditions
// (exists, forall, filter) are evaluated on outcomes.
type Outcome struct {
	Regs [][]Value // Regs[thread][reg]
	Mem  []Value   // Mem[loc]
}

// Key returns a canonical string identifying the outcome; equal outcomes of
// one program have equal keys.
func (o Outcome) Key() string {
	var b strings.Builder
	for _, rs := range o.Regs {
		for _, v := range rs {
			b.WriteString(strconv.FormatInt(int64(v), 10))
			b.WriteByte(',')
		}
		b.WriteByte(';')
	}
	for _, v := range o.Mem {
		b.WriteString(strconv.FormatInt(int64(v), 10))
		b.WriteByte(',')
	}
	return b.String()
}

// Format renders the outcome herd7-style ("0:r0=1; 1:r1=0; x=1;") using the
// program's names. Only the registers and locations selected by keep are
// shown; keep nil shows all.
func (o Outcome) Format(p *Program, keep func(thread int, reg Reg, loc Loc, isLoc bool) bool) string {
	// Written into one buffer: formatting outcomes (for the verdict, which
	// counts them by their text, and for the report) was a twentieth of
	// what a batch of small tests allocated, one string per part.
	var b strings.Builder
	b.Grow(32) // two or three registers; a longer outcome grows it once or twice
	part := func() {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
	}
	value := func(v Value) {
		if l, ok := v.AsLoc(); ok && int(l) < len(p.Locs) {
			b.WriteString(p.Locs[l])
		} else {
			b.WriteString(strconv.FormatInt(int64(v), 10))
		}
	}
	for t, rs := range o.Regs {
		for r, v := range rs {
			if keep != nil && !keep(t, Reg(r), 0, false) {
				continue
			}
			part()
			b.WriteString(strconv.Itoa(t))
			b.WriteByte(':')
			b.WriteString(p.Threads[t].Regs[r])
			b.WriteByte('=')
			value(v)
		}
	}
	for l, v := range o.Mem {
		if keep != nil && !keep(0, 0, Loc(l), true) {
			continue
		}
		part()
		b.WriteString(p.Locs[l])
		b.WriteByte('=')
		value(v)
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteByte(';')
	return b.String()
}

package scenarios

import (
	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// condFunc evaluates a resolved condition on an outcome.
type condFunc func(o machine.Outcome) bool

// resolveClauses resolves the final clause, the filter and the locations
// line against the compiled program's names.
func (c *Compiled) resolveClauses() {
	s := c.Scenario
	resetShown := func() {
		c.shownRegs = make([]map[machine.Reg]bool, len(c.Program.Threads))
		for i := range c.shownRegs {
			c.shownRegs[i] = map[machine.Reg]bool{}
		}
		c.shownLocs = map[machine.Loc]bool{}
	}
	resetShown()
	if s.Final == nil {
		panic(syntax.Errorf(s.NamePos, "missing final condition (exists, ~exists or forall)"))
	}
	if s.Filter != nil {
		c.filter = c.resolveCond(s.Filter.Cond)
		// herd7 shows what the final clause and the locations line
		// name, not what only the filter does.
		resetShown()
	}
	c.final = c.resolveCond(s.Final.Cond)
	if s.Locations != nil {
		for _, l := range s.Locations.Items {
			c.resolveLoc(l)
		}
	}
}

// resolveLoc checks that l names a register or location, marks it shown,
// and returns a function reading it from an outcome.
func (c *Compiled) resolveLoc(l *syntax.CondLoc) func(o machine.Outcome) (machine.Value, bool) {
	if l.Thread >= 0 {
		if l.Thread >= len(c.Program.Threads) {
			panic(syntax.Errorf(l.NamePos, "there is no thread %d (the threads are P0 to P%d)", l.Thread, len(c.Program.Threads)-1))
		}
		r, ok := c.Reg(l.Thread, l.Name)
		if !ok {
			th := c.Program.Threads[l.Thread]
			panic(syntax.Errorf(l.NamePos, "P%d has no register %s (%s)", l.Thread, l.Name, describeRegs(th, c.UserRegs[l.Thread])))
		}
		c.shownRegs[l.Thread][r] = true
		t := l.Thread
		return func(o machine.Outcome) (machine.Value, bool) {
			if t < len(o.Regs) && int(r) < len(o.Regs[t]) {
				return o.Regs[t][r], true
			}
			return 0, false
		}
	}
	loc, ok := c.locs[l.Name]
	if !ok {
		panic(syntax.Errorf(l.NamePos, "unknown location %s", l.Name))
	}
	c.shownLocs[loc] = true
	return func(o machine.Outcome) (machine.Value, bool) {
		if int(loc) < len(o.Mem) {
			return o.Mem[loc], true
		}
		return 0, false
	}
}

func (c *Compiled) resolveCond(x syntax.Cond) condFunc {
	switch x := x.(type) {
	case *syntax.CondAnd:
		l, r := c.resolveCond(x.X), c.resolveCond(x.Y)
		return func(o machine.Outcome) bool { return l(o) && r(o) }
	case *syntax.CondOr:
		l, r := c.resolveCond(x.X), c.resolveCond(x.Y)
		return func(o machine.Outcome) bool { return l(o) || r(o) }
	case *syntax.CondNot:
		f := c.resolveCond(x.X)
		return func(o machine.Outcome) bool { return !f(o) }
	case *syntax.CondImplies:
		l, r := c.resolveCond(x.X), c.resolveCond(x.Y)
		return func(o machine.Outcome) bool { return !l(o) || r(o) }
	case *syntax.CondParen:
		return c.resolveCond(x.X)
	case *syntax.CondBool:
		v := x.Value
		return func(machine.Outcome) bool { return v }
	case *syntax.CondAtom:
		get := c.resolveLoc(x.Loc)
		eq := x.Op != "!="
		if x.Val.Ref != nil {
			other := c.resolveLoc(x.Val.Ref)
			return func(o machine.Outcome) bool {
				v, ok := get(o)
				w, ok2 := other(o)
				return ok && ok2 && (v == w) == eq
			}
		}
		want := c.atomValue(x)
		return func(o machine.Outcome) bool {
			v, ok := get(o)
			return ok && (v == want) == eq
		}
	}
	panic(syntax.Errorf(c.Scenario.NamePos, "unsupported condition"))
}

// atomValue is the value atom x compares with: a number, or a pointer to
// a location.
func (c *Compiled) atomValue(x *syntax.CondAtom) machine.Value {
	if x.Val.Loc == "" {
		return machine.Value(x.Val.Int)
	}
	l, ok := c.locs[x.Val.Loc]
	if !ok {
		panic(syntax.Errorf(x.Val.ValuePos, "unknown location %s", x.Val.Loc))
	}
	return machine.PtrTo(l)
}

// askedParts splits the outcome the final clause asks about into parts
// that all hold of it: the conjuncts of the proposition for exists and
// ~exists, the negated disjuncts for forall (an outcome violating
// forall (a \/ b) has ~a and ~b). A proposition that does not split is
// one part. Closest attempts count how many parts an outcome has.
func (c *Compiled) askedParts() []Clause {
	f := c.Scenario.Final
	if f == nil {
		return nil
	}
	var split func(x syntax.Cond, and bool, out []syntax.Cond) []syntax.Cond
	split = func(x syntax.Cond, and bool, out []syntax.Cond) []syntax.Cond {
		switch y := x.(type) {
		case *syntax.CondParen:
			return split(y.X, and, out)
		case *syntax.CondAnd:
			if and {
				return split(y.Y, and, split(y.X, and, out))
			}
		case *syntax.CondOr:
			if !and {
				return split(y.Y, and, split(y.X, and, out))
			}
		}
		return append(out, x)
	}
	forall := f.Kind == syntax.Forall
	var parts []Clause
	for _, x := range split(f.Cond, !forall, nil) {
		holds := c.resolveCond(x)
		text := syntax.FormatCond(x)
		if forall {
			text = syntax.FormatCond(&syntax.CondNot{X: x})
			h := holds
			holds = func(o machine.Outcome) bool { return !h(o) }
		}
		parts = append(parts, Clause{Cond: text, Holds: holds})
	}
	return parts
}

// Satisfies reports whether the outcome satisfies the proposition of the
// final clause (the condition inside exists, ~exists or forall).
func (c *Compiled) Satisfies(o machine.Outcome) bool { return c.final(o) }

// Filtered reports whether the filter clause keeps the outcome; without a
// filter every outcome is kept.
func (c *Compiled) Filtered(o machine.Outcome) bool { return c.filter == nil || c.filter(o) }

// Shown returns the selection of registers and locations to show in
// herd-style outcomes: those named in the final clause, the filter and the
// locations line. It fits machine.Outcome.Format.
func (c *Compiled) Shown() func(thread int, reg machine.Reg, loc machine.Loc, isLoc bool) bool {
	return func(thread int, reg machine.Reg, loc machine.Loc, isLoc bool) bool {
		if isLoc {
			return c.shownLocs[loc]
		}
		return thread >= 0 && thread < len(c.shownRegs) && c.shownRegs[thread][reg]
	}
}

// Verdict is herd7's summary of the final states of a scenario.
type Verdict struct {
	// Observation is Always if every kept final state satisfies the
	// condition, Never if none does, Sometimes otherwise.
	Observation syntax.Observation
	// Positive and Negative count the kept final states that do and do
	// not satisfy the condition.
	Positive, Negative int
	// Filtered counts final states the filter clause left out, of those
	// the search reached (a search pruned on the filter reaches few).
	Filtered int
	// Validated is herd7's "Ok": the final clause holds (exists: some
	// state satisfies the condition; ~exists: none does; forall: all do).
	Validated bool
}

// Verdict evaluates the final clause over a set of outcomes by the one
// counting rule ([Spec.VerdictOf]).
func (c *Compiled) Verdict(outcomes []machine.Outcome) Verdict {
	return NewSpec(c).VerdictOf(outcomes)
}

// ResultVerdict evaluates the final clause over what an exploration found.
func (c *Compiled) ResultVerdict(r *machine.Result) Verdict { return NewSpec(c).Verdict(r) }

func resultOutcomes(r *machine.Result) []machine.Outcome {
	outs := make([]machine.Outcome, len(r.Outcomes))
	for i, o := range r.Outcomes {
		outs[i] = o.Outcome
	}
	return outs
}

// verdictOf evaluates a final clause of kind k over outcomes, counting
// herd7's way: a final state is a valuation of the shown registers and
// locations (key), and each distinct one counts once, however many
// outcomes (and however many of the explorer's states) it stands for.
// So the counts are herd7's Positive and Negative, and do not depend on
// how the explorer tells its states apart.
func verdictOf(outcomes []machine.Outcome, k syntax.FinalKind, sat, kept func(machine.Outcome) bool, key func(machine.Outcome) string) Verdict {
	var v Verdict
	// An outcome is counted once per class and text (a pair, not their
	// concatenation: one string less per outcome, issue 24).
	type classed struct {
		class byte
		key   string
	}
	seen := make(map[classed]bool, len(outcomes))
	for _, o := range outcomes {
		class := byte('k')
		switch {
		case !kept(o):
			class = 'f'
		case sat(o):
			class = 'p'
		}
		id := classed{class, key(o)}
		if seen[id] {
			continue
		}
		seen[id] = true
		switch class {
		case 'f':
			v.Filtered++
		case 'p':
			v.Positive++
		default:
			v.Negative++
		}
	}
	switch {
	case v.Positive == 0:
		v.Observation = syntax.Never
	case v.Negative == 0:
		v.Observation = syntax.Always
	default:
		v.Observation = syntax.Sometimes
	}
	switch k {
	case syntax.Exists:
		v.Validated = v.Positive > 0
	case syntax.NotExists:
		v.Validated = v.Positive == 0
	case syntax.Forall:
		v.Validated = v.Negative == 0
	}
	return v
}

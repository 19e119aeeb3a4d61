package scenarios

import (
	"encoding/json"
	"fmt"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// Spec is one scenario as every front-end sees it: what it is called, the
// program it runs, and how the outcomes of its final states are judged.
// [Resolve] builds one from a name or a path, [NewSpec] from a compiled
// litmus test; tests and other Go programs may fill one in directly.
//
// A Spec is not changed once built; [Spec.Edited] derives one that runs
// the scenario with what-if edits.
type Spec struct {
	Name    string // the name after "C", e.g. "mp+once"
	Title   string // one line for people
	Family  string // scenarios of one family are variants of each other
	Variant string
	Story   string // a paragraph or two
	Source  string // the patch or thread the scenario comes from
	// Expected is the LKMM verdict the file records ("" if none).
	Expected syntax.Observation

	Program *machine.Program
	// Final is the final clause; nil when the scenario has none.
	Final *Final
	// Filter is the filter clause: outcomes it rejects are left out of the
	// verdict. Nil keeps every outcome.
	Filter *Clause
	// filterPrune builds Prune's test for a program (the pcs are its).
	filterPrune func(*machine.Program) func(*machine.State) bool
	// Parts are what the outcome the final clause asks about is made of:
	// each holds of it (see Compiled.askedParts). Nil counts the asked
	// outcome as one part.
	Parts []Clause
	// Shown selects the registers and locations herd-style outcomes name
	// (those the clauses and the locations line mention; it fits
	// machine.Outcome.Format). Nil names all.
	Shown func(thread int, reg machine.Reg, loc machine.Loc, isLoc bool) bool
	// HideReg reports the compiler's temporaries, which screens leave
	// out. Nil hides none.
	HideReg func(thread int, r machine.Reg) bool

	// File is the .litmus file the scenario was read from; "" for the
	// built-in library, standard input and programs built in Go.
	File string
	// From is where in a mail the test was found, "<stdin>:12" (the
	// line of its "C NAME"); "" for a test that is a whole file.
	From string
	// Litmus is the parsed test (nil for programs built in Go): what a
	// saved or edited scenario is printed from.
	Litmus *syntax.Scenario

	// Edits are the what-if edits that made this spec from Unedited, the
	// scenario as File or Name gives it (see [Spec.Edited]); nil for a
	// scenario as written.
	Edits    []Edit
	Unedited *Spec
}

// Clause is a proposition about outcomes, as written and as a function.
type Clause struct {
	// Cond is the proposition as written, in parentheses, e.g.
	// "(1:r0=1 /\ 1:r1=0)".
	Cond string
	// Holds evaluates the proposition on an outcome.
	Holds func(machine.Outcome) bool
}

// Final is a typed final clause: its quantifier and its proposition.
type Final struct {
	Kind syntax.FinalKind
	Clause
}

// String is the clause as written: "exists (1:r0=1 /\ 1:r1=0)".
func (f *Final) String() string { return f.Kind.String() + " " + f.Cond }

// NewSpec is the Spec of a compiled litmus test.
func NewSpec(c *Compiled) *Spec {
	s := c.Scenario
	sp := &Spec{
		Name: s.Name, Title: s.Meta.Title, Family: s.Meta.Family, Variant: s.Meta.Variant,
		Story: s.Meta.Story, Source: s.Meta.Source, Expected: s.Meta.Result,
		Program: c.Program, Shown: c.Shown(), HideReg: c.IsTemp, Litmus: s,
	}
	if s.Final != nil {
		sp.Final = &Final{Kind: s.Final.Kind, Clause: Clause{Cond: condText(s.Final.Cond), Holds: c.Satisfies}}
		sp.Parts = c.askedParts()
	}
	if s.Filter != nil {
		sp.Filter = &Clause{Cond: condText(s.Filter.Cond), Holds: c.Filtered}
		sp.filterPrune = c.filterPrune
	}
	return sp
}

// condText is a clause's proposition as written, in parentheses (as
// herd7 prints it).
func condText(c syntax.Cond) string {
	if _, paren := c.(*syntax.CondParen); paren {
		return syntax.FormatCond(c)
	}
	return "(" + syntax.FormatCond(c) + ")"
}

// Prune returns a test of a running state that the filter can no longer
// keep any execution through it (Compiled.FilterPrune), for s's program;
// nil without a filter. Explorations for verdicts pass it to the machine.
func (s *Spec) Prune() func(*machine.State) bool {
	if s.filterPrune == nil {
		return nil
	}
	return s.filterPrune(s.Program)
}

// Machine returns the machine running s's program in mode.
func (s *Spec) Machine(mode machine.Mode) (*machine.Machine, error) {
	if s.Program == nil {
		return nil, fmt.Errorf("%s: no program to run", s.Name)
	}
	return machine.New(s.Program, mode)
}

// Label names the scenario in its family: its variant, else its name.
func (s *Spec) Label() string {
	if s.Variant != "" {
		return s.Variant
	}
	return s.Name
}

// Condition is the final clause as written, or "" without one.
func (s *Spec) Condition() string {
	if s.Final == nil {
		return ""
	}
	return s.Final.String()
}

// Satisfies reports whether o satisfies the final clause's proposition
// (false without a final clause).
func (s *Spec) Satisfies(o machine.Outcome) bool { return s.Final != nil && s.Final.Holds(o) }

// Kept reports whether the filter clause keeps o.
func (s *Spec) Kept(o machine.Outcome) bool { return s.Filter == nil || s.Filter.Holds(o) }

// Asked reports whether o is the outcome the final clause asks about: one
// that satisfies the proposition for exists and ~exists, one that
// violates it for forall. Outcomes the filter leaves out never are.
func (s *Spec) Asked(o machine.Outcome) bool {
	if s.Final == nil || !s.Kept(o) {
		return false
	}
	if s.Final.Kind == syntax.Forall {
		return !s.Final.Holds(o)
	}
	return s.Final.Holds(o)
}

// AskedWords names the outcome the final clause asks about, for
// sentences: "the exists outcome (1:r0=1 /\ 1:r1=0)".
func (s *Spec) AskedWords() string {
	if s.Final == nil {
		return "the final clause's outcome"
	}
	switch s.Final.Kind {
	case syntax.Forall:
		return "an outcome violating forall " + s.Final.Cond
	case syntax.NotExists:
		return "the outcome ~exists forbids, " + s.Final.Cond + ","
	}
	return "the exists outcome " + s.Final.Cond
}

// Verdict evaluates the final clause over what an exploration found. This
// is the one counting rule, herd7's: each distinct valuation of the shown
// registers and locations is one final state (Positive, Negative and
// Filtered count those). Without a final clause it is the zero Verdict.
func (s *Spec) Verdict(r *machine.Result) Verdict {
	return s.VerdictOf(resultOutcomes(r))
}

// VerdictOf is [Spec.Verdict] over a list of outcomes.
func (s *Spec) VerdictOf(outcomes []machine.Outcome) Verdict {
	if s.Final == nil {
		return Verdict{}
	}
	return verdictOf(outcomes, s.Final.Kind, s.Final.Holds, s.Kept, s.OutcomeText)
}

// ShortestWitness returns the shortest witness among the outcomes the
// final clause asks about (see [Spec.Asked]), and whether there is one.
func (s *Spec) ShortestWitness(res *machine.Result) ([]machine.Step, bool) {
	var best []machine.Step
	found := false
	for _, o := range res.Outcomes {
		if s.Asked(o.Outcome) && (!found || len(o.Witness) < len(best)) {
			best, found = o.Witness, true
		}
	}
	return best, found
}

// OutcomeText is an outcome herd7-style over the registers and
// locations the clauses name: "1:r0=1; 1:r1=0;".
func (s *Spec) OutcomeText(o machine.Outcome) string { return o.Format(s.Program, s.Shown) }

// ProgramKey identifies a program by its content: equal programs (however
// they were built or loaded) have equal keys, so results computed for one
// can be kept for the other. The key is the program's JSON itself (a few
// KiB): exact, where a digest could collide, and it keeps crypto/sha256
// — and the twenty FIPS packages it initialises at every start — out of
// the binary (issue 24).
func ProgramKey(p *machine.Program) string {
	b, err := json.Marshal(p)
	if err != nil {
		panic(err) // a program is plain data
	}
	return string(b)
}

// Key identifies the question the spec asks by its content: its program
// and its clauses. Analyses of specs with equal keys give equal answers.
func (s *Spec) Key() string {
	k := ProgramKey(s.Program) + " " + s.Condition()
	if s.Filter != nil {
		k += " filter " + s.Filter.Cond
	}
	return k
}

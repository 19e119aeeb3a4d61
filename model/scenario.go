package model

import (
	"smpscope/machine"
	"smpscope/scenarios"
)

// Scenario is what the UI needs from a compiled scenario. It is kept small
// and independent of package scenarios so that the UI can be driven by
// programs built in Go (tests) as well as by litmus files; FromCompiled
// adapts a compiled litmus test.
type Scenario struct {
	Name    string // e.g. "MP+poonceonces"
	Title   string // one line for people
	Family  string // scenarios of one family are variants of each other
	Variant string
	Story   string // a paragraph or two, shown on demand
	Source  string // the patch or thread the scenario comes from
	Program *machine.Program

	// Condition is the final clause as written, e.g.
	// "exists (1:r0=1 /\ 1:r1=0)"; Quantifier is "exists", "~exists" or
	// "forall" ("" when the scenario has no condition).
	Condition  string
	Quantifier string
	// Holds evaluates the clause's proposition on an outcome (for
	// "exists (P)" it is P). Nil when there is no condition.
	Holds func(machine.Outcome) bool
	// Expected is the LKMM verdict recorded in the file ("Never",
	// "Sometimes", "Always" or "").
	Expected string
	// FormatOutcome renders an outcome on one line; nil shows every
	// register and location.
	FormatOutcome func(machine.Outcome) string
	// Keep is the filter clause: outcomes it rejects are left out of the
	// verdict. Nil keeps all.
	Keep func(machine.Outcome) bool
	// HideReg names registers the CPU columns leave out (compiler
	// temporaries). Nil shows all.
	HideReg func(thread int, r machine.Reg) bool
	// Shown selects the registers and locations the outcome of a copied
	// trace (y) names (machine.Outcome.Format); nil names all.
	Shown func(thread int, reg machine.Reg, loc machine.Loc, isLoc bool) bool
	// File is the .litmus file the scenario was read from, so that a
	// trace written with e can name it; "" for built-in scenarios and
	// programs built in Go.
	File string
}

// question is the scenario as the analyses (compare, necessity) see it.
func (s *Scenario) question() scenarios.Question {
	q := scenarios.Question{
		Name: s.Name, Variant: s.Variant, Title: s.Title, Program: s.Program,
		Condition: s.Condition, Satisfies: s.Holds, Filtered: s.Keep,
		Expected: scenarios.Observation(s.Expected),
	}
	switch s.Quantifier {
	case "~exists":
		q.Kind = scenarios.NotExists
	case "forall":
		q.Kind = scenarios.Forall
	}
	return q
}

// LibraryEntry is one scenario of the built-in library, as the picker lists
// it. Entries with the same Family are shown as one row with their
// variants.
type LibraryEntry struct {
	Name    string // what Options.Load is called with
	Family  string
	Variant string
	Title   string
	Summary string // optional one-line summary; Title is shown when empty
}

// target reports whether an outcome is the one the condition asks about:
// for exists and ~exists an outcome where the proposition holds, for forall
// a counterexample.
func (s *Scenario) target(o machine.Outcome) bool {
	if s.Holds == nil || (s.Keep != nil && !s.Keep(o)) {
		return false
	}
	if s.Quantifier == "forall" {
		return !s.Holds(o)
	}
	return s.Holds(o)
}

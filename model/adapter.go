package model

import (
	"strings"

	"smpscope/machine"
	"smpscope/scenarios"
)

// FromCompiled adapts a compiled litmus scenario for the UI.
func FromCompiled(c *scenarios.Compiled) *Scenario {
	s := c.Scenario
	p := c.Program
	sc := &Scenario{
		Name:     s.Name,
		Title:    s.Meta.Title,
		Family:   s.Meta.Family,
		Variant:  s.Meta.Variant,
		Story:    s.Meta.Story,
		Source:   s.Meta.Source,
		Program:  p,
		Expected: string(s.Meta.Result),
		HideReg:  c.IsTemp,
	}
	if s.Final != nil {
		sc.Quantifier = s.Final.Kind.String()
		cond := scenarios.FormatCond(s.Final.Cond)
		if _, paren := s.Final.Cond.(*scenarios.CondParen); !paren {
			cond = "(" + cond + ")"
		}
		sc.Condition = sc.Quantifier + " " + cond
		sc.Holds = c.Satisfies
	}
	if s.Filter != nil {
		sc.Keep = c.Filtered
	}
	shown := c.Shown()
	sc.FormatOutcome = func(o machine.Outcome) string {
		f := o.Format(p, shown)
		if f == "" {
			f = o.Format(p, func(t int, r machine.Reg, _ machine.Loc, isLoc bool) bool { return isLoc || !c.IsTemp(t, r) })
		}
		return strings.ReplaceAll(strings.TrimSuffix(f, ";"), "; ", " ")
	}
	return sc
}

// LibraryEntries adapts the built-in library for the picker.
func LibraryEntries(entries []*scenarios.Entry) []LibraryEntry {
	out := make([]LibraryEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, LibraryEntry{Name: e.Name, Family: e.Family, Variant: e.Variant, Title: e.Title})
	}
	return out
}

// LoadScenario loads a built-in scenario by name, or a litmus file by
// path, and compiles it: the usual Options.Load. Errors carry
// file:line:col.
func LoadScenario(nameOrPath string) (*Scenario, error) {
	s, err := scenarios.Load(nameOrPath)
	if err != nil {
		return nil, err
	}
	c, err := s.Compile()
	if err != nil {
		return nil, err
	}
	return FromCompiled(c), nil
}

// LibraryOptions returns Options for the built-in library: every entry in
// the picker, loaded with LoadScenario.
func LibraryOptions() (Options, error) {
	lib, err := scenarios.Library()
	if err != nil {
		return Options{}, err
	}
	return Options{Library: LibraryEntries(lib), Load: LoadScenario}, nil
}

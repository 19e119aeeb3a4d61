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
		Shown:    c.Shown(),
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

// LibraryEntries adapts the built-in library for the picker. Each entry's
// summary is the first sentence of its story.
func LibraryEntries(entries []*scenarios.Entry) []LibraryEntry {
	out := make([]LibraryEntry, 0, len(entries))
	for _, e := range entries {
		le := LibraryEntry{Name: e.Name, Family: e.Family, Variant: e.Variant, Title: e.Title}
		if e.Scenario != nil {
			le.Summary = firstSentence(e.Scenario.Meta.Story, summaryMax)
		}
		out = append(out, le)
	}
	return out
}

// summaryMax is the longest picker summary, in characters.
const summaryMax = 100

// abbreviations end with a dot without ending a sentence.
var abbreviations = map[string]bool{"e.g.": true, "i.e.": true, "vs.": true, "etc.": true, "cf.": true, "approx.": true}

// firstSentence returns the first sentence of text, on one line, cut at a
// word boundary with "…" when longer than limit characters.
func firstSentence(text string, limit int) string {
	words := strings.Fields(text)
	var out []string
	for _, w := range words {
		out = append(out, w)
		if abbreviations[strings.ToLower(w)] {
			continue
		}
		if strings.HasSuffix(w, ".") || strings.HasSuffix(w, "!") || strings.HasSuffix(w, "?") ||
			strings.HasSuffix(w, ".)") || strings.HasSuffix(w, ".\"") {
			break
		}
	}
	s := strings.Join(out, " ")
	if len([]rune(s)) <= limit {
		return s
	}
	cut := ""
	for _, w := range out {
		next := strings.TrimSpace(cut + " " + w)
		if len([]rune(next))+1 > limit {
			break
		}
		cut = next
	}
	if cut == "" {
		cut = string([]rune(s)[:limit-1])
	}
	return strings.TrimRight(cut, ",;:") + "…"
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
	sc := FromCompiled(c)
	if s.File == nameOrPath {
		sc.File = nameOrPath // read from a file, not the library
	}
	return sc, nil
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

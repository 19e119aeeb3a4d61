package model

import (
	"strings"

	"smpscope/scenarios"
)

// LibraryEntry is one scenario of the built-in library, as the picker lists
// it. Entries with the same Family are shown as one row with their
// variants.
type LibraryEntry struct {
	Name    string // what Options.Load is called with
	Family  string
	Variant string
	Title   string
	Summary string // optional one-line summary; Title is shown when empty
	Story   string // the whole story, which the picker's filter searches too
	// Baseline marks the variant the picker's row opens on (the family's
	// broken baseline; the first entry when none is marked).
	Baseline bool
}

// LibraryEntries adapts the built-in library for the picker. Each entry's
// summary is the first sentence of its story.
func LibraryEntries(entries []*scenarios.Entry) []LibraryEntry {
	out := make([]LibraryEntry, 0, len(entries))
	for _, e := range entries {
		le := LibraryEntry{Name: e.Name, Family: e.Family, Variant: e.Variant, Title: e.Title, Baseline: e.Baseline}
		if e.Scenario != nil {
			le.Summary = firstSentence(e.Scenario.Meta.Story, summaryMax)
			le.Story = e.Scenario.Meta.Story
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

// LoadSpec loads the built-in scenario a library entry names (never a
// file of that name): the usual Options.Load.
func LoadSpec(name string) (*scenarios.Spec, error) { return scenarios.BuiltinSpec(name) }

// LibraryOptions returns Options for the built-in library: every entry in
// the picker, loaded with LoadSpec.
func LibraryOptions() (Options, error) {
	lib, err := scenarios.Library()
	if err != nil {
		return Options{}, err
	}
	return Options{Library: LibraryEntries(lib), Load: LoadSpec}, nil
}

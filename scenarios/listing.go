package scenarios

import (
	"fmt"
	"strings"

	"smpscope/scenarios/syntax"
)

// ListingLine is one line of a scenario's litmus source as Format writes
// it, with the instructions compiled from it, by their addresses in the
// one numbering people see ("P0:2", as the CPU columns and --edit number
// them).
type ListingLine struct {
	Text   string
	Instrs []string
	// Header marks the lines of the leading comment (the metadata and
	// the story, when it has them) and the blank lines around it.
	Header bool
}

// Listing is the scenario's litmus source (the edited one, for a
// what-if), its comments included, as Format writes it, each line with
// the instructions compiled from it: what the UI's source page shows, so
// that a file line and an instruction number are seen side by side. It
// is nil for a program built without litmus source, or when the source
// does not compile again (it always does: Format round-trips).
func (s *Spec) Listing() []ListingLine {
	if s.Litmus == nil {
		return nil
	}
	src := syntax.Format(s.Litmus)
	var out []ListingLine
	header := false
	for i, l := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		if i == 1 {
			header = true // after the "C NAME" line, up to the initial state
		}
		if strings.HasPrefix(l, "{") {
			header = false
		}
		out = append(out, ListingLine{Text: l, Header: header})
	}
	sc, err := Parse(s.Litmus.File, []byte(src))
	if err != nil {
		return nil
	}
	c, err := Compile(sc)
	if err != nil {
		return nil
	}
	for _, th := range c.Program.Threads {
		for i, in := range th.Code {
			if in.Line < 1 || in.Line > len(out) {
				continue
			}
			l := &out[in.Line-1]
			l.Instrs = append(l.Instrs, fmt.Sprintf("%s:%d", th.Name, i+1))
		}
	}
	return out
}

package machine

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// RULES.md is the project's statement of the rules. It cannot drift from
// the code unnoticed: each of its tables names exactly the primitives,
// steps, waits and read classifications the code has.

// docSection returns the text of RULES.md's section "## title".
func docSection(t *testing.T, doc, title string) string {
	t.Helper()
	start := strings.Index(doc, "\n## "+title+"\n")
	if start < 0 {
		t.Fatalf("RULES.md has no section %q", title)
	}
	rest := doc[start+len(title)+4:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

var backticked = regexp.MustCompile("`([^`]+)`")

// firstCells returns the names in backquotes in the first column of the
// section's table rows.
func firstCells(section string) []string {
	var out []string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "|---") {
			continue
		}
		cell := strings.SplitN(line[2:], " |", 2)[0]
		for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// plainCells returns the first column of the section's table rows, as
// written.
func plainCells(section string) []string {
	var out []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "|---") {
			out = append(out, strings.TrimSpace(strings.SplitN(line[2:], " |", 2)[0]))
		}
	}
	return out[1:] // the header
}

func TestRulesDocNamesEveryRule(t *testing.T) {
	b, err := os.ReadFile("RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	// Every primitive family has its row, and every name a row gives is
	// a primitive (or an ordering suffix, or plain C).
	prims := firstCells(docSection(t, doc, "Primitives"))
	for _, p := range Prims() {
		if p.Family() == p && !slices.Contains(prims, p.String()) {
			t.Errorf("RULES.md's primitive table has no row for %s", p)
		}
	}
	for _, name := range prims {
		if _, ok := PrimNamed(name); !ok && !slices.Contains([]string{"_relaxed", "_acquire", "_release", "if", "else"}, name) {
			t.Errorf("RULES.md's primitive table names %s, which is no primitive", name)
		}
	}

	// Every kind of wait, and no other.
	waits := firstCells(docSection(t, doc, "Waits"))
	var kinds []string
	for k := WaitNone + 1; k < numWaitKinds; k++ {
		kinds = append(kinds, k.String())
	}
	if !slices.Equal(waits, kinds) {
		t.Errorf("RULES.md's waits are %v; the code's, in order, %v", waits, kinds)
	}

	// Every kind of step.
	if steps := firstCells(docSection(t, doc, "Steps")); !slices.Equal(steps, stepKindNames[:]) {
		t.Errorf("RULES.md's steps are %v; the code's %v", steps, stepKindNames)
	}

	// Every read classification.
	var classes []string
	for c := Forwarded; c <= NewerPending; c++ {
		classes = append(classes, c.String())
	}
	if got := plainCells(docSection(t, doc, "Loads")); !slices.Equal(got, classes) {
		t.Errorf("RULES.md's read classifications are %v; the code's %v", got, classes)
	}

	// The shapes table is shapes_test.go's, with the same verdicts.
	var want []string
	word := map[bool]string{true: "allowed", false: "forbidden"}
	for _, sh := range shapes {
		want = append(want, fmt.Sprintf("%s %s %s", sh.name, word[sh.tso], word[sh.arm]))
	}
	var got []string
	for _, line := range strings.Split(docSection(t, doc, "Shapes every mode must get right"), "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| `") || len(cells) != 4 {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s %s", strings.Trim(cells[0], "| `"), cells[2], strings.TrimSuffix(cells[3], " |")))
	}
	if !slices.Equal(got, want) {
		t.Errorf("RULES.md's shapes are\n%s\nshapes_test.go's\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/scenarios"
)

var bothModes = []machine.Mode{machine.TSO, machine.ARM}

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var markdown bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "compare FAMILY [--markdown]",
		Short: "Explore every variant of a built-in family in both modes, as one table",
		Long: `compare explores every variant of a built-in family (see smpscope list)
in TSO and ARM-like mode and prints one table: a row per variant, a column
per mode. Each cell is herd7's word for how often the final condition holds
(Never, Sometimes, Always) with the number of final states that satisfy it
out of all final states; the LKMM column is the verdict the scenario file
records. FAMILY may also be the name of one of the family's scenarios.

Exit status: 0 when every exploration finished; 2 for an unknown family or
an exploration stopped by a limit (its cell shows "?").`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(args[0], markdown, timeout, stdout)
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print a markdown table")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "stop exploring one variant in one mode after this long (e.g. 10s)")
	return cmd
}

// findFamily returns the family called name, or the family of the
// scenario called name.
func findFamily(name string) (scenarios.Family, error) {
	fams, err := scenarios.Families()
	if err != nil {
		return scenarios.Family{}, err
	}
	var names []string
	for _, f := range fams {
		if strings.EqualFold(f.Name, name) {
			return f, nil
		}
		names = append(names, f.Name)
	}
	for _, f := range fams {
		for _, e := range f.Entries {
			if e.Name == name || strings.TrimSuffix(e.File, ".litmus") == name {
				return f, nil
			}
		}
	}
	return scenarios.Family{}, fmt.Errorf("no built-in family %q; families: %s", name, strings.Join(names, ", "))
}

// compareCell is one variant explored in one mode.
type compareCell struct {
	verdict  scenarios.Verdict
	complete bool
	deadlock bool
	err      error
}

func (c compareCell) text() string {
	if c.err != nil {
		return "error"
	}
	total := c.verdict.Positive + c.verdict.Negative
	s := fmt.Sprintf("%s %d/%d", c.verdict.Observation, c.verdict.Positive, total)
	if !c.complete {
		s = "? " + s
	}
	if c.deadlock {
		s += " *"
	}
	return s
}

// exploreAll explores each compiled scenario in each mode, in parallel,
// and returns the cells indexed [scenario][mode].
func exploreAll(css []*scenarios.Compiled, modes []machine.Mode, timeout time.Duration) [][]compareCell {
	cells := make([][]compareCell, len(css))
	for i := range cells {
		cells[i] = make([]compareCell, len(modes))
	}
	type job struct{ i, j int }
	work := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range work {
				cells[jb.i][jb.j] = exploreCell(css[jb.i], modes[jb.j], timeout)
			}
		}()
	}
	for i := range css {
		for j := range modes {
			work <- job{i, j}
		}
	}
	close(work)
	wg.Wait()
	return cells
}

func exploreCell(cs *scenarios.Compiled, mode machine.Mode, timeout time.Duration) compareCell {
	m, err := machine.New(cs.Program, mode)
	if err != nil {
		return compareCell{err: err}
	}
	res := machine.Explore(m, machine.Options{Timeout: timeout})
	var outs []machine.Outcome
	var counts []int
	for _, o := range res.Outcomes {
		outs = append(outs, o.Outcome)
		counts = append(counts, o.States)
	}
	return compareCell{verdict: cs.Verdict(outs, counts), complete: res.Complete, deadlock: len(res.Deadlocks) > 0}
}

func runCompare(name string, markdown bool, timeout time.Duration, w io.Writer) error {
	fam, err := findFamily(name)
	if err != nil {
		return &exitError{2, "smpscope compare: " + err.Error()}
	}
	var css []*scenarios.Compiled
	for _, e := range fam.Entries {
		cs, err := compiledArg(e.Name)
		if err != nil {
			return &exitError{2, fmt.Sprintf("smpscope compare: %s: %v", e.Name, err)}
		}
		css = append(css, cs)
	}
	cells := exploreAll(css, bothModes, timeout)

	// One condition line if the variants share it, else one per variant.
	conds := map[string]bool{}
	for _, cs := range css {
		conds[finalText(cs)] = true
	}
	lkmm := false
	for _, e := range fam.Entries {
		lkmm = lkmm || e.Result != ""
	}
	header := []string{"Variant", machine.TSO.Title(), machine.ARM.Title()}
	if lkmm {
		header = append(header, "LKMM")
	}
	var rows [][]string
	incomplete, deadlock := false, false
	for i, e := range fam.Entries {
		row := []string{e.Variant}
		if row[0] == "" {
			row[0] = e.Name
		}
		for _, c := range cells[i] {
			row = append(row, c.text())
			incomplete = incomplete || !c.complete || c.err != nil
			deadlock = deadlock || c.deadlock
		}
		if lkmm {
			res := string(e.Result)
			if res == "" {
				res = "-"
			}
			row = append(row, res)
		}
		rows = append(rows, row)
	}

	var b strings.Builder
	if markdown {
		fmt.Fprintf(&b, "**%s**", fam.Name)
		if len(conds) == 1 {
			fmt.Fprintf(&b, ": `%s`", finalText(css[0]))
		}
		b.WriteString("\n\n")
		writeMarkdownTable(&b, header, rows)
	} else {
		head := "Family " + fam.Name
		if len(conds) == 1 {
			head += ": " + finalText(css[0])
		}
		b.WriteString(wrapText(head, 72, "  "))
		b.WriteString("\n")
		writeTextTable(&b, header, rows)
	}
	b.WriteString("\n")
	if len(conds) > 1 {
		for i, e := range fam.Entries {
			if markdown {
				fmt.Fprintf(&b, "%s: `%s`\n", e.Name, finalText(css[i]))
			} else {
				b.WriteString(wrapText(e.Name+": "+finalText(css[i]), 72, "  "))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("Cells: how often the condition holds, then final states satisfying it\nout of all final states.")
	if deadlock {
		b.WriteString(" *: the search also reached deadlocked states.")
	}
	if incomplete {
		b.WriteString(" ?: a limit stopped the search; counts are partial.")
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if incomplete {
		return &exitError{2, "smpscope compare: some explorations did not finish (cells marked ?)"}
	}
	return nil
}

// wrapText breaks s at spaces into lines of at most width columns (a
// longer word stays whole); lines after the first start with indent. Each
// line ends with a newline.
func wrapText(s string, width int, indent string) string {
	var b strings.Builder
	cur := ""
	for _, word := range strings.Fields(s) {
		if cur != "" && len([]rune(cur))+1+len([]rune(word)) > width {
			b.WriteString(cur + "\n")
			cur = indent
		}
		if cur != "" && cur != indent {
			cur += " "
		}
		cur += word
	}
	b.WriteString(cur + "\n")
	return b.String()
}

// writeTextTable writes an aligned plain-text table.
func writeTextTable(b *strings.Builder, header []string, rows [][]string) {
	widths := make([]int, len(header))
	for _, r := range append([][]string{header}, rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	line := func(r []string) {
		var parts []string
		for i, c := range r {
			parts = append(parts, c+strings.Repeat(" ", widths[i]-len([]rune(c))))
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " "))
		b.WriteByte('\n')
	}
	line(header)
	var rule []string
	for _, w := range widths {
		rule = append(rule, strings.Repeat("-", w))
	}
	line(rule)
	for _, r := range rows {
		line(r)
	}
}

// writeMarkdownTable writes a markdown (GitHub-flavoured) table.
func writeMarkdownTable(b *strings.Builder, header []string, rows [][]string) {
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		b.WriteString("---|")
	}
	b.WriteByte('\n')
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = esc(c)
		}
		cells[0] = "`" + r[0] + "`"
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

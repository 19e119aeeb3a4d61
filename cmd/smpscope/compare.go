package main

import (
	"fmt"
	"io"
	"strings"
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

func runCompare(name string, markdown bool, timeout time.Duration, w io.Writer) error {
	fam, err := scenarios.FindFamily(name)
	if err != nil {
		return &exitError{2, "smpscope compare: " + err.Error()}
	}
	t, err := scenarios.CompareFamily(fam, bothModes, machine.Options{Timeout: timeout})
	if err != nil {
		return &exitError{2, "smpscope compare: " + err.Error()}
	}
	if _, err := io.WriteString(w, renderCompare(t, markdown)); err != nil {
		return err
	}
	if t.Incomplete() {
		return &exitError{2, "smpscope compare: some explorations did not finish (cells marked ?)"}
	}
	return nil
}

// renderCompare renders a family's table as plain text (72 columns) or
// markdown.
func renderCompare(t scenarios.CompareTable, markdown bool) string {
	cond, shared := t.Condition()
	lkmm := t.HasExpected()
	header := []string{"Variant"}
	for _, m := range t.Modes {
		header = append(header, m.Title())
	}
	if lkmm {
		header = append(header, "LKMM")
	}
	var rows [][]string
	for _, r := range t.Rows {
		row := []string{r.Question.Label()}
		for _, c := range r.Cells {
			row = append(row, c.Text())
		}
		if lkmm {
			res := string(r.Question.Expected)
			if res == "" {
				res = "-"
			}
			row = append(row, res)
		}
		rows = append(rows, row)
	}

	var b strings.Builder
	if markdown {
		fmt.Fprintf(&b, "**%s**", t.Family)
		if shared {
			fmt.Fprintf(&b, ": `%s`", cond)
		}
		b.WriteString("\n\n")
		writeMarkdownTable(&b, header, rows)
	} else {
		head := "Family " + t.Family
		if shared {
			head += ": " + cond
		}
		b.WriteString(wrapText(head, 72, "  "))
		b.WriteString("\n")
		writeTextTable(&b, header, rows)
	}
	b.WriteString("\n")
	if !shared {
		for _, r := range t.Rows {
			q := r.Question
			if markdown {
				fmt.Fprintf(&b, "%s: `%s`\n", q.Name, q.Condition)
			} else {
				b.WriteString(wrapText(q.Name+": "+q.Condition, 72, "  "))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("Cells: how often the condition holds, then final states satisfying it\nout of all final states.")
	if t.Deadlock() {
		b.WriteString(" *: the search also reached deadlocked states.")
	}
	if t.Incomplete() {
		b.WriteString(" ?: a limit stopped the search; counts are partial.")
	}
	b.WriteString("\n")
	return b.String()
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

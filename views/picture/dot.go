package picture

import (
	"fmt"
	"slices"
	"strings"
)

// DOT writes the event graph in Graphviz's language, for reviewers who
// think in herd7's terms: one cluster of events per CPU in program
// order, the initial writes the graph uses, and the po, rf, co and fr
// edges (po labelled with what orders it); the cycle's edges drawn bold,
// a closest attempt's needed edges dashed. The graph's label names the
// cycle, or the edge the outcome asked for would need and what forbids
// it. Graphviz is not needed to write it, only to draw it
// ("dot -Tsvg graph.dot").
func DOT(pic *Picture) string {
	g := pic.Graph
	var b strings.Builder
	q := dotQuote
	fmt.Fprintf(&b, "digraph %s {\n", q(pic.Name))
	b.WriteString("\tgraph [fontname=\"Helvetica\", labelloc=b, labeljust=l, nodesep=0.6, ranksep=0.5];\n")
	b.WriteString("\tnode [shape=box, style=rounded, fontname=\"Helvetica\"];\n")
	b.WriteString("\tedge [fontname=\"Helvetica\", fontsize=11];\n")
	used := map[int]bool{}
	for _, e := range g.Edges {
		used[e.From], used[e.To] = true, true
	}
	var inits []int
	byCPU := map[int][]int{}
	for k, e := range g.Events {
		if e.CPU < 0 {
			if used[k] {
				inits = append(inits, k)
			}
			continue
		}
		byCPU[e.CPU] = append(byCPU[e.CPU], k)
	}
	node := func(k int) {
		e := g.Events[k]
		label := []string{e.Name + ": " + e.Label}
		if e.Kind == EvRead && e.Reg != "" {
			label[0] += " (" + e.Reg + ")"
		}
		extra := ""
		if v, ok := g.NeededVal[k]; ok && g.prog != nil {
			label = append(label, "needed: "+storeText(g.prog, e.Loc, v))
			extra = ", color=red"
		}
		fmt.Fprintf(&b, "\t\t%s [label=%s%s];\n", q(e.Name), dotLabel(label, `\n`), extra)
	}
	if len(inits) > 0 {
		b.WriteString("\tsubgraph cluster_init {\n\t\tlabel=\"initial values\"; style=dashed; color=gray;\n")
		for _, k := range inits {
			node(k)
		}
		b.WriteString("\t}\n")
	}
	for c, lane := range pic.Lanes[:len(pic.Lanes)-1] {
		evs := byCPU[c]
		if len(evs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\tsubgraph %s {\n\t\tlabel=%s; color=gray;\n", q(fmt.Sprintf("cluster_%d", c)), q(lane.Name))
		for _, k := range evs {
			node(k)
		}
		b.WriteString("\t}\n")
	}
	// The initial values above every CPU's events, as herd7 draws them.
	for _, k := range inits {
		for c := range pic.Lanes[:len(pic.Lanes)-1] {
			if evs := byCPU[c]; len(evs) > 0 {
				fmt.Fprintf(&b, "\t%s -> %s [style=invis];\n", q(g.Events[k].Name), q(g.Events[evs[0]].Name))
			}
		}
	}
	inCycle := map[int]bool{}
	for _, i := range g.Cycle {
		inCycle[i] = true
	}
	for i, e := range g.Edges {
		attrs := []string{"label=" + q(e.Name())}
		switch e.Kind {
		case Po, Rmw:
			attrs = append(attrs, "color=black", "weight=10")
		case Rf:
			attrs = append(attrs, "color=red", "fontcolor=red")
		case Co:
			attrs = append(attrs, "color=blue", "fontcolor=blue", "constraint=false")
		case Fr:
			attrs = append(attrs, "color=darkorange", "fontcolor=darkorange", "constraint=false")
		}
		if e.Hypothetical {
			attrs = append(attrs, "style=dashed", "label="+q(e.Name()+" (needed)"))
		}
		if inCycle[i] {
			attrs = append(attrs, "penwidth=2.5")
		}
		attrs = slices.Compact(attrs)
		fmt.Fprintf(&b, "\t%s -> %s [%s];\n", q(g.Events[e.From].Name), q(g.Events[e.To].Name), strings.Join(attrs, ", "))
	}
	var caption []string
	caption = append(caption, pic.Name+", "+pic.Mode.Title()+" mode")
	caption = append(caption, pic.End...)
	if pic.Final {
		caption = append(caption, g.Summary(pic.Attempt)...)
	}
	fmt.Fprintf(&b, "\tlabel=%s;\n", dotLabel(caption, `\l`))
	b.WriteString("}\n")
	return b.String()
}

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	return `"` + dotEscape(s) + `"`
}

// dotLabel quotes lines as one label, each escaped, joined by brk (DOT's
// `\n`, centred, or `\l`, left-justified, which also ends the last).
func dotLabel(lines []string, brk string) string {
	esc := make([]string, len(lines))
	for i, l := range lines {
		esc[i] = dotEscape(l)
	}
	s := strings.Join(esc, brk)
	if brk == `\l` {
		s += brk
	}
	return `"` + s + `"`
}

// dotEscape escapes what a DOT string may not hold as it is: backslashes,
// quotes, line breaks and control characters.
func dotEscape(s string) string {
	s = xmlText(s) // printable, no control characters
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return strings.ReplaceAll(s, "\n", `\n`)
}

package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/scenarios/syntax"
)

// PickerRow is one family of the library as the picker shows it.
type PickerRow struct {
	Family   string
	Title    string // title of the chosen variant
	Summary  string // one line; the scenario name when the library has none
	Variants []string
	Selected int // index of the chosen variant
	// Matched says what the filter matched when it was not the family's
	// name ("story of mb-inside-if", "title", "name"), and Context the
	// words around the match, which the row shows instead of the
	// summary.
	Matched, Context string
}

// PickerRowHeight is the number of lines RenderPickerRow draws.
const PickerRowHeight = 2

// RenderPickerRow draws one picker row in w cells: the title and family on
// the first line, the variants (the chosen one in brackets) and the summary
// on the second. The selected row has a bar at its left edge.
func RenderPickerRow(r PickerRow, selected bool, st Styles, w int) string {
	bar := "  "
	if selected {
		bar = st.PickerRowSelected.Render("┃ ")
	}
	inner := w - 2
	fam := ""
	if r.Family != "" && r.Family != r.Title {
		fam = st.PickerFamily.Render(r.Family)
	}
	// The family's name stays whole: the title gives way.
	title := r.Title
	if room := inner - ansi.StringWidth(fam) - 2; fam != "" && ansi.StringWidth(title) > room {
		title = ansi.Truncate(title, max(room, 1), "…")
	}
	title = st.PickerRowTitle.Render(title)
	gap := max(inner-ansi.StringWidth(title)-ansi.StringWidth(fam), 0)
	l1 := title + strings.Repeat(" ", gap) + fam
	var chips []string
	for i, v := range r.Variants {
		if i == r.Selected {
			if len(r.Variants) > 1 {
				v = "[" + v + "]"
			}
			chips = append(chips, st.PickerVariantSelected.Render(v))
		} else {
			chips = append(chips, st.PickerVariant.Render(v))
		}
	}
	l2 := strings.Join(chips, st.PickerVariant.Render(" · "))
	switch {
	case r.Matched != "":
		l2 += "  " + st.Notice.Render(r.Matched+":") + " " + st.PickerSummary.Render(r.Context)
	case r.Summary != "":
		l2 += "  " + st.PickerSummary.Render(r.Summary)
	}
	return bar + fit(l1, inner) + "\n" + bar + fit(l2, inner)
}

// RenderPicker frames the picker: the list (already rendered at w×(h-2)),
// a notice line and the help line.
func RenderPicker(list, notice, helpBar string, st Styles, w, h int) string {
	if w < MinWidth || h < MinHeight {
		return TooSmall(st, w, h, MinWidth, MinHeight)
	}
	note := ""
	if notice != "" {
		note = st.Notice.Render("» " + syntax.Brief(syntax.Printable(notice)))
	}
	return place(w, h, []placed{
		{Rect{0, 0, w, h - 2}, list},
		{Rect{0, h - 2, w, 1}, " " + note},
		{Rect{0, h - 1, w, 1}, helpBar},
	})
}

// RenderPickerHelp draws the picker's help page: its keys, and notes
// (how the filter matches), boxed, with the help line below.
func RenderPickerHelp(keys [][2]string, notes []string, helpBar string, st Styles, w, h int) string {
	if w < MinWidth || h < MinHeight {
		return TooSmall(st, w, h, MinWidth, MinHeight)
	}
	keyW := 0
	for _, k := range keys {
		keyW = max(keyW, ansi.StringWidth(k[0]))
	}
	var lines []string
	for _, k := range keys {
		lines = append(lines, wrapIndented(" "+st.HelpKey.Render(fit(k[0], keyW))+"  ", k[1], w-3)...)
	}
	for _, n := range notes {
		lines = append(lines, "")
		lines = append(lines, wrapIndented(" ", n, w-3)...)
	}
	box := renderBox(boxSpec{title: "picker help · ? or esc to close", focused: true, lines: lines}, st, w, h-1)
	return place(w, h, []placed{
		{Rect{0, 0, w, h - 1}, box},
		{Rect{0, h - 1, w, 1}, helpBar},
	})
}

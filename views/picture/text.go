package picture

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
	"smpscope/views/textwrap"
)

// Class is what a piece of the text picture means, for colouring it.
// Every class is also written with its own symbols, so the picture
// reads the same without colour.
type Class uint8

// Classes.
const (
	ClassPlain   Class = iota
	ClassLane          // lifelines and the lane names' rule
	ClassHead          // lane names, step numbers
	ClassStale         // a stale read, the store it missed
	ClassReorder       // a reordering and what it passed
	ClassWait          // a CPU waiting
	ClassRead          // a value's way to a load
	ClassInval         // an invalidation
	ClassDim           // notes, folded steps
)

// Paint styles a piece of text of a class (nil: no styling).
type Paint func(c Class, s string) string

// TextOptions control Text.
type TextOptions struct {
	// Width is the widest line in cells (default 72, at least 40).
	Width int
	// ASCII spells every symbol in ASCII (for mail).
	ASCII bool
	// Paint colours the text (nil: plain).
	Paint Paint
	// MaxLines, when positive, folds runs of quiet steps (stores into
	// the store buffer, invalidations applied, fences that passed) into
	// one line each until the timeline fits, if it can.
	MaxLines int
	// Ahead says how many steps of a history lie ahead of the picture
	// (the UI's redo, or a witness being replayed): a last line says so.
	Ahead int
	// NoHeader leaves out the title line (the UI's page has its own).
	NoHeader bool
	// NoLegend leaves out the legend, NoJourneys the list of journeys.
	NoLegend, NoJourneys bool
}

// DefaultWidth is the width of a text picture for mail.
const DefaultWidth = 72

// MinWidth is the narrowest text picture.
const MinWidth = 40

// asciiSymbols spells the picture's symbols in ASCII.
var asciiSymbols = map[rune]string{
	'│': "|", '┆': ":", '┃': "#", '─': "-", '━': "=", '╌': ".", '┄': ".",
	'▶': ">", '◀': "<", '▷': ">", '◁': "<", '●': "*", '◆': "@", '◇': "%",
	'○': "o", '◌': "o", '✗': "x", '╯': "'", '╰': "`", '‼': "!!", '⇅': "<>",
	'»': ">>", '▸': ">", '→': "->", '←': "<-", '✓': "ok", '⏸': "||", '⋮': ":",
	'∪': "u", '┴': "+", '…': "...", '—': "--", '–': "-", '┈': "-", '·': ".", '×': "x",
}

func asciiText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch a, ok := asciiSymbols[r]; {
		case ok:
			b.WriteString(a)
		case r == '\n' || r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

// cell is one character cell of a line.
type cell struct {
	r   rune
	cls Class
	set bool // written by something other than a lifeline
}

type line []cell

// textPic renders one picture.
type textPic struct {
	pic  *Picture
	opts TextOptions
	w    int
	x    []int // the column of each lane's lifeline
	rows int   // how many rows are drawn
	// blocked[s][c]: CPU c waits in the state after s steps. A row's
	// line shows the lanes blocked before its step, the lines under it
	// those blocked after.
	blocked [][]bool
	// lastRow is the body line the last row (or fold) starts at, -1
	// without rows.
	lastRow int
}

const prefixW = 7 // "NNN MM "

// minNoteW is the narrowest a note's text is wrapped to.
const minNoteW = 34

// Text draws the picture as text: a title, the lanes, one row per step
// (with notes under it), then how the execution ends, the event graph's
// cycle, the stores' journeys and a legend of the symbols used.
func Text(pic *Picture, opts TextOptions) string {
	lines := TextLines(pic, opts)
	return strings.Join(lines, "\n") + "\n"
}

// TextLines is Text as lines, without newlines.
func TextLines(pic *Picture, opts TextOptions) []string {
	lines, _ := TextPage(pic, opts)
	return lines
}

// TextPage is TextLines, with the index of the line of the last step's
// row (of the initial state's line without steps): the line a screen
// keeps in view as the history grows.
func TextPage(pic *Picture, opts TextOptions) ([]string, int) {
	t := newTextPic(pic, opts)
	var out []string
	if !opts.NoHeader {
		out = append(out, t.para("", t.sym(pic.Name+", "+pic.Mode.Title()+" mode: where every value travelled"), ClassHead)...)
	}
	out = append(out, t.header()...)
	last := len(out) - 1
	body := t.body()
	if t.lastRow >= 0 {
		last = len(out) + t.lastRow
	}
	out = append(out, body...)
	out = append(out, t.footer()...)
	return out, last
}

func newTextPic(pic *Picture, opts TextOptions) *textPic {
	w := opts.Width
	if w <= 0 {
		w = DefaultWidth
	}
	w = max(w, MinWidth)
	t := &textPic{pic: pic, opts: opts, w: w}
	t.rows = len(pic.Rows)
	ncpu := len(pic.Lanes) - 1
	memW := 9
	laneW := (w - prefixW - memW) / max(ncpu, 1)
	for i := 0; i < ncpu; i++ {
		t.x = append(t.x, prefixW+i*laneW)
	}
	t.x = append(t.x, prefixW+ncpu*laneW)
	t.blocked = make([][]bool, len(pic.Rows)+2)
	for i := range t.blocked {
		t.blocked[i] = make([]bool, len(pic.Lanes))
	}
	for _, wt := range pic.Waits {
		if wt.Wait.Kind == machine.WaitFault {
			continue
		}
		for s := wt.From; s < wt.To && s < len(t.blocked); s++ {
			t.blocked[s][wt.CPU] = true
		}
	}
	return t
}

func (t *textPic) sym(s string) string {
	s = syntax.Printable(s) // labels quote the scenario's text
	if t.opts.ASCII {
		return asciiText(s)
	}
	return s
}

func (t *textPic) paint(c Class, s string) string {
	if t.opts.Paint == nil || c == ClassPlain {
		return s
	}
	return t.opts.Paint(c, s)
}

// blank is a line with the lifelines drawn as they are in the state
// after s steps: waiting lanes heavy.
func (t *textPic) blank(s int) line {
	l := make(line, t.w)
	for i := range l {
		l[i] = cell{r: ' '}
	}
	for i, x := range t.x {
		if x >= t.w {
			continue
		}
		r := '│'
		cls := ClassLane
		switch {
		case i == len(t.x)-1:
			r = '┆'
		case s >= 0 && s < len(t.blocked) && t.blocked[s][i]:
			r, cls = '┃', ClassWait
		}
		l[x] = cell{r: r, cls: cls}
	}
	return l
}

// put writes s at column x in class cls, marking the cells set; it cuts
// what passes the line's end.
func (t *textPic) put(l line, x int, s string, cls Class) int {
	for _, r := range []rune(t.sym(s)) {
		if x >= 0 && x < len(l) {
			l[x] = cell{r: r, cls: cls, set: true}
		}
		x++
	}
	return x
}

// free reports whether cells [a, b) hold nothing but lifelines.
func free(l line, a, b int) bool {
	if a < 0 || b > len(l) {
		return false
	}
	for i := a; i < b; i++ {
		if l[i].set {
			return false
		}
	}
	return true
}

func (t *textPic) hline(l line, a, b int, r rune, cls Class) {
	for i := max(a, 0); i < b && i < len(l); i++ {
		if !l[i].set {
			l[i] = cell{r: r, cls: cls, set: true}
		}
	}
}

func width(s string) int { return ansi.StringWidth(s) }

// render turns a line into a string, painting runs of one class.
func (t *textPic) render(l line) string {
	var b strings.Builder
	i := 0
	for i < len(l) {
		j := i
		var run strings.Builder
		for j < len(l) && l[j].cls == l[i].cls {
			r := l[j].r
			if t.opts.ASCII && r >= 0x80 {
				// Drawn symbols are one cell: their one-character
				// spelling (labels were spelt when they were put).
				if a := asciiSymbols[r]; len(a) == 1 {
					run.WriteString(a)
				} else {
					run.WriteByte('?')
				}
			} else {
				run.WriteRune(r)
			}
			j++
		}
		b.WriteString(t.paint(l[i].cls, run.String()))
		i = j
	}
	return strings.TrimRight(b.String(), " ")
}

// header is the lane names and the initial values.
func (t *textPic) header() []string {
	l := t.blank(0)
	for i := range l {
		l[i] = cell{r: ' '}
	}
	for i, ln := range t.pic.Lanes {
		t.put(l, t.x[i], ln.Name, ClassHead)
	}
	init := t.blank(0)
	t.put(init, 0, "  0", ClassHead)
	var vals []string
	for _, s := range t.pic.Init {
		vals = append(vals, s.S)
	}
	mem := t.x[len(t.x)-1]
	text := strings.Join(vals, " ")
	if mem+2+width(t.sym(text)) > t.w {
		// Too long for the memory lane: from the first CPU's lane on.
		t.put(init, t.x[0]+2, "initially "+text, ClassDim)
	} else {
		t.put(init, mem+2, text, ClassDim)
	}
	return []string{t.render(l), t.render(init)}
}

// body draws the rows, folding quiet runs when MaxLines asks.
func (t *textPic) body() []string {
	per := make([][]string, t.rows)
	total := 0
	for k := 0; k < t.rows; k++ {
		per[k] = t.row(k)
		total += len(per[k])
	}
	fold := make([]bool, t.rows)
	budget := t.opts.MaxLines - 2 - len(t.footerLines())
	if !t.opts.NoHeader {
		budget--
	}
	if t.opts.MaxLines > 0 && total > budget {
		// Fold the longest runs of quiet rows first.
		for total > budget {
			bestA, bestB := -1, -1
			for a := 0; a < t.rows; {
				if fold[a] || !t.pic.Rows[a].Quiet || len(per[a]) != 1 {
					a++
					continue
				}
				b := a
				for b < t.rows && !fold[b] && t.pic.Rows[b].Quiet && len(per[b]) == 1 {
					b++
				}
				if b-a >= 2 && (bestA < 0 || b-a > bestB-bestA) {
					bestA, bestB = a, b
				}
				a = b
			}
			if bestA < 0 {
				break
			}
			for k := bestA; k < bestB; k++ {
				fold[k] = true
			}
			total -= bestB - bestA - 1
		}
	}
	var out []string
	t.lastRow = -1
	for k := 0; k < t.rows; {
		t.lastRow = len(out)
		if !fold[k] {
			out = append(out, per[k]...)
			k++
			continue
		}
		j := k
		for j < t.rows && fold[j] {
			j++
		}
		out = append(out, t.folded(k, j))
		k = j
	}
	if len(t.pic.Rows) == 0 {
		l := t.blank(0)
		t.put(l, t.x[0]+2, "no steps yet", ClassDim)
		out = append(out, t.render(l))
	}
	if n := t.opts.Ahead; n > 0 {
		l := t.blank(t.rows)
		s := "⋮ " + itoa(n) + " more step"
		if n > 1 {
			s += "s"
		}
		t.put(l, 1, s+" ahead (→ replays)", ClassDim)
		out = append(out, t.render(l))
	}
	return out
}

// folded is the line that stands for rows a..b-1.
func (t *textPic) folded(a, b int) string {
	l := t.blank(a)
	num := itoa(a+1) + "–" + itoa(b)
	t.put(l, 0, strings.Repeat(" ", max(0, 5-len(num)))+num, ClassDim)
	var what []string
	for k := a; k < b; k++ {
		r := t.pic.Rows[k]
		what = append(what, t.pic.Lanes[r.CPU].Name+" "+r.Label.Short)
	}
	s := "⋮ " + strings.Join(what, ", ")
	x := t.x[0] + 2
	if w := t.w - x; width(t.sym(s)) > w {
		s = cut(t.sym(s), w)
	}
	t.put(l, x, s, ClassDim)
	return t.render(l)
}

func cut(s string, w int) string {
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w-1, "") + "…"
}

// marker is the glyph on the acting lane.
func marker(r *Row) rune {
	switch r.Kind {
	case RowCommit:
		return '◆'
	case RowApply:
		return '◇'
	case RowFault:
		return '✗'
	case RowGrace:
		return '○'
	}
	return '●'
}

// rowClass is the class of a row's label.
func rowClass(r *Row) Class {
	switch {
	case r.Marks&MarkStale != 0:
		return ClassStale
	case r.Marks&MarkReorder != 0:
		return ClassReorder
	case r.Marks&MarkWaited != 0:
		return ClassWait
	case r.Kind == RowApply:
		return ClassInval
	}
	return ClassPlain
}

// mark is the margin mark of a row.
func mark(r *Row) (string, Class) {
	switch {
	case r.Marks&MarkStale != 0:
		return "‼", ClassStale
	case r.Marks&MarkFault != 0:
		return "✗", ClassStale
	case r.Marks&MarkReorder != 0:
		return "⇅", ClassReorder
	case r.Marks&MarkWaited != 0:
		return "⏸", ClassWait
	}
	return "", ClassPlain
}

// item is something on a row's line besides the actor's label: an
// arrow's other end with its tag.
type item struct {
	lane int
	head rune // at the lane's lifeline
	tag  string
	line rune  // the line's character
	cls  Class // of the line and head
	in   bool  // the arrow points at the actor (a read), else away (an invalidation)
}

// row draws row k and its notes.
func (t *textPic) row(k int) []string {
	r := &t.pic.Rows[k]
	a := r.CPU
	xa := t.x[a]
	main := t.blank(k)
	num := itoa(r.Step)
	t.put(main, 3-len(num), num, ClassHead)
	if m, cls := mark(r); m != "" {
		t.put(main, 4, m, cls)
	}
	t.put(main, xa, string(marker(r)), rowClass(r))
	// The other ends: where a read's value came from, the caches an
	// invalidation went to.
	var items []item
	if rd := r.Read; rd != nil && rd.Via != a {
		tag := "x"
		for _, j := range t.pic.Stores {
			if j.Store == rd.From {
				tag = j.Text
			}
		}
		if rd.From.Initial() {
			for _, s := range t.pic.Init {
				if s.Loc == rd.Loc {
					tag = s.S
				}
			}
		}
		cls := ClassRead
		if rd.Class == machine.Stale {
			cls = ClassStale
		}
		items = append(items, item{lane: rd.Via, head: '○', tag: tag, line: '━', cls: cls, in: true})
	}
	var sends []item
	for _, s := range r.Sends {
		it := item{lane: s.CPU, line: '─', cls: ClassInval}
		if s.Queued {
			it.head, it.tag = '▷', "inv"
		} else {
			it.head, it.tag = '▶', "I"
		}
		sends = append(sends, it)
	}
	var extra [][]item
	if len(items) > 0 && len(sends) > 0 {
		extra = append(extra, sends) // an RMW that read and wrote at once: its invalidations go below
	} else {
		items = append(items, sends...)
	}
	// The label: long if it fits before the first item to the right.
	limit := t.w
	for _, it := range items {
		if it.lane > a {
			limit = min(limit, t.x[it.lane]-3)
		}
	}
	label := t.sym(r.Label.Long)
	if xa+2+width(label) > limit {
		label = t.sym(r.Label.Short)
	}
	placedInline := true
	if xa+2+width(label) > limit {
		// No room for the arrows beside it: they go below.
		placedInline = false
		label = t.sym(r.Label.Long)
		if xa+2+width(label) > t.w {
			label = t.sym(r.Label.Short)
		}
	}
	end := t.put(main, xa+2, cut(label, t.w-xa-2), rowClass(r))
	lines := []line{main}
	if placedInline {
		t.drawItems(main, a, end, items, false)
	} else if len(items) > 0 {
		extra = append([][]item{items}, extra...)
	}
	for _, its := range extra {
		l := t.blank(k + 1)
		t.drawItems(l, a, xa, its, true)
		lines = append(lines, l)
	}
	for _, n := range r.Notes {
		lines = append(lines, t.note(k, r, n)...)
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = t.render(l)
	}
	return out
}

// drawItems draws arrows between the actor lane a (its label ending at
// column end) and each item's lane. below: on a line under the row,
// starting from a corner on the actor's lifeline.
func (t *textPic) drawItems(l line, a, end int, items []item, below bool) {
	xa := t.x[a]
	right, left := sortedRight(items, a), sortedLeft(items, a)
	if below {
		corner := '╰'
		switch {
		case len(left) > 0 && len(right) > 0:
			corner = '┴'
		case len(left) > 0:
			corner = '╯'
		}
		l[xa] = cell{r: corner, cls: items[0].cls, set: true}
		end = xa
	}
	// Right of the actor, nearest first: the line runs from the label's
	// end (or the previous item's tag) to the item's lifeline.
	cur := end + 1
	for _, it := range right {
		x := t.x[it.lane]
		if it.in {
			t.put(l, cur, "◀", it.cls)
			t.hline(l, cur+1, x, it.line, it.cls)
		} else {
			t.hline(l, cur, x, it.line, it.cls)
		}
		t.put(l, x, string(it.head), it.cls)
		cur = t.put(l, x+1, it.tag, it.cls) + 1
	}
	// Left of it, nearest first: from the item's tag to the cell before
	// the actor's lifeline (or before the nearer item's).
	bound := xa - 1
	for _, it := range left {
		x := t.x[it.lane]
		head := it.head
		if !it.in {
			head = map[rune]rune{'▷': '◁', '▶': '◀'}[head]
		}
		t.put(l, x, string(head), it.cls)
		tagEnd := t.put(l, x+1, it.tag, it.cls)
		if it.in {
			t.hline(l, tagEnd+1, bound, it.line, it.cls)
			t.put(l, bound, "▶", it.cls)
		} else {
			t.hline(l, tagEnd+1, bound+1, it.line, it.cls)
		}
		bound = x - 1
	}
}

func sortedRight(items []item, a int) []item {
	var out []item
	for _, it := range items {
		if it.lane > a {
			out = append(out, it)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].lane < out[j-1].lane; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func sortedLeft(items []item, a int) []item {
	var out []item
	for _, it := range items {
		if it.lane < a {
			out = append(out, it)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].lane > out[j-1].lane; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// noteClass is the class of a note's text.
func noteClass(n Note) Class {
	switch n.Kind {
	case NoteMissed, NoteFault:
		return ClassStale
	case NoteReorder:
		return ClassReorder
	case NoteWait, NoteWaited:
		return ClassWait
	case NotePending:
		return ClassRead
	}
	return ClassDim
}

// note draws one note of row k under it: an arrow from the lane it
// names (the store a stale read missed, the newer store pending), then
// its text, wrapped in the lane's column (or wider, when the lane is
// narrow).
func (t *textPic) note(k int, r *Row, n Note) []line {
	cls := noteClass(n)
	lane := n.CPU
	xa := t.x[lane]
	var lines []line
	textX := xa + 2
	if n.Kind == NoteMissed || n.Kind == NotePending {
		l := t.blank(k + 1)
		lr, tail := '╌', "✗"
		if n.Kind == NotePending {
			lr, tail = '┄', "◌"
		}
		xf := t.x[n.From]
		if n.From < lane {
			t.put(l, xf, tail, cls)
			e := t.put(l, xf+1, n.Tag, cls)
			t.hline(l, e+1, xa, lr, cls)
			t.put(l, xa, "╯", cls)
		} else {
			t.put(l, xa, "╰", cls)
			t.hline(l, xa+1, xf, lr, cls)
			t.put(l, xf, tail, cls)
			t.put(l, xf+1, n.Tag, cls)
		}
		lines = append(lines, l)
	}
	// Narrow lanes: the text starts in the nearest lane to the left
	// that leaves room, over the lifelines between.
	for j := lane; t.w-textX < minNoteW && j > 0; j-- {
		textX = t.x[j-1] + 2
	}
	for _, s := range wrap(t.sym(n.Text), t.w-textX) {
		l := t.blank(k + 1)
		t.put(l, textX, s, cls)
		lines = append(lines, l)
	}
	return lines
}

// wrap breaks s into lines of at most w cells at spaces (a word longer
// than a line is cut).
func wrap(s string, w int) []string { return wrapHanging(s, w, w) }

// wrapHanging is wrap with the first line w1 wide and the others w2 (at
// least eight cells each). A picture folds the spaces between words into
// one, and text without words is no line.
func wrapHanging(s string, w1, w2 int) []string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return nil
	}
	return textwrap.Items(words, " ", max(w1, 8), max(w2, 8), false)
}

// para wraps text over the whole width, the lines after the first
// indented by two.
func (t *textPic) para(indent, s string, cls Class) []string {
	var out []string
	for i, l := range wrapHanging(s, t.w-len(indent), t.w-len(indent)-2) {
		if i > 0 {
			l = "  " + l
		}
		out = append(out, t.paint(cls, indent+l))
	}
	return out
}

func (t *textPic) footerLines() []string {
	var out []string
	for _, e := range t.pic.End {
		out = append(out, t.para("", t.sym(e), ClassPlain)...)
	}
	if g := t.pic.Graph; g != nil && t.pic.Final {
		for _, s := range g.Summary(t.pic.Attempt) {
			out = append(out, t.para("", t.sym(s), ClassPlain)...)
		}
	}
	return out
}

// footer is the end, the graph's summary, the journeys and the legend.
func (t *textPic) footer() []string {
	rule := t.paint(ClassLane, t.sym(strings.Repeat("─", t.w)))
	out := []string{rule}
	out = append(out, t.footerLines()...)
	if !t.opts.NoJourneys {
		if js := t.journeys(); len(js) > 0 {
			out = append(out, rule)
			out = append(out, js...)
		}
	}
	if lg := t.legend(); !t.opts.NoLegend && len(lg) > 0 {
		out = append(out, rule)
		out = append(out, lg...)
	}
	if len(out) == 1 {
		return nil
	}
	return out
}

// journeys is one line per store: when it went into the store buffer,
// when it became visible, and when each other CPU applied its
// invalidation.
func (t *textPic) journeys() []string {
	var out []string
	step := func(n int) string {
		if n == 0 || n > t.rows {
			return "—"
		}
		return itoa(n)
	}
	for _, j := range t.pic.Stores {
		if j.Exec > t.rows || j.Exec == 0 && j.Commit > t.rows {
			continue
		}
		cpu := t.pic.Lanes[j.Store.CPU].Name
		s := j.Text + " (" + cpu + "): "
		if j.Exec > 0 {
			s += "sb " + step(j.Exec) + ", "
		}
		s += "visible " + step(j.Commit)
		if j.Commit > 0 && j.Commit <= t.rows {
			var sends []string
			for _, sd := range j.Sends {
				who := t.pic.Lanes[sd.CPU].Name
				if sd.Queued {
					sends = append(sends, who+" applied "+step(sd.Applied))
				} else {
					sends = append(sends, who+" dropped "+step(sd.Applied))
				}
			}
			if len(sends) > 0 {
				s += "; inv: " + strings.Join(sends, ", ")
			}
		}
		out = append(out, t.para("", t.sym(s), ClassDim)...)
	}
	if len(out) > 0 {
		out = append([]string{t.paint(ClassHead, "journeys (steps):")}, out...)
	}
	return out
}

// used says which of the picture's symbols its rows use: markers, margin
// marks, lines ("━" a miss, "▷" a queued invalidation, "▶" a dropped
// copy, "✗" a missed store, "◌" a newer store still buffered, "┃" a wait,
// "sb" a store in a store buffer).
func (p *Picture) used() map[string]bool {
	used := map[string]bool{}
	for k := range p.Rows {
		r := &p.Rows[k]
		used[string(marker(r))] = true
		if m, _ := mark(r); m != "" {
			used[m] = true
		}
		if rd := r.Read; rd != nil && rd.Via != r.CPU {
			used["━"] = true
		}
		for _, s := range r.Sends {
			if s.Queued {
				used["▷"] = true
			} else {
				used["▶"] = true
			}
		}
		for _, n := range r.Notes {
			switch n.Kind {
			case NoteMissed:
				used["✗"] = true
			case NotePending:
				used["◌"] = true
			}
		}
		if r.Kind == RowStore || r.Kind == RowRMW && r.Commit == nil {
			used["sb"] = true
		}
	}
	for _, w := range p.Waits {
		if w.Wait.Kind != machine.WaitFault {
			used["┃"] = true
		}
	}
	return used
}

// legend explains the symbols the picture uses.
func (t *textPic) legend() []string {
	used := t.pic.used()
	entries := []struct{ sym, text string }{
		{"●", "exec"}, {"◆", "commit (visible)"}, {"◇", "inv applied"}, {"○", "grace period"},
		{"━", "value fetched on a miss"}, {"▷", "inv queued"}, {"▶", "copy dropped"},
		{"✗", "store a stale read missed"}, {"◌", "newer store still buffered"},
		{"‼", "STALE read"}, {"⇅", "reordered"}, {"⏸", "had to wait"}, {"┃", "waiting"},
	}
	// Entries are never broken across lines.
	var out []string
	cur := ""
	for _, e := range entries {
		if !used[e.sym] {
			continue
		}
		part := t.sym(e.sym + " " + e.text)
		switch {
		case cur == "":
			cur = part
		case width(cur)+2+width(part) <= t.w:
			cur += "  " + part
		default:
			out = append(out, t.paint(ClassDim, cur))
			cur = part
		}
	}
	if cur != "" {
		out = append(out, t.paint(ClassDim, cur))
	}
	return out
}

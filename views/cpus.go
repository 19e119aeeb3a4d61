package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios/words"
	"smpscope/views/textwrap"
)

// cpuColumns returns how many CPU columns fit in width w, and their
// width: columns of at least 24 cells, but always two CPUs side by side
// when there are two (narrower then), so that a two-CPU test never needs
// scrolling sideways.
func cpuColumns(n, w int) (k, colW int) {
	const minCol = 24
	k = max(1, min(n, (w+1)/(minCol+1)))
	if n >= 2 && k < 2 && w >= 2*minNarrowCol+1 {
		k = 2
	}
	colW = (w - (k - 1)) / k
	return k, colW
}

// minNarrowCol is the narrowest a CPU column gets to keep two side by
// side.
const minNarrowCol = 14

// A CPU column is made of sections (status, code, registers, store
// buffer, invalidation queue, cache); each section is padded to the same
// height in every column, so that the rows line up across CPUs.
const (
	secHead = iota
	secCode
	secRegs
	secSB
	secIQ
	secCache
	numSecs
)

// cpuBlock is every CPU's column, laid out at one width and in one format
// (compact, or tall: one store-buffer entry, queued invalidation and cache
// line per row), computed once per frame.
type cpuBlock struct {
	secs    [][numSecs][]string
	code    []codeRows // where each instruction's lines start, per CPU
	heights [numSecs]int
	k, colW int // columns that fit, and their width
	// stateFirst draws the store buffer, queue and cache above the
	// source lines (see fit).
	stateFirst bool
}

// The order sections are drawn in: normally the code right under the
// status, with the state below; when room is short, the state first.
var (
	codeFirstOrder  = []int{secHead, secCode, secRegs, secSB, secIQ, secCache}
	stateFirstOrder = []int{secHead, secSB, secIQ, secCache, secRegs, secCode}
)

// fit arranges the columns for a box of h lines: when they are taller,
// the store buffers, invalidation queues and cache lines (what changes,
// and the stale marks) come first and the source lines follow, whole:
// the box scrolls to them (its ▼ says so). No source line is left out.
func (b *cpuBlock) fit(h int) {
	b.stateFirst = b.height() > h
}

// wraps reports whether a source line takes more than one line.
func (b cpuBlock) wraps() bool {
	for c := range b.code {
		if len(b.secs[c][secCode]) > len(b.code[c].starts) {
			return true
		}
	}
	return false
}

// codeTop is the first line of the code section in the columns.
func (b cpuBlock) codeTop() int {
	order := codeFirstOrder
	if b.stateFirst {
		order = stateFirstOrder
	}
	top := 0
	for _, s := range order {
		if s == secCode {
			return top
		}
		top += b.heights[s]
	}
	return top
}

// codeRow is the line of the columns where instruction i of CPU c starts.
func (b cpuBlock) codeRow(c, i int) int {
	top := b.codeTop()
	if c < 0 || c >= len(b.code) || i < 0 || i >= len(b.code[c].starts) {
		return top
	}
	return top + b.code[c].starts[i]
}

// instrAt returns the instruction of CPU c drawn on line l of the
// columns.
func (b cpuBlock) instrAt(c, l int) (int, bool) {
	if c < 0 || c >= len(b.code) {
		return 0, false
	}
	return b.code[c].instrAt(l-b.codeTop(), len(b.secs[c][secCode]))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func newCPUBlock(in ScenarioInput, st Styles, w int, tall bool) cpuBlock {
	return newCPUBlockDetail(in, st, w, tall, words.Full)
}

// newCPUBlockDetail is newCPUBlock with the blocked CPUs' waits said at
// detail d (words.Brief leaves out the entries and invalidations named).
func newCPUBlockDetail(in ScenarioInput, st Styles, w int, tall bool, d words.Detail) cpuBlock {
	n := len(in.Mach.Prog.Threads)
	b := cpuBlock{secs: make([][numSecs][]string, n)}
	b.k, b.colW = cpuColumns(n, w)
	b.code = make([]codeRows, n)
	for c := 0; c < n; c++ {
		b.secs[c], b.code[c] = cpuColumnRows(in, st, c, b.colW, tall, d)
	}
	// Each section is as tall as its tallest column over all CPUs (not
	// only the visible ones, so scrolling sideways does not move rows).
	for _, col := range b.secs {
		for k := range col {
			b.heights[k] = max(b.heights[k], len(col[k]))
		}
	}
	return b
}

// height is how many lines the columns need.
func (b cpuBlock) height() int {
	n := 0
	for _, h := range b.heights {
		n += h
	}
	return n
}

// maxOff is the largest useful first column.
func (b cpuBlock) maxOff() int { return len(b.secs) - b.k }

// lines draws the columns from CPU off on, side by side; right says
// which are shown when not all fit.
func (b cpuBlock) lines(in ScenarioInput, st Styles, off int) (lines []string, right string) {
	n, k := len(b.secs), b.k
	cols := make([][]string, k)
	order := codeFirstOrder
	if b.stateFirst {
		order = stateFirstOrder
	}
	for i := 0; i < k; i++ {
		for _, s := range order {
			h := b.heights[s]
			sec := b.secs[off+i][s]
			cols[i] = append(cols[i], sec...)
			for j := len(sec); j < h; j++ {
				cols[i] = append(cols[i], "")
			}
		}
	}
	sep := st.PaneBlurred.Render("│")
	lines = make([]string, b.height())
	for y := range lines {
		var sb strings.Builder
		for i := 0; i < k; i++ {
			if i > 0 {
				sb.WriteString(sep)
			}
			sb.WriteString(fit(cols[i][y], b.colW))
		}
		lines[y] = sb.String()
	}
	if k < n {
		p := in.Mach.Prog.Threads
		if k == 1 {
			right = fmt.Sprintf("%s of %d · h/l", p[off].Name, n)
		} else {
			right = fmt.Sprintf("%s–%s of %d · h/l", p[off].Name, p[off+k-1].Name, n)
		}
	}
	return lines, right
}

// codeRows says where each instruction's source line starts among the
// lines of a CPU's code section (a line that wraps takes several).
type codeRows struct{ starts []int }

// instrAt returns the instruction drawn on line l of the code section.
func (r codeRows) instrAt(l int, lines int) (int, bool) {
	if l < 0 || l >= lines || len(r.starts) == 0 {
		return 0, false
	}
	return lineItem(r.starts, l), true
}

// lineItem returns the item that line l belongs to, of items whose lines
// start at starts (in order): the last that starts at or before l.
func lineItem(starts []int, l int) int {
	i := 0
	for j, s := range starts {
		if s <= l {
			i = j
		}
	}
	return i
}

func cpuColumn(in ScenarioInput, st Styles, c, w int, tall bool) [numSecs][]string {
	sec, _ := cpuColumnRows(in, st, c, w, tall, words.Full)
	return sec
}

// cpuColumnRows is CPU c's column at width w, with where each
// instruction's lines start.
func cpuColumnRows(in ScenarioInput, st Styles, c, w int, tall bool, d words.Detail) ([numSecs][]string, codeRows) {
	k := cpuCol{in: in, st: st, c: c, w: w, tall: tall, m: in.Mach, s: in.State, p: in.Mach.Prog}
	k.th = &k.p.Threads[c]
	var sec [numSecs][]string
	var code codeRows
	sec[secHead] = k.head(d)
	sec[secCode], code = k.code()
	sec[secHead][0], sec[secRegs] = k.regs(sec[secHead][0])
	sec[secSB] = k.storeBuffer()
	if k.m.Mode == machine.ARM {
		sec[secSB], sec[secIQ] = k.invalQueue(sec[secSB])
	}
	sec[secCache] = k.cache()
	return sec, code
}

// cpuCol is what the sections of CPU c's column are drawn from, at
// width w (tall: one item a line).
type cpuCol struct {
	in   ScenarioInput
	st   Styles
	c, w int
	tall bool
	m    *machine.Machine
	s    *machine.State
	p    *machine.Program
	th   *machine.Thread
}

// label is a section's label; narrow columns keep their labels short, to
// leave room for what follows them.
func (k *cpuCol) label(l string) string {
	if k.w < 24 {
		return strings.TrimRight(l, " ") + " "
	}
	return l
}

// head is the status line, and why the CPU waits.
func (k *cpuCol) head(d words.Detail) []string {
	st, s, p, c, w := k.st, k.s, k.p, k.c, k.w
	var out []string
	wait := k.m.Wait(s, c)
	head := st.CPUName.Render(k.th.Name)
	switch {
	case wait.Kind == machine.WaitFinished:
		head += " " + st.CPUFinished.Render("✓ done")
	case wait.Kind == machine.WaitMisspec:
		head += " " + st.CPUBlocked.Render("✗ wrong guess")
	case wait.Blocked():
		head += " " + st.CPUBlocked.Render("⏸ blocked")
	default:
		head += " " + st.Running.Render("● ready")
	}
	switch d := s.RCUDepth(c); {
	case d == 1:
		head += st.Dim.Render(" · in rcu")
	case d > 1:
		head += st.Dim.Render(fmt.Sprintf(" · in rcu ×%d", d))
	}
	out = append(out, head)
	if reason := words.Wait(p, &wait, d); wait.Blocked() && reason != "" {
		for _, l := range wrap(reason, w-2) {
			out = append(out, "  "+st.CPUBlocked.Render(l))
		}
	}
	if waiting, owe := s.GracePeriodWaiting(c); waiting && !wait.Blocked() {
		var names []string
		for _, d := range owe {
			names = append(names, p.Threads[d].Name)
		}
		txt := "grace period: waiting for " + strings.Join(names, ", ")
		if len(names) == 0 {
			txt = "grace period: over"
		}
		for _, l := range wrap(txt, w-2) {
			out = append(out, "  "+st.CPUBlocked.Render(l))
		}
	}
	return out
}

// code is the source lines with their marks, each numbered as the edit
// syntax numbers it (P0:2 is the second line of P0's column) and
// wrapped, never cut, under its text.
func (k *cpuCol) code() ([]string, codeRows) {
	in, st, s, c, w, th := k.in, k.st, k.s, k.c, k.w, k.th
	var out []string
	var code codeRows
	pc := s.PC(c)
	numW := len(itoa(len(th.Code)))
	for i, ins := range th.Code {
		text := strings.TrimSpace(ins.Text)
		if part := words.Part(in.Mach.Prog, c, i); part != "" {
			// A later part of the statement above, said by what it
			// does rather than by the same text again.
			text = "↳ " + part
		}
		if text == "" {
			text = fmt.Sprintf("instruction %d", i+1)
		}
		var mark string
		style := st.PendingLine
		switch {
		case i == pc:
			mark, style = "▶ ", st.PCLine
		case s.IssuedEarly(c, i):
			mark, style = "» ", st.EarlyLine
			text += " (early)"
		case s.Executed(c, i):
			mark, style = "✓ ", st.ExecutedLine
		case i < pc:
			mark, style = "– ", st.SkippedLine
		default:
			mark = "  "
		}
		gutter := ""
		if in.gutter() {
			gutter = editGutter(in, st, c, i) // the edit cursor, or ~ on an edited line
		}
		lead := gutter + st.InstrNumber.Render(fmt.Sprintf("%*d", numW, i+1)) + " " + style.Render(mark)
		body := wrapCode(strings.Repeat("  ", ins.Depth)+text, w-ansi.StringWidth(lead))
		cursor := in.gutter() && in.Edit.On && in.Edit.CPU == c && in.Edit.At == i
		for j, l := range body {
			line := lead + style.Render(l)
			if j > 0 {
				line = strings.Repeat(" ", ansi.StringWidth(lead)) + style.Render(l)
			}
			if cursor {
				line = st.EditCursor.Render(ansi.Strip(line))
			}
			if j == 0 {
				code.starts = append(code.starts, len(out))
			}
			out = append(out, line)
		}
	}
	return out, code
}

// regs puts the registers on the status line head when they fit there
// (a line saved for the source), else on lines of their own; a CPU
// without registers shows none.
func (k *cpuCol) regs(head string) (string, []string) {
	in, st, s, p, c, w := k.in, k.st, k.s, k.p, k.c, k.w
	var regs []string
	vals := s.Regs(c)
	for r, name := range k.th.Regs {
		if in.Spec.HideReg != nil && in.Spec.HideReg(c, machine.Reg(r)) {
			continue
		}
		regs = append(regs, st.Register.Render(name+"="+p.FormatValue(vals[r])))
	}
	switch line := head + "  " + strings.Join(regs, " "); {
	case len(regs) == 0:
	case ansi.StringWidth(line) <= w:
		return line, nil
	default:
		return head, flow(st.Label.Render(k.label("regs  ")), regs, w, " ")
	}
	return head, nil
}

// storeBuffer is the store buffer, oldest first.
func (k *cpuCol) storeBuffer() []string {
	st, s, p, c, w := k.st, k.s, k.p, k.c, k.w
	var sb []string
	for _, e := range s.StoreBuffer(c) {
		name, val := p.LocName(e.Loc), p.FormatValue(e.Val)
		switch e.Kind {
		case machine.EntryWmb:
			sb = append(sb, st.WmbMarker.Render("┆wmb┆"))
		case machine.EntryRelease:
			sb = append(sb, st.ReleaseEntry.Render(name+"="+val+" rel"))
		case machine.EntryExclusive:
			sb = append(sb, st.ExclusiveEntry.Render(name+"="+val+" excl"))
		case machine.EntryReleaseExclusive:
			sb = append(sb, st.ReleaseEntry.Render(name+"="+val+" rel excl"))
		default:
			if e.Guard != 0 {
				// Put there past an unresolved if: it commits only once
				// the branch has executed.
				sb = append(sb, st.StoreBufferEntry.Render(name+"="+val+" guess"))
				continue
			}
			sb = append(sb, st.StoreBufferEntry.Render(name+"="+val))
		}
	}
	if len(sb) == 0 {
		sb = []string{st.Empty.Render("empty")}
	}
	if k.tall {
		return column(st.Label.Render("store buffer")+st.Dim.Render(" oldest first"), sb)
	}
	return flow(st.Label.Render(k.label("sb    ")), sb, w, " ")
}

// invalQueue is the invalidation queue (ARM-like), in arrival order: on
// the store buffer's line sb when both fit there, else its own lines.
func (k *cpuCol) invalQueue(sb []string) ([]string, []string) {
	st, s, p, c, w, tall := k.st, k.s, k.p, k.c, k.w, k.tall
	var iq []string
	for _, e := range s.InvalQueue(c) {
		name := p.LocName(e.Loc)
		t := fmt.Sprintf("%s@%d", name, e.Arrived)
		if tall {
			t = fmt.Sprintf("%s  queued at step %d", name, e.Arrived)
		}
		if e.Marked {
			iq = append(iq, st.InvalMarked.Render(t+" acq"))
		} else {
			iq = append(iq, st.InvalEntry.Render(t))
		}
	}
	if len(iq) == 0 {
		iq = []string{st.Empty.Render("empty")}
	}
	switch {
	case tall:
		return sb, column(st.Label.Render("invalidation queue"), iq)
	case len(sb) == 1 && ansi.StringWidth(sb[0])+len(k.label("  "))+ansi.StringWidth(strings.Join(iq, " "))+3 <= w:
		// Both fit on one line: "sb    x=1  iq y@3" (one space
		// between them in a narrow column).
		return []string{sb[0] + k.label("  ") + st.Label.Render("iq ") + strings.Join(iq, " ")}, nil
	default:
		return sb, flow(st.Label.Render(k.label("iq    ")), iq, w, " ")
	}
}

// cache is the CPU's cache lines.
func (k *cpuCol) cache() []string {
	st, s, p, c, w, tall := k.st, k.s, k.p, k.c, k.w, k.tall
	nameW := 0
	for _, name := range p.Locs {
		nameW = max(nameW, ansi.StringWidth(name))
	}
	var cache [][]string
	domains := srcuOnly(p)
	for l := range p.Locs {
		loc := machine.Loc(l)
		if domains[l] {
			continue // an srcu_struct: no access reads or writes its line
		}
		line := s.Cache(c, loc)
		name := p.LocName(loc)
		val := p.FormatValue(line.Val)
		stale := line.State != machine.Invalid && s.Stale(c, loc)
		var text string
		switch {
		case tall && line.State == machine.Invalid:
			text = fmt.Sprintf("%-*s  I  –", nameW, name)
		case tall:
			text = fmt.Sprintf("%-*s  %s  %s", nameW, name, line.State, val)
		case line.State == machine.Invalid:
			text = name + " I"
		default:
			text = name + " " + line.State.String() + "=" + val
		}
		sty := st.CacheShared
		switch {
		case stale:
			sty = st.StaleLine
			text += " STALE"
		case line.State == machine.Invalid:
			sty = st.CacheInvalid
		case line.State == machine.Modified:
			sty = st.CacheModified
		case line.State == machine.Exclusive:
			sty = st.CacheExclusive
		}
		if tall {
			cache = append(cache, []string{sty.Render(text)}) // aligned: kept whole
		} else {
			cache = append(cache, styledWords(sty.Render, text))
		}
	}
	if tall {
		var rows []string
		for _, g := range cache {
			rows = append(rows, g[0])
		}
		return column(st.Label.Render("cache"), rows)
	}
	return flowGroups(st.Label.Render(k.label("cache ")), cache, w, "  ")
}

// column is a label line followed by one indented item per line.
func column(label string, items []string) []string {
	out := []string{label}
	for _, it := range items {
		out = append(out, "  "+it)
	}
	return out
}

// flow lays out items after a label, separated by sep, wrapping onto
// lines indented under the first item.
func flow(label string, items []string, w int, sep string) []string {
	groups := make([][]string, len(items))
	for i, it := range items {
		groups[i] = []string{it}
	}
	return flowGroups(label, groups, w, sep)
}

// flowGroups is flow over items made of words (each styled on its own):
// an item goes on the next line whole when it does not fit the current
// one, and only an item longer than a line is broken, between its words,
// so that a mark such as STALE is never cut.
func flowGroups(label string, groups [][]string, w int, sep string) []string {
	return flowHang(label, groups, w, sep, ansi.StringWidth(label))
}

// flowHang is flowGroups with the lines after the first indented by
// hang cells rather than under the first item: a fact that does not fit
// after a long label goes on the next line whole.
func flowHang(label string, groups [][]string, w int, sep string, hang int) []string {
	indent := hang
	lw := ansi.StringWidth(label)
	avail := max(w-indent, 1)
	first := max(w-lw, 1) // the first line's room, after the label
	var ls []string
	cur := ""
	room := func() int { // the room of the line being filled
		if len(ls) == 0 {
			return first
		}
		return avail
	}
	for _, g := range groups {
		item := strings.Join(g, " ")
		switch {
		case cur == "":
		case ansi.StringWidth(cur+sep+item) <= room():
			cur += sep + item
			continue
		default:
			ls, cur = append(ls, cur), ""
		}
		if ansi.StringWidth(item) <= room() {
			cur = item
			continue
		}
		if len(ls) == 0 && ansi.StringWidth(item) <= avail && first < avail {
			// It fits the lines below, whole: it goes there.
			ls = append(ls, "")
			cur = item
			continue
		}
		parts := textwrap.Items(g, " ", room(), avail, false)
		ls = append(ls, parts[:len(parts)-1]...)
		cur = parts[len(parts)-1]
	}
	ls = append(ls, cur)
	for i := range ls {
		if i == 0 {
			ls[i] = label + ls[i]
		} else {
			ls[i] = strings.Repeat(" ", indent) + ls[i]
		}
	}
	return ls
}

// styledWords splits text into its words, each styled with render: one
// item of flowGroups.
func styledWords(render func(...string) string, text string) []string {
	ws := strings.Fields(text)
	for i := range ws {
		ws[i] = render(ws[i])
	}
	return ws
}

// wrapCode breaks a source line into lines of at most w cells: at its
// spaces, and inside a word too long for a line after an opening
// parenthesis or a comma ("smp_store_release(" / "goal, 8);"), so that a
// primitive's name stays whole whenever it fits a line; only a name
// longer than a line is cut.
func wrapCode(text string, w int) []string {
	// The indentation of nesting stays, on every line, while it leaves
	// room for the words.
	body := strings.TrimLeft(text, " ")
	indent := text[:len(text)-len(body)]
	if len(indent) > 0 && w-len(indent) >= 12 {
		lines := wrapCode(body, w-len(indent))
		for i := range lines {
			lines[i] = indent + lines[i]
		}
		return lines
	}
	text = body
	w = max(w, 1)
	var atoms []string // pieces, each with the space before it if any
	for i, word := range strings.Fields(text) {
		sp := ""
		if i > 0 {
			sp = " "
		}
		if ansi.StringWidth(word) <= w {
			atoms = append(atoms, sp+word)
			continue
		}
		start := 0
		for j := 0; j < len(word); j++ {
			if (word[j] == '(' || word[j] == ',') && j+1 < len(word) {
				atoms = append(atoms, sp+word[start:j+1])
				sp, start = "", j+1
			}
		}
		atoms = append(atoms, sp+word[start:])
	}
	var lines []string
	cur, curW := "", 0
	for _, a := range atoms {
		aw := ansi.StringWidth(a)
		if cur != "" && curW+aw > w {
			lines = append(lines, cur)
			cur, curW = "", 0
		}
		if cur == "" && strings.HasPrefix(a, " ") {
			a = strings.TrimLeft(a, " ")
			aw = ansi.StringWidth(a)
		}
		// Each cut reads only what it keeps: linear in a long atom
		// (issue 22, item 3).
		for aw > w {
			head, hw := textwrap.Cut(a, w)
			lines = append(lines, head)
			a, aw = a[len(head):], aw-hw
		}
		cur, curW = cur+a, curW+aw
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// srcuOnly marks the locations that are only SRCU domains (srcu_struct):
// named by srcu_read_lock, srcu_read_unlock or synchronize_srcu, and
// accessed by no other instruction (none whose address is not a constant
// either, which could be any location). Their cache lines never change:
// the CPU columns leave them out.
func srcuOnly(p *machine.Program) []bool {
	out := make([]bool, len(p.Locs))
	used := make([]bool, len(p.Locs))
	for _, t := range p.Threads {
		for _, in := range t.Code {
			switch in.Op {
			case machine.OpSRCULock, machine.OpSRCUUnlock, machine.OpSyncSRCU:
				if l, ok := in.Addr.Val.AsLoc(); in.Addr.Op == machine.EConst && ok && int(l) < len(out) {
					out[l] = true
				}
			case machine.OpLoad, machine.OpStore, machine.OpRMW, machine.OpLock, machine.OpTryLock, machine.OpUnlock:
				l, ok := in.Addr.Val.AsLoc()
				if in.Addr.Op != machine.EConst || !ok || int(l) >= len(used) {
					return make([]bool, len(p.Locs)) // a pointer may name any of them
				}
				used[l] = true
			}
		}
	}
	for l := range out {
		out[l] = out[l] && !used[l]
	}
	return out
}

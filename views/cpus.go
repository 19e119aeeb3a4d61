package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/scenarios/words"
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
	heights [numSecs]int
	k, colW int   // columns that fit, and their width
	pcs     []int // each CPU's program counter: its line in secCode
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

// fit makes the columns fit h lines when they can: the store buffers,
// invalidation queues and cache lines (what changes, and the stale
// marks) come first, and each CPU's source lines are cut to a window
// around its program counter, with "⋮" saying how many are left out. If
// even the state does not fit, the columns scroll.
func (b *cpuBlock) fit(h int, st Styles) {
	if b.height() <= h {
		return
	}
	b.stateFirst = true
	room := h - (b.height() - b.heights[secCode])
	if room < 1 {
		return
	}
	for c := range b.secs {
		b.secs[c][secCode] = codeWindow(b.secs[c][secCode], b.pcs[c], room, st.Dim.Render)
	}
	b.heights[secCode] = room
}

// codeWindow is at most room of lines, around line pc (the program
// counter; past the end when the CPU has finished), with one line of
// context above it. Lines left out above and below become one "⋮ N
// more" line each, as long as a line of code stays beside the marks.
func codeWindow(lines []string, pc, room int, dim func(...string) string) []string {
	n := len(lines)
	if n <= room {
		return lines
	}
	pc = min(pc, n-1)
	place := func(k int) int { // the first line of a window of k lines
		start := clamp(pc-1, 0, n-k)
		if pc >= start+k {
			start = pc - k + 1
		}
		return start
	}
	if room == 2 {
		// No room for two marks and code: the program counter's line,
		// and how many others there are.
		return []string{lines[pc], dim(fmt.Sprintf("  ⋮ %d more", n-1))}
	}
	k := room
	start := place(k)
	top, bottom := false, false
	for range 3 { // the marks depend on the window, the window on the marks
		t, b := start > 0, start+k < n
		nk := room - b2i(t) - b2i(b)
		if nk < 1 {
			break
		}
		top, bottom, k = t, b, nk
		start = place(k)
	}
	// The window may have moved off a mark's reason: recount.
	top, bottom = top && start > 0, bottom && start+k < n
	var out []string
	if top {
		out = append(out, dim(fmt.Sprintf("  ⋮ %d more", start)))
	}
	out = append(out, lines[start:start+k]...)
	if bottom {
		out = append(out, dim(fmt.Sprintf("  ⋮ %d more", n-start-k)))
	}
	for len(out) < room && start+k < n { // a mark turned out not needed
		out = append(out, lines[start+k])
		k++
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func newCPUBlock(in ScenarioInput, st Styles, w int, tall bool) cpuBlock {
	n := len(in.Mach.Prog.Threads)
	b := cpuBlock{secs: make([][numSecs][]string, n)}
	b.k, b.colW = cpuColumns(n, w)
	for c := 0; c < n; c++ {
		b.secs[c] = cpuColumn(in, st, c, b.colW, tall)
		b.pcs = append(b.pcs, in.State.PC(c))
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

func cpuColumn(in ScenarioInput, st Styles, c, w int, tall bool) [numSecs][]string {
	var sec [numSecs][]string
	m, s := in.Mach, in.State
	p := m.Prog
	th := &p.Threads[c]

	// Status, and why the CPU waits.
	wait := m.Wait(s, c)
	head := st.CPUName.Render(th.Name)
	switch {
	case wait.Kind == machine.WaitFinished:
		head += " " + st.CPUFinished.Render("✓ done")
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
	sec[secHead] = append(sec[secHead], head)
	if reason := words.Wait(p, &wait, words.Full); wait.Blocked() && reason != "" {
		for _, l := range wrap(reason, w-2) {
			sec[secHead] = append(sec[secHead], "  "+st.CPUBlocked.Render(l))
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
			sec[secHead] = append(sec[secHead], "  "+st.CPUBlocked.Render(l))
		}
	}

	// Source lines with their marks.
	pc := s.PC(c)
	for i, ins := range th.Code {
		text := strings.TrimSpace(ins.Text)
		if text == "" {
			text = fmt.Sprintf("instruction %d", i)
		}
		text = strings.Repeat("  ", ins.Depth) + text
		var line string
		switch {
		case i == pc:
			line = st.PCLine.Render("▶ " + text)
		case s.IssuedEarly(c, i):
			line = st.EarlyLine.Render("» " + text + " (early)")
		case s.Executed(c, i):
			line = st.ExecutedLine.Render("✓ " + text)
		case i < pc:
			line = st.SkippedLine.Render("– " + text)
		default:
			line = st.PendingLine.Render("  " + text)
		}
		if in.gutter() {
			// The what-if gutter: the edit cursor, or ~ on an edited line.
			line = editGutter(in, st, c, i) + line
			if in.Edit.On && in.Edit.CPU == c && in.Edit.At == i {
				line = st.EditCursor.Render(ansi.Strip(line))
			}
		}
		sec[secCode] = append(sec[secCode], line)
	}

	// Registers.
	var regs []string
	vals := s.Regs(c)
	for r, name := range th.Regs {
		if in.Spec.HideReg != nil && in.Spec.HideReg(c, machine.Reg(r)) {
			continue
		}
		regs = append(regs, st.Register.Render(name+"="+p.FormatValue(vals[r])))
	}
	if len(regs) == 0 {
		regs = []string{st.Empty.Render("none")}
	}
	// Narrow columns keep their labels short, to leave room for what
	// follows them.
	label := func(l string) string {
		if w < 24 {
			return strings.TrimRight(l, " ") + " "
		}
		return l
	}
	sec[secRegs] = flow(st.Label.Render(label("regs  ")), regs, w, " ")

	// Store buffer, oldest first.
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
		default:
			sb = append(sb, st.StoreBufferEntry.Render(name+"="+val))
		}
	}
	if len(sb) == 0 {
		sb = []string{st.Empty.Render("empty")}
	}
	if tall {
		sec[secSB] = column(st.Label.Render("store buffer")+st.Dim.Render(" oldest first"), sb)
	} else {
		sec[secSB] = flow(st.Label.Render(label("sb    ")), sb, w, " ")
	}

	// Invalidation queue (ARM-like), arrival order.
	if m.Mode == machine.ARM {
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
			sec[secIQ] = column(st.Label.Render("invalidation queue"), iq)
		case len(sec[secSB]) == 1 && ansi.StringWidth(sec[secSB][0])+len(label("  "))+ansi.StringWidth(strings.Join(iq, " "))+3 <= w:
			// Both fit on one line: "sb    x=1  iq y@3" (one space
			// between them in a narrow column).
			sec[secSB][0] += label("  ") + st.Label.Render("iq ") + strings.Join(iq, " ")
		default:
			sec[secIQ] = flow(st.Label.Render(label("iq    ")), iq, w, " ")
		}
	}

	// Cache lines.
	nameW := 0
	for _, name := range p.Locs {
		nameW = max(nameW, ansi.StringWidth(name))
	}
	var cache [][]string
	for l := range p.Locs {
		loc := machine.Loc(l)
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
		sec[secCache] = column(st.Label.Render("cache"), rows)
	} else {
		sec[secCache] = flowGroups(st.Label.Render(label("cache ")), cache, w, "  ")
	}
	return sec
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
	indent := ansi.StringWidth(label)
	avail := max(w-indent, 1)
	var ls []string
	cur := ""
	for _, g := range groups {
		item := strings.Join(g, " ")
		switch {
		case cur == "":
		case ansi.StringWidth(cur+sep+item) <= avail:
			cur += sep + item
			continue
		default:
			ls, cur = append(ls, cur), ""
		}
		if ansi.StringWidth(item) <= avail {
			cur = item
			continue
		}
		parts := wrapItems(g, " ", avail, avail, false)
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

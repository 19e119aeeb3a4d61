package picture

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"unicode"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// The SVG picture, for slides: the same timeline as Text, drawn to be
// read from the back of a room: lanes as lifelines, one row per step,
// each store's time in its store buffer as a bracket beside its lane,
// invalidations as arrows to the caches they reached and each queued
// one's stale window as a band on the receiving lane, a stale read with
// a red arrow from the store it missed, waits as a heavy bar, then the
// outcome, the event graph's cycle and a legend. It is written with
// encoding/xml's encoder token by token, so that every name, attribute
// and text is escaped and the document is well-formed by construction;
// it is self-contained (no fonts, images or scripts it fetches).

// Geometry, in SVG user units (pixels at 100%).
const (
	svgFont      = 18 // labels
	svgSmall     = 15 // notes, tags
	svgTitle     = 24
	svgRow       = 46 // a row without notes
	svgNote      = 22 // each note line
	svgMargin    = 24
	svgStepW     = 64 // the step numbers' column
	svgLaneMin   = 250
	svgMemW      = 150
	svgCharW     = 0.6 // of the font size: DejaVu Sans and its kin
	svgHeadH     = 40
	svgLegendRow = 28
)

// Colours: dark on white, each meaning also a symbol or a line style.
const (
	colText    = "#1a1a1a"
	colLane    = "#8a8a8a"
	colStale   = "#c62828"
	colReorder = "#8e24aa"
	colWait    = "#ef6c00"
	colRead    = "#2e7d32"
	colInval   = "#0277bd"
	colPending = "#a07000"
	colBuffer  = "#f2b600"
	colDim     = "#555555"
)

// svgDoc writes the document.
type svgDoc struct {
	enc *xml.Encoder
	buf bytes.Buffer
	err error
}

func (d *svgDoc) token(t xml.Token) {
	if d.err == nil {
		d.err = d.enc.EncodeToken(t)
	}
}

func attrs(kv ...string) []xml.Attr {
	var out []xml.Attr
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, xml.Attr{Name: xml.Name{Local: kv[i]}, Value: kv[i+1]})
	}
	return out
}

// el writes an element with attributes kv and what inner writes inside.
func (d *svgDoc) el(name string, inner func(), kv ...string) {
	d.token(xml.StartElement{Name: xml.Name{Local: name}, Attr: attrs(kv...)})
	if inner != nil {
		inner()
	}
	d.token(xml.EndElement{Name: xml.Name{Local: name}})
}

// text writes a text element: s made printable and stripped of what XML
// cannot hold.
func (d *svgDoc) text(x, y float64, s string, kv ...string) {
	kv = append([]string{"x", num(x), "y", num(y)}, kv...)
	d.el("text", func() { d.token(xml.CharData(xmlText(s))) }, kv...)
}

// xmlText is s as XML character data may hold it: printable, and without
// the control characters XML 1.0 forbids.
func xmlText(s string) string {
	s = syntax.Printable(s)
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r >= 0x20 && r != 0xfffe && r != 0xffff && !unicode.Is(unicode.Cs, r) {
			return r
		}
		return -1
	}, s)
}

func num(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}

func textW(s string, size float64) float64 { return float64(len([]rune(s))) * size * svgCharW }

// svgPic holds the layout of one picture.
type svgPic struct {
	pic   *Picture
	d     *svgDoc
	laneX []float64
	rowY  []float64 // the y of each row's event line (index: step-1)
	endY  float64   // below the last row
	width float64
	top   float64
}

// SVG draws the picture as a self-contained SVG document.
func SVG(pic *Picture) ([]byte, error) {
	s := &svgPic{pic: pic, d: &svgDoc{}}
	s.d.enc = xml.NewEncoder(&s.d.buf)
	s.d.enc.Indent("", " ")
	s.layout()
	height := s.drawAll()
	if s.d.err != nil {
		return nil, s.d.err
	}
	if err := s.d.enc.Flush(); err != nil {
		return nil, err
	}
	body := s.d.buf.Bytes()
	// The root element goes around the body once its height is known.
	var out bytes.Buffer
	out.WriteString(xml.Header)
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Verdana, Helvetica, Arial, sans-serif" font-size="%d">`+"\n",
		num(s.width), num(height), num(s.width), num(height), svgFont)
	out.Write(body)
	out.WriteString("\n</svg>\n")
	return out.Bytes(), nil
}

func (s *svgPic) title() string {
	return s.pic.Name + ", " + s.pic.Mode.Title() + " mode: where every value travelled"
}

// layout places the lanes (each CPU lane as wide as its longest label
// needs) and the rows (each as tall as its notes need).
func (s *svgPic) layout() {
	pic := s.pic
	ncpu := len(pic.Lanes) - 1
	need := make([]float64, ncpu)
	for c := range need {
		need[c] = svgLaneMin
	}
	for _, r := range pic.Rows {
		w := textW(r.Label.Long, svgFont) + 60
		if w > need[r.CPU] {
			need[r.CPU] = min(w, 420)
		}
	}
	x := float64(svgMargin + svgStepW)
	// Room left of each lifeline for the store-buffer brackets.
	for c := 0; c < ncpu; c++ {
		s.laneX = append(s.laneX, x+44)
		x += need[c]
	}
	s.laneX = append(s.laneX, x+44)
	s.width = max(x+svgMemW+svgMargin, textW(s.title(), svgTitle)*1.08+2*svgMargin)
	s.top = svgMargin + svgTitle + 14 + svgHeadH + 20
	y := s.top + svgRow/2
	for _, r := range pic.Rows {
		s.rowY = append(s.rowY, y)
		y += svgRow + float64(len(r.Notes))*svgNote
	}
	s.endY = y - svgRow/2 + 10
}

// y of the state after k steps: between rows k and k+1.
func (s *svgPic) stateY(k int) float64 {
	switch {
	case k <= 0:
		return s.top
	case k >= len(s.rowY):
		return s.endY
	}
	return (s.rowY[k-1] + s.rowY[k]) / 2
}

func (s *svgPic) rowAt(step int) float64 {
	if step < 1 || step > len(s.rowY) {
		return s.endY
	}
	return s.rowY[step-1]
}

func (s *svgPic) drawAll() float64 {
	d, pic := s.d, s.pic
	d.el("defs", func() {
		for _, m := range []struct{ id, col string }{{"head-read", colRead}, {"head-inval", colInval}, {"head-stale", colStale}, {"head-pending", colPending}, {"head-dim", colDim}} {
			d.el("marker", func() {
				d.el("path", nil, "d", "M0,0 L10,5 L0,10 z", "fill", m.col)
			}, "id", m.id, "viewBox", "0 0 10 10", "refX", "9", "refY", "5", "markerUnits", "userSpaceOnUse", "markerWidth", "13", "markerHeight", "13", "orient", "auto-start-reverse")
		}
	})
	d.el("rect", nil, "width", "100%", "height", "100%", "fill", "white")
	d.text(svgMargin, svgMargin+svgTitle-4, s.title(), "font-size", itoa(svgTitle), "font-weight", "bold", "fill", colText)
	s.lanes()
	s.buffers()
	s.windows()
	s.waits()
	for k := range pic.Rows {
		s.row(k)
	}
	y := s.endY + 30
	y = s.footer(y)
	y = s.legend(y + 10)
	return y + svgMargin
}

// lanes draws the lane names and lifelines.
func (s *svgPic) lanes() {
	d, pic := s.d, s.pic
	hy := float64(svgMargin + svgTitle + 14 + 26)
	for i, ln := range pic.Lanes {
		x := s.laneX[i]
		d.text(x, hy, ln.Name, "font-size", "20", "font-weight", "bold", "text-anchor", "middle", "fill", colText)
		dash := ""
		if ln.CPU < 0 {
			dash = "4 4"
		}
		kv := []string{"x1", num(x), "y1", num(hy + 10), "x2", num(x), "y2", num(s.endY), "stroke", colLane, "stroke-width", "2"}
		if dash != "" {
			kv = append(kv, "stroke-dasharray", dash)
		}
		d.el("line", nil, kv...)
	}
	// The initial values, in memory's lane.
	var vals []string
	for _, iv := range pic.Init {
		vals = append(vals, iv.S)
	}
	d.text(s.laneX[len(s.laneX)-1]+10, s.top-4, "initially "+strings.Join(vals, " "), "font-size", itoa(svgSmall), "fill", colDim)
}

// buffers draws each store's time in its store buffer: a bracket beside
// its CPU's lifeline from the step it went in to the step it became
// visible (to the end, if it never did), side by side when they overlap.
func (s *svgPic) buffers() {
	d := s.d
	type span struct{ a, b float64 }
	slots := map[int][]span{}
	for _, j := range s.pic.Stores {
		if j.Exec == 0 {
			continue
		}
		a := s.rowAt(j.Exec)
		b := s.endY
		if j.Commit > 0 {
			b = s.rowAt(j.Commit)
		}
		c := j.Store.CPU
		slot := 0
		for ; slot < len(slots[c]); slot++ {
			if sp := slots[c][slot]; sp.b < a || sp.a > b {
				break
			}
		}
		if slot == len(slots[c]) {
			slots[c] = append(slots[c], span{a, b})
		} else {
			slots[c][slot] = span{a, b}
		}
		x := s.laneX[c] - 12 - float64(slot)*12
		s.label(x-2, a-8, j.Text, 12, colPending, "text-anchor", "end")
		d.el("path", nil, "d", fmt.Sprintf("M%s,%s h-5 V%s h5", num(x+5), num(a), num(b)), "fill", "none", "stroke", colBuffer, "stroke-width", "4", "stroke-linejoin", "round")
	}
}

// windows draws, on each CPU that got an invalidation queued, the band
// in which its copy stayed readable though out of date: from the commit
// to the step that applied it (or the end).
func (s *svgPic) windows() {
	d := s.d
	for _, j := range s.pic.Stores {
		for _, sd := range j.Sends {
			if !sd.Queued || j.Commit == 0 {
				continue
			}
			a, b := s.rowAt(j.Commit), s.endY
			if sd.Applied > 0 {
				b = s.rowAt(sd.Applied)
			}
			x := s.laneX[sd.CPU]
			d.el("rect", nil, "x", num(x+3), "y", num(a), "width", "7", "height", num(max(b-a, 2)), "fill", colInval, "fill-opacity", "0.25")
		}
	}
}

// waits draws a heavy bar on a CPU's lifeline while it waits.
func (s *svgPic) waits() {
	d := s.d
	for _, w := range s.pic.Waits {
		if w.Wait.Kind == machine.WaitFault {
			continue
		}
		x := s.laneX[w.CPU]
		a, b := s.stateY(w.From), s.stateY(w.To)
		if w.From > 0 {
			a = s.rowAt(w.From)
		}
		if w.To <= len(s.rowY) {
			b = s.rowAt(w.To)
		}
		d.el("line", nil, "x1", num(x), "y1", num(a), "x2", num(x), "y2", num(b), "stroke", colWait, "stroke-width", "9", "stroke-opacity", "0.55", "stroke-linecap", "round")
	}
}

// label draws text with a white halo, so that it reads over lines.
func (s *svgPic) label(x, y float64, t string, size int, col string, kv ...string) {
	kv = append([]string{"font-size", itoa(size), "fill", col, "stroke", "white", "stroke-width", "5", "paint-order", "stroke", "stroke-linejoin", "round"}, kv...)
	s.d.text(x, y, t, kv...)
}

func (s *svgPic) arrow(x1, y1, x2, y2 float64, col, head string, dash string, w float64) {
	kv := []string{"x1", num(x1), "y1", num(y1), "x2", num(x2), "y2", num(y2), "stroke", col, "stroke-width", num(w), "marker-end", "url(#" + head + ")"}
	if dash != "" {
		kv = append(kv, "stroke-dasharray", dash)
	}
	s.d.el("line", nil, kv...)
}

// row draws one step: its number and margin mark, the marker and label
// on the acting lane, the arrows, and the notes under it.
func (s *svgPic) row(k int) {
	d, pic := s.d, s.pic
	r := &pic.Rows[k]
	y := s.rowY[k]
	x := s.laneX[r.CPU]
	col := colText
	switch cls := rowClass(r); cls {
	case ClassStale:
		col = colStale
	case ClassReorder:
		col = colReorder
	case ClassWait:
		col = colWait
	case ClassInval:
		col = colInval
	}
	d.text(svgMargin+svgStepW-18, y+6, itoa(r.Step), "font-size", "16", "text-anchor", "end", "fill", colDim)
	switch m, _ := mark(r); m {
	case "":
	case "⏸":
		// Drawn: not every font has the pause sign.
		s.pause(svgMargin+svgStepW-9, y-7)
	default:
		mc := map[string]string{"‼": colStale, "✗": colStale, "⇅": colReorder}[m]
		d.text(svgMargin+svgStepW-10, y+6, m, "font-size", "18", "font-weight", "bold", "fill", mc)
	}
	// Arrows first, so that markers and labels sit on top; an arrow to
	// the right of the acting lane starts or ends after its label.
	labelEnd := x + 14 + textW(r.Label.Long, svgFont) + 8
	if rd := r.Read; rd != nil && rd.Via != r.CPU {
		vx := s.laneX[rd.Via]
		c := colRead
		if rd.Class == machine.Stale {
			c = colStale
		}
		d.el("circle", nil, "cx", num(vx), "cy", num(y), "r", "5", "fill", "white", "stroke", c, "stroke-width", "2")
		if vx > x {
			s.arrow(vx-6, y, min(labelEnd, vx-20), y, c, "head-read", "", 3)
		} else {
			s.arrow(vx+6, y, x-10, y, c, "head-read", "", 3)
		}
		s.label(vx+8, y-10, s.storeTag(rd), svgSmall, c)
	}
	for _, sd := range r.Sends {
		rx := s.laneX[sd.CPU]
		if rx > x {
			s.arrow(min(labelEnd, rx-20), y, rx-5, y, colInval, "head-inval", "7 4", 2)
		} else {
			s.arrow(x-10, y, rx+5, y, colInval, "head-inval", "7 4", 2)
		}
		tag := "inv"
		if !sd.Queued {
			tag = "→ I"
		}
		s.label(rx+8, y-8, tag, svgSmall, colInval)
	}
	// The stale read's arrow from the store it missed, at the step it
	// became visible; a newer store still buffered, from where it went in.
	if rd := r.Read; rd != nil {
		if rd.Missed != nil {
			from := s.journey(*rd.Missed)
			fx, fy := s.laneX[rd.Missed.CPU], s.rowAt(from.Commit)
			s.curve(fx, fy, x, y, colStale, "head-stale", "8 5")
		}
		if rd.Pending != nil {
			from := s.journey(*rd.Pending)
			fx, fy := s.laneX[rd.Pending.CPU], s.rowAt(from.Exec)
			s.curve(fx, fy, x, y, colPending, "head-pending", "2 5")
		}
	}
	s.marker(r, x, y, col)
	weight := "normal"
	if r.Marks != 0 {
		weight = "bold"
	}
	s.label(x+14, y+6, r.Label.Long, svgFont, col, "font-weight", weight)
	ny := y + svgRow/2 + 4
	for _, n := range r.Notes {
		nc := colDim
		switch noteClass(n) {
		case ClassStale:
			nc = colStale
		case ClassReorder:
			nc = colReorder
		case ClassWait:
			nc = colWait
		}
		nx, text := s.laneX[n.CPU]+14, n.Text
		if rest, ok := strings.CutPrefix(text, "⏸ "); ok {
			// Drawn: not every font has the pause sign.
			s.pause(nx, ny-12)
			nx, text = nx+18, rest
		}
		s.label(nx, ny, text, svgSmall, nc, "font-style", "italic")
		ny += svgNote
	}
}

// pause draws the pause sign (two bars) with its top left at x, y.
func (s *svgPic) pause(x, y float64) {
	s.d.el("rect", nil, "x", num(x), "y", num(y), "width", "4", "height", "14", "fill", colWait)
	s.d.el("rect", nil, "x", num(x+7), "y", num(y), "width", "4", "height", "14", "fill", colWait)
}

// storeTag names the store a read's value came from, at the arrow's tail.
func (s *svgPic) storeTag(rd *Read) string {
	if rd.From.Initial() {
		for _, iv := range s.pic.Init {
			if iv.Loc == rd.Loc {
				return iv.S
			}
		}
	}
	return s.journey(rd.From).Text
}

func (s *svgPic) journey(id machine.StoreID) Journey {
	for _, j := range s.pic.Stores {
		if j.Store == id {
			return j
		}
	}
	return Journey{}
}

// curve draws a bent arrow from a store's point on an earlier row to a
// read: it leaves diagonally, clear of the store's label, and arrives at
// the read's marker from above, clear of the read's label.
func (s *svgPic) curve(x1, y1, x2, y2 float64, col, head, dash string) {
	my := y1 + (y2-y1)/2
	path := fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", num(x1), num(y1), num(x1+(x2-x1)/4), num(my), num(x2), num(my), num(x2), num(y2-10))
	s.d.el("path", nil, "d", path, "fill", "none", "stroke", col, "stroke-width", "2.5", "stroke-dasharray", dash, "marker-end", "url(#"+head+")")
}

// marker draws the acting lane's glyph: a dot (an instruction), a
// diamond (a commit), a hollow diamond (an invalidation applied), a ring
// (a grace period), a cross (a fault).
func (s *svgPic) marker(r *Row, x, y float64, col string) {
	d := s.d
	switch marker(r) {
	case '◆':
		d.el("path", nil, "d", fmt.Sprintf("M%s,%s l8,8 l-8,8 l-8,-8 z", num(x), num(y-8)), "fill", col)
	case '◇':
		d.el("path", nil, "d", fmt.Sprintf("M%s,%s l7,7 l-7,7 l-7,-7 z", num(x), num(y-7)), "fill", "white", "stroke", col, "stroke-width", "2.5")
	case '○':
		d.el("circle", nil, "cx", num(x), "cy", num(y), "r", "7", "fill", "white", "stroke", col, "stroke-width", "2.5")
	case '✗':
		d.el("path", nil, "d", fmt.Sprintf("M%s,%s l12,12 m0,-12 l-12,12", num(x-6), num(y-6)), "stroke", col, "stroke-width", "3")
	default:
		d.el("circle", nil, "cx", num(x), "cy", num(y), "r", "7", "fill", col)
	}
}

// footer writes the end, the graph's summary; it returns the y below.
func (s *svgPic) footer(y float64) float64 {
	d, pic := s.d, s.pic
	d.el("line", nil, "x1", num(svgMargin), "y1", num(y-20), "x2", num(s.width-svgMargin), "y2", num(y-20), "stroke", colLane, "stroke-width", "1")
	lines := append([]string(nil), pic.End...)
	if pic.Graph != nil && pic.Final {
		lines = append(lines, pic.Graph.Summary(pic.Attempt)...)
	}
	maxChars := int((s.width - 2*svgMargin) / (svgFont * svgCharW))
	for _, l := range lines {
		for i, part := range wrapHanging(l, maxChars, maxChars-2) {
			x := float64(svgMargin)
			if i > 0 {
				x += 2 * svgFont * svgCharW
			}
			d.text(x, y, part, "fill", colText)
			y += svgFont + 8
		}
	}
	return y
}

// legend explains the marks and lines.
func (s *svgPic) legend(y float64) float64 {
	d := s.d
	type entry struct {
		draw func(x, y float64)
		text string
		sym  string // what Picture.used calls it
	}
	line := func(col, dash string, w float64) func(x, y float64) {
		return func(x, y float64) {
			kv := []string{"x1", num(x), "y1", num(y - 5), "x2", num(x + 34), "y2", num(y - 5), "stroke", col, "stroke-width", num(w)}
			if dash != "" {
				kv = append(kv, "stroke-dasharray", dash)
			}
			d.el("line", nil, kv...)
		}
	}
	entries := []entry{
		{func(x, y float64) { s.marker(&Row{Kind: RowLoad}, x+17, y-5, colText) }, "instruction", "●"},
		{func(x, y float64) { s.marker(&Row{Kind: RowCommit}, x+17, y-5, colText) }, "commit: the store becomes visible", "◆"},
		{func(x, y float64) { s.marker(&Row{Kind: RowApply}, x+17, y-5, colInval) }, "invalidation applied", "◇"},
		{func(x, y float64) { s.marker(&Row{Kind: RowGrace}, x+17, y-5, colText) }, "grace period", "○"},
		{line(colBuffer, "", 4), "in the store buffer", "sb"},
		{line(colInval, "7 4", 2), "invalidation sent", "▷"},
		{func(x, y float64) {
			d.el("rect", nil, "x", num(x+14), "y", num(y-14), "width", "7", "height", "18", "fill", colInval, "fill-opacity", "0.25")
		}, "queued: old copy still readable", "▷"},
		{line(colInval, "7 4", 2), "copy dropped at once (→ I)", "▶"},
		{line(colRead, "", 3), "value fetched on a miss", "━"},
		{line(colStale, "8 5", 2.5), "from the store a ‼ STALE read missed", "✗"},
		{line(colPending, "2 5", 2.5), "from a newer store still buffered", "◌"},
		{line(colWait, "", 9), "waiting", "┃"},
		{func(x, y float64) { s.pause(x+12, y-14) }, "the instruction that had to wait", "⏸"},
		{func(x, y float64) { d.text(x+10, y, "⇅", "font-weight", "bold", "fill", colReorder) }, "reordered", "⇅"},
	}
	used := s.pic.used()
	var shown []entry
	for _, e := range entries {
		if used[e.sym] {
			shown = append(shown, e)
		}
	}
	entries = shown
	x := float64(svgMargin)
	colW := 380.0
	perRow := max(int((s.width-2*svgMargin)/colW), 1)
	for i, e := range entries {
		cx := x + float64(i%perRow)*colW
		cy := y + float64(i/perRow)*svgLegendRow
		e.draw(cx, cy)
		d.text(cx+46, cy, e.text, "font-size", itoa(svgSmall), "fill", colText)
	}
	return y + float64((len(entries)+perRow-1)/perRow)*svgLegendRow
}

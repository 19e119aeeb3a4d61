package picture

import (
	"slices"
	"strings"

	"smpscope/machine"
	"smpscope/scenarios"
)

// Graph is an execution's event graph, as herd7 draws one: the memory
// accesses of each CPU in program order (po), each read's store (rf),
// each location's coherence order (co) and the from-reads (fr: a read
// comes before the stores coherence-after the one it read). The po edges
// say what orders them (fences between, acquire, release, address, data
// and control dependencies).
//
// Cycle is the cycle of po, rf, co and fr edges that the execution has
// (an execution with none is sequentially consistent): the reason the
// outcome takes some reordering to reach. For a closest attempt, Needed
// are the edges the asked outcome would need instead (a read from
// another store), and Cycle the cycle they would close.
type Graph struct {
	Events []GEvent
	Edges  []Edge
	// Cycle lists indices into Edges, in the order the cycle runs.
	Cycle []int
	// Needed lists indices into Edges of the hypothetical edges the
	// outcome asked for needs (a closest attempt's; Hypothetical set),
	// and NeededVal the value each read they change would have to read.
	Needed    []int
	NeededVal map[int]machine.Value
	prog      *machine.Program
}

// GEventKind is the kind of an event.
type GEventKind uint8

// Event kinds.
const (
	EvRead GEventKind = iota
	EvWrite
)

// GEvent is one memory access, or a location's initial write.
type GEvent struct {
	Name  string // a, b, c, ... as herd7 names them; "i" + location for initial writes
	CPU   int    // -1 for an initial write
	Instr int
	Kind  GEventKind
	Loc   machine.Loc
	Val   machine.Value
	// Label is "W x=1", "R y=0", with the access's flavour ("Racq",
	// "Wrel", "Wonce" is plain W).
	Label string
	// Step is the step the access happened at: the load's, or the step
	// the store became visible (0 for initial writes and stores never
	// committed).
	Step int
	// Store is the store a write event is (for rf and co).
	Store machine.StoreID
	// Co is a write's coherence position (-1 if never committed).
	Co int
	// From is a read's rf store.
	From machine.StoreID
	// Reg is the register a read loaded.
	Reg     string
	acquire bool
	release bool
	rmw     bool // the write half of an RMW, or the read half (with a write after it)
	full    bool // of a fully ordered RMW that wrote: a full barrier on either side
}

// EdgeKind is a relation of the graph.
type EdgeKind uint8

// Relations.
const (
	Po EdgeKind = iota
	Rf
	Co
	Fr
	Rmw // an RMW's read to its write
)

func (k EdgeKind) String() string { return [...]string{"po", "rf", "co", "fr", "rmw"}[k] }

// Edge is one edge of the graph.
type Edge struct {
	From, To int // indices into Events
	Kind     EdgeKind
	// External: between different CPUs (rfe, coe, fre); initial writes
	// count as external.
	External bool
	// Order says, for po, what orders the pair: fences between them
	// ("mb", "rmb", "wmb"), "acq", "rel", "addr", "data", "ctrl".
	Order []string
	// Hypothetical edges are not in the execution: a closest attempt's
	// outcome would need them.
	Hypothetical bool
}

// Name is the edge's herd7 name: po, rfe, rfi, coe, fre, ... with what
// orders a po edge: "po+rmb".
func (e Edge) Name() string {
	s := e.Kind.String()
	if e.Kind == Rf || e.Kind == Co || e.Kind == Fr {
		if e.External {
			s += "e"
		} else {
			s += "i"
		}
	}
	if len(e.Order) > 0 {
		s += "+" + strings.Join(e.Order, "+")
	}
	return s
}

// graphBuilder holds what building a graph needs.
type graphBuilder struct {
	ex  *scenarios.Execution
	pic *Picture
	g   *Graph
	// writes maps a store to its write event; inits a location to its
	// initial write event (made on demand).
	writes map[machine.StoreID]int
	inits  map[machine.Loc]int
	// perCPU lists each CPU's events in program order.
	perCPU [][]int
}

func buildGraph(ex *scenarios.Execution, pic *Picture) *Graph {
	b := &graphBuilder{ex: ex, pic: pic, g: &Graph{prog: ex.Mach.Prog, NeededVal: map[int]machine.Value{}}, writes: map[machine.StoreID]int{}, inits: map[machine.Loc]int{}}
	b.events()
	b.edges()
	b.g.Cycle = findCycle(b.g, nil)
	if ex.Attempt != nil {
		b.needed()
	}
	b.name()
	return b.g
}

// performed lists, per CPU, the instructions performed, in program order
// (programs jump only forward, so index order is program order).
func performed(ex *scenarios.Execution) [][]int {
	out := make([][]int, len(ex.Mach.Prog.Threads))
	for _, ev := range ex.Events {
		if ev.Step.Kind != machine.StepExec && ev.Step.Kind != machine.StepEarly {
			continue
		}
		c := int(ev.Step.CPU)
		if ev.Instr >= 0 && ev.Fault == nil {
			out[c] = append(out[c], ev.Instr)
		}
		out[c] = append(out[c], ev.Folded...)
	}
	for c := range out {
		slices.Sort(out[c])
		out[c] = slices.Compact(out[c])
	}
	return out
}

// events makes the events: each CPU's accesses in program order.
func (b *graphBuilder) events() {
	ex := b.ex
	p := ex.Mach.Prog
	// Per CPU and instruction, the step's event.
	evAt := map[[2]int]*machine.Event{}
	for i := range ex.Events {
		ev := &ex.Events[i]
		if (ev.Step.Kind == machine.StepExec || ev.Step.Kind == machine.StepEarly) && ev.Instr >= 0 {
			evAt[[2]int{int(ev.Step.CPU), ev.Instr}] = ev
		}
	}
	commitStep := map[machine.StoreID]int{}
	commitCo := map[machine.StoreID]int{}
	for _, j := range b.pic.Stores {
		if j.Commit > 0 {
			commitStep[j.Store], commitCo[j.Store] = j.Commit, j.Co
		}
	}
	stepOf := map[*machine.Event]int{}
	for i := range ex.Events {
		stepOf[&ex.Events[i]] = i + 1
	}
	b.perCPU = make([][]int, len(p.Threads))
	for c, instrs := range performed(ex) {
		for _, i := range instrs {
			ev := evAt[[2]int{c, i}]
			if ev == nil {
				continue // folded: touches nothing shared
			}
			in := &p.Threads[c].Code[i]
			id := machine.StoreID{CPU: c, Instr: i}
			if ld := ev.Load; ld != nil {
				e := GEvent{CPU: c, Instr: i, Kind: EvRead, Loc: ld.Loc, Val: ld.Val, Step: stepOf[ev], From: ld.From, Co: -1,
					acquire: isAcquire(in), rmw: ev.Commit != nil || ev.Stored != nil, full: isFull(in, ev)}
				for _, r := range b.pic.Reads {
					if r.Step == e.Step {
						e.Reg = r.Reg
					}
				}
				b.add(c, e)
			}
			var wl machine.Loc
			var wv machine.Value
			wrote := false
			switch {
			case ev.Commit != nil && ev.Commit.Store == id:
				wl, wv, wrote = ev.Commit.Loc, ev.Commit.Val, true
			case ev.Stored != nil:
				wl, wv, wrote = ev.Stored.Loc, ev.Stored.Val, true
			}
			if wrote {
				co, ok := commitCo[id]
				if !ok {
					co = -1
				}
				e := GEvent{CPU: c, Instr: i, Kind: EvWrite, Loc: wl, Val: wv, Step: commitStep[id], Store: id, Co: co,
					release: isRelease(in), rmw: ev.Load != nil, full: isFull(in, ev)}
				b.writes[id] = b.add(c, e)
			}
		}
	}
}

func isAcquire(in *machine.Instr) bool {
	switch in.Op {
	case machine.OpLoad:
		return in.Access == machine.Acquire
	case machine.OpRMW:
		return in.Order == machine.OrderAcquire
	case machine.OpLock, machine.OpTryLock:
		return true
	}
	return false
}

// isFull reports a fully ordered RMW that wrote (one that failed is a
// plain load, with no barrier).
func isFull(in *machine.Instr, ev *machine.Event) bool {
	return in.Op == machine.OpRMW && in.Order == machine.OrderFull && !ev.Failed
}

func isRelease(in *machine.Instr) bool {
	switch in.Op {
	case machine.OpStore:
		return in.Access.IsRelease()
	case machine.OpRMW:
		return in.Order == machine.OrderRelease
	case machine.OpUnlock:
		return true
	}
	return false
}

func (b *graphBuilder) add(c int, e GEvent) int {
	b.g.Events = append(b.g.Events, e)
	k := len(b.g.Events) - 1
	if c >= 0 {
		b.perCPU[c] = append(b.perCPU[c], k)
	}
	return k
}

// write returns the event of store id to l, making the initial write of
// l when id is the initial value.
func (b *graphBuilder) write(id machine.StoreID, l machine.Loc) (int, bool) {
	if !id.Initial() {
		k, ok := b.writes[id]
		return k, ok
	}
	if k, ok := b.inits[l]; ok {
		return k, true
	}
	v := b.ex.States[0].Memory(l)
	b.g.Events = append(b.g.Events, GEvent{CPU: -1, Instr: -1, Kind: EvWrite, Loc: l, Val: v, Store: id, Co: 0})
	b.inits[l] = len(b.g.Events) - 1
	return b.inits[l], true
}

// coOrder lists the committed writes to l in coherence order, the
// initial write (made on demand) first.
func (b *graphBuilder) coOrder(l machine.Loc) []int {
	var ws []int
	for k, e := range b.g.Events {
		if e.Kind == EvWrite && e.CPU >= 0 && e.Loc == l && e.Co > 0 {
			ws = append(ws, k)
		}
	}
	slices.SortFunc(ws, func(x, y int) int { return b.g.Events[x].Co - b.g.Events[y].Co })
	if len(ws) == 0 {
		return nil
	}
	init, _ := b.write(machine.StoreID{CPU: -1, Instr: -1}, l)
	return append([]int{init}, ws...)
}

func (b *graphBuilder) edge(e Edge) int {
	b.g.Edges = append(b.g.Edges, e)
	return len(b.g.Edges) - 1
}

func (b *graphBuilder) external(x, y int) bool {
	ex, ey := b.g.Events[x], b.g.Events[y]
	return ex.CPU != ey.CPU || ex.CPU < 0
}

// edges makes po (each event to the next of its CPU), rmw, rf, co
// (immediate) and fr (each read to the write coherence-after its own).
func (b *graphBuilder) edges() {
	orders := newOrdering(b.ex)
	for _, evs := range b.perCPU {
		for i := 1; i < len(evs); i++ {
			x, y := evs[i-1], evs[i]
			ex, ey := b.g.Events[x], b.g.Events[y]
			if ex.Instr == ey.Instr && ex.Kind == EvRead && ey.Kind == EvWrite {
				b.edge(Edge{From: x, To: y, Kind: Rmw})
				continue
			}
			b.edge(Edge{From: x, To: y, Kind: Po, Order: orders.between(b.g, x, y)})
		}
	}
	b.comEdges()
}

// comEdges makes rf, co and fr from the events' facts.
func (b *graphBuilder) comEdges() {
	n := len(b.g.Events)
	for k := 0; k < n; k++ {
		e := b.g.Events[k]
		if e.Kind != EvRead {
			continue
		}
		if w, ok := b.write(e.From, e.Loc); ok {
			b.edge(Edge{From: w, To: k, Kind: Rf, External: b.external(w, k)})
		}
	}
	locs := map[machine.Loc]bool{}
	for _, e := range b.g.Events {
		locs[e.Loc] = true
	}
	for l := range len(b.ex.Mach.Prog.Locs) {
		if !locs[machine.Loc(l)] {
			continue
		}
		co := b.coOrder(machine.Loc(l))
		for i := 1; i < len(co); i++ {
			b.edge(Edge{From: co[i-1], To: co[i], Kind: Co, External: b.external(co[i-1], co[i])})
		}
	}
	for k := range b.g.Events {
		e := b.g.Events[k]
		if e.Kind != EvRead {
			continue
		}
		if next, ok := b.coAfter(e.From, e.Loc); ok && !b.sameRMW(k, next) {
			b.edge(Edge{From: k, To: next, Kind: Fr, External: b.external(k, next)})
		}
	}
}

// sameRMW reports whether read r and write w are the halves of one RMW
// (its read never comes before its own write: that is rmw, not fr).
func (b *graphBuilder) sameRMW(r, w int) bool {
	er, ew := b.g.Events[r], b.g.Events[w]
	return er.CPU == ew.CPU && er.Instr == ew.Instr
}

// coAfter is the write coherence-after store id to l.
func (b *graphBuilder) coAfter(id machine.StoreID, l machine.Loc) (int, bool) {
	co := b.coOrder(l)
	w, ok := b.write(id, l)
	if !ok {
		return 0, false
	}
	if i := slices.Index(co, w); i >= 0 && i+1 < len(co) {
		return co[i+1], true
	}
	return 0, false
}

// needed adds, for a closest attempt, the edges the outcome asked for
// would need: for each part of it the execution missed, a read that
// could have read another store's value and so made the part hold; then
// the cycle through them.
func (b *graphBuilder) needed() {
	ex := b.ex
	m, sp := ex.Mach, ex.Spec
	a := ex.Attempt
	if !m.Final(ex.Last()) {
		return
	}
	o := m.Outcome(ex.Last())
	var add []Edge
	for pi, part := range a.Parts {
		if a.Held[pi] || part.Holds == nil {
			continue
		}
		found := false
		for k, e := range b.g.Events {
			if e.Kind != EvRead || e.CPU < 0 || found {
				continue
			}
			in := &m.Prog.Threads[e.CPU].Code[e.Instr]
			if !in.HasDst {
				continue
			}
			for _, w := range b.candidates(e.Loc) {
				we := b.g.Events[w]
				if we.Val == e.Val || w == k || b.sameRMW(k, w) {
					continue
				}
				o2 := changed(o, e.CPU, in.Dst, we.Val)
				if !part.Holds(o2) || !sp.Kept(o2) {
					continue
				}
				// The read would read w: rf from w, and fr to the write
				// coherence-after w.
				add = append(add, Edge{From: w, To: k, Kind: Rf, External: b.external(w, k), Hypothetical: true})
				b.g.NeededVal[k] = we.Val
				if next, ok := b.coAfter(we.Store, e.Loc); ok && !b.sameRMW(k, next) {
					add = append(add, Edge{From: k, To: next, Kind: Fr, External: b.external(k, next), Hypothetical: true})
				}
				found = true
				break
			}
		}
	}
	if len(add) == 0 {
		return
	}
	// The hypothetical graph: the changed reads' own rf and fr edges go.
	changedRead := map[int]bool{}
	for _, e := range add {
		if e.Kind == Rf {
			changedRead[e.To] = true
		}
	}
	h := &Graph{Events: b.g.Events}
	var keep []int // h's edge i is b.g's keep[i], or -1 for a new one
	for i, e := range b.g.Edges {
		if (e.Kind == Rf && changedRead[e.To]) || (e.Kind == Fr && changedRead[e.From]) {
			continue
		}
		h.Edges = append(h.Edges, e)
		keep = append(keep, i)
	}
	for _, e := range add {
		b.g.Needed = append(b.g.Needed, b.edge(e))
		h.Edges = append(h.Edges, e)
		keep = append(keep, len(b.g.Edges)-1)
	}
	need := map[int]bool{}
	for i := len(h.Edges) - len(add); i < len(h.Edges); i++ {
		need[i] = true
	}
	cyc := findCycle(h, need)
	if cyc == nil {
		b.g.Cycle = nil
		return
	}
	b.g.Cycle = nil
	for _, i := range cyc {
		b.g.Cycle = append(b.g.Cycle, keep[i])
	}
}

// candidates are the writes to l a read could read: the initial write
// and every write of the execution.
func (b *graphBuilder) candidates(l machine.Loc) []int {
	init, _ := b.write(machine.StoreID{CPU: -1, Instr: -1}, l)
	out := []int{init}
	for k, e := range b.g.Events {
		if e.Kind == EvWrite && e.CPU >= 0 && e.Loc == l {
			out = append(out, k)
		}
	}
	return out
}

func changed(o machine.Outcome, c int, r machine.Reg, v machine.Value) machine.Outcome {
	n := machine.Outcome{Mem: o.Mem, Regs: make([][]machine.Value, len(o.Regs))}
	for t := range o.Regs {
		n.Regs[t] = o.Regs[t]
	}
	n.Regs[c] = slices.Clone(o.Regs[c])
	if int(r) < len(n.Regs[c]) {
		n.Regs[c][r] = v
	}
	return n
}

// name names the events herd7's way: a, b, c, ... CPU by CPU in program
// order; initial writes "i" and the location.
func (b *graphBuilder) name() {
	p := b.ex.Mach.Prog
	next := 0
	for _, evs := range b.perCPU {
		for _, k := range evs {
			b.g.Events[k].Name = eventName(next)
			next++
		}
	}
	for k := range b.g.Events {
		e := &b.g.Events[k]
		if e.CPU < 0 {
			e.Name = "i" + p.LocName(e.Loc)
		}
		kind := "R"
		if e.Kind == EvWrite {
			kind = "W"
		}
		switch {
		case e.acquire && e.Kind == EvRead:
			kind += "acq"
		case e.release && e.Kind == EvWrite:
			kind += "rel"
		}
		e.Label = kind + " " + storeText(p, e.Loc, e.Val)
	}
}

func eventName(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return eventName(i/26-1) + string(rune('a'+i%26))
}

// graphEdge is an edge of the search: po and co are transitive, fr
// reaches every write coherence-after the read's.
type graphEdge struct {
	to   int
	edge int // index into the graph's edges; -1 for a derived one
	kind EdgeKind
}

// findCycle returns the shortest cycle of the graph's edges (po, rf, co,
// fr and rmw, po and co closed under transitivity), as edge indices; with
// must, only cycles through at least one of those edges count. Ties go
// to the cycle with the most external edges, then the earliest events.
// Nil when there is none.
func findCycle(g *Graph, must map[int]bool) []int {
	n := len(g.Events)
	adj := make([][]graphEdge, n)
	for i, e := range g.Edges {
		adj[e.From] = append(adj[e.From], graphEdge{e.To, i, e.Kind})
	}
	// The search walks single edges; po and co chains are found as
	// paths of them, so a cycle's po run names each step. Shortest by
	// edge count, then most external edges, then must.
	var best []int
	bestExt := -1
	for s := 0; s < n; s++ {
		// BFS from s over edges; record the predecessor edge.
		type item struct {
			node int
			path []int
		}
		seen := map[int]bool{s: true}
		queue := []item{{s, nil}}
		for len(queue) > 0 {
			it := queue[0]
			queue = queue[1:]
			if best != nil && len(it.path)+1 > len(best) {
				break
			}
			for _, ge := range adj[it.node] {
				path := append(slices.Clone(it.path), ge.edge)
				if ge.to == s {
					if !cycleOK(g, path, must) {
						continue
					}
					ext := externals(g, path)
					if best == nil || len(path) < len(best) || len(path) == len(best) && ext > bestExt {
						best, bestExt = path, ext
					}
					continue
				}
				if seen[ge.to] {
					continue
				}
				seen[ge.to] = true
				queue = append(queue, item{ge.to, path})
			}
		}
	}
	if best == nil {
		return nil
	}
	return rotate(g, best)
}

// cycleOK: a cycle must pass through a must edge (when given) and may
// not be an RMW's read and write with nothing else.
func cycleOK(g *Graph, path []int, must map[int]bool) bool {
	if must == nil {
		return true
	}
	for _, i := range path {
		if must[i] {
			return true
		}
	}
	return false
}

func externals(g *Graph, path []int) int {
	n := 0
	for _, i := range path {
		if g.Edges[i].External {
			n++
		}
	}
	return n
}

// rotate starts a cycle at its event that comes first (CPU, then program
// order), so that it reads the same whichever event the search found it
// from.
func rotate(g *Graph, path []int) []int {
	best := 0
	for i := range path {
		a, b := g.Events[g.Edges[path[i]].From], g.Events[g.Edges[path[best]].From]
		if a.CPU >= 0 && (b.CPU < 0 || a.CPU < b.CPU || a.CPU == b.CPU && a.Instr < b.Instr) {
			best = i
		}
	}
	return append(slices.Clone(path[best:]), path[:best]...)
}

// CycleText names the cycle herd7's way: "a:W x=1 →po b:W y=1 →rfe
// c:R y=1 →po d:R x=0 →fre a"; "" without a cycle.
func (g *Graph) CycleText() string {
	if len(g.Cycle) == 0 {
		return ""
	}
	var b strings.Builder
	first := g.Edges[g.Cycle[0]].From
	for _, i := range g.Cycle {
		e := g.Edges[i]
		b.WriteString(g.EventText(e.From) + " →" + e.Name() + " ")
	}
	b.WriteString(g.Events[first].Name)
	return b.String()
}

// EventText is event k as a cycle names it, "d:R x=0"; a read a closest
// attempt's outcome needs to read another value says that one, "d:R
// x=0?" (it read x=1).
func (g *Graph) EventText(k int) string {
	e := g.Events[k]
	if v, ok := g.NeededVal[k]; ok && g.prog != nil {
		kind, _, _ := strings.Cut(e.Label, " ")
		return e.Name + ":" + kind + " " + storeText(g.prog, e.Loc, v) + "?"
	}
	return e.Name + ":" + e.Label
}

// Ordered lists the po edges of the cycle that something orders, and
// what: "b→c: rmb". A closest attempt's cycle is forbidden by them.
func (g *Graph) Ordered() []string {
	var out []string
	for _, i := range g.Cycle {
		e := g.Edges[i]
		if e.Kind == Po && len(e.Order) > 0 {
			out = append(out, g.Events[e.From].Name+"→"+g.Events[e.To].Name+": "+strings.Join(e.Order, ", "))
		}
	}
	return out
}

// Summary says what the graph shows, in a line or two: the cycle that
// makes the outcome reachable, or the edge a closest attempt's outcome
// needs and the cycle it would close.
func (g *Graph) Summary(attempt bool) []string {
	cyc := g.CycleText()
	if !attempt {
		if cyc == "" {
			return []string{"no cycle in po ∪ rf ∪ co ∪ fr: an interleaving of the CPUs' accesses in program order (sequential consistency) gives this outcome"}
		}
		out := []string{"cycle: " + cyc}
		if ord := g.Ordered(); len(ord) > 0 {
			out = append(out, "ordered po edges on it: "+strings.Join(ord, "; "))
		} else {
			out = append(out, "no fence, acquire, release or dependency orders its po edges")
		}
		return out
	}
	if len(g.Needed) == 0 {
		return nil
	}
	// A changed read's edges as one chain: the write it would read,
	// the read, the write coherence-after that one.
	var need []string
	for _, i := range g.Needed {
		e := g.Edges[i]
		if e.Kind != Rf {
			continue
		}
		s := g.EventText(e.From) + " →" + e.Name() + " " + g.EventText(e.To)
		for _, j := range g.Needed {
			if f := g.Edges[j]; f.Kind == Fr && f.From == e.To {
				s += " →" + f.Name() + " " + g.EventText(f.To)
			}
		}
		need = append(need, s)
	}
	out := []string{"the outcome asked for needs " + strings.Join(need, " and ")}
	if cyc == "" {
		return out
	}
	out = append(out, "which closes the cycle "+cyc)
	if ord := g.Ordered(); len(ord) > 0 {
		out = append(out, "forbidden: its po edges are ordered ("+strings.Join(ord, "; ")+")")
	}
	return out
}

package picture

import (
	"slices"
	"strings"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
)

// Picture is where every value of an execution travelled, as data: the
// lanes (one per CPU, then memory), one row per step, each store's
// journey, each load's source, where CPUs waited, and the event graph.
// Build makes it from the machine's facts (the events and the states);
// the renderers (Text, SVG, DOT) only draw it.
type Picture struct {
	Name  string // the scenario, with its variant: "mp+once (once)"
	Mode  machine.Mode
	Lanes []Lane // the CPUs in order, then memory (MemLane)
	Rows  []Row  // Rows[i] is step i+1
	// Init is the initial value of every location, in location order.
	Init []StoreText
	// Stores is every store's journey, in the order the stores were
	// executed.
	Stores []Journey
	// Reads is every load's source, in step order (also Rows[i].Read).
	Reads []*Read
	// Waits are the spans in which a CPU could not perform its next
	// instruction.
	Waits []Wait
	// End says how the execution ends: its outcome and verdict, or why
	// it is not final.
	End []string
	// Final: the execution ends in a final state (it has an outcome);
	// Attempt: it is a closest attempt.
	Final, Attempt bool
	// Graph is the execution's event graph (po, rf, co, fr).
	Graph *Graph
}

// StoreText is a store as the picture writes it, "x=1".
type StoreText struct {
	Loc machine.Loc
	Val machine.Value
	S   string
}

// Lane is one column of the timeline.
type Lane struct {
	Name string
	CPU  int // -1 for memory
}

// MemLane returns the index of the memory lane.
func (p *Picture) MemLane() int { return len(p.Lanes) - 1 }

// Marks say what makes a row stand out.
type Marks uint8

// Row marks.
const (
	MarkStale   Marks = 1 << iota // a load returned a stale value
	MarkReorder                   // a store committed ahead of older ones, a load ran before its CPU's own buffered store, or an instruction issued early
	MarkWaited                    // the instruction had to wait before it ran
	MarkFault                     // the instruction could not be performed
)

// Row is one step of the timeline.
type Row struct {
	Step  int // 1-based
	CPU   int // the acting CPU (its lane)
	Event *machine.Event
	// Kind says what the step was, for drawing its marker.
	Kind RowKind
	// Label is what the acting lane says, long and short.
	Label Label
	Marks Marks
	// Read is the load the step performed (nil if none).
	Read *Read
	// Sends are the invalidations a store becoming visible sent to the
	// other CPUs' caches.
	Sends []Send
	// Commit is the store that became visible at this step (nil if none).
	Commit *Journey
	// Notes say more, under the row.
	Notes []Note
	// Quiet rows may be folded away when the picture must be short: a
	// store entering the store buffer, an invalidation applied, a fence
	// that passed, a quiescent-state report, with nothing marked.
	Quiet bool
}

// RowKind is what a row's step did.
type RowKind uint8

// Row kinds.
const (
	RowOther  RowKind = iota // an instruction touching nothing shared, an RCU marker
	RowStore                 // a store went into the store buffer
	RowLoad                  // a load (or a failed RMW, which is one)
	RowRMW                   // a read-modify-write or lock
	RowCommit                // a store-buffer entry became visible
	RowApply                 // a queued invalidation was applied
	RowFence                 // a fence ran as a step of its own (it had to wait)
	RowGrace                 // a grace period started or ended, or a quiescent state was reported
	RowFault                 // the instruction could not be performed
)

// Label is a text in two lengths: Long where it fits, Short in narrow
// lanes. Both use the picture's Unicode symbols; the ASCII renderers
// spell them (asciiSymbols).
type Label struct{ Long, Short string }

// Note is a line under a row.
type Note struct {
	Kind NoteKind
	CPU  int // the lane it belongs to
	Text string
	// From is, for NoteMissed and NotePending, the lane the arrow comes
	// from, and Tag what its tail says there.
	From int
	Tag  string
}

// NoteKind is what a note says.
type NoteKind uint8

// Note kinds.
const (
	NoteInfo    NoteKind = iota
	NoteReorder          // what a reordering passed
	NoteMissed           // a stale read: the store it missed, with an arrow from it
	NotePending          // an up-to-date read while a newer store waits in another CPU's buffer
	NoteWait             // a CPU starts to wait
	NoteWaited           // an instruction that had waited runs
	NoteFault
)

// Send is an invalidation that a store becoming visible sent to another
// CPU: queued (ARM-like; the copy stays readable, stale, until applied)
// or applied at once (the copy dropped to I).
type Send struct {
	CPU    int
	Queued bool
	// Applied is the step at which a queued invalidation was applied (0
	// if it was still queued at the end), and Cause why.
	Applied int
	Cause   machine.ApplyCause
}

// Journey is one store's way through the machine.
type Journey struct {
	Store machine.StoreID
	Loc   machine.Loc
	Val   machine.Value
	Kind  machine.EntryKind
	Text  string // "x=1"
	// Exec is the step that put it in the store buffer (0 when an RMW
	// wrote it at once), Commit the step it became visible at (0 if it
	// never did), Co its position in its location's coherence order.
	Exec, Commit int
	Co           int
	// Overtook are the older stores of its CPU still buffered when it
	// became visible.
	Overtook []machine.StoreID
	Sends    []Send
}

// Read is one load's source.
type Read struct {
	Step  int
	CPU   int
	Loc   machine.Loc
	Val   machine.Value
	Reg   string // the register it loaded ("" for a compiler temporary or none)
	Class machine.ReadClass
	// Source is where the value came from: the CPU's own store buffer,
	// its cache, or a miss.
	Source machine.LoadSource
	// From is the store it read (rf).
	From machine.StoreID
	// Via is the lane the value came from: the reader's own for a
	// forwarded value or a cache hit, the owner's for a miss that made
	// it write back, else memory.
	Via int
	// Missed is, for a stale read, the newest store it missed, committed
	// at MissedStep; Pending, for a read while a newer store waits in
	// another CPU's store buffer, that store.
	Missed     *machine.StoreID
	MissedStep int
	Pending    *machine.StoreID
	NewerVal   machine.Value
}

// Wait is a span in which a CPU could not perform its next instruction:
// blocked in the states after steps From to To-1, free again after step
// To (To is len(Rows)+1 when it still waited at the end). Ran is the
// step that finally performed the instruction (0 if none did).
type Wait struct {
	CPU      int
	From, To int
	Wait     machine.Wait
	Ran      int
	// Words says what it waited for, briefly.
	Words string
}

// Build draws the picture of an execution from its facts.
func Build(ex *scenarios.Execution) *Picture {
	m := ex.Mach
	p := m.Prog
	sp := ex.Spec
	name := sp.Name
	if sp.Variant != "" && !strings.Contains(name, sp.Variant) {
		name += " (" + sp.Variant + ")"
	}
	pic := &Picture{Name: name, Mode: m.Mode}
	for c, th := range p.Threads {
		pic.Lanes = append(pic.Lanes, Lane{Name: th.Name, CPU: c})
	}
	pic.Lanes = append(pic.Lanes, Lane{Name: "memory", CPU: -1})
	for l := range p.Locs {
		v := ex.States[0].Memory(machine.Loc(l))
		pic.Init = append(pic.Init, StoreText{Loc: machine.Loc(l), Val: v, S: storeText(p, machine.Loc(l), v)})
	}
	b := builder{ex: ex, pic: pic, journeys: map[machine.StoreID]int{}}
	for i := range ex.Events {
		b.row(i)
	}
	b.waits()
	b.end()
	pic.Graph = buildGraph(ex, pic)
	return pic
}

type builder struct {
	ex       *scenarios.Execution
	pic      *Picture
	journeys map[machine.StoreID]int // index into pic.Stores
	// pending are the queued invalidations not yet applied: per CPU and
	// location, the sends waiting for it (journey, send index).
	pending map[[2]int][][2]int
}

func storeText(p *machine.Program, l machine.Loc, v machine.Value) string {
	return p.LocName(l) + "=" + p.FormatValue(v)
}

func (b *builder) prog() *machine.Program { return b.ex.Mach.Prog }

// journey returns the journey of store id, making it when it is new.
func (b *builder) journey(id machine.StoreID, l machine.Loc, v machine.Value, k machine.EntryKind) *Journey {
	if i, ok := b.journeys[id]; ok {
		return &b.pic.Stores[i]
	}
	b.journeys[id] = len(b.pic.Stores)
	b.pic.Stores = append(b.pic.Stores, Journey{Store: id, Loc: l, Val: v, Kind: k, Text: storeText(b.prog(), l, v)})
	return &b.pic.Stores[len(b.pic.Stores)-1]
}

// storeName is how a row refers to a store: "x=1", with its CPU when
// that is not the row's: "P0's x=1"; "init x=0" for an initial value.
func (b *builder) storeName(id machine.StoreID, l machine.Loc, v machine.Value) string {
	s := storeText(b.prog(), l, v)
	if id.Initial() {
		return "init " + s
	}
	return s
}

func (b *builder) instr(c, i int) *machine.Instr {
	code := b.prog().Threads[c].Code
	if i < 0 || i >= len(code) {
		return nil
	}
	return &code[i]
}

// reg is the name of the register a load of instruction i of CPU c
// wrote, "" when it writes none or only a compiler temporary.
func (b *builder) reg(c, i int) string {
	in := b.instr(c, i)
	if in == nil || !in.HasDst {
		return ""
	}
	if h := b.ex.Spec.HideReg; h != nil && h(c, in.Dst) {
		return ""
	}
	name := b.prog().Threads[c].Regs[in.Dst]
	if strings.HasPrefix(name, "_") {
		return ""
	}
	return name
}

func (b *builder) row(i int) {
	ex := b.ex
	ev := &ex.Events[i]
	c := int(ev.Step.CPU)
	r := Row{Step: i + 1, CPU: c, Event: ev}
	switch ev.Step.Kind {
	case machine.StepExec, machine.StepEarly:
		b.exec(&r)
	case machine.StepCommit:
		b.commit(&r, ev.Commit)
		r.Kind = RowCommit
	case machine.StepInvalidate:
		r.Kind = RowApply
		name := b.prog().LocName(machine.Loc(ev.Step.Arg))
		r.Label = Label{"apply inv " + name, "inv " + name + " ✓"}
		r.Quiet = true
	case machine.StepReportQS:
		r.Kind = RowGrace
		var to []string
		for _, rep := range ev.Reports {
			to = append(to, b.prog().Threads[rep.GP].Name)
		}
		r.Label = Label{"quiescent state → " + strings.Join(to, ","), "qs → " + strings.Join(to, ",")}
		r.Quiet = true
	}
	b.applied(&r)
	if r.Marks != 0 {
		r.Quiet = false
	}
	b.pic.Rows = append(b.pic.Rows, r)
	if r.Read != nil {
		b.pic.Reads = append(b.pic.Reads, r.Read)
	}
}

// applied records the invalidations the step applied in the journeys of
// the stores that sent them, and notes those applied by another cause
// than an invalidate step.
func (b *builder) applied(r *Row) {
	var others []string
	for _, a := range r.Event.Applied {
		key := [2]int{r.CPU, int(a.Loc)}
		for _, js := range b.pending[key] {
			s := &b.pic.Stores[js[0]].Sends[js[1]]
			s.Applied, s.Cause = r.Step, a.Cause
		}
		delete(b.pending, key)
		if a.Cause != machine.ApplyStep {
			others = append(others, b.prog().LocName(a.Loc)+" ("+causeWord(a.Cause)+")")
		}
	}
	if len(others) > 0 {
		r.Notes = append(r.Notes, Note{Kind: NoteInfo, CPU: r.CPU, Text: "applies inv " + strings.Join(others, ", ")})
	}
}

func causeWord(c machine.ApplyCause) string {
	switch c {
	case machine.ApplyOwn:
		return "own write"
	case machine.ApplyAddrDep:
		return "address dependency"
	case machine.ApplyAcquire:
		return "acquire"
	}
	return "invalidate step"
}

// exec fills the row of an exec or early step.
func (b *builder) exec(r *Row) {
	ev := r.Event
	c := r.CPU
	p := b.prog()
	in := b.instr(c, ev.Instr)
	if ev.Early {
		r.Marks |= MarkReorder
		var passed []string
		for _, k := range ev.Skipped {
			if t := b.instr(c, k); t != nil {
				passed = append(passed, accessText(p, t))
			}
		}
		text := "» issued early"
		if len(passed) > 0 {
			text += ", ahead of " + strings.Join(passed, ", ")
		}
		if g := b.instr(c, ev.Guess); ev.Guess >= 0 && g != nil {
			if g.Op == machine.OpRMW {
				// A fully ordered cmpxchg passed on the guess that it fails.
				text += ", on the guess that " + strings.TrimSuffix(strings.TrimSpace(g.Text), ";") + " fails"
			} else {
				text += ", before " + strings.TrimSpace(g.Text) + " is known (a guess)"
			}
		}
		r.Notes = append(r.Notes, Note{Kind: NoteReorder, CPU: c, Text: text})
	}
	switch {
	case ev.Fault != nil:
		r.Kind, r.Marks = RowFault, r.Marks|MarkFault
		r.Label = Label{"✗ fault", "✗ fault"}
		r.Notes = append(r.Notes, Note{Kind: NoteFault, CPU: c, Text: words.Fault(p, ev.Fault)})
	case ev.RMW != nil && in != nil:
		b.rmw(r, in)
	case ev.Load != nil:
		r.Kind = RowLoad
		b.load(r)
	case ev.Stored != nil:
		r.Kind = RowStore
		e := *ev.Stored
		j := b.journey(machine.StoreID{CPU: c, Instr: int(e.Instr)}, e.Loc, e.Val, e.Kind)
		j.Exec = r.Step
		s := storeText(p, e.Loc, e.Val) + kindSuffix(e.Kind)
		if e.Guard != 0 {
			s += " guess" // put there past an unresolved if: commits once it has executed
		}
		r.Label = Label{"W " + s + " ▸ sb", "W" + s + "▸sb"}
		r.Quiet = true
	case ev.GPStart || ev.GPEnd:
		r.Kind = RowGrace
		what := "grace period ends"
		if ev.GPStart {
			what = "grace period starts"
		}
		r.Label = Label{"sync: " + what, "GP " + strings.Fields(what)[2]}
	case ev.Fact != nil && in != nil && in.Op == machine.OpFence:
		r.Kind = RowFence
		f := in.Fence.String()
		r.Label = Label{f + " passes", strings.TrimPrefix(f, "smp_") + " ✓"}
		r.Quiet = true
	case in != nil:
		r.Label = Label{instrText(in), instrText(in)}
		r.Quiet = true
	}
	// Fences folded into the step that had an effect: the marker of
	// smp_wmb, a full or read fence whose condition held.
	var fences []string
	for _, f := range ev.Folds {
		if t := b.instr(c, f.Instr); t != nil && t.Op == machine.OpFence && (f.Kind == machine.FactWmb || f.Kind == machine.FactPassed) {
			fences = append(fences, strings.TrimPrefix(t.Fence.String(), "smp_"))
		}
	}
	if len(fences) > 0 {
		r.Label.Long += " +" + strings.Join(fences, " +")
	}
}

func kindSuffix(k machine.EntryKind) string {
	switch k {
	case machine.EntryRelease:
		return " rel"
	case machine.EntryExclusive:
		return " excl"
	case machine.EntryReleaseExclusive:
		return " rel excl"
	}
	return ""
}

// accessText names an access briefly: "R y", "W x".
func accessText(p *machine.Program, in *machine.Instr) string {
	l := "?"
	if in.Addr != nil && in.Addr.Op == machine.EConst {
		if loc, ok := in.Addr.Val.AsLoc(); ok {
			l = p.LocName(loc)
		}
	}
	switch in.Op {
	case machine.OpLoad:
		return "R " + l
	case machine.OpStore:
		if in.Access.IsRelease() {
			return "Wrel " + l
		}
		return "W " + l
	case machine.OpUnlock:
		return "unlock " + l
	}
	return "RMW " + l
}

// instrText is an instruction as written, without its semicolon.
func instrText(in *machine.Instr) string {
	return strings.TrimSuffix(strings.TrimSpace(in.Text), ";")
}

// load fills a row's read: its source, classification and marks.
func (b *builder) load(r *Row) {
	ev := r.Event
	ld := ev.Load
	c := r.CPU
	p := b.prog()
	rd := &Read{Step: r.Step, CPU: c, Loc: ld.Loc, Val: ld.Val, Reg: b.reg(c, ev.Instr), Class: ld.Class, Source: ld.Source, From: ld.From, Via: c}
	if ld.Source == machine.FromMiss {
		rd.Via = b.pic.MemLane()
		if ld.WroteBack >= 0 {
			rd.Via = ld.WroteBack
		}
	}
	r.Read = rd
	s := storeText(p, ld.Loc, ld.Val)
	reg := ""
	if rd.Reg != "" {
		reg = " →" + rd.Reg
	}
	var src, short string
	switch {
	case ld.Class == machine.Forwarded:
		src, short = "fwd from sb", "fwd"
	case ld.Class == machine.Stale:
		src, short = "‼ STALE", "‼STALE"
	case ld.Source == machine.FromMiss:
		src, short = "miss", "miss"
	default:
		src, short = "cache hit", "hit"
	}
	kind := "R"
	if in := b.instr(c, ev.Instr); in != nil && isAcquire(in) && in.Op == machine.OpLoad {
		kind = "Racq"
	}
	r.Label = Label{kind + " " + s + reg + " " + src, kind + s + " " + short}
	switch ld.Class {
	case machine.Stale:
		r.Marks |= MarkStale
		missed := ld.Newer
		rd.Missed, rd.MissedStep, rd.NewerVal = &missed, ld.NewerStep, ld.NewerVal
		from := b.pic.MemLane()
		if !missed.Initial() {
			from = missed.CPU
		}
		newer := storeText(p, ld.Loc, ld.NewerVal)
		r.Notes = append(r.Notes, Note{Kind: NoteMissed, CPU: c, From: from, Tag: newer,
			Text: "missed " + newer + ", visible since step " + itoa(ld.NewerStep) + " (inv still queued)"})
	case machine.NewerPending:
		pend := ld.Newer
		rd.Pending, rd.NewerVal = &pend, ld.NewerVal
		newer := storeText(p, ld.Loc, ld.NewerVal)
		r.Notes = append(r.Notes, Note{Kind: NotePending, CPU: c, From: pend.CPU, Tag: newer + " in sb",
			Text: "newer " + newer + " still in " + p.Threads[pend.CPU].Name + "'s store buffer"})
	}
	if len(ld.OwnBuffered) > 0 {
		r.Marks |= MarkReorder
		r.Notes = append(r.Notes, Note{Kind: NoteReorder, CPU: c, Text: "⇅ before its own " + entriesText(p, ld.OwnBuffered) + ", still in its sb"})
	}
	if late := ld.ArrivedAfterBarrier; late != nil {
		bar := "its barrier"
		if in := b.instr(c, late.Barrier); in != nil {
			bar = instrText(in)
		}
		r.Notes = append(r.Notes, Note{Kind: NoteInfo, CPU: c, Text: "inv " + p.LocName(ld.Loc) + " arrived at step " + itoa(late.Arrived) + ", after " + bar})
	}
}

func entriesText(p *machine.Program, es []machine.SBEntry) string {
	var out []string
	for _, e := range es {
		out = append(out, storeText(p, e.Loc, e.Val))
	}
	return strings.Join(out, ", ")
}

// rmw fills the row of a read-modify-write or lock.
func (b *builder) rmw(r *Row, in *machine.Instr) {
	ev := r.Event
	c := r.CPU
	p := b.prog()
	if ev.Load != nil {
		b.load(r)
	}
	r.Kind = RowRMW
	what := "RMW"
	switch in.Op {
	case machine.OpLock:
		what = "lock"
	case machine.OpTryLock:
		what = "trylock"
	}
	l := ""
	var old machine.Value
	if ev.Load != nil {
		l, old = p.LocName(ev.Load.Loc), ev.Load.Val
	}
	wrote := ""
	switch {
	case ev.Commit != nil:
		wrote = p.FormatValue(ev.Commit.Val)
	case ev.Stored != nil:
		wrote = p.FormatValue(ev.Stored.Val)
	}
	src := ""
	if rd := r.Read; rd != nil && rd.Class == machine.Stale {
		src = " ‼STALE"
	}
	switch {
	case ev.Failed:
		r.Label = Label{what + " " + l + "=" + p.FormatValue(old) + " fails" + src, what + " " + l + " ✗" + src}
	case wrote != "":
		r.Label = Label{what + " " + l + " " + p.FormatValue(old) + "→" + wrote, what + " " + l + " " + p.FormatValue(old) + "→" + wrote}
	default:
		r.Label = Label{what + " " + l, what + " " + l}
	}
	if ev.Commit != nil {
		b.commit(r, ev.Commit)
	} else if ev.Stored != nil {
		e := *ev.Stored
		j := b.journey(machine.StoreID{CPU: c, Instr: int(e.Instr)}, e.Loc, e.Val, e.Kind)
		j.Exec = r.Step
		r.Label.Long += " ▸ sb excl"
	}
}

// commit records a store becoming visible: its journey, the
// invalidations it sent, what it overtook.
func (b *builder) commit(r *Row, ce *machine.CommitEvent) {
	if ce == nil {
		return
	}
	p := b.prog()
	j := b.journey(ce.Store, ce.Loc, ce.Val, ce.Kind)
	j.Commit, j.Co = r.Step, ce.Co
	ji := b.journeys[ce.Store]
	for _, o := range ce.Overtook {
		j.Overtook = append(j.Overtook, machine.StoreID{CPU: r.CPU, Instr: int(o.Instr)})
	}
	if b.pending == nil {
		b.pending = map[[2]int][][2]int{}
	}
	for d := range b.pic.Lanes[:len(b.pic.Lanes)-1] {
		switch {
		case d == r.CPU:
		case slices.Contains(ce.Queued, d):
			j.Sends = append(j.Sends, Send{CPU: d, Queued: true})
			key := [2]int{d, int(ce.Loc)}
			b.pending[key] = append(b.pending[key], [2]int{ji, len(j.Sends) - 1})
		case slices.Contains(ce.Dropped, d) || ce.WroteBack == d:
			j.Sends = append(j.Sends, Send{CPU: d, Applied: r.Step})
		}
	}
	r.Sends = j.Sends
	r.Commit = j
	if r.Kind != RowRMW {
		s := storeText(p, ce.Loc, ce.Val) + kindSuffix(ce.Kind)
		r.Label = Label{"commit " + s, "C " + s}
	}
	if len(ce.Overtook) > 0 {
		r.Marks |= MarkReorder
		r.Notes = append(r.Notes, Note{Kind: NoteReorder, CPU: r.CPU, Text: "⇅ overtakes the older " + entriesText(p, ce.Overtook) + ", still in its sb"})
	}
}

// waits finds the spans in which each CPU was blocked, and marks the
// rows where a waiting instruction finally ran.
func (b *builder) waits() {
	ex := b.ex
	m := ex.Mach
	n := len(ex.States)
	for c := range m.Prog.Threads {
		for i := 0; i < n; {
			w := m.Wait(ex.States[i], c)
			if !w.Blocked() {
				i++
				continue
			}
			j := i + 1
			for j < n {
				w2 := m.Wait(ex.States[j], c)
				if !w2.Blocked() || w2.Instr != w.Instr {
					break
				}
				j++
			}
			wt := Wait{CPU: c, From: i, To: j, Wait: w, Words: words.Wait(m.Prog, &w, words.Brief)}
			if w.Kind != machine.WaitFault && w.Instr >= 0 {
				if k := machine.InstrStep(ex.Events, c, w.Instr); k > i {
					wt.Ran = k
				}
			}
			b.pic.Waits = append(b.pic.Waits, wt)
			i = j
		}
	}
	slices.SortStableFunc(b.pic.Waits, func(x, y Wait) int { return x.From - y.From })
	for _, w := range b.pic.Waits {
		if w.Wait.Kind == machine.WaitFault {
			continue
		}
		note := Note{Kind: NoteWait, CPU: w.CPU, Text: "⏸ " + w.Words}
		if w.From == 0 {
			// Blocked from the start: said on the first row of its own.
			if len(b.pic.Rows) > 0 {
				b.pic.Rows[0].Notes = append([]Note{note}, b.pic.Rows[0].Notes...)
				b.pic.Rows[0].Quiet = false
			}
		} else {
			r := &b.pic.Rows[w.From-1]
			r.Notes = append(r.Notes, note)
			r.Quiet = false
		}
		if w.Ran > 0 {
			r := &b.pic.Rows[w.Ran-1]
			r.Marks |= MarkWaited
			r.Quiet = false
			until := "step " + itoa(w.To)
			r.Notes = append(r.Notes, Note{Kind: NoteWaited, CPU: w.CPU, Text: "waited after step " + itoa(w.From) + " until " + until})
		}
	}
}

// end says how the execution ends.
func (b *builder) end() {
	ex := b.ex
	m, sp, s := ex.Mach, ex.Spec, ex.Last()
	switch {
	case m.Final(s):
		b.pic.Final = true
		o := m.Outcome(s)
		line := "outcome: " + sp.OutcomeText(o)
		if sp.Final != nil {
			verdict := "does not hold"
			if sp.Satisfies(o) {
				verdict = "holds"
			}
			line += "  " + sp.Condition() + " " + verdict
		}
		b.pic.End = append(b.pic.End, line)
	case m.Deadlocked(s):
		b.pic.End = append(b.pic.End, "deadlock: no CPU can make progress")
	default:
		b.pic.End = append(b.pic.End, "not a final state yet")
	}
	if a := ex.Attempt; a != nil {
		b.pic.Attempt = true
		b.pic.End = append(b.pic.End, "closest attempt: the outcome asked for is unreachable in "+a.Mode.Title()+" mode")
		if r := a.Reached(); r != "" {
			b.pic.End = append(b.pic.End, r)
		}
		b.pic.End = append(b.pic.End, a.Conclusion())
	}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

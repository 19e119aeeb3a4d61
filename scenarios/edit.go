package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// Edit is one "what if?" change of a scenario's ordering annotations,
// written the way the command line takes it (--edit) and trace files
// record it:
//
//	P1:2=acquire   instruction 2 of P1 becomes an acquire (smp_load_acquire)
//	P0:1+mb        insert smp_mb() after instruction 1 of P0 (0: before the first)
//	P0:2-wmb       remove the barrier at instruction 2 of P0 (it must be smp_wmb)
//
// Instructions are numbered from 1 in each CPU's listing, as the UI's CPU
// columns show them (the edit cursor says the number). A list of edits
// applies in order: each names an instruction of the program the edits
// before it left.
type Edit struct {
	CPU string // the thread's name, "P0"
	At  int    // the instruction's number in the CPU's listing, from 1
	Op  EditOp
	// To is the new ordering (SetOrder: a word such as "acquire", or a
	// primitive's name), the barrier inserted (InsertBarrier: "mb",
	// "rmb", "wmb" or a barrier primitive's name) or the one removed
	// (RemoveBarrier; "" removes whichever barrier is there).
	To string
}

// EditOp is what an Edit does.
type EditOp uint8

// The edits.
const (
	SetOrder      EditOp = iota // "=": change the primitive's ordering
	InsertBarrier               // "+": insert a barrier after the instruction
	RemoveBarrier               // "-": remove the barrier
)

var editOpChars = [...]string{SetOrder: "=", InsertBarrier: "+", RemoveBarrier: "-"}

// String writes the edit in its syntax: "P1:2=acquire".
func (e Edit) String() string {
	return e.CPU + ":" + strconv.Itoa(e.At) + editOpChars[e.Op] + e.To
}

// editSyntax is how errors explain the syntax.
const editSyntax = "want CPU:N=ORDER, CPU:N+BARRIER or CPU:N-BARRIER, e.g. P1:2=acquire, P0:1+mb, P0:2-wmb"

// ParseEdit reads an edit in the syntax Edit.String writes.
func ParseEdit(s string) (Edit, error) {
	s = strings.TrimSpace(s)
	cpu, rest, ok := strings.Cut(s, ":")
	if !ok || !syntax.IsThreadName(cpu) {
		return Edit{}, fmt.Errorf("edit %q: %s", s, editSyntax)
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i == len(rest) {
		return Edit{}, fmt.Errorf("edit %q: %s", s, editSyntax)
	}
	at, err := strconv.Atoi(rest[:i])
	if err != nil || at > machine.MaxInstrs {
		return Edit{}, fmt.Errorf("edit %q: instruction number %s is out of range", s, rest[:i])
	}
	e := Edit{CPU: cpu, At: at, To: rest[i+1:]}
	switch rest[i] {
	case '=':
		e.Op = SetOrder
		if !knownOrdering(e.To) {
			return Edit{}, fmt.Errorf("edit %q: unknown ordering %q (want once, acquire, release, rcu, relaxed, full, mb, rmb, wmb or a primitive's name)", s, e.To)
		}
	case '+':
		e.Op = InsertBarrier
		if fencePrim(e.To) == "" {
			return Edit{}, fmt.Errorf("edit %q: unknown barrier %q (want mb, rmb, wmb or a barrier primitive such as smp_mb__after_atomic)", s, e.To)
		}
	case '-':
		e.Op = RemoveBarrier
		if e.To != "" && fencePrim(e.To) == "" {
			return Edit{}, fmt.Errorf("edit %q: unknown barrier %q (want mb, rmb, wmb, a barrier primitive, or nothing)", s, e.To)
		}
	default:
		return Edit{}, fmt.Errorf("edit %q: %s", s, editSyntax)
	}
	if at == 0 && e.Op != InsertBarrier {
		return Edit{}, fmt.Errorf("edit %q: instructions are numbered from 1 (0 only inserts a barrier before the first)", s)
	}
	return e, nil
}

// ParseEdits reads a list of edits, one per element (the --edit flags).
func ParseEdits(list []string) ([]Edit, error) {
	var out []Edit
	for _, s := range list {
		e, err := ParseEdit(s)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// EditsText writes edits separated by spaces (a trace's "edits:" line).
func EditsText(edits []Edit) string {
	var words []string
	for _, e := range edits {
		words = append(words, e.String())
	}
	return strings.Join(words, " ")
}

// EditFlags writes edits as command-line flags, ready to paste:
// "--edit P1:2=acquire --edit P0:1+mb".
func EditFlags(edits []Edit) string {
	var words []string
	for _, e := range edits {
		words = append(words, "--edit "+e.String())
	}
	return strings.Join(words, " ")
}

// Ordering is one form an annotated access or barrier can take: its word
// in the edit syntax and the primitive it is written with.
type Ordering struct {
	Word string // "acquire"
	Prim string // "smp_load_acquire"
	// pointers marks a form that fits pointers only (rcu_dereference,
	// rcu_assign_pointer): offered for a location that holds a pointer.
	pointers bool
}

// orderFamilies are the kernel's alternatives for one kind of access, in
// the order the UI cycles through them. Every member of a family takes
// the same arguments, except that the address is "*x" or "x" (argLvalue
// or argPtr), which an edit converts. (Computed on first use: the
// primitives are registered by init functions, after package variables.)
var orderFamilies = sync.OnceValue(func() [][]Ordering {
	fams := [][]Ordering{
		{{Word: "once", Prim: "READ_ONCE"}, {Word: "acquire", Prim: "smp_load_acquire"}, {Word: "rcu", Prim: "rcu_dereference", pointers: true}},
		{{Word: "once", Prim: "WRITE_ONCE"}, {Word: "release", Prim: "smp_store_release"}, {Word: "rcu", Prim: "rcu_assign_pointer", pointers: true}, {Word: "mb", Prim: "smp_store_mb"}},
		{{Word: "relaxed", Prim: "atomic_read"}, {Word: "acquire", Prim: "atomic_read_acquire"}},
		{{Word: "relaxed", Prim: "atomic_set"}, {Word: "release", Prim: "atomic_set_release"}},
		{{Word: "once", Prim: "__load{once}"}, {Word: "acquire", Prim: "__load{acquire}"}},
		{{Word: "once", Prim: "__store{once}"}, {Word: "release", Prim: "__store{release}"}},
		barrierFamily,
		{{Word: "mb", Prim: "__fence{mb}"}, {Word: "rmb", Prim: "__fence{rmb}"}, {Word: "wmb", Prim: "__fence{wmb}"}},
	}
	rmw := func(relaxed, acquire, release, full string) []Ordering {
		return []Ordering{{Word: "relaxed", Prim: relaxed}, {Word: "acquire", Prim: acquire}, {Word: "release", Prim: release}, {Word: "full", Prim: full}}
	}
	for _, name := range Primitives() {
		p := prims()[name]
		if p.class != pRMW || prims()[name+"_relaxed"] == nil || prims()[name+"_acquire"] == nil || prims()[name+"_release"] == nil {
			continue
		}
		fams = append(fams, rmw(name+"_relaxed", name+"_acquire", name+"_release", name))
	}
	for _, base := range []string{"__xchg", "__cmpxchg"} {
		fams = append(fams, rmw(base+"{once}", base+"{acquire}", base+"{release}", base+"{mb}"))
	}
	return fams
})

// barrierFamily is what a barrier's ordering cycles through.
var barrierFamily = []Ordering{{Word: "mb", Prim: "smp_mb"}, {Word: "rmb", Prim: "smp_rmb"}, {Word: "wmb", Prim: "smp_wmb"}}

// barrierCycle is what the barrier after an instruction cycles through
// ("" for none).
var barrierCycle = []string{"", "mb", "rmb", "wmb"}

// barrierWords are the barriers by their word.
var barrierWords = map[string]string{"mb": "smp_mb", "rmb": "smp_rmb", "wmb": "smp_wmb"}

// fencePrim returns the barrier primitive a word or name stands for, or
// "".
func fencePrim(word string) string {
	if p, ok := barrierWords[word]; ok {
		return p
	}
	if p := prims()[word]; p != nil && p.class == pFence {
		return word
	}
	return ""
}

// fenceWord is the word of a barrier primitive: "mb" for smp_mb, else its
// name.
func fenceWord(prim string) string {
	for w, p := range barrierWords {
		if p == prim {
			return w
		}
	}
	return prim
}

func knownOrdering(word string) bool {
	if fencePrim(word) != "" || word == "full" {
		return true
	}
	for _, f := range orderFamilies() {
		for _, o := range f {
			if o.Word == word || o.Prim == word {
				return true
			}
		}
	}
	return false
}

// matches reports whether the edit word w names ordering o: its word, its
// primitive, or a synonym (once and relaxed are the same; mb is full for
// an RMW).
func (o Ordering) matches(w string) bool {
	switch {
	case w == o.Word || w == o.Prim:
		return true
	case (w == "once" || w == "relaxed") && (o.Word == "once" || o.Word == "relaxed"):
		return true
	case w == "mb" && o.Word == "full":
		return true
	}
	return false
}

// familyOf returns the orderings a primitive can take: its family, or,
// for a barrier outside the three, itself followed by them.
func familyOf(name string) []Ordering {
	for _, f := range orderFamilies() {
		for _, o := range f {
			if o.Prim == name {
				return f
			}
		}
	}
	if p := prims()[name]; p != nil && p.class == pFence {
		return append([]Ordering{{Word: name, Prim: name}}, barrierFamily...)
	}
	return nil
}

// editTarget is one instruction an edit names, in a private copy of the
// scenario compiled for the purpose.
type editTarget struct {
	sc     *syntax.Scenario
	c      *Compiled
	thread int
	at     int // 1-based; 0 before the first
	in     *machine.Instr
	from   origin
}

// editable is the scenario parsed afresh (so that edits can change it) and
// compiled.
func editable(s *syntax.Scenario) (*syntax.Scenario, *Compiled, error) {
	sc, err := Parse(s.File, []byte(syntax.Format(s)))
	if err != nil {
		return nil, nil, err
	}
	c, err := Compile(sc)
	if err != nil {
		return nil, nil, err
	}
	return sc, c, nil
}

// target finds the instruction e names.
func target(sc *syntax.Scenario, c *Compiled, cpu string, at int) (editTarget, error) {
	t := slices.IndexFunc(sc.Threads, func(th *syntax.Thread) bool { return th.Name == cpu })
	if t < 0 {
		return editTarget{}, fmt.Errorf("no CPU named %s (the CPUs are P0 to P%d)", cpu, len(sc.Threads)-1)
	}
	code := c.Program.Threads[t].Code
	if at < 0 || at > len(code) {
		return editTarget{}, fmt.Errorf("%s has %d instructions", cpu, len(code))
	}
	tg := editTarget{sc: sc, c: c, thread: t, at: at}
	if at > 0 {
		tg.in = &code[at-1]
		tg.from = c.origins[t][at-1]
	}
	return tg, nil
}

// what names the instruction in messages: "P1:2 (r1 = smp_load_acquire(goal);)".
func (tg editTarget) what() string {
	name := tg.sc.Threads[tg.thread].Name + ":" + strconv.Itoa(tg.at)
	if tg.in == nil {
		return name
	}
	return name + " (" + strings.TrimSpace(tg.in.Text) + ")"
}

// orderings returns the forms the instruction's primitive can take, in
// the cycle's order, and which one it has now.
func (tg editTarget) orderings() ([]Ordering, int, error) {
	if tg.in == nil || tg.from.call == nil {
		what := "it is not a kernel primitive"
		if tg.in != nil && (tg.in.Op == machine.OpLoad || tg.in.Op == machine.OpStore) {
			what = "it is a plain C access; write it with READ_ONCE or WRITE_ONCE first"
		}
		return nil, 0, fmt.Errorf("%s has no ordering to change: %s", tg.what(), what)
	}
	name := tg.from.call.Fun.Name
	fam := familyOf(name)
	if fam == nil {
		return nil, 0, fmt.Errorf("%s has no ordering to change: %s() has no acquire, release or relaxed form (a barrier after it can be inserted)", tg.what(), name)
	}
	var forms []Ordering
	cur := 0
	for _, o := range fam {
		if o.Prim == name {
			cur = len(forms)
		} else if o.pointers && !tg.pointerAccess() {
			continue
		}
		forms = append(forms, o)
	}
	return forms, cur, nil
}

// pointerAccess reports whether the instruction's primitive reads or
// writes a location declared to hold a pointer ("int *p=x;" or a
// parameter "int **p").
func (tg editTarget) pointerAccess() bool {
	p := prims()[tg.from.call.Fun.Name]
	if p.addr < 0 || p.addr >= len(tg.from.call.Args) {
		return false
	}
	a := syntax.Unparen(tg.from.call.Args[p.addr])
	if u, ok := a.(*syntax.UnaryExpr); ok && u.Op == "*" {
		a = syntax.Unparen(u.X)
	}
	id, ok := a.(*syntax.Ident)
	if !ok {
		return false
	}
	for _, prm := range tg.sc.Threads[tg.thread].Params {
		if prm.Name == id.Name && prm.Stars >= 2 {
			return true
		}
	}
	for _, d := range tg.sc.Init {
		if !d.IsReg && d.Name == id.Name && d.Stars >= 1 {
			return true
		}
	}
	return false
}

// setOrder rewrites the instruction's primitive into the form to names.
func (tg editTarget) setOrder(to string) error {
	forms, _, err := tg.orderings()
	if err != nil {
		return err
	}
	call := tg.from.call
	fam := familyOf(call.Fun.Name) // rcu forms are allowed when asked for by name
	i := slices.IndexFunc(fam, func(o Ordering) bool { return o.matches(to) })
	if i < 0 && prims()[call.Fun.Name].class == pFence && fencePrim(to) != "" {
		fam = append(fam, Ordering{Word: to, Prim: fencePrim(to)})
		i = len(fam) - 1
	}
	if i < 0 {
		var words []string
		for _, o := range forms {
			words = append(words, o.Word)
		}
		return fmt.Errorf("%s cannot be %s: %s() can be %s", tg.what(), to, call.Fun.Name, strings.Join(words, ", "))
	}
	from, into := prims()[call.Fun.Name], prims()[fam[i].Prim]
	if from.addr >= 0 {
		call.Args[from.addr] = convertAddr(call.Args[from.addr], from.args[from.addr], into.args[into.addr])
	}
	call.Fun = &syntax.Ident{NamePos: call.Fun.NamePos, Name: into.name}
	return nil
}

// convertAddr rewrites an address argument from one form to another:
// "*x" (READ_ONCE) and "x" (smp_load_acquire).
func convertAddr(a syntax.Expr, from, to argKind) syntax.Expr {
	switch {
	case from == to:
		return a
	case from == argLvalue:
		if u, ok := syntax.Unparen(a).(*syntax.UnaryExpr); ok && u.Op == "*" {
			return u.X
		}
		return &syntax.UnaryExpr{OpPos: a.Pos(), Op: "&", X: a}
	case to == argLvalue:
		if u, ok := syntax.Unparen(a).(*syntax.UnaryExpr); ok && u.Op == "&" {
			return u.X
		}
		return &syntax.UnaryExpr{OpPos: a.Pos(), Op: "*", X: a}
	}
	return a
}

// slot is where a statement inserted after the instruction goes: a
// statement list and the index in it. After the head of an if statement
// (its condition and branch) that is the start of its then branch, after
// the jump over an else branch the start of the else branch, and after
// any other instruction the statement right after its own. A branch that
// is a lone statement is wrapped in a block so that it has a list.
func (tg editTarget) slot() (*[]syntax.Stmt, int, error) {
	body := &tg.sc.Threads[tg.thread].Body
	if tg.at == 0 {
		i := 0
		for i < len(*body) {
			if d, ok := (*body)[i].(*syntax.DeclStmt); !ok || d.Init != nil {
				break
			}
			i++
		}
		return body, i, nil
	}
	if ifs, ok := tg.from.stmt.(*syntax.IfStmt); ok {
		branch := &ifs.Then
		if tg.from.els {
			branch = &ifs.Else
		}
		blk, ok := (*branch).(*syntax.BlockStmt)
		if !ok {
			blk = &syntax.BlockStmt{List: []syntax.Stmt{*branch}}
			*branch = blk
		}
		return &blk.List, 0, nil
	}
	list, i, ok := findStmt(body, tg.from.stmt)
	if !ok {
		return nil, 0, fmt.Errorf("%s: its statement is not in %s's body", tg.what(), tg.sc.Threads[tg.thread].Name)
	}
	return list, i + 1, nil
}

// findStmt finds the list holding target and its index there, wrapping a
// lone if or else branch that is target in a block.
func findStmt(list *[]syntax.Stmt, target syntax.Stmt) (*[]syntax.Stmt, int, bool) {
	if i := slices.Index(*list, target); i >= 0 {
		return list, i, true
	}
	var found *[]syntax.Stmt
	at := 0
	syntax.InspectList(*list, func(n syntax.Node) bool {
		if found != nil {
			return false
		}
		switch s := n.(type) {
		case *syntax.BlockStmt:
			if i := slices.Index(s.List, target); i >= 0 {
				found, at = &s.List, i
			}
		case *syntax.IfStmt:
			for _, b := range []*syntax.Stmt{&s.Then, &s.Else} {
				if _, blk := (*b).(*syntax.BlockStmt); *b == target && !blk {
					w := &syntax.BlockStmt{List: []syntax.Stmt{*b}}
					*b = w
					found, at = &w.List, 0
					break
				}
			}
		}
		return found == nil
	})
	return found, at, found != nil
}

// fenceStmt returns the barrier primitive a statement is, or "".
func fenceStmt(st syntax.Stmt) string {
	es, ok := st.(*syntax.ExprStmt)
	if !ok {
		return ""
	}
	call, ok := syntax.Unparen(es.X).(*syntax.CallExpr)
	if !ok || prims()[call.Fun.Name] == nil || prims()[call.Fun.Name].class != pFence {
		return ""
	}
	return call.Fun.Name
}

// barrierAfter returns the barrier statement right after the instruction
// (where an inserted one would go), and its instruction number; nil when
// the next statement is no barrier.
func (tg editTarget) barrierAfter() (syntax.Stmt, int, error) {
	list, i, err := tg.slot()
	if err != nil {
		return nil, 0, err
	}
	if i >= len(*list) || fenceStmt((*list)[i]) == "" {
		return nil, 0, nil
	}
	st := (*list)[i]
	for j, o := range tg.c.origins[tg.thread] {
		if o.stmt == st {
			return st, j + 1, nil
		}
	}
	return nil, 0, nil
}

func (tg editTarget) insertBarrier(to string) error {
	list, i, err := tg.slot()
	if err != nil {
		return err
	}
	st := &syntax.ExprStmt{X: &syntax.CallExpr{Fun: &syntax.Ident{Name: fencePrim(to)}}}
	*list = slices.Insert(*list, i, syntax.Stmt(st))
	return nil
}

func (tg editTarget) removeBarrier(want string) error {
	if tg.in == nil {
		return fmt.Errorf("instructions are numbered from 1")
	}
	name := fenceStmt(tg.from.stmt)
	if tg.in.Op != machine.OpFence || name == "" || tg.from.call == nil || tg.from.call.Fun.Name != name {
		return fmt.Errorf("%s is not a barrier statement", tg.what())
	}
	if want != "" && fencePrim(want) != name {
		return fmt.Errorf("%s is %s(), not %s()", tg.what(), name, fencePrim(want))
	}
	list, i, ok := findStmt(&tg.sc.Threads[tg.thread].Body, tg.from.stmt)
	if !ok {
		return fmt.Errorf("%s: its statement is not in the body", tg.what())
	}
	*list = slices.Delete(*list, i, i+1)
	return nil
}

// apply makes the edit on sc, which c is the compilation of.
func (e Edit) apply(sc *syntax.Scenario, c *Compiled) error {
	tg, err := target(sc, c, e.CPU, e.At)
	if err != nil {
		return err
	}
	switch e.Op {
	case SetOrder:
		if tg.in == nil {
			return fmt.Errorf("instructions are numbered from 1")
		}
		return tg.setOrder(e.To)
	case InsertBarrier:
		return tg.insertBarrier(e.To)
	case RemoveBarrier:
		return tg.removeBarrier(e.To)
	}
	return fmt.Errorf("unknown edit")
}

// Edited returns the scenario with the edits applied in order, parsed
// again from its edited source and compiled: the edited source is what
// the spec's Litmus prints, what a save writes and what the program runs.
// The spec keeps its name and file (a trace names the file and the
// edits); its expected LKMM verdict is dropped, being the original's.
func (s *Spec) Edited(edits ...Edit) (*Spec, error) {
	if len(edits) == 0 {
		return s, nil
	}
	if s.Litmus == nil {
		return nil, fmt.Errorf("%s: no litmus source to edit", s.Name)
	}
	// Each edit names an instruction of the program the ones before it
	// left: the tree is printed, parsed and compiled again between them.
	var sc *syntax.Scenario
	src := syntax.Format(s.Litmus)
	for _, e := range edits {
		var err error
		if sc, err = Parse(s.Litmus.File, []byte(src)); err != nil {
			return nil, fmt.Errorf("edit %s: %v", e, err)
		}
		c, err := Compile(sc)
		if err != nil {
			return nil, fmt.Errorf("edit %s: %v", e, err)
		}
		if err := e.apply(sc, c); err != nil {
			return nil, fmt.Errorf("edit %s: %v", e, err)
		}
		src = syntax.Format(sc)
	}
	return s.editedFrom(sc, edits)
}

// editedFrom is the spec of the edited tree sc, which edits made of s's.
func (s *Spec) editedFrom(sc *syntax.Scenario, edits []Edit) (*Spec, error) {
	sc, err := Parse(s.Litmus.File, []byte(syntax.Format(sc)))
	if err != nil {
		return nil, fmt.Errorf("edit %s: the edited source does not parse: %v", edits[len(edits)-1], err)
	}
	c, err := Compile(sc)
	if err != nil {
		return nil, fmt.Errorf("edit %s: %v", edits[len(edits)-1], err)
	}
	sp := NewSpec(c)
	sp.File = s.File
	sp.From = s.From
	sp.Expected = ""
	sp.Edits = append(slices.Clip(s.Edits), edits...)
	sp.Unedited = s
	if s.Unedited != nil {
		sp.Unedited = s.Unedited
	}
	return sp, nil
}

// editTargetOf compiles a private copy of s's source and finds the
// instruction.
func (s *Spec) editTargetOf(cpu string, at int) (editTarget, error) {
	if s.Litmus == nil {
		return editTarget{}, fmt.Errorf("%s: no litmus source to edit", s.Name)
	}
	sc, c, err := editable(s.Litmus)
	if err != nil {
		return editTarget{}, err
	}
	return target(sc, c, cpu, at)
}

// Orderings returns the forms instruction at of cpu can take, in the
// order the UI cycles through them, and the index of its current one.
// The error says why an instruction has none.
func (s *Spec) Orderings(cpu string, at int) ([]Ordering, int, error) {
	tg, err := s.editTargetOf(cpu, at)
	if err != nil {
		return nil, 0, err
	}
	return tg.orderings()
}

// NextOrdering is the edit that gives instruction at of cpu the next form
// of its cycle.
func (s *Spec) NextOrdering(cpu string, at int) (Edit, error) {
	forms, cur, err := s.Orderings(cpu, at)
	if err != nil {
		return Edit{}, err
	}
	return Edit{CPU: cpu, At: at, Op: SetOrder, To: forms[(cur+1)%len(forms)].Word}, nil
}

// OrderingEdit is the edit that gives instruction at of cpu the ordering
// word; false when it has it already.
func (s *Spec) OrderingEdit(cpu string, at int, word string) (Edit, bool, error) {
	forms, cur, err := s.Orderings(cpu, at)
	if err != nil {
		return Edit{}, false, err
	}
	if forms[cur].matches(word) {
		return Edit{}, false, nil
	}
	return Edit{CPU: cpu, At: at, Op: SetOrder, To: word}, true, nil
}

// BarrierAfter returns the word of the barrier right after instruction at
// of cpu ("mb"; "" when there is none) and its instruction number.
func (s *Spec) BarrierAfter(cpu string, at int) (string, int, error) {
	tg, err := s.editTargetOf(cpu, at)
	if err != nil {
		return "", 0, err
	}
	st, n, err := tg.barrierAfter()
	if err != nil || st == nil {
		return "", 0, err
	}
	return fenceWord(fenceStmt(st)), n, nil
}

// NextBarrier is the barrier that follows word in the cycle none → mb →
// rmb → wmb → none (another barrier is followed by mb).
func NextBarrier(word string) string {
	i := slices.Index(barrierCycle, word)
	return barrierCycle[(i+1)%len(barrierCycle)]
}

// BarrierEdit is the edit that makes the barrier after instruction at of
// cpu be word ("" for none): an insertion, a change or a removal; false
// when it is so already.
func (s *Spec) BarrierEdit(cpu string, at int, word string) (Edit, bool, error) {
	cur, n, err := s.BarrierAfter(cpu, at)
	switch {
	case err != nil:
		return Edit{}, false, err
	case cur == word || fencePrim(cur) != "" && fencePrim(cur) == fencePrim(word):
		return Edit{}, false, nil
	case cur == "":
		return Edit{CPU: cpu, At: at, Op: InsertBarrier, To: word}, true, nil
	case word == "":
		return Edit{CPU: cpu, At: n, Op: RemoveBarrier, To: cur}, true, nil
	}
	return Edit{CPU: cpu, At: n, Op: SetOrder, To: word}, true, nil
}

// Original is the scenario before its edits (s itself when it has none).
func (s *Spec) Original() *Spec {
	if s.Unedited != nil {
		return s.Unedited
	}
	return s
}

// EditedSource is the edited scenario as a litmus file of its own, called
// name, to be saved in the current directory (EditedSourceIn).
func (s *Spec) EditedSource(name string) (string, error) { return s.EditedSourceIn(name, ".") }

// EditedSourceIn is the edited scenario as a litmus file of its own,
// called name, to be saved in directory dir: the edited code under the
// original's leading comment, kept line by line but for three keys:
// Result is dropped (the original's LKMM verdict is not the edited
// test's; herd7 tells), Title and Variant say the test is edited, and
// Source becomes the provenance, the command that makes the same what-if
// from the original (its path relative to dir, so that it runs there),
// followed by the original's own source. A test without a leading comment
// gets one with these keys.
func (s *Spec) EditedSourceIn(name, dir string) (string, error) {
	if s.Litmus == nil {
		return "", fmt.Errorf("%s: no litmus source", s.Name)
	}
	sc, err := Parse(s.Litmus.File, []byte(syntax.Format(s.Litmus)))
	if err != nil {
		return "", err
	}
	orig := s.Original()
	sc.Name = name
	title := orig.Title
	if title == "" {
		title = orig.Name
	}
	values := map[string]string{
		"Title":  title + ", what if " + EditsText(s.Edits),
		"Source": s.provenance(dir),
	}
	if orig.Variant != "" {
		values["Variant"] = orig.Variant + "+edited"
	}
	var header []syntax.Comment
	done := false
	for _, c := range orig.Litmus.Header {
		if !done && !c.Free && !c.IsLine() {
			c = syntax.Comment{Text: rewriteMeta(c.Text, values)}
			done = true
		}
		header = append(header, syntax.Comment{Text: c.Text, Free: c.Free})
	}
	if !done {
		var b strings.Builder
		b.WriteString("(*\n")
		for _, k := range []string{"Title", "Family", "Variant", "Source"} {
			v := values[k]
			if k == "Family" {
				v = orig.Family
			}
			writeField(&b, k, v)
		}
		b.WriteString(" *)")
		header = append([]syntax.Comment{{Text: b.String()}}, header...)
	}
	sc.Header = header
	return syntax.Format(sc), nil
}

// provenance is the Source line of a saved what-if: how to make it again
// from the original, run in dir.
func (s *Spec) provenance(dir string) string {
	orig := s.Original()
	flags := EditFlags(s.Edits)
	src := ""
	if orig.Source != "" {
		src = " The original's source: " + orig.Source
	}
	switch {
	case orig.From != "":
		return fmt.Sprintf("Edited with smpscope from %s, the test at %s of a mail: smpscope check - %s < the mail (the --edit flags name instructions from 1 in each CPU).%s", orig.Name, orig.From, flags, src)
	case orig.File != "":
		return fmt.Sprintf("Edited with smpscope from %s: smpscope check %s %s (run in this file's directory).%s", orig.Name, shellWord(relativeTo(orig.File, dir)), flags, src)
	case orig.Litmus != nil && strings.HasPrefix(orig.Litmus.File, "library/"):
		return fmt.Sprintf("Edited with smpscope from the built-in %s: smpscope check %s %s.%s", orig.Name, shellWord(orig.Name), flags, src)
	}
	return fmt.Sprintf("Edited with smpscope from %s, read from standard input: smpscope check - %s < that file.%s", orig.Name, flags, src)
}

// shellWord quotes a word for a shell command line when it needs it.
func shellWord(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// writeField writes a metadata key with its value, wrapped as FORMAT.md
// continues a value (indented lines), in a (* *) comment.
func writeField(b *strings.Builder, key, value string) {
	if value = strings.TrimSpace(value); value == "" {
		return
	}
	for i, l := range wrapLine(key+": "+value, 72, 72) {
		if i > 0 {
			l = "  " + l
		}
		b.WriteString(" * " + strings.ReplaceAll(l, "*)", "* )") + "\n")
	}
}

// rewriteMeta rewrites a (* *) comment's metadata, line by line: the keys
// of values get those values (a key the comment lacks is added before
// its end), Result is dropped, and every other line stays as it was.
func rewriteMeta(text string, values map[string]string) string {
	lines := strings.Split(text, "\n")
	var out []string
	skipping := false // the continuation lines of a key replaced or dropped
	seen := map[string]bool{}
	for i, l := range lines {
		body := strings.TrimLeft(l, " \t")
		if i == 0 {
			body = strings.TrimPrefix(body, "(*")
		}
		body = strings.TrimSuffix(strings.TrimRight(body, " \t\r"), "*)")
		t := strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(body, " \t"), "*"), " \t")
		key := ""
		if j := strings.Index(t, ":"); j > 0 && syntax.IsMetaKey(t[:j]) {
			key = t[:j]
		}
		last := i == len(lines)-1
		switch {
		case key != "" && (key == "Result" || values[key] != "") && !last && i > 0:
			skipping = true
			if v := values[key]; v != "" && !seen[key] {
				var b strings.Builder
				writeField(&b, key, v)
				out = append(out, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
			}
			seen[key] = true
			continue
		case key != "" || strings.TrimSpace(t) == "":
			skipping = false
		case skipping && !last:
			continue
		}
		if last {
			// Keys the comment did not have, before its end.
			var b strings.Builder
			for _, k := range []string{"Title", "Variant", "Source"} {
				if !seen[k] && values[k] != "" {
					writeField(&b, k, values[k])
					seen[k] = true
				}
			}
			if b.Len() > 0 {
				if strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "*)")) != "" {
					// A comment ending on a line with text: end it after.
					out = append(out, l[:strings.LastIndex(l, "*)")])
					l = " *)"
				}
				out = append(out, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// WriteNewEdited saves the edited scenario in dir as a new file named
// after the original with "+edited" ("mp+once+edited.litmus", or, when
// that exists, "mp+once+edited-2.litmus", …): it never overwrites a file.
// The test inside is named like its file. It returns the path written.
func WriteNewEdited(dir string, s *Spec) (string, error) {
	if len(s.Edits) == 0 {
		return "", fmt.Errorf("%s has no edits to save", s.Name)
	}
	base := fileSafe(s.Name) + "+edited"
	if _, err := s.EditedSourceIn(base, dir); err != nil {
		return "", err // before any file is created
	}
	return createUniqueFunc(dir, base, ".litmus", func(name string) []byte {
		src, _ := s.EditedSourceIn(name, dir)
		return []byte(src)
	})
}

// Weakening is one ordering annotation of a scenario and the edit that
// weakens it: a barrier removed ("P0:2-wmb"), an acquire load made
// READ_ONCE, a release store (smp_store_release, rcu_assign_pointer,
// smp_store_mb) made WRITE_ONCE, an ordered read-modify-write made
// relaxed ("P1:3=relaxed"). Asking which weakenings make an outcome
// reachable answers "is this barrier needed?", and the answer replays
// with --edit. Spin locks and RCU are never weakened.
type Weakening struct {
	Edit Edit
	Line int // the instruction's line in the scenario source, 0 if unknown
	// What names the annotation as written, e.g. "smp_wmb()",
	// "smp_load_acquire()", "xchg()".
	What string
	// To says what it becomes, e.g. "nothing", "READ_ONCE()",
	// "xchg_relaxed()".
	To string
}

// Where locates the annotation for people by the one numbering they
// see, its address in the edit syntax: "P0:3", the third line of P0's
// CPU column (the file's line is in Line, for the source view).
func (w Weakening) Where() string {
	return fmt.Sprintf("%s:%d", w.Edit.CPU, w.Edit.At)
}

// String is "smp_wmb() (P0:2)".
func (w Weakening) String() string { return w.What + " (" + w.Where() + ")" }

// Weakenings lists every ordering annotation of the scenario that an edit
// can weaken, in thread and program order: every barrier statement other
// than barrier() (which orders nothing on either machine), every acquire
// load, every release store, and every fully ordered, acquire or release
// read-modify-write that has a relaxed form. The second list names the
// ordered annotations no edit can weaken (an RMW such as
// test_and_set_bit() has no relaxed form in C; a C11 access its
// memory_order argument).
func (s *Spec) Weakenings() ([]Weakening, []string) {
	if s.Litmus == nil {
		return nil, nil
	}
	sc, c, err := editable(s.Litmus)
	if err != nil {
		return nil, nil
	}
	var out []Weakening
	var fixed []string
	for t, th := range c.Program.Threads {
		seen := map[*syntax.CallExpr]bool{}
		for i := range th.Code {
			in := &th.Code[i]
			tg, err := target(sc, c, th.Name, i+1)
			if err != nil || tg.from.call == nil || seen[tg.from.call] {
				continue
			}
			call := tg.from.call
			name := call.Fun.Name
			w := Weakening{Edit: Edit{CPU: th.Name, At: i + 1}, What: name + "()"}
			w.Line = s.sourceLine(t, i)
			switch {
			case in.Op == machine.OpFence && in.Fence != machine.FenceBarrier && fenceStmt(tg.from.stmt) == name:
				w.Edit.Op, w.Edit.To, w.To = RemoveBarrier, fenceWord(name), "nothing"
			case in.Op == machine.OpLoad && in.Access == machine.Acquire,
				in.Op == machine.OpStore && in.Access.IsRelease(),
				in.Op == machine.OpRMW && in.Order != machine.OrderRelaxed,
				prims()[name] != nil && prims()[name].class == pStoreMb:
				forms, cur, err := tg.orderings()
				if err != nil || cur == 0 {
					if err != nil {
						fixed = append(fixed, fmt.Sprintf("%s (%s)", w.What, w.Where()))
					}
					continue
				}
				w.Edit.Op, w.Edit.To, w.To = SetOrder, forms[0].Word, forms[0].Prim+"()"
			default:
				continue
			}
			seen[call] = true
			out = append(out, w)
		}
	}
	return out, fixed
}

// EditSet applies a set of edits that each name an instruction of s as
// it is (not of the program the others leave), and returns the edited
// spec and the same edits as the list that --edit applies in order: in
// CPU and instruction order, each renumbered past the instructions the
// ones before it inserted or removed. The edits are made on one copy of
// the litmus tree, from the last instruction of each CPU back, so that
// each finds its statement where the original has it; the result is
// what applying the list one edit at a time gives.
func (s *Spec) EditSet(set []Edit) (*Spec, []Edit, error) {
	if len(set) == 0 {
		return s, nil, nil
	}
	if s.Litmus == nil {
		return nil, nil, fmt.Errorf("%s: no litmus source to edit", s.Name)
	}
	sc, c, err := editable(s.Litmus)
	if err != nil {
		return nil, nil, err
	}
	order := map[string]int{}
	for i, th := range c.Program.Threads {
		order[th.Name] = i
	}
	sorted := slices.Clone(set)
	slices.SortStableFunc(sorted, func(a, b Edit) int {
		if d := order[a.CPU] - order[b.CPU]; d != 0 {
			return d
		}
		if a.At != b.At {
			return a.At - b.At
		}
		// A change of an instruction before the barrier inserted after it.
		return boolInt(a.Op == InsertBarrier) - boolInt(b.Op == InsertBarrier)
	})
	// The list --edit applies: each renumbered by what the ones before
	// it in its CPU inserted or removed.
	seq := make([]Edit, len(sorted))
	var moves []struct {
		cpu       string
		at, delta int
	}
	for i, e := range sorted {
		if _, ok := order[e.CPU]; !ok {
			return nil, nil, fmt.Errorf("edit %s: no CPU named %s", e, e.CPU)
		}
		moved := e
		for _, m := range moves {
			if m.cpu == e.CPU && e.At > m.at {
				moved.At += m.delta
			}
		}
		seq[i] = moved
		tg, err := target(sc, c, e.CPU, e.At)
		if err != nil {
			return nil, nil, fmt.Errorf("edit %s: %v", e, err)
		}
		moves = append(moves, struct {
			cpu       string
			at, delta int
		}{e.CPU, e.At, editDelta(tg, e)})
	}
	// The edits themselves, last first.
	for i := len(sorted) - 1; i >= 0; i-- {
		if err := sorted[i].apply(sc, c); err != nil {
			return nil, nil, fmt.Errorf("edit %s: %v", seq[i], err)
		}
	}
	sp, err := s.editedFrom(sc, seq)
	if err != nil {
		return nil, nil, err
	}
	return sp, seq, nil
}

// editDelta is how many instructions an edit adds to its CPU's program
// (negative: removes).
func editDelta(tg editTarget, e Edit) int {
	switch e.Op {
	case InsertBarrier:
		return 1
	case RemoveBarrier:
		return -1
	}
	if tg.from.call == nil {
		return 0
	}
	n := func(prim string) int {
		if p := prims()[prim]; p != nil && p.class == pStoreMb {
			return 2
		}
		return 1
	}
	for _, o := range familyOf(tg.from.call.Fun.Name) {
		if o.matches(e.To) {
			return n(o.Prim) - n(tg.from.call.Fun.Name)
		}
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

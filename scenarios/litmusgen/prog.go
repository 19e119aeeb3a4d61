package litmusgen

import (
	"fmt"
	"slices"
	"strings"
)

// Program is a generated litmus test in a structured form, so that
// [Minimize] can drop statements and CPUs and render the result again.
type Program struct {
	Name string
	// Header is comment text written before the initial-state block (one
	// entry per line, without comment delimiters).
	Header []string
	// Ints are the integer locations (x, y, z), with initial values.
	Ints []Location
	// Ptrs are pointer locations; Init names the location they point to.
	Ptrs []PtrLocation
	// Locks are spinlock locations. They are left out of the locations
	// clause: herd7 does not give lock words meaningful final values
	// ("Flag lock-final").
	Locks []string
	// Srcus are srcu_struct locations (SRCU domains), passed to every
	// CPU; like lock words they are left out of the locations clause.
	Srcus   []string
	Threads []*Thread
	// Filter, when not empty, is a filter clause condition.
	Filter string
	// Exists is the condition of the exists clause.
	Exists string
}

// Location is an integer location and its initial value.
type Location struct {
	Name string
	Init int
}

// PtrLocation is a pointer location and the location it points to first.
type PtrLocation struct {
	Name string
	Init string
}

// Thread is one CPU's code. Registers are numbered; Regs[i] says whether
// register i holds a pointer.
type Thread struct {
	Regs []Reg
	Body []*Stmt
}

// Reg is a register of a thread.
type Reg struct {
	Name string
	Ptr  bool
}

// Stmt is a statement: a simple one (Text only), a block (Text opens it,
// Close ends it: a lock or RCU read-side section), or an if (Cond set).
type Stmt struct {
	Text  string
	Close string
	Cond  string
	Body  []*Stmt
	Else  []*Stmt
	// Defs and Uses are the registers the statement itself (not its
	// body) writes and reads.
	Defs, Uses []int
	// Deref is true when the statement dereferences a pointer register
	// (in Uses): dropping the load that set it would fault.
	Deref bool
	// Op says what kind of access the statement (or the opening of a
	// block) is, for classifying disagreements.
	Op Op
}

// Op is the kind of a statement.
type Op uint8

// Statement kinds. RMWs are split by ordering; a cmpxchg counts as an RMW
// of its ordering whether it succeeds or not.
const (
	OpOther      Op = iota
	OpLoad          // READ_ONCE, plain read, atomic_read, rcu_dereference
	OpAcquire       // smp_load_acquire
	OpStore         // WRITE_ONCE, plain write, atomic_set
	OpRelease       // smp_store_release, rcu_assign_pointer
	OpRMWFull       // xchg, cmpxchg, atomic_*_return, atomic_fetch_*
	OpRMWRelaxed    // …_relaxed
	OpRMWAcquire    // …_acquire
	OpRMWRelease    // …_release
	OpRMWNoRet      // atomic_inc, atomic_add, … (no return value)
	OpFence         // smp_mb, smp_rmb, smp_wmb, …: Text names which
	OpLock          // spin_lock (a block: Close is spin_unlock)
	OpUnlock        // spin_unlock
	OpTrylock       // spin_trylock
	OpIsLocked      // spin_is_locked
	OpSync          // synchronize_rcu
	OpReader        // an rcu_read_lock section (a block)
	OpIf            // if (Cond)
)

// reads reports whether the op reads memory.
func (o Op) reads() bool {
	switch o {
	case OpLoad, OpAcquire, OpRMWFull, OpRMWRelaxed, OpRMWAcquire, OpRMWRelease, OpRMWNoRet, OpLock, OpTrylock, OpIsLocked:
		return true
	}
	return false
}

func (o Op) rmw() bool { return o >= OpRMWFull && o <= OpRMWNoRet }

func (s *Stmt) isIf() bool    { return s.Cond != "" }
func (s *Stmt) isBlock() bool { return s.Close != "" }

// Instrs counts instructions the way Config's limits do: a simple
// statement is one, a block two plus its body, an if one plus its
// branches.
func (s *Stmt) Instrs() int {
	n := 1
	if s.isBlock() {
		n = 2
	}
	for _, b := range s.Body {
		n += b.Instrs()
	}
	for _, b := range s.Else {
		n += b.Instrs()
	}
	return n
}

// clone copies the statement tree.
func (s *Stmt) clone() *Stmt {
	c := *s
	c.Defs = slices.Clone(s.Defs)
	c.Uses = slices.Clone(s.Uses)
	c.Body = cloneStmts(s.Body)
	c.Else = cloneStmts(s.Else)
	return &c
}

func cloneStmts(list []*Stmt) []*Stmt {
	if list == nil {
		return nil
	}
	out := make([]*Stmt, len(list))
	for i, s := range list {
		out[i] = s.clone()
	}
	return out
}

// Clone returns a deep copy of the program.
func (p *Program) Clone() *Program {
	c := *p
	c.Header = slices.Clone(p.Header)
	c.Ints = slices.Clone(p.Ints)
	c.Ptrs = slices.Clone(p.Ptrs)
	c.Locks = slices.Clone(p.Locks)
	c.Srcus = slices.Clone(p.Srcus)
	c.Threads = make([]*Thread, len(p.Threads))
	for i, t := range p.Threads {
		c.Threads[i] = &Thread{Regs: slices.Clone(t.Regs), Body: cloneStmts(t.Body)}
	}
	return &c
}

// usedRegs returns the registers a statement list writes or reads.
func usedRegs(list []*Stmt, into map[int]bool) {
	for _, s := range list {
		for _, r := range s.Defs {
			into[r] = true
		}
		for _, r := range s.Uses {
			into[r] = true
		}
		usedRegs(s.Body, into)
		usedRegs(s.Else, into)
	}
}

// declared returns the registers of t that its body mentions, in order.
func (t *Thread) declared() []int {
	used := map[int]bool{}
	usedRegs(t.Body, used)
	var out []int
	for i := range t.Regs {
		if used[i] {
			out = append(out, i)
		}
	}
	return out
}

// StateKeys returns the names herd7 and the machine print for every
// register and data location, in the order of the locations clause.
func (p *Program) StateKeys() []string {
	var keys []string
	for ti, t := range p.Threads {
		for _, r := range t.declared() {
			keys = append(keys, fmt.Sprintf("%d:%s", ti, t.Regs[r].Name))
		}
	}
	for _, l := range p.Ints {
		keys = append(keys, l.Name)
	}
	for _, l := range p.Ptrs {
		keys = append(keys, l.Name)
	}
	return keys
}

// Source renders the program as a C litmus test that smpscope and herd7
// (with linux-kernel.cfg) both accept.
func (p *Program) Source() string {
	var b strings.Builder
	fmt.Fprintf(&b, "C %s\n", p.Name)
	if len(p.Header) > 0 {
		b.WriteString("\n(*\n")
		for _, l := range p.Header {
			if l == "" {
				b.WriteString(" *\n")
			} else {
				b.WriteString(" * " + l + "\n")
			}
		}
		b.WriteString(" *)\n")
	}
	b.WriteString("\n{\n")
	for _, l := range p.Ptrs {
		fmt.Fprintf(&b, "\tint *%s=%s;\n", l.Name, l.Init)
	}
	for _, l := range p.Ints {
		if l.Init != 0 {
			fmt.Fprintf(&b, "\tint %s=%d;\n", l.Name, l.Init)
		}
	}
	b.WriteString("}\n")
	for ti, t := range p.Threads {
		var params []string
		for _, l := range p.Ints {
			params = append(params, "int *"+l.Name)
		}
		for _, l := range p.Ptrs {
			params = append(params, "int **"+l.Name)
		}
		for _, l := range p.Locks {
			params = append(params, "spinlock_t *"+l)
		}
		for _, l := range p.Srcus {
			params = append(params, "struct srcu_struct *"+l)
		}
		fmt.Fprintf(&b, "\nP%d(%s)\n{\n", ti, strings.Join(params, ", "))
		decl := t.declared()
		for _, r := range decl {
			if t.Regs[r].Ptr {
				fmt.Fprintf(&b, "\tint *%s;\n", t.Regs[r].Name)
			} else {
				fmt.Fprintf(&b, "\tint %s;\n", t.Regs[r].Name)
			}
		}
		if len(decl) > 0 && len(t.Body) > 0 {
			b.WriteString("\n")
		}
		writeStmts(&b, t.Body, 1)
		b.WriteString("}\n")
	}
	b.WriteString("\n")
	if keys := p.StateKeys(); len(keys) > 0 {
		fmt.Fprintf(&b, "locations [%s]\n", strings.Join(keys, "; "))
	}
	if p.Filter != "" {
		fmt.Fprintf(&b, "filter (%s)\n", p.Filter)
	}
	exists := p.Exists
	if exists == "" {
		exists = "true"
	}
	fmt.Fprintf(&b, "exists (%s)\n", exists)
	return b.String()
}

func writeStmts(b *strings.Builder, list []*Stmt, depth int) {
	ind := strings.Repeat("\t", depth)
	for _, s := range list {
		switch {
		case s.isIf():
			fmt.Fprintf(b, "%sif (%s) {\n", ind, s.Cond)
			writeStmts(b, s.Body, depth+1)
			if len(s.Else) > 0 {
				b.WriteString(ind + "} else {\n")
				writeStmts(b, s.Else, depth+1)
			}
			b.WriteString(ind + "}\n")
		case s.isBlock():
			b.WriteString(ind + s.Text + "\n")
			writeStmts(b, s.Body, depth+1)
			b.WriteString(ind + s.Close + "\n")
		default:
			b.WriteString(ind + s.Text + "\n")
		}
	}
}

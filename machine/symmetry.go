package machine

import (
	"bytes"
	"slices"
)

// Symmetry (issue 24). perfbook's lock cycles, and every ring litmusgen
// builds, are programs in which CPU c+1 runs CPU c's code with its
// locations renamed (x_i becomes x_(i+1)): renaming the CPUs and the
// locations together maps the program onto itself. Such a renaming g — a
// permutation π of the CPUs with a permutation σ of the locations under
// which every CPU c's code, with each address l read as σ(l), is CPU
// π(c)'s code, instruction for instruction (the same Op, flavours,
// registers, values, targets and Prim), and under which the initial
// values and initial registers agree — is an automorphism of the
// program. The search then stores one state of each orbit: it keys every
// successor t by the least encoding of g·t over the automorphisms g (the
// identity among them), and explores that representative.
//
// The argument. Write g·s for the state s with CPU c's part moved to CPU
// π(c) and every location l (memory, each cache's line, each store-buffer
// and queue entry, the CPUs a grace period waits for) renamed σ(l). The
// rules are equivariant: Enabled(g·s) is g applied to Enabled(s) (a
// step's CPU renamed by π, an invalidation's location by σ, an
// instruction index kept), and Apply(g·s, g·st) = g·Apply(s, st). Nothing
// a rule reads tells CPUs or locations apart by their number: values are
// integers (a program whose values may be pointers — an initial value, a
// constant other than an instruction's address — has no automorphism
// here, since σ would have to rename the values too), the only addresses
// are constants, which g renames with the code, and the queue order the
// key drops is by location. So the reachable states are closed under
// every automorphism (the initial state is fixed by each: the same
// initial values, every line in S, the same initial registers), and g
// maps the ends reachable from s (final states with their outcomes,
// stuck states, faults) one to one onto those reachable from g·s, an
// outcome o to g·o (thread π(c)'s registers are thread c's, location
// σ(l)'s value is l's). By induction on the longest path from a state
// (the graph has no cycles): if the search, from each state it expands,
// reaches every end reachable from there up to an automorphism, and a
// successor t is replaced by g·t, then every end reachable from t is the
// image under g⁻¹ of one reachable from g·t, found up to an automorphism
// by the induction hypothesis. The other reductions are arguments about
// one state and its moves ("every end reachable from s is matched by one
// reachable through these moves"), so they compose with this one as with
// each other. What the search reports is closed under the automorphisms
// again: each outcome it finds is reported with all its images (each with
// the witness renamed), which gives every outcome of the full search;
// deadlocks and faults only need to exist, and the representative's
// stuck or faulted state is itself reachable (by the renamed path).
//
// Witnesses. A node's parent is a representative, and the move recorded
// with it is a move of that representative: replaying the moves from the
// initial state, the search renames what it replays as it goes (path),
// and so returns a path of ordinary steps to a state with the node's key,
// which replays with Enabled and Apply like any other.
//
// Only without Options.Prune: a filter names CPUs and locations and need
// not be symmetric. And only without SRCU (its sections are numbered by
// the instructions that open them).

// perm is an automorphism of the program: CPU c's part goes to CPU
// cpu[c], location l to loc[l].
type perm struct {
	cpu []uint8
	loc []Loc
}

// automorphisms returns the program's automorphisms other than the
// identity (see above), at most maxAutomorphisms of them.
func automorphisms(p *Program) []perm {
	n := len(p.Threads)
	if n < 2 {
		return nil
	}
	for _, v := range p.Init {
		if _, ok := v.AsLoc(); ok {
			return nil
		}
	}
	for _, t := range p.Threads {
		for i := range t.Code {
			if !symmetricInstr(&t.Code[i]) {
				return nil
			}
		}
		for _, v := range t.Init {
			if _, ok := v.AsLoc(); ok {
				return nil
			}
		}
	}
	var out []perm
	cpu := make([]uint8, n)
	loc := make([]int, len(p.Locs)) // 1+σ(l), 0 while free
	used := make([]bool, len(p.Locs))
	taken := make([]bool, n)
	var try func(c int) bool
	try = func(c int) bool {
		if c == n {
			g := perm{cpu: append([]uint8(nil), cpu...), loc: make([]Loc, len(p.Locs))}
			identity := true
			// Locations no code names stay where they are; the ones the
			// code names are mapped onto the ones it names, so the two
			// never meet.
			for l := range loc {
				g.loc[l] = Loc(l)
				if loc[l] != 0 {
					g.loc[l] = Loc(loc[l] - 1)
				}
				identity = identity && g.loc[l] == Loc(l)
			}
			for i := range cpu {
				identity = identity && cpu[i] == uint8(i)
			}
			for l := range g.loc {
				if p.Init[g.loc[l]] != p.Init[l] {
					return false
				}
			}
			if !identity {
				out = append(out, g)
			}
			return len(out) > maxAutomorphisms
		}
		for d := 0; d < n; d++ {
			if taken[d] {
				continue
			}
			var bound []int
			if matchThread(&p.Threads[c], &p.Threads[d], loc, used, &bound) {
				taken[d], cpu[c] = true, uint8(d)
				if try(c + 1) {
					return true
				}
				taken[d] = false
			}
			for _, l := range bound {
				used[loc[l]-1] = false
				loc[l] = 0
			}
		}
		return false
	}
	try(0)
	if len(out) > maxAutomorphisms || !closed(out) {
		// The argument needs the whole group: every outcome is reported
		// with its images under all of it (a renaming found by one step
		// of the search composes with those of the next).
		return nil
	}
	return out
}

// maxAutomorphisms bounds the automorphisms the search tries per state
// (each costs a signature of every successor, and some an encoding): a
// program with more (five CPUs or more running the same code on the same
// locations) gets no symmetry reduction.
const maxAutomorphisms = 23

// closed reports whether the automorphisms with the identity are closed
// under composition: a group, as enumerating all of them gives.
func closed(gs []perm) bool {
	for i := range gs {
		for j := range gs {
			c := gs[i].then(&gs[j])
			found := true
			for x, d := range c.cpu {
				found = found && d == uint8(x)
			}
			for l, k := range c.loc {
				found = found && k == Loc(l)
			}
			for k := 0; k < len(gs) && !found; k++ {
				found = slices.Equal(c.cpu, gs[k].cpu) && slices.Equal(c.loc, gs[k].loc)
			}
			if !found {
				return false
			}
		}
	}
	return true
}

// symmetricInstr reports whether the instruction's only pointer values
// are constant addresses, and it touches no SRCU.
func symmetricInstr(in *Instr) bool {
	switch in.Op {
	case OpSRCULock, OpSRCUUnlock, OpSyncSRCU:
		return false
	}
	if in.Addr != nil {
		if in.Addr.Op != EConst {
			return false
		}
		if _, ok := in.Addr.Val.AsLoc(); !ok {
			return false
		}
	}
	for _, e := range []*Expr{in.Val, in.Exp, in.Cond} {
		if hasPointer(e) {
			return false
		}
	}
	return true
}

func hasPointer(e *Expr) bool {
	if e == nil {
		return false
	}
	if e.Op == EConst {
		_, ok := e.Val.AsLoc()
		return ok
	}
	return hasPointer(e.X) || hasPointer(e.Y)
}

// matchThread reports whether thread b is thread a with its addresses
// renamed by the partial map loc (1+σ(l), 0 while free), extending it
// (the locations it binds are appended to bound, for the caller to undo).
func matchThread(a, b *Thread, loc []int, used []bool, bound *[]int) bool {
	if len(a.Code) != len(b.Code) || len(a.Regs) != len(b.Regs) || len(a.Init) != len(b.Init) {
		return false
	}
	for i, v := range a.Init {
		if b.Init[i] != v {
			return false
		}
	}
	for i := range a.Code {
		x, y := &a.Code[i], &b.Code[i]
		if x.Op != y.Op || x.Access != y.Access || x.Fence != y.Fence || x.Order != y.Order || x.RMW != y.RMW ||
			x.HasDst != y.HasDst || x.HasDst && x.Dst != y.Dst || x.Target != y.Target || x.Cross != y.Cross || x.Prim != y.Prim ||
			!sameExpr(x.Val, y.Val) || !sameExpr(x.Exp, y.Exp) || !sameExpr(x.Cond, y.Cond) || (x.Addr == nil) != (y.Addr == nil) {
			return false
		}
		if x.Addr == nil {
			continue
		}
		la, _ := x.Addr.Val.AsLoc()
		lb, _ := y.Addr.Val.AsLoc()
		switch {
		case loc[la] == int(lb)+1:
		case loc[la] != 0 || used[lb]:
			return false
		default:
			loc[la] = int(lb) + 1
			used[lb] = true
			*bound = append(*bound, int(la))
		}
	}
	return true
}

func sameExpr(a, b *Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op || a.Val != b.Val || a.Reg != b.Reg {
		return false
	}
	return sameExpr(a.X, b.X) && sameExpr(a.Y, b.Y)
}

// symmetric reports whether this search keys states by their orbits.
func (e *explorer) symmetric() bool {
	return len(e.m.sym) > 0 && e.on(redSymmetry) && e.opts.Prune == nil
}

// permute returns g·s (see above) in the scratch state sc.
func (g *perm) permute(sc *scratch, s *State, tmp *permBuf) *State {
	t := sc.load(s)
	n := len(s.cpus)
	// Each CPU's part, its slices into sc's buffers, moves whole.
	tmp.cpus = append(tmp.cpus[:0], t.cpus...)
	for c := 0; c < n; c++ {
		t.cpus[g.cpu[c]] = tmp.cpus[c]
	}
	nl := len(s.mem)
	for l := 0; l < nl; l++ {
		t.mem[g.loc[l]] = s.mem[l]
	}
	for c := 0; c < n; c++ {
		// CPU c's lines, now CPU g.cpu[c]'s, renamed from s's copy.
		cs, from := &t.cpus[g.cpu[c]], s.cpus[c].cache
		for l := 0; l < nl; l++ {
			cs.cache[g.loc[l]] = from[l]
		}
	}
	for c := range t.cpus {
		cs := &t.cpus[c]
		for i := range cs.sb {
			if cs.sb[i].Kind != EntryWmb { // a marker's Loc means nothing
				cs.sb[i].Loc = g.loc[cs.sb[i].Loc]
			}
		}
		for i := range cs.iq {
			cs.iq[i].Loc = g.loc[cs.iq[i].Loc]
		}
		var w uint32
		for x := 0; x < n; x++ {
			if cs.gpWait&(1<<x) != 0 {
				w |= 1 << g.cpu[x]
			}
		}
		cs.gpWait = w
	}
	return t
}

// step returns g·st.
func (g *perm) step(st Step) Step {
	st.CPU = g.cpu[st.CPU]
	if st.Kind == StepInvalidate {
		st.Arg = uint8(g.loc[st.Arg])
	}
	return st
}

// outcome returns g·o.
func (g *perm) outcome(o Outcome) Outcome {
	r := Outcome{Regs: make([][]Value, len(o.Regs)), Mem: make([]Value, len(o.Mem))}
	for c, regs := range o.Regs {
		r.Regs[g.cpu[c]] = regs
	}
	for l, v := range o.Mem {
		r.Mem[g.loc[l]] = v
	}
	return r
}

// then returns the automorphism "g, then h".
func (g *perm) then(h *perm) perm {
	r := perm{cpu: make([]uint8, len(g.cpu)), loc: make([]Loc, len(g.loc))}
	for c := range g.cpu {
		r.cpu[c] = h.cpu[g.cpu[c]]
	}
	for l := range g.loc {
		r.loc[l] = h.loc[g.loc[l]]
	}
	return r
}

// inverse returns g⁻¹.
func (g *perm) inverse() perm {
	r := perm{cpu: make([]uint8, len(g.cpu)), loc: make([]Loc, len(g.loc))}
	for c, d := range g.cpu {
		r.cpu[d] = uint8(c)
	}
	for l, k := range g.loc {
		r.loc[k] = Loc(l)
	}
	return r
}

// identityPerm returns the identity on n CPUs and nl locations.
func identityPerm(n, nl int) perm {
	r := perm{cpu: make([]uint8, n), loc: make([]Loc, nl)}
	for c := range r.cpu {
		r.cpu[c] = uint8(c)
	}
	for l := range r.loc {
		r.loc[l] = Loc(l)
	}
	return r
}

// canonical returns the least encoding of t's orbit (in w.buf, as encode
// does) and which automorphism gives it: -1 for the identity, else an
// index into m.sym. "Least" is in an order that is cheap to decide
// first: by a signature of each image (the latest value of every
// location, then every CPU's pc, both renamed: parts of the key, so
// key-equal states have equal signatures), then by the encoding itself.
// Any total order of the images' encodings makes the least one a function
// of the orbit, which is all the search needs.
func (e *explorer) canonical(t *State, w *worker) (encoding, int) {
	if !e.symmetric() {
		return e.encode(t, w), -1
	}
	m := e.m
	nl, n := len(t.mem), len(t.cpus)
	w.symLatest = grow(w.symLatest, nl)
	for l := range t.mem {
		w.symLatest[l] = t.Latest(Loc(l))
	}
	// sig compares g·t's signature with h·t's (nil: the identity).
	sig := func(g, h *perm) int {
		var gl, hl [MaxLocs]Value
		for l := 0; l < nl; l++ {
			a, b := Loc(l), Loc(l)
			if g != nil {
				a = g.loc[l]
			}
			if h != nil {
				b = h.loc[l]
			}
			gl[a], hl[b] = w.symLatest[l], w.symLatest[l]
		}
		for l := 0; l < nl; l++ {
			if gl[l] != hl[l] {
				if gl[l] < hl[l] {
					return -1
				}
				return 1
			}
		}
		var gp, hp [MaxCPUs]uint8
		for c := 0; c < n; c++ {
			a, b := c, c
			if g != nil {
				a = int(g.cpu[c])
			}
			if h != nil {
				b = int(h.cpu[c])
			}
			gp[a], hp[b] = t.cpus[c].pc, t.cpus[c].pc
		}
		for c := 0; c < n; c++ {
			if gp[c] != hp[c] {
				if gp[c] < hp[c] {
					return -1
				}
				return 1
			}
		}
		return 0
	}
	// The images with the least signature.
	var best *perm
	w.symTied = append(w.symTied[:0], -1)
	for i := range m.sym {
		g := &m.sym[i]
		switch c := sig(g, best); {
		case c < 0:
			best = g
			w.symTied = append(w.symTied[:0], i)
		case c == 0:
			w.symTied = append(w.symTied, i)
		}
	}
	// Among them, the least encoding.
	bestIdx := -1
	w.symBest = w.symBest[:0]
	for j, i := range w.symTied {
		u := t
		if i >= 0 {
			u = m.sym[i].permute(&w.symSc, t, &w.symBuf)
		}
		enc := e.encode(u, w)
		if j == 0 || bytes.Compare(enc, w.symBest) < 0 {
			w.symBest = append(w.symBest[:0], enc...)
			bestIdx = i
		}
	}
	if len(w.symTied) == 1 {
		return w.buf, bestIdx // encode left it there
	}
	w.buf = append(w.buf[:0], w.symBest...)
	return w.buf, bestIdx
}

// permBuf is permute's reusable buffer.
type permBuf struct {
	cpus []cpuState
}

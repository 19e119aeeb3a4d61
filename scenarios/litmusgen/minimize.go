package litmusgen

import (
	"regexp"
)

// Minimize shrinks p while keep holds: it drops CPUs, statements, else
// branches and the lock/RCU/if around a body, then locations nothing
// mentions, and zeroes initial values, one change at a time, as long as
// keep accepts the smaller program. keep is called at most budget times
// (0: 400). The exists clause and the filter are dropped first (they may
// name registers and locations that go). The result is the smallest
// program keep accepted (p itself, without them, if none).
func Minimize(p *Program, keep func(*Program) bool, budget int) *Program {
	if budget <= 0 {
		budget = 400
	}
	cur := p.Clone()
	cur.Exists, cur.Filter = "", ""
	cur = prune(cur)
	for progress := true; progress && budget > 0; {
		progress = false
		for _, cand := range shrinks(cur) {
			if budget <= 0 {
				break
			}
			cand = prune(cand)
			if !derefsDefined(cand) {
				continue
			}
			budget--
			if keep(cand) {
				cur = cand
				progress = true
				break
			}
		}
	}
	return cur
}

// shrinks returns the one-step smaller variants of p, biggest cuts first.
func shrinks(p *Program) []*Program {
	var out []*Program
	if len(p.Threads) > 1 {
		for i := range p.Threads {
			q := p.Clone()
			q.Threads = append(q.Threads[:i], q.Threads[i+1:]...)
			out = append(out, q)
		}
	}
	// Statement-level edits, addressed by a path of indices.
	for ti := range p.Threads {
		n := countStmts(p.Threads[ti].Body)
		for k := 0; k < n; k++ {
			for _, edit := range []func(list []*Stmt, i int) []*Stmt{dropStmt, unwrapStmt, dropElse} {
				q := p.Clone()
				if body, ok := editNth(q.Threads[ti].Body, k, edit); ok {
					q.Threads[ti].Body = body
					out = append(out, q)
				}
			}
		}
	}
	for i, l := range p.Ints {
		if l.Init != 0 {
			q := p.Clone()
			q.Ints[i].Init = 0
			out = append(out, q)
		}
	}
	return out
}

func countStmts(list []*Stmt) int {
	n := 0
	for _, s := range list {
		n += 1 + countStmts(s.Body) + countStmts(s.Else)
	}
	return n
}

// editNth applies edit to the k-th statement (pre-order) of the tree and
// reports whether it changed anything.
func editNth(list []*Stmt, k int, edit func(list []*Stmt, i int) []*Stmt) ([]*Stmt, bool) {
	for i, s := range list {
		if k == 0 {
			out := edit(list, i)
			return out, out != nil
		}
		k--
		for _, sub := range []*[]*Stmt{&s.Body, &s.Else} {
			n := countStmts(*sub)
			if k < n {
				b, ok := editNth(*sub, k, edit)
				if ok {
					*sub = b
				}
				return list, ok
			}
			k -= n
		}
	}
	return nil, false
}

func dropStmt(list []*Stmt, i int) []*Stmt {
	out := append([]*Stmt{}, list[:i]...)
	return append(out, list[i+1:]...)
}

// unwrapStmt replaces a block or an if by its body (nil: not one).
func unwrapStmt(list []*Stmt, i int) []*Stmt {
	s := list[i]
	if !s.isBlock() && !s.isIf() {
		return nil
	}
	out := append([]*Stmt{}, list[:i]...)
	out = append(out, s.Body...)
	return append(out, list[i+1:]...)
}

func dropElse(list []*Stmt, i int) []*Stmt {
	if len(list[i].Else) == 0 {
		return nil
	}
	out := append([]*Stmt{}, list...)
	c := *list[i]
	c.Else = nil
	out[i] = &c
	return out
}

// prune removes locations no statement mentions (keeping those a pointer
// location points to) and renumbers nothing: registers keep their names.
func prune(p *Program) *Program {
	var texts []string
	var walk func(list []*Stmt)
	walk = func(list []*Stmt) {
		for _, s := range list {
			texts = append(texts, s.Text, s.Close, s.Cond)
			walk(s.Body)
			walk(s.Else)
		}
	}
	for _, t := range p.Threads {
		walk(t.Body)
	}
	mentioned := func(name string) bool {
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
		for _, t := range texts {
			if re.MatchString(t) {
				return true
			}
		}
		return false
	}
	var ptrs []PtrLocation
	for _, l := range p.Ptrs {
		if mentioned(l.Name) {
			ptrs = append(ptrs, l)
		}
	}
	var ints []Location
	for _, l := range p.Ints {
		pointed := false
		for _, q := range ptrs {
			pointed = pointed || q.Init == l.Name
		}
		if mentioned(l.Name) || pointed {
			ints = append(ints, l)
		}
	}
	if len(ints) == 0 && len(p.Ints) > 0 {
		ints = p.Ints[:1] // herd7 wants some location to print
	}
	var locks []string
	for _, l := range p.Locks {
		if mentioned(l) {
			locks = append(locks, l)
		}
	}
	p.Ptrs, p.Ints, p.Locks = ptrs, ints, locks
	return p
}

// derefsDefined reports whether every dereference of a pointer register
// comes after a statement that always sets it (so no CPU follows a null
// pointer).
func derefsDefined(p *Program) bool {
	for _, t := range p.Threads {
		set := map[int]bool{}
		ok := true
		var walk func(list []*Stmt, cond bool)
		walk = func(list []*Stmt, cond bool) {
			for _, s := range list {
				if s.Deref {
					for _, r := range s.Uses {
						if t.Regs[r].Ptr && !set[r] {
							ok = false
						}
					}
				}
				if !cond {
					for _, r := range s.Defs {
						set[r] = true
					}
				}
				walk(s.Body, cond || s.isIf())
				walk(s.Else, true)
			}
		}
		walk(t.Body, false)
		if !ok {
			return false
		}
	}
	return true
}

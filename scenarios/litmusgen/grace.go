package litmusgen

import (
	"fmt"
	"slices"
	"strings"
)

// Grace-period cycles (issue 24): the tests kernel developers write about
// RCU, with one to three CPUs waiting for grace periods and the others RCU
// (or SRCU) readers of every form.

// Roles of a CPU in a grace-period cycle; CPU i accesses x_i, then
// x_(i+1), as in CycleProgram.
var GraceRoles = []string{
	"G",  // access; synchronize_rcu(); access
	"GG", // access; synchronize_rcu(); synchronize_rcu(); access
	"R",  // a reader: both accesses inside one read-side section
	"RN", // a nested reader: the second access inside an inner section
	"RC", // a reader whose store is control dependent on its load (RW)
	"RD", // a reader whose store is data dependent on its load (RW)
	"RL", // a reader whose stores are smp_store_release
	"RP", // a reader that rcu_dereferences a pointer the previous CPU published with smp_store_release, and stores through it (RW)
}

// GraceCycle returns the grace-period cycle; see GraceCycleProgram.
func GraceCycle(roles, shapes string, srcu bool) (string, error) {
	p, err := GraceCycleProgram(roles, shapes, srcu)
	if err != nil {
		return "", err
	}
	return p.Source(), nil
}

// GraceCycleProgram builds a cycle of N CPUs (2 to 8) over x0…x(N−1), one
// role (GraceRoles) per CPU joined by "+", e.g. "G+R+R+GG+RP+RD", with
// shapes as in CycleProgram. With srcu, readers are srcu_read_lock(s)
// sections and grace periods synchronize_srcu(s).
//
// An RP reader's first access reads, with rcu_dereference, a pointer p_i
// (initially pointing at z) that the previous CPU publishes as
// smp_store_release(p_i, x_(i+1)) instead of writing x_i; the reader
// then stores through what it read. The exists clause asks for the
// cycle, as in CycleProgram, with "i:r1=x(i+1)" for the pointer's edge.
func GraceCycleProgram(roles, shapes string, srcu bool) (*Program, error) {
	rs := strings.Split(roles, "+")
	n := len(rs)
	if n < 2 || n > 8 {
		return nil, fmt.Errorf("a cycle has 2 to 8 CPUs, not %d", n)
	}
	sh, err := cycleShapes(shapes, n)
	if err != nil {
		return nil, err
	}
	for i, r := range rs {
		if !slices.Contains(GraceRoles, r) {
			return nil, fmt.Errorf("role %d is %q: want one of %s", i, r, strings.Join(GraceRoles, ", "))
		}
		if (r == "RC" || r == "RD" || r == "RP") && sh[i] != "RW" {
			return nil, fmt.Errorf("role %d (%s) needs the RW shape, not %s", i, r, sh[i])
		}
		if r == "RP" && sh[(i+n-1)%n][1] != 'W' {
			return nil, fmt.Errorf("role %d (RP) reads a pointer the previous CPU must write", i)
		}
	}
	kind := "rcu"
	if srcu {
		kind = "srcu"
	}
	p := &Program{Name: fmt.Sprintf("C-gp-%s-%s-%s", kind, strings.Join(sh, "+"), roles)}
	if allSame(sh) {
		p.Name = fmt.Sprintf("C-gp-%s-%s-%s", kind, sh[0], roles)
	}
	if srcu {
		p.Srcus = []string{"s"}
	}
	pointer := func(i int) bool { return rs[i] == "RP" } // x_i's edge goes through p_i
	needZ := false
	for i := 0; i < n; i++ {
		if pointer(i) {
			p.Ptrs = append(p.Ptrs, PtrLocation{Name: fmt.Sprintf("p%d", i), Init: "z"})
			needZ = true
		}
		p.Ints = append(p.Ints, Location{Name: fmt.Sprintf("x%d", i)})
	}
	if needZ {
		p.Ints = append(p.Ints, Location{Name: "z"})
	}
	var conds []string
	for i := 0; i < n; i++ {
		p.Threads = append(p.Threads, graceThread(i, n, sh, rs, srcu, pointer))
		j := (i + 1) % n
		a, b := sh[i][1], sh[j][0]
		switch {
		case pointer(j):
			conds = append(conds, fmt.Sprintf("%d:r1=x%d", j, (j+1)%n))
		case a == 'W' && b == 'R':
			conds = append(conds, fmt.Sprintf("%d:r1=1", j))
		case a == 'R' && b == 'W':
			conds = append(conds, fmt.Sprintf("%d:r%d=0", i, graceSecondReg(sh[i])))
		default:
			conds = append(conds, fmt.Sprintf("x%d=2", j))
		}
	}
	slices.Sort(conds)
	p.Exists = strings.Join(conds, ` /\ `)
	return p, nil
}

// graceSecondReg is the register of a CPU's second access when it reads.
func graceSecondReg(shape string) int {
	if shape[0] == 'R' {
		return 2
	}
	return 1
}

// graceThread builds CPU i of a grace-period cycle.
func graceThread(i, n int, sh, rs []string, srcu bool, pointer func(int) bool) *Thread {
	t := &Thread{}
	role := rs[i]
	reg := func(ptr bool) int {
		t.Regs = append(t.Regs, Reg{Name: fmt.Sprintf("r%d", len(t.Regs)+1), Ptr: ptr})
		return len(t.Regs) - 1
	}
	j := (i + 1) % n
	locs := [2]string{fmt.Sprintf("x%d", i), fmt.Sprintf("x%d", j)}
	prev := sh[(i+n-1)%n]
	var acc []*Stmt
	loaded := -1 // the register of the first access's load
	for k := 0; k < 2; k++ {
		if sh[i][k] == 'R' {
			if k == 0 && pointer(i) {
				r := reg(true)
				loaded = r
				acc = append(acc, &Stmt{Text: fmt.Sprintf("r%d = rcu_dereference(*p%d);", r+1, i), Defs: []int{r}, Op: OpLoad})
				continue
			}
			r := reg(false)
			if k == 0 {
				loaded = r
			}
			acc = append(acc, &Stmt{Text: fmt.Sprintf("r%d = READ_ONCE(*%s);", r+1, locs[k]), Defs: []int{r}, Op: OpLoad})
			continue
		}
		v := "1"
		if k == 0 && prev[1] == 'W' {
			v = "2" // co after the previous CPU's write of x_i
		}
		switch {
		case k == 1 && pointer(j):
			// Publish x_(j+1) through p_j instead of writing x_j.
			acc = append(acc, &Stmt{Text: fmt.Sprintf("smp_store_release(p%d, x%d);", j, (j+1)%n), Op: OpRelease})
		case k == 1 && role == "RP":
			acc = append(acc, &Stmt{Text: fmt.Sprintf("WRITE_ONCE(*r%d, %s);", loaded+1, v), Uses: []int{loaded}, Deref: true, Op: OpStore})
		case k == 1 && role == "RD":
			acc = append(acc, &Stmt{Text: fmt.Sprintf("WRITE_ONCE(*%s, r%d);", locs[k], loaded+1), Uses: []int{loaded}, Op: OpStore})
		case k == 1 && role == "RC":
			acc = append(acc, &Stmt{Op: OpIf, Cond: fmt.Sprintf("r%d", loaded+1), Uses: []int{loaded},
				Body: []*Stmt{{Text: fmt.Sprintf("WRITE_ONCE(*%s, %s);", locs[k], v), Op: OpStore}}})
		case role == "RL":
			acc = append(acc, &Stmt{Text: fmt.Sprintf("smp_store_release(%s, %s);", locs[k], v), Op: OpRelease})
		default:
			acc = append(acc, &Stmt{Text: fmt.Sprintf("WRITE_ONCE(*%s, %s);", locs[k], v), Op: OpStore})
		}
	}
	sync := &Stmt{Text: "synchronize_rcu();", Op: OpSync}
	section := func(body []*Stmt) *Stmt {
		return &Stmt{Text: "rcu_read_lock();", Close: "rcu_read_unlock();", Body: body, Op: OpReader}
	}
	if srcu {
		sync = &Stmt{Text: "synchronize_srcu(s);", Op: OpSync}
		section = func(body []*Stmt) *Stmt {
			r := reg(false)
			name := fmt.Sprintf("r%d", r+1)
			return &Stmt{Text: name + " = srcu_read_lock(s);", Close: fmt.Sprintf("srcu_read_unlock(s, %s);", name), Body: body, Defs: []int{r}, Op: OpReader}
		}
	}
	switch role {
	case "G":
		t.Body = []*Stmt{acc[0], sync, acc[1]}
	case "GG":
		t.Body = []*Stmt{acc[0], sync, {Text: sync.Text, Op: OpSync}, acc[1]}
	case "RN":
		inner := section([]*Stmt{acc[1]})
		t.Body = []*Stmt{section([]*Stmt{acc[0], inner})}
	default:
		t.Body = []*Stmt{section(acc)}
	}
	return t
}

// ReadersCycle builds a read-read cycle closed by one CPU that stores
// every location: a writer storing x0…x(N−1) in order (plain stores), and
// then one CPU per role over consecutive locations, each reading x_(i+1)
// then x_i (two loads, GP CPUs with their grace periods between), with
// the exists clause asking that each saw x_(i+1)'s store but not x_i's:
// with a grace period or a reader on every CPU, the ordering LKMM's RCU
// guarantee may or may not give. roles are as GraceRoles (G, GG, R, RN
// only), at least 2; srcu as in GraceCycleProgram.
func ReadersCycle(roles string, srcu bool) (*Program, error) {
	rs := strings.Split(roles, "+")
	if len(rs) < 2 || len(rs) > 7 {
		return nil, fmt.Errorf("2 to 7 readers, not %d", len(rs))
	}
	kind := "rcu"
	if srcu {
		kind = "srcu"
	}
	p := &Program{Name: fmt.Sprintf("C-gp-%s-RR-W-%s", kind, roles)}
	if srcu {
		p.Srcus = []string{"s"}
	}
	n := len(rs) + 1
	w := &Thread{}
	for i := 0; i < n; i++ {
		p.Ints = append(p.Ints, Location{Name: fmt.Sprintf("x%d", i)})
		w.Body = append(w.Body, &Stmt{Text: fmt.Sprintf("WRITE_ONCE(*x%d, 1);", i), Op: OpStore})
	}
	p.Threads = append(p.Threads, w)
	var conds []string
	for i, role := range rs {
		switch role {
		case "G", "GG", "R", "RN":
		default:
			return nil, fmt.Errorf("role %d is %q: read-read cycles take G, GG, R or RN", i, role)
		}
		sh := []string{"RR"}
		t := graceThread(0, 2, append(sh, "RR"), []string{role, "R"}, srcu, func(int) bool { return false })
		// graceThread named the locations x0, x1: these are x_(i+1), x_i.
		for _, st := range walkStmts(t.Body) {
			st.Text = strings.NewReplacer("*x0", fmt.Sprintf("*x%d", i+1), "*x1", fmt.Sprintf("*x%d", i)).Replace(st.Text)
		}
		p.Threads = append(p.Threads, t)
		conds = append(conds, fmt.Sprintf("%d:r1=1", i+1), fmt.Sprintf("%d:r2=0", i+1))
	}
	p.Exists = strings.Join(conds, ` /\ `)
	return p, nil
}

// walkStmts lists every statement of body, nested ones included.
func walkStmts(body []*Stmt) []*Stmt {
	var out []*Stmt
	for _, st := range body {
		out = append(out, st)
		out = append(out, walkStmts(st.Body)...)
		out = append(out, walkStmts(st.Else)...)
	}
	return out
}

// GraceFamily is one test of the grace-period class.
type GraceFamily struct {
	Name, Src string
	CPUs      int
}

// GraceFamilies is issue 24's class of tests: cycles of 5 to 8 CPUs with
// one to three (or four) CPUs waiting for grace periods, once or twice,
// and RCU readers of every form; read-read cycles closed by one CPU that
// stores every location; and the same with an SRCU domain.
func GraceFamilies() []GraceFamily {
	var out []GraceFamily
	add := func(p *Program, err error) {
		if err != nil {
			panic(err)
		}
		out = append(out, GraceFamily{Name: p.Name, Src: p.Source(), CPUs: len(p.Threads)})
	}
	cycles := []struct{ roles, shapes string }{
		{"G+G+R+R+R+R+R", "RW"},      // 2 GP + 5 readers load→store
		{"G+R+R+R+R+R+R", "RW"},      // 1 GP + 6 readers load→store
		{"G+G+G+G+R+R+R", "RW"},      // 4 GP + 3 readers
		{"G+G+R+R+R+R+R", "WR"},      // 2 GP + 5 readers store→load
		{"GG+R+R+R+R", "RW"},         // a GP twice in a row
		{"G+R+RC+RD+RN+RL+RP", "RW"}, // every reader form
		{"G+G+RP+R+RP+R+R", "RW"},    // pointer publication
		{"G+GG+R+RN+R", "WR"},        // nested readers, store→load
		{"G+R+G+R+R+R", "WR+WW+RW+WR+WW+RW"},
		{"G+G+R+R+R+R+R+R", "RW"},      // 8 CPUs
		{"G+R+RN+RC+RD+RL+RP+R", "RW"}, // 8 CPUs, every form
	}
	for _, srcu := range []bool{false, true} {
		for _, c := range cycles {
			if srcu && strings.Contains(c.roles, "RP") {
				continue // rcu_dereference outside an RCU reader: keep the pointer forms to RCU
			}
			add(GraceCycleProgram(c.roles, c.shapes, srcu))
		}
		for _, roles := range []string{"GG+R+R+R+R", "G+G+R+R+R+R", "G+RN+G+R+R"} {
			add(ReadersCycle(roles, srcu))
		}
	}
	return out
}

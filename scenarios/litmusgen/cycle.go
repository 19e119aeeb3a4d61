package litmusgen

import (
	"fmt"
	"slices"
	"strings"
)

// Links of a cycle (issue 10): how CPU i's access to x_i and its access to
// x_(i+1) are ordered.
const (
	LinkG = 'G' // synchronize_rcu() between them
	LinkB = 'B' // smp_mb() between them
	LinkR = 'R' // both inside one rcu_read_lock()/rcu_read_unlock() section
	LinkA = 'A' // release/acquire accesses: reads smp_load_acquire, writes smp_store_release
	LinkO = 'O' // nothing: READ_ONCE/WRITE_ONCE only
)

// Cycle returns the cycle test for links and shapes; see CycleProgram.
func Cycle(links, shapes string) (string, error) {
	p, err := CycleProgram(links, shapes)
	if err != nil {
		return "", err
	}
	return p.Source(), nil
}

// CycleProgram builds a cycle of N CPUs over x0…x(N−1): CPU i accesses x_i,
// then x_(i+1 mod N). links is N link letters joined by "+" (e.g.
// "G+G+G+B+B", see LinkG…LinkO); shapes is one shape for every CPU ("RW",
// "WR", "RR", "WW": the first letter is the access to x_i, the second the
// access to x_(i+1)) or N shapes joined by "+". "RW" everywhere is the
// load-buffering cycle of issue 10, "WR" store buffering.
//
// The exists clause asks for the cycle: between CPU i's access to x_(i+1)
// and CPU i+1's, a write then a read is read-from (the read sees 1), a read
// then a write is from-read (the read sees 0), and two writes are
// coherence order (x_(i+1) ends with CPU i+1's value, 2). Two reads in a
// row do not communicate, so shapes must not put them next to each other.
// Reads go to r1 (the first of a CPU) and r2 (its second).
func CycleProgram(links, shapes string) (*Program, error) {
	ls := strings.Split(links, "+")
	n := len(ls)
	if n < 2 || n > 8 {
		return nil, fmt.Errorf("a cycle has 2 to 8 CPUs, not %d", n)
	}
	for i, l := range ls {
		if len(l) != 1 || !strings.ContainsRune("GBRAO", rune(l[0])) {
			return nil, fmt.Errorf("link %d is %q: want one of G, B, R, A, O", i, l)
		}
	}
	sh, err := cycleShapes(shapes, n)
	if err != nil {
		return nil, err
	}
	p := &Program{Name: "C-cycle-" + strings.Join(sh, "+") + "-" + links}
	if allSame(sh) {
		p.Name = "C-cycle-" + sh[0] + "-" + links
	}
	for i := 0; i < n; i++ {
		p.Ints = append(p.Ints, Location{Name: fmt.Sprintf("x%d", i)})
	}
	var conds []string
	for i := 0; i < n; i++ {
		t, regs := cycleThread(i, n, sh, ls[i][0])
		p.Threads = append(p.Threads, t)
		// The communication edge on x_(i+1): CPU i's second access,
		// then CPU i+1's first.
		j := (i + 1) % n
		a, b := sh[i][1], sh[j][0]
		switch {
		case a == 'W' && b == 'R':
			conds = append(conds, fmt.Sprintf("%d:r1=1", j))
		case a == 'R' && b == 'W':
			conds = append(conds, fmt.Sprintf("%d:%s=0", i, regs[1]))
		default: // W, W
			conds = append(conds, fmt.Sprintf("x%d=2", j))
		}
	}
	slices.Sort(conds) // 0:…, 1:…, …, then locations
	p.Exists = strings.Join(conds, ` /\ `)
	return p, nil
}

func allSame(s []string) bool {
	for _, x := range s {
		if x != s[0] {
			return false
		}
	}
	return true
}

// cycleShapes expands and checks the shapes of an n-CPU cycle.
func cycleShapes(shapes string, n int) ([]string, error) {
	sh := strings.Split(shapes, "+")
	if len(sh) == 1 {
		for len(sh) < n {
			sh = append(sh, sh[0])
		}
	}
	if len(sh) != n {
		return nil, fmt.Errorf("%d shapes for %d CPUs", len(sh), n)
	}
	for i, s := range sh {
		if len(s) != 2 || strings.Trim(s, "RW") != "" {
			return nil, fmt.Errorf("shape %d is %q: want RW, WR, RR or WW", i, s)
		}
	}
	for i := range sh {
		j := (i + 1) % n
		if sh[i][1] == 'R' && sh[j][0] == 'R' {
			return nil, fmt.Errorf("P%d reads x%d after P%d read it: two reads do not close a cycle", j, j, i)
		}
	}
	return sh, nil
}

// cycleThread builds CPU i of an n-CPU cycle and returns the registers of
// its two accesses ("" for a write).
func cycleThread(i, n int, sh []string, link byte) (*Thread, [2]string) {
	t := &Thread{}
	var regs [2]string
	locs := [2]string{fmt.Sprintf("x%d", i), fmt.Sprintf("x%d", (i+1)%n)}
	prev := sh[(i+n-1)%n]
	var acc []*Stmt
	for k := 0; k < 2; k++ {
		if sh[i][k] == 'R' {
			r := len(t.Regs)
			t.Regs = append(t.Regs, Reg{Name: fmt.Sprintf("r%d", r+1)})
			regs[k] = t.Regs[r].Name
			if link == LinkA {
				acc = append(acc, &Stmt{Text: fmt.Sprintf("%s = smp_load_acquire(%s);", regs[k], locs[k]), Defs: []int{r}, Op: OpAcquire})
			} else {
				acc = append(acc, &Stmt{Text: fmt.Sprintf("%s = READ_ONCE(*%s);", regs[k], locs[k]), Defs: []int{r}, Op: OpLoad})
			}
			continue
		}
		v := 1
		if k == 0 && prev[1] == 'W' {
			v = 2 // co after the previous CPU's write of x_i
		}
		if link == LinkA {
			acc = append(acc, &Stmt{Text: fmt.Sprintf("smp_store_release(%s, %d);", locs[k], v), Op: OpRelease})
		} else {
			acc = append(acc, &Stmt{Text: fmt.Sprintf("WRITE_ONCE(*%s, %d);", locs[k], v), Op: OpStore})
		}
	}
	switch link {
	case LinkG:
		t.Body = []*Stmt{acc[0], {Text: "synchronize_rcu();", Op: OpSync}, acc[1]}
	case LinkB:
		t.Body = []*Stmt{acc[0], {Text: "smp_mb();", Op: OpFence}, acc[1]}
	case LinkR:
		t.Body = []*Stmt{{Text: "rcu_read_lock();", Close: "rcu_read_unlock();", Body: acc, Op: OpReader}}
	default:
		t.Body = acc
	}
	return t, regs
}

// Lock-cycle variants, as perfbook's C-SB+l-o-o-u+… tests: spin_lock and
// spin_unlock (""), or the lock written out as cmpxchg_acquire ("C") or
// xchg_acquire ("X") and smp_store_release, with a filter keeping the runs
// where every acquisition succeeded, or ("CE", "XE") with the successes in
// the exists clause instead.
var LockVariants = []string{"", "C", "X", "CE", "XE"}

// LockCycle returns the lock cycle; see LockCycleProgram.
func LockCycle(n int, shapes, variant string) (string, error) {
	p, err := LockCycleProgram(n, shapes, variant)
	if err != nil {
		return "", err
	}
	return p.Source(), nil
}

// LockCycleProgram builds an n-CPU cycle (2 to 8) in which each CPU does
// spin_lock(sl); access x_i; access x_(i+1); spin_unlock(sl), all on one
// lock, with shapes and exists clause as in CycleProgram. With shape "WR"
// and variant "" it is perfbook's C-SB+l-o-o-u+…+l-o-o-u (and it is named
// so). The "C"/"X" variants put the lock result in the register after
// the reads (r2 in the SB shape, as perfbook does).
func LockCycleProgram(n int, shapes, variant string) (*Program, error) {
	if n < 2 || n > 8 {
		return nil, fmt.Errorf("a cycle has 2 to 8 CPUs, not %d", n)
	}
	known := false
	for _, v := range LockVariants {
		known = known || v == variant
	}
	if !known {
		return nil, fmt.Errorf("lock variant %q: want one of %q", variant, LockVariants)
	}
	sh, err := cycleShapes(shapes, n)
	if err != nil {
		return nil, err
	}
	links := strings.Repeat("O+", n-1) + "O"
	p, err := CycleProgram(links, strings.Join(sh, "+"))
	if err != nil {
		return nil, err
	}
	if allSame(sh) && sh[0] == "WR" {
		p.Name = "C-SB" + strings.Repeat("+l-o-o-u", n)
	} else {
		p.Name = "C-lockcycle-" + strings.Join(sh, "+")
	}
	if variant != "" {
		p.Name += "-" + variant
	}
	var got []string
	for i, t := range p.Threads {
		acc := t.Body
		if variant == "" {
			t.Body = []*Stmt{{Text: "spin_lock(sl);", Close: "spin_unlock(sl);", Body: acc, Op: OpLock}}
			continue
		}
		// The lock result goes to the register after the reads (r2 in
		// the SB shape, as in perfbook).
		r := len(t.Regs)
		reg := fmt.Sprintf("r%d", r+1)
		t.Regs = append(t.Regs, Reg{Name: reg})
		op := "xchg_acquire(sl, 1)"
		if variant[0] == 'C' {
			op = "cmpxchg_acquire(sl, 0, 1)"
		}
		lock := &Stmt{Text: reg + " = " + op + ";", Defs: []int{r}, Op: OpRMWAcquire}
		unlock := &Stmt{Text: "smp_store_release(sl, 0);", Op: OpRelease}
		t.Body = append(append([]*Stmt{lock}, acc...), unlock)
		got = append(got, fmt.Sprintf("%d:%s=0", i, reg))
	}
	switch variant {
	case "":
		p.Locks = []string{"sl"}
	case "C", "X":
		p.Ints = append(p.Ints, Location{Name: "sl"})
		p.Filter = strings.Join(got, ` /\ `)
	default:
		p.Ints = append(p.Ints, Location{Name: "sl"})
		p.Exists = strings.Join(got, ` /\ `) + ` /\ ` + p.Exists
	}
	return p, nil
}

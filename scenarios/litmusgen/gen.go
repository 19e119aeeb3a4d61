package litmusgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Family is a set of primitive families a generated program may draw from.
type Family uint32

const (
	// Once: READ_ONCE, WRITE_ONCE, atomic_read, atomic_set.
	Once Family = 1 << iota
	// Plain: plain C reads and writes (*x, *x = v).
	Plain
	// AcqRel: smp_load_acquire, smp_store_release.
	AcqRel
	// RMW: xchg, cmpxchg (which can fail), atomic_*_return,
	// atomic_fetch_*, no-return atomic_inc/add/…, in every ordering
	// (full, _relaxed, _acquire, _release).
	RMW
	// Fence: smp_mb, smp_rmb, smp_wmb, smp_mb__before_atomic,
	// smp_mb__after_atomic, barrier (and, with Lock,
	// smp_mb__after_spinlock, smp_mb__after_unlock_lock).
	Fence
	// Lock: spin_lock/spin_unlock sections, spin_trylock, spin_is_locked.
	Lock
	// RCU: rcu_read_lock/rcu_read_unlock sections, synchronize_rcu.
	RCU
	// Pointer: a pointer location published with rcu_assign_pointer,
	// WRITE_ONCE or smp_store_release and read with rcu_dereference,
	// READ_ONCE or smp_load_acquire; accesses through the loaded pointer
	// (address dependencies), including cmpxchg and xchg.
	Pointer
	// Ctrl: if on a loaded register (control dependencies) and stores of
	// loaded values (data dependencies).
	Ctrl
	// SRCU: srcu_read_lock/srcu_read_unlock sections of one domain s,
	// with the index passed back as it is or computed from (r & 1,
	// r * 2), and synchronize_srcu(s). (With Ctrl, the index register may
	// also be stored, tested and used in a data dependency.)
	SRCU

	// AllFamilies is every family.
	AllFamilies = Once | Plain | AcqRel | RMW | Fence | Lock | RCU | Pointer | Ctrl | SRCU
	// Hardware is every family but RCU and SRCU: herd7's hardware models
	// only approximate grace periods, so outcome sets are compared
	// exactly only without them.
	Hardware = AllFamilies &^ RCU &^ SRCU
)

var familyNames = []struct {
	f    Family
	name string
}{{Once, "once"}, {Plain, "plain"}, {AcqRel, "acqrel"}, {RMW, "rmw"}, {Fence, "fence"}, {Lock, "lock"}, {RCU, "rcu"}, {Pointer, "pointer"}, {Ctrl, "ctrl"}, {SRCU, "srcu"}}

func (f Family) String() string {
	var parts []string
	for _, n := range familyNames {
		if f&n.f != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, "+")
}

// ParseFamilies reads a list like "once+rmw+lock" (also "all", "hw").
func ParseFamilies(s string) (Family, error) {
	var f Family
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == ',' }) {
		switch part {
		case "all":
			f |= AllFamilies
			continue
		case "hw", "hardware":
			f |= Hardware
			continue
		}
		found := false
		for _, n := range familyNames {
			if n.name == part {
				f |= n.f
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown family %q", part)
		}
	}
	return f, nil
}

// Config bounds generated programs. Zero fields take the defaults: 2–4
// CPUs, 1–4 instructions each, 2–3 integer locations, every family.
type Config struct {
	MinCPUs, MaxCPUs     int
	MinInstrs, MaxInstrs int
	// MinLocs and MaxLocs bound the integer locations (x, y, z). A
	// pointer location and a lock come on top when their families are
	// drawn.
	MinLocs, MaxLocs int
	Families         Family
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MinCPUs, 2)
	def(&c.MaxCPUs, 4)
	def(&c.MinInstrs, 1)
	def(&c.MaxInstrs, 4)
	def(&c.MinLocs, 2)
	def(&c.MaxLocs, 3)
	c.MaxCPUs = max(c.MaxCPUs, c.MinCPUs)
	c.MaxInstrs = max(c.MaxInstrs, c.MinInstrs)
	c.MaxLocs = min(max(c.MaxLocs, c.MinLocs), 3)
	c.MinLocs = min(c.MinLocs, c.MaxLocs)
	if c.Families == 0 {
		c.Families = AllFamilies
	}
	if c.Families&(Once|Plain|AcqRel|RMW) == 0 {
		c.Families |= Once // every program needs some access
	}
	return c
}

// Random returns the source of the random program for seed.
func Random(seed uint64, cfg Config) string { return Generate(seed, cfg).Source() }

// Generate returns the random program for seed. The same seed and
// configuration always give the same program.
func Generate(seed uint64, cfg Config) *Program {
	cfg = cfg.withDefaults()
	// A fixed second PCG word: seeds are the only input.
	r := rand.New(rand.NewPCG(seed, 0x5eed_1ab5_0f_11735))
	// SRCU's choices come from a stream of their own, so that a program
	// without SRCU is the one the seed gave before SRCU was a family.
	side := rand.New(rand.NewPCG(seed, 0x5c0_5ec7_10_115))
	g := &gen{r: r, side: side, cfg: cfg}
	// Each program draws a subset of the allowed families, so that small
	// programs exercise one or two features at a time as well as mixes.
	for _, n := range familyNames {
		if n.f == SRCU {
			if cfg.Families&SRCU != 0 && side.IntN(100) < 30 {
				g.fams |= SRCU
			}
			continue
		}
		if cfg.Families&n.f != 0 && r.IntN(100) < 55 {
			g.fams |= n.f
		}
	}
	if g.fams&(Once|Plain|AcqRel|RMW) == 0 {
		acc := cfg.Families & (Once | Plain | AcqRel | RMW)
		g.fams |= pickFamily(r, acc)
	}
	p := &Program{Name: fmt.Sprintf("gen-%d", seed)}
	g.p = p
	nLocs := cfg.MinLocs + r.IntN(cfg.MaxLocs-cfg.MinLocs+1)
	for i := 0; i < nLocs; i++ {
		l := Location{Name: []string{"x", "y", "z"}[i]}
		if r.IntN(8) == 0 {
			l.Init = 1 + r.IntN(2) // a non-zero start makes more cmpxchg succeed
		}
		p.Ints = append(p.Ints, l)
	}
	if g.has(Pointer) {
		p.Ptrs = []PtrLocation{{Name: "p", Init: g.intLoc()}}
	}
	if g.has(Lock) {
		p.Locks = []string{"l"}
	}
	if g.has(SRCU) {
		p.Srcus = []string{"s"}
	}
	nCPUs := cfg.MinCPUs + r.IntN(cfg.MaxCPUs-cfg.MinCPUs+1)
	for i := 0; i < nCPUs; i++ {
		// CPU i prefers locations i and i+1 (mod the count), first one
		// then the other, as the classic shapes (MP, SB, LB, WRC, ISA2,
		// IRIW) do: random choices alone give mostly CPUs that never
		// communicate.
		n := len(p.Ints)
		tg := &tgen{g: g, t: &Thread{}, pref: [2]string{p.Ints[i%n].Name, p.Ints[(i+1)%n].Name}}
		if r.IntN(2) == 0 {
			tg.pref[0], tg.pref[1] = tg.pref[1], tg.pref[0]
		}
		budget := cfg.MinInstrs + r.IntN(cfg.MaxInstrs-cfg.MinInstrs+1)
		for budget > 0 {
			list := tg.stmts(budget, true)
			for _, s := range list {
				budget -= s.Instrs()
			}
			tg.t.Body = append(tg.t.Body, list...)
		}
		p.Threads = append(p.Threads, tg.t)
	}
	p.Exists = g.randomCond()
	return p
}

func pickFamily(r *rand.Rand, set Family) Family {
	var fs []Family
	for _, n := range familyNames {
		if set&n.f != 0 {
			fs = append(fs, n.f)
		}
	}
	if len(fs) == 0 {
		return Once
	}
	return fs[r.IntN(len(fs))]
}

type gen struct {
	r    *rand.Rand
	side *rand.Rand // SRCU's choices
	cfg  Config
	fams Family
	p    *Program
}

func (g *gen) has(f Family) bool { return g.fams&f != 0 }

func (g *gen) intLoc() string { return g.p.Ints[g.r.IntN(len(g.p.Ints))].Name }

func (g *gen) val() int {
	// Mostly 1, sometimes 2 or 3, so that writes can be told apart.
	switch n := g.r.IntN(6); {
	case n < 3:
		return 1
	case n < 5:
		return 2
	default:
		return 3
	}
}

func (g *gen) order() string {
	return []string{"", "_relaxed", "_acquire", "_release"}[g.r.IntN(4)]
}

// randomCond picks an exists condition: one register or location and a
// small value. Outcome sets are compared in full, so the condition only
// decides herd7's verdict line.
func (g *gen) randomCond() string {
	keys := g.p.StateKeys()
	if len(keys) == 0 {
		return "true"
	}
	k := keys[g.r.IntN(len(keys))]
	if strings.HasPrefix(k, "p") && !strings.Contains(k, ":") {
		return k + "=" + g.p.Ptrs[0].Init
	}
	for ti, t := range g.p.Threads {
		for _, r := range t.Regs {
			if k == fmt.Sprintf("%d:%s", ti, r.Name) && r.Ptr {
				return k + "=" + g.intLoc()
			}
		}
	}
	return fmt.Sprintf("%s=%d", k, g.r.IntN(3))
}

// tgen generates one thread.
type tgen struct {
	g *gen
	t *Thread
	// intRegs are the integer registers written so far; ptrRegs the
	// pointer registers written where they always execute (not inside
	// an if), which may therefore be dereferenced.
	intRegs, ptrRegs []int
	inLock, inRCU    bool
	nestedRCU        bool // inside a reader nested in another
	inSRCU           bool
	inIf             int
	// pref are the thread's preferred locations; accesses counts the
	// accesses made so far.
	pref     [2]string
	accesses int
}

// loc picks the location of the next access: mostly the preferred one
// for this point of the thread (the first for the first half of the
// accesses), sometimes any.
func (tg *tgen) loc() string {
	tg.accesses++
	if tg.g.r.IntN(4) == 0 {
		return tg.g.intLoc()
	}
	if tg.accesses <= 1+tg.g.r.IntN(2) {
		return tg.pref[0]
	}
	return tg.pref[1]
}

func (tg *tgen) newReg(ptr bool) int {
	n := len(tg.t.Regs)
	tg.t.Regs = append(tg.t.Regs, Reg{Name: fmt.Sprintf("r%d", n), Ptr: ptr})
	if ptr {
		if tg.inIf == 0 {
			tg.ptrRegs = append(tg.ptrRegs, n)
		}
	} else {
		tg.intRegs = append(tg.intRegs, n)
	}
	return n
}

func (tg *tgen) reg(n int) string { return tg.t.Regs[n].Name }

// kind is one way to make statements.
type kind struct {
	weight int
	min    int // instructions it needs
	make   func(budget int) []*Stmt
}

// stmts returns one statement (two for spin_trylock and its if) of at
// most budget instructions. top allows blocks and ifs.
func (tg *tgen) stmts(budget int, top bool) []*Stmt {
	g := tg.g
	var ks []kind
	add := func(ok bool, w, min int, f func(int) []*Stmt) {
		if ok && budget >= min {
			ks = append(ks, kind{w, min, f})
		}
	}
	one := func(f func() *Stmt) func(int) []*Stmt {
		return func(int) []*Stmt { return []*Stmt{f()} }
	}
	acc := g.has(Once | Plain | AcqRel)
	add(acc, 4, 1, one(tg.load))
	add(acc, 4, 1, one(tg.store))
	add(g.has(RMW), 4, 1, one(tg.rmw))
	add(g.has(Fence), 2, 1, one(tg.fence))
	add(g.has(Pointer), 4, 1, one(tg.pointer))
	add(g.has(Lock) && !tg.inLock, 1, 1, one(tg.isLocked))
	add(g.has(RCU) && !tg.inRCU, 2, 1, one(tg.sync))
	add(g.has(SRCU) && !tg.inSRCU, 2, 1, one(tg.syncSRCU))
	if top {
		add(g.has(Lock) && !tg.inLock, 3, 3, tg.lockBlock)
		add(g.has(Lock) && !tg.inLock, 2, 3, tg.trylock)
		add(g.has(RCU) && !tg.inRCU, 3, 3, tg.reader)
		add(g.has(SRCU) && !tg.inSRCU, 3, 3, tg.srcuReader)
		add(g.has(Ctrl) && len(tg.intRegs) > 0, 3, 2, tg.ctrl)
	}
	// (Its markers count: it takes readers of five or more instructions,
	// -herd.instrs 7 and up, to hold one with an access on either side.)
	add(g.has(RCU) && tg.inRCU && !tg.nestedRCU, 2, 3, tg.nestedReader)
	if len(ks) == 0 {
		return []*Stmt{tg.store()}
	}
	total := 0
	for _, k := range ks {
		total += k.weight
	}
	n := g.r.IntN(total)
	for _, k := range ks {
		if n < k.weight {
			return k.make(budget)
		}
		n -= k.weight
	}
	panic("unreachable")
}

// flavour picks an access flavour among the enabled ones: "once",
// "plain", "acqrel", or "atomic" (atomic_read/atomic_set, under Once).
func (tg *tgen) flavour() string {
	g := tg.g
	var fl []string
	if g.has(Once) {
		fl = append(fl, "once", "once", "atomic")
	}
	if g.has(Plain) {
		fl = append(fl, "plain")
	}
	if g.has(AcqRel) {
		fl = append(fl, "acqrel", "acqrel")
	}
	if len(fl) == 0 {
		return "once"
	}
	return fl[g.r.IntN(len(fl))]
}

func (tg *tgen) load() *Stmt {
	x := tg.loc()
	r := tg.newReg(false)
	var text string
	op := OpLoad
	switch tg.flavour() {
	case "plain":
		text = fmt.Sprintf("%s = *%s;", tg.reg(r), x)
	case "acqrel":
		text = fmt.Sprintf("%s = smp_load_acquire(%s);", tg.reg(r), x)
		op = OpAcquire
	case "atomic":
		text = fmt.Sprintf("%s = atomic_read(%s);", tg.reg(r), x)
	default:
		text = fmt.Sprintf("%s = READ_ONCE(*%s);", tg.reg(r), x)
	}
	return &Stmt{Text: text, Defs: []int{r}, Op: op}
}

// value returns a stored value: a constant, or (with Ctrl) a loaded
// integer register, which makes a data dependency.
func (tg *tgen) value() (string, []int) {
	if tg.g.has(Ctrl) && len(tg.intRegs) > 0 && tg.g.r.IntN(3) == 0 {
		r := tg.intRegs[tg.g.r.IntN(len(tg.intRegs))]
		return tg.reg(r), []int{r}
	}
	return fmt.Sprint(tg.g.val()), nil
}

func (tg *tgen) store() *Stmt {
	x := tg.loc()
	v, uses := tg.value()
	var text string
	op := OpStore
	switch tg.flavour() {
	case "plain":
		text = fmt.Sprintf("*%s = %s;", x, v)
	case "acqrel":
		text = fmt.Sprintf("smp_store_release(%s, %s);", x, v)
		op = OpRelease
	case "atomic":
		text = fmt.Sprintf("atomic_set(%s, %s);", x, v)
	default:
		text = fmt.Sprintf("WRITE_ONCE(*%s, %s);", x, v)
	}
	return &Stmt{Text: text, Uses: uses, Op: op}
}

var fetchOps = []string{"add", "sub", "or", "and", "xor", "andnot"}
var noRetOps = []string{"add", "sub", "or", "and", "xor", "andnot", "inc", "dec"}

// orderOp is the Op of an RMW with an ordering suffix.
func orderOp(suffix string) Op {
	switch suffix {
	case "_relaxed":
		return OpRMWRelaxed
	case "_acquire":
		return OpRMWAcquire
	case "_release":
		return OpRMWRelease
	}
	return OpRMWFull
}

// rmwText returns an RMW expression on addr (a location's address or a
// pointer register), or a no-return atomic statement, and its Op.
func (tg *tgen) rmwText(addr string, noRet bool) (string, Op) {
	g := tg.g
	if noRet {
		op := noRetOps[g.r.IntN(len(noRetOps))]
		if op == "inc" || op == "dec" {
			return fmt.Sprintf("atomic_%s(%s);", op, addr), OpRMWNoRet
		}
		return fmt.Sprintf("atomic_%s(%d, %s);", op, g.r.IntN(3)+1, addr), OpRMWNoRet
	}
	o := g.order()
	text := tg.rmwExpr(addr, o)
	return text, orderOp(o)
}

func (tg *tgen) rmwExpr(addr, o string) string {
	g := tg.g
	atomic := ""
	if g.r.IntN(3) == 0 {
		atomic = "atomic_"
	}
	switch n := g.r.IntN(10); {
	case n < 4: // cmpxchg: the expected value is often not there
		return fmt.Sprintf("%scmpxchg%s(%s, %d, %d)", atomic, o, addr, g.r.IntN(3), g.val())
	case n < 6:
		return fmt.Sprintf("%sxchg%s(%s, %d)", atomic, o, addr, g.val())
	case n < 7:
		op := []string{"add", "sub", "inc", "dec"}[g.r.IntN(4)]
		if op == "inc" || op == "dec" {
			return fmt.Sprintf("atomic_%s_return%s(%s)", op, o, addr)
		}
		return fmt.Sprintf("atomic_%s_return%s(%d, %s)", op, o, g.r.IntN(3)+1, addr)
	case n < 8:
		op := []string{"inc", "dec"}[g.r.IntN(2)]
		return fmt.Sprintf("atomic_fetch_%s%s(%s)", op, o, addr)
	default:
		op := fetchOps[g.r.IntN(len(fetchOps))]
		return fmt.Sprintf("atomic_fetch_%s%s(%d, %s)", op, o, g.r.IntN(3)+1, addr)
	}
}

func (tg *tgen) rmw() *Stmt {
	x := tg.loc()
	text, op := tg.rmwText(x, tg.g.r.IntN(6) == 0)
	if op == OpRMWNoRet {
		return &Stmt{Text: text, Op: op}
	}
	r := tg.newReg(false)
	return &Stmt{Text: fmt.Sprintf("%s = %s;", tg.reg(r), text), Defs: []int{r}, Op: op}
}

func (tg *tgen) fence() *Stmt {
	fs := []string{"smp_mb", "smp_mb", "smp_rmb", "smp_wmb", "smp_wmb", "smp_rmb", "smp_mb__before_atomic", "smp_mb__after_atomic", "barrier"}
	if tg.g.has(Lock) {
		fs = append(fs, "smp_mb__after_spinlock", "smp_mb__after_unlock_lock")
	}
	return &Stmt{Text: fs[tg.g.r.IntN(len(fs))] + "();", Op: OpFence}
}

// pointer makes one pointer statement: a load of p, a store of a
// location's address into p, or an access through a loaded pointer.
func (tg *tgen) pointer() *Stmt {
	g := tg.g
	p := g.p.Ptrs[0].Name
	n := g.r.IntN(10)
	if len(tg.ptrRegs) > 0 && n < 5 {
		a := tg.ptrRegs[g.r.IntN(len(tg.ptrRegs))]
		ra := tg.reg(a)
		switch m := g.r.IntN(8); {
		case m < 3:
			r := tg.newReg(false)
			if g.has(AcqRel) && g.r.IntN(3) == 0 {
				return &Stmt{Text: fmt.Sprintf("%s = smp_load_acquire(%s);", tg.reg(r), ra), Defs: []int{r}, Uses: []int{a}, Deref: true, Op: OpAcquire}
			}
			return &Stmt{Text: fmt.Sprintf("%s = READ_ONCE(*%s);", tg.reg(r), ra), Defs: []int{r}, Uses: []int{a}, Deref: true, Op: OpLoad}
		case m < 5:
			return &Stmt{Text: fmt.Sprintf("WRITE_ONCE(*%s, %d);", ra, g.val()), Uses: []int{a}, Deref: true, Op: OpStore}
		default:
			text, op := tg.rmwText(ra, false)
			if g.r.IntN(2) == 0 {
				// Failing or succeeding cmpxchg through the pointer: the
				// address dependency must hold either way.
				o := g.order()
				text, op = fmt.Sprintf("cmpxchg%s(%s, %d, %d)", o, ra, g.r.IntN(3), g.val()), orderOp(o)
			}
			r := tg.newReg(false)
			return &Stmt{Text: fmt.Sprintf("%s = %s;", tg.reg(r), text), Defs: []int{r}, Uses: []int{a}, Deref: true, Op: op}
		}
	}
	if n < 8 {
		r := tg.newReg(true)
		var text string
		op := OpLoad
		switch g.r.IntN(4) {
		case 0:
			text = fmt.Sprintf("%s = READ_ONCE(*%s);", tg.reg(r), p)
		case 1:
			text = fmt.Sprintf("%s = smp_load_acquire(%s);", tg.reg(r), p)
			op = OpAcquire
		default:
			text = fmt.Sprintf("%s = rcu_dereference(*%s);", tg.reg(r), p)
		}
		return &Stmt{Text: text, Defs: []int{r}, Op: op}
	}
	x := g.intLoc()
	switch g.r.IntN(4) {
	case 0:
		return &Stmt{Text: fmt.Sprintf("WRITE_ONCE(*%s, %s);", p, x), Op: OpStore}
	case 1:
		return &Stmt{Text: fmt.Sprintf("smp_store_release(%s, %s);", p, x), Op: OpRelease}
	default:
		return &Stmt{Text: fmt.Sprintf("rcu_assign_pointer(*%s, %s);", p, x), Op: OpRelease}
	}
}

func (tg *tgen) isLocked() *Stmt {
	r := tg.newReg(false)
	return &Stmt{Text: fmt.Sprintf("%s = spin_is_locked(%s);", tg.reg(r), tg.g.p.Locks[0]), Defs: []int{r}, Op: OpIsLocked}
}

func (tg *tgen) sync() *Stmt { return &Stmt{Text: "synchronize_rcu();", Op: OpSync} }

func (tg *tgen) syncSRCU() *Stmt { return &Stmt{Text: "synchronize_srcu(s);", Op: OpSync} }

// srcuReader makes "r = srcu_read_lock(s); ...; srcu_read_unlock(s, i);"
// where i is r, r & 1 or r * 2 (the same small integer, as herd7 has it).
func (tg *tgen) srcuReader(budget int) []*Stmt {
	r := tg.newReg(false)
	name := tg.reg(r)
	idx := []string{name, name, name + " & 1", name + " * 2"}[tg.g.side.IntN(4)]
	tg.inSRCU = true
	b := tg.body(budget - 2)
	tg.inSRCU = false
	return []*Stmt{{Text: name + " = srcu_read_lock(s);", Close: fmt.Sprintf("srcu_read_unlock(s, %s);", idx), Body: b, Defs: []int{r}, Op: OpReader}}
}

// body fills a block or branch with statements of at most budget
// instructions (at least one statement when budget allows).
func (tg *tgen) body(budget int) []*Stmt {
	var out []*Stmt
	n := 1 + tg.g.r.IntN(max(budget, 1))
	for n > 0 && budget > 0 {
		list := tg.stmts(min(n, budget), false)
		for _, s := range list {
			budget -= s.Instrs()
			n -= s.Instrs()
		}
		out = append(out, list...)
	}
	return out
}

func (tg *tgen) lockBlock(budget int) []*Stmt {
	l := tg.g.p.Locks[0]
	tg.inLock = true
	b := tg.body(budget - 2)
	tg.inLock = false
	return []*Stmt{{Text: fmt.Sprintf("spin_lock(%s);", l), Close: fmt.Sprintf("spin_unlock(%s);", l), Body: b, Op: OpLock}}
}

// trylock makes "r = spin_trylock(l); if (r) { ...; spin_unlock(l); }".
func (tg *tgen) trylock(budget int) []*Stmt {
	l := tg.g.p.Locks[0]
	r := tg.newReg(false)
	try := &Stmt{Text: fmt.Sprintf("%s = spin_trylock(%s);", tg.reg(r), l), Defs: []int{r}, Op: OpTrylock}
	tg.inLock = true
	tg.inIf++
	b := tg.body(budget - 3)
	tg.inIf--
	tg.inLock = false
	b = append(b, &Stmt{Text: fmt.Sprintf("spin_unlock(%s);", l), Op: OpUnlock})
	return []*Stmt{try, {Cond: tg.reg(r), Uses: []int{r}, Body: b, Op: OpIf}}
}

func (tg *tgen) reader(budget int) []*Stmt {
	tg.inRCU = true
	b := tg.body(budget - 2)
	tg.inRCU = false
	return []*Stmt{{Text: "rcu_read_lock();", Close: "rcu_read_unlock();", Body: b, Op: OpReader}}
}

// nestedReader makes a reader inside a reader: on ARMv8 the inner
// markers are no instructions, and LKMM's sections are the outermost
// pairs, so they must order nothing (machine's early issue passes them).
func (tg *tgen) nestedReader(budget int) []*Stmt {
	tg.nestedRCU = true
	b := tg.body(budget - 2)
	tg.nestedRCU = false
	return []*Stmt{{Text: "rcu_read_lock();", Close: "rcu_read_unlock();", Body: b, Op: OpReader}}
}

// ctrl makes an if on a loaded register, with an else branch sometimes.
func (tg *tgen) ctrl(budget int) []*Stmt {
	g := tg.g
	r := tg.intRegs[g.r.IntN(len(tg.intRegs))]
	cond := tg.reg(r)
	if g.r.IntN(2) == 0 {
		cond = fmt.Sprintf("%s == %d", cond, g.r.IntN(3))
	}
	s := &Stmt{Cond: cond, Uses: []int{r}, Op: OpIf}
	tg.inIf++
	budget--
	if budget >= 2 && g.r.IntN(3) == 0 {
		s.Body = tg.body(1)
		budget -= 1
		s.Else = tg.body(1)
	} else {
		s.Body = tg.body(min(budget, 2))
	}
	tg.inIf--
	return []*Stmt{s}
}

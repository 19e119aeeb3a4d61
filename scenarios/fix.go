package scenarios

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"smpscope/machine"
)

// Fix answers the reviewer's question on a broken test, "which barrier
// fixes it?": it searches the strengthenings of the scenario's ordering
// annotations — a load READ_ONCE → smp_load_acquire, a store → its
// release, an RMW through acquire, release and fully ordered, an
// smp_rmb or smp_wmb → smp_mb, and smp_mb, smp_rmb or smp_wmb inserted
// between two accesses — for the sets that make the outcome the final
// clause asks about unreachable, and reports the minimal ones: no set of
// weaker or fewer strengthenings works. Every strengthening is a what-if
// edit, so every fix is a list of --edit flags.
//
// The search is over the product of each site's forms (a load: as
// written or acquire; a barrier point: none, rmb, wmb or mb, with mb
// above both), in order of cost (FixCosts): a set is explored only if no
// cheaper set it is above works, so each set found working is minimal,
// and sets above it are never explored. Explorations of one cost run in
// parallel on the pool (ExploreAll). The modes are searched apart (a fix
// of one need not fix the other: release then acquire orders a store
// before a load on ARMv8, not on x86), and the fixes of both are the
// least sets above a fix of each, explored in both.

// FixCosts is the cost model fixes are ordered by, in rough arm64
// instruction costs: an acquire or release load or store (LDAR, STLR)
// costs 1, an acquire or release RMW 1, a fully ordered RMW 3 (the RMW
// with DMBs around it), smp_rmb or smp_wmb 2 (DMB ISHLD, ISHST), smp_mb 4
// (DMB ISH). A change costs what its new form costs above the old one.
// On x86 only smp_mb and fully ordered RMWs cost anything at all.
var FixCosts = map[string]int{"acquire": 1, "release": 1, "full": 3, "rmb": 2, "wmb": 2, "mb": 4}

// FixCostModel says the cost model in a sentence.
const FixCostModel = "an acquire or release access or RMW costs 1, smp_rmb or smp_wmb 2, a fully ordered RMW 3, smp_mb 4 (roughly arm64's LDAR/STLR, DMB ISHLD/ISHST and DMB ISH; on x86 only smp_mb and ordered RMWs cost anything)"

// FixChange is one strengthening of a fix.
type FixChange struct {
	// Edit makes it, named in the scenario's own numbering (a fix's
	// Edits are the same changes as --edit applies them, in order).
	Edit Edit
	// What says it for people: "P1:1 r0 = READ_ONCE(*y); → smp_load_acquire",
	// "smp_mb() after P0:1 WRITE_ONCE(*x, 1);".
	What string
	Cost int
}

// Fix is one minimal set of strengthenings that makes the outcome
// unreachable in the mode whose search found it.
type Fix struct {
	Changes []FixChange
	Edits   []Edit // the --edit flags that make it, in order
	Spec    *Spec  // the scenario with the fix applied
	Cost    int
	// Verdicts are the fixed scenario's, per FixReport.Modes; Known says
	// which were explored to the end.
	Verdicts []Verdict
	Known    []bool

	a assignment
}

// FixMode is the search in one mode.
type FixMode struct {
	Mode machine.Mode
	// AsWritten is the scenario explored as written: only where the
	// outcome is reachable is there anything to fix.
	AsWritten        NecessityRun
	AsWrittenVerdict Verdict
	// Fixes are the minimal fixes found, cheapest first.
	Fixes []Fix
	// NoFix is set when even every strengthening at once leaves the
	// outcome reachable: nothing short of locks (or a different
	// algorithm) fixes it.
	NoFix bool
	// Complete is set when every set of strengthenings was either
	// explored or is above a fix found: Fixes are all the minimal fixes.
	Complete bool
	// Stop says why the search stopped before that: the exploration
	// limit, an exploration a limit cut short, a cancellation.
	Stop string
	// Explorations counts the programs explored in this mode.
	Explorations int
}

// Open reports whether there is something to fix in the mode: the
// outcome is known to be reachable as written.
func (m FixMode) Open() bool { return m.AsWritten.Err == nil && m.AsWritten.Reachable }

// FixReport is the answer of Fix for each mode.
type FixReport struct {
	Spec  *Spec
	Modes []FixMode
	// Both are the minimal fixes that work in every mode, cheapest first,
	// when the outcome is reachable as written in more than one (else
	// the one mode's fixes are the answer); BothComplete says they are
	// all of them (every mode's search was complete).
	Both         []Fix
	BothComplete bool
	// Sites and Strengthenings count what the search chose from: the
	// instructions and barrier points that can be strengthened, and
	// their stronger forms.
	Sites, Strengthenings int
	// Plain names the accesses written in plain C (r0 = *x), which no
	// edit strengthens (write them with READ_ONCE first).
	Plain   []string
	Elapsed time.Duration
}

// FixOptions bound the search.
type FixOptions struct {
	// Explore bounds each exploration; its Context cancels the search.
	Explore machine.Options
	// MaxExplorations bounds the programs explored in each mode
	// (default 4000).
	MaxExplorations int
	// MaxFixes stops a mode's search once it has found this many minimal
	// fixes (the cheapest; default 8).
	MaxFixes int
}

// fixSite is a place a strengthening goes: an instruction (its
// ordering changes) or the point after one (a barrier is inserted).
type fixSite struct {
	levels []fixLevel // [0] is the site as written
	// le[a][b] says level a is at most level b (b is as strong as a, or
	// stronger).
	le [][]bool
}

type fixLevel struct {
	edit Edit
	what string
	cost int
}

// point levels: none < rmb, wmb < mb.
var diamond = [][]bool{
	{true, true, true, true},
	{false, true, false, true},
	{false, false, true, true},
	{false, false, false, true},
}

// chain returns the order of a chain of n levels.
func chain(n int) [][]bool {
	le := make([][]bool, n)
	for a := range le {
		le[a] = make([]bool, n)
		for b := a; b < n; b++ {
			le[a][b] = true
		}
	}
	return le
}

// memoryAccess reports whether an instruction reads or writes shared
// memory (or takes part in a lock, RCU or SRCU): a barrier between two
// instructions that do not matters only through the accesses around
// them.
func memoryAccess(in *machine.Instr) bool {
	switch in.Op {
	case machine.OpFence, machine.OpAssign, machine.OpBranch, machine.OpJump:
		return false
	}
	return true
}

// fixSites lists the places the scenario can be strengthened: every
// READ_ONCE-like load (→ acquire), WRITE_ONCE-like store (→ release), RMW
// below fully ordered, smp_rmb or smp_wmb (→ smp_mb), and every point
// right after a memory access that another access follows, not next to a
// barrier (→ smp_rmb, smp_wmb or smp_mb). Plain C accesses are named
// apart: an edit cannot change them.
func (s *Spec) fixSites() ([]fixSite, []string, error) {
	if s.Litmus == nil {
		return nil, nil, fmt.Errorf("%s: no litmus source to strengthen", s.Name)
	}
	sc, c, err := editable(s.Litmus)
	if err != nil {
		return nil, nil, err
	}
	var sites []fixSite
	var plain []string
	for t, th := range c.Program.Threads {
		code := th.Code
		lastAccess := -1
		for i := range code {
			if memoryAccess(&code[i]) {
				lastAccess = i
			}
		}
		for i := range code {
			in := &code[i]
			at := i + 1
			// Said by its address in the program as shown (the CPU
			// columns' numbers: one numbering everywhere, issue 19);
			// the flags number instructions as --edit applies them,
			// one after another, so a later flag may say another. A
			// test found in a mail also says the mail's line, for the
			// reply that quotes it.
			text := strings.TrimSuffix(strings.TrimSpace(in.Text), ";")
			where := fmt.Sprintf("%s:%d", th.Name, at)
			if line := s.sourceLine(t, i); line > 0 && s.From != "" {
				where += fmt.Sprintf(", line %d of the mail", line)
			}
			tg, err := target(sc, c, th.Name, at)
			if err != nil {
				return nil, nil, err
			}
			if tg.from.call == nil && (in.Op == machine.OpLoad || in.Op == machine.OpStore) {
				plain = append(plain, text+" ("+where+")")
			}
			if site, ok := orderSite(tg, th.Name, at, text+" ("+where+")"); ok {
				sites = append(sites, site)
			}
			// The point after it: a barrier there orders the access
			// before it with those after.
			if memoryAccess(in) && i < lastAccess && in.Op != machine.OpFence && i+1 < len(code) && code[i+1].Op != machine.OpFence {
				if st, _, err := tg.barrierAfter(); err == nil && st == nil {
					site := fixSite{levels: []fixLevel{{}}, le: diamond}
					for _, w := range []string{"rmb", "wmb", "mb"} {
						site.levels = append(site.levels, fixLevel{
							edit: Edit{CPU: th.Name, At: at, Op: InsertBarrier, To: w},
							what: fmt.Sprintf("smp_%s() after %s (%s)", w, text, where),
							cost: FixCosts[w],
						})
					}
					sites = append(sites, site)
				}
			}
		}
	}
	return sites, plain, nil
}

// sourceLine is the line of instruction i of thread t in the file (or
// mail) the scenario was read from, 0 when unknown or when the scenario
// is edited (an edited source's lines are no file's). It is read from
// the spec's own program: the copies edits parse are printed afresh.
func (s *Spec) sourceLine(t, i int) int {
	if len(s.Edits) > 0 || s.Program == nil || t >= len(s.Program.Threads) || i >= len(s.Program.Threads[t].Code) {
		return 0
	}
	return s.Program.Threads[t].Code[i].Line
}

// orderSite is the site of an instruction whose ordering can be made
// stronger, with its forms from as written to the strongest.
func orderSite(tg editTarget, cpu string, at int, what string) (fixSite, bool) {
	forms, cur, err := tg.orderings()
	if err != nil {
		return fixSite{}, false
	}
	word := forms[cur].Word
	name := forms[cur].Prim
	level := func(to string) fixLevel {
		for _, o := range forms {
			if o.Word == to {
				return fixLevel{edit: Edit{CPU: cpu, At: at, Op: SetOrder, To: to}, what: what + " → " + o.Prim, cost: FixCosts[to] - FixCosts[word]}
			}
		}
		return fixLevel{}
	}
	has := func(to string) bool { return slices.ContainsFunc(forms, func(o Ordering) bool { return o.Word == to }) }
	p := prims()[name]
	switch {
	case p == nil:
		return fixSite{}, false
	case p.class == pFence && (word == "rmb" || word == "wmb"):
		return fixSite{levels: []fixLevel{{}, level("mb")}, le: chain(2)}, true
	case p.class == pLoad && (word == "once" || word == "relaxed" || word == "rcu") && has("acquire"):
		return fixSite{levels: []fixLevel{{}, level("acquire")}, le: chain(2)}, true
	case p.class == pStore && (word == "once" || word == "relaxed") && has("release"):
		return fixSite{levels: []fixLevel{{}, level("release")}, le: chain(2)}, true
	case p.class == pRMW && word == "relaxed" && has("full"):
		return fixSite{levels: []fixLevel{{}, level("acquire"), level("release"), level("full")}, le: diamond}, true
	case p.class == pRMW && (word == "acquire" || word == "release") && has("full"):
		return fixSite{levels: []fixLevel{{}, level("full")}, le: chain(2)}, true
	}
	return fixSite{}, false
}

// assignment is one level per site.
type assignment []uint8

func (a assignment) key() string { return string(a) }

// above reports whether a is at least b at every site.
func (a assignment) above(b assignment, sites []fixSite) bool {
	for i := range a {
		if !sites[i].le[b[i]][a[i]] {
			return false
		}
	}
	return true
}

func (a assignment) cost(sites []fixSite) int {
	c := 0
	for i, l := range a {
		c += sites[i].levels[l].cost
	}
	return c
}

// fixSpec applies an assignment: the edited scenario, its changes and
// the --edit list.
func (s *Spec) fixSpec(a assignment, sites []fixSite) (*Spec, []FixChange, []Edit, error) {
	var set []Edit
	var changes []FixChange
	for i, l := range a {
		if l == 0 {
			continue
		}
		lv := sites[i].levels[l]
		set = append(set, lv.edit)
		changes = append(changes, FixChange{Edit: lv.edit, What: lv.what, Cost: lv.cost})
	}
	sp, seq, err := s.EditSet(set)
	return sp, changes, seq, err
}

// Fix searches the minimal fixes in each mode (see the comment above).
func FixSearch(spec *Spec, modes []machine.Mode, opts FixOptions) (FixReport, error) {
	start := time.Now()
	r := FixReport{Spec: spec}
	switch {
	case spec.Program == nil:
		return r, errors.New("no program to fix")
	case spec.Final == nil:
		return r, fmt.Errorf("%s has no final condition", spec.Name)
	case len(modes) == 0:
		return r, errors.New("no mode to explore")
	}
	if opts.MaxExplorations <= 0 {
		opts.MaxExplorations = 4000
	}
	if opts.MaxFixes <= 0 {
		opts.MaxFixes = 8
	}
	sites, plain, err := spec.fixSites()
	if err != nil {
		return r, err
	}
	r.Sites, r.Plain = len(sites), plain
	for _, s := range sites {
		r.Strengthenings += len(s.levels) - 1
	}
	ctx := contextOf(opts.Explore)
	eo := opts.Explore
	eo.NoWitnesses = true

	// As written, in every mode.
	var jobs []Job
	for _, m := range modes {
		jobs = append(jobs, Job{Spec: spec, Mode: m})
	}
	for _, run := range ExploreAll(jobs, opts.Explore, nil) {
		fm := FixMode{Mode: run.Mode, AsWritten: necessityRun(run), AsWrittenVerdict: run.Verdict()}
		r.Modes = append(r.Modes, fm)
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	open := 0
	for j := range r.Modes {
		fm := &r.Modes[j]
		if !fm.Open() {
			continue
		}
		open++
		searchMode(spec, sites, fm, eo, opts)
		if err := ctx.Err(); err != nil {
			return r, err
		}
	}
	if open > 1 {
		r.Both, r.BothComplete = fixesOfAll(spec, sites, r.Modes)
	}
	// Each fix's verdict in every mode.
	type ref struct{ mode, fix int }
	var vjobs []Job
	var at []ref
	lists := make([][]Fix, 0, len(r.Modes)+1)
	for j := range r.Modes {
		lists = append(lists, r.Modes[j].Fixes)
	}
	lists = append(lists, r.Both)
	for j, fixes := range lists {
		for k := range fixes {
			f := &fixes[k]
			f.Verdicts = make([]Verdict, len(r.Modes))
			f.Known = make([]bool, len(r.Modes))
			for jj := range r.Modes {
				vjobs = append(vjobs, Job{Spec: f.Spec, Mode: r.Modes[jj].Mode})
				at = append(at, ref{j, k})
			}
		}
	}
	for i, run := range ExploreAll(vjobs, eo, nil) {
		f := &lists[at[i].mode][at[i].fix]
		jj := slices.IndexFunc(r.Modes, func(m FixMode) bool { return m.Mode == run.Mode })
		f.Verdicts[jj] = run.Verdict()
		f.Known[jj] = run.Failure() == nil
	}
	// A fix of both that is not one after all (the search assumes a set
	// above a fix is one) is dropped, and so is one above another.
	var both []Fix
	for _, f := range r.Both {
		ok := true
		for j := range r.Modes {
			ok = ok && f.Known[j] && f.Verdicts[j].Positive == 0
		}
		if ok {
			both = append(both, f)
		} else {
			r.BothComplete = false
		}
	}
	r.Both = minimalFixes(both, sites)
	r.Elapsed = time.Since(start)
	return r, ctx.Err()
}

// fixesOfAll is the least sets above a fix of every open mode: their
// joins, site by site, the minimal ones, cheapest first. complete when
// every open mode's search was.
func fixesOfAll(spec *Spec, sites []fixSite, modes []FixMode) ([]Fix, bool) {
	joins := []assignment{make(assignment, len(sites))}
	complete := true
	for _, fm := range modes {
		if !fm.Open() {
			continue
		}
		complete = complete && fm.Complete
		var next []assignment
		for _, a := range joins {
			for _, f := range fm.Fixes {
				if j, ok := join(a, f.a, sites); ok {
					next = append(next, j)
				}
			}
		}
		joins = next
	}
	var out []Fix
	seen := map[string]bool{}
	for _, a := range joins {
		if seen[a.key()] {
			continue
		}
		seen[a.key()] = true
		sp, changes, seq, err := spec.fixSpec(a, sites)
		if err != nil {
			continue
		}
		out = append(out, Fix{Changes: changes, Edits: seq, Spec: sp, Cost: a.cost(sites), a: a})
	}
	return minimalFixes(out, sites), complete
}

// join is the least assignment above both, site by site; false when a
// site has no least level above both.
func join(a, b assignment, sites []fixSite) (assignment, bool) {
	out := make(assignment, len(a))
	for i := range a {
		best := -1
		for l := range sites[i].levels {
			if sites[i].le[a[i]][l] && sites[i].le[b[i]][l] && (best < 0 || sites[i].le[l][best]) {
				best = l
			}
		}
		if best < 0 {
			return nil, false
		}
		out[i] = uint8(best)
	}
	return out, true
}

// minimalFixes keeps the fixes no other is below, cheapest first.
func minimalFixes(fixes []Fix, sites []fixSite) []Fix {
	var out []Fix
	for i, f := range fixes {
		min := true
		for j, g := range fixes {
			if i != j && f.a.above(g.a, sites) && (f.a.key() != g.a.key() || j < i) {
				min = false
				break
			}
		}
		if min {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(x, y Fix) int { return x.Cost - y.Cost })
	return out
}

// searchMode runs the search in one mode (search), then checks what the
// search took for granted, that a set below one that fails fails too:
// every set right below a fix (a change left out, or made weaker) is
// explored, and must leave the outcome reachable. A fix for which that
// is not so is dropped, and the report says so.
func searchMode(spec *Spec, sites []fixSite, fm *FixMode, eo machine.Options, opts FixOptions) {
	search(spec, sites, fm, eo, opts)
	eo.Workers = 1
	var below []assignment
	for _, f := range fm.Fixes {
		below = append(below, lowerings(f.a, sites)...)
	}
	var jobs []Job
	for _, a := range below {
		sp, _, _, err := spec.fixSpec(a, sites)
		if err != nil {
			sp = &Spec{Name: spec.Name}
		}
		jobs = append(jobs, Job{Spec: sp, Mode: fm.Mode})
	}
	fm.Explorations += len(jobs)
	works := map[string]bool{}
	for i, run := range ExploreAll(jobs, eo, nil) {
		if nr := necessityRun(run); !(nr.Err == nil && nr.Reachable) {
			works[below[i].key()] = true // or unknown: either way not shown minimal
		}
	}
	kept := fm.Fixes[:0]
	for _, f := range fm.Fixes {
		ok := true
		for _, b := range lowerings(f.a, sites) {
			ok = ok && !works[b.key()]
		}
		if ok {
			kept = append(kept, f)
		} else {
			fm.Complete = false
			fm.Stop = "a set below a fix found was not shown to fail (a weaker program fixed it, or its search stopped at a limit), so that fix is left out"
		}
	}
	fm.Fixes = kept
}

// lowerings are the sets right below a: one site one level weaker.
func lowerings(a assignment, sites []fixSite) []assignment {
	var out []assignment
	for i, l := range a {
		le := sites[i].le
		for m := range sites[i].levels {
			if m == int(l) || !le[m][l] {
				continue
			}
			between := false
			for k := range sites[i].levels {
				if k != m && k != int(l) && le[m][k] && le[k][l] {
					between = true
				}
			}
			if !between {
				b := slices.Clone(a)
				b[i] = uint8(m)
				out = append(out, b)
			}
		}
	}
	return out
}

// search is the search proper, filling in fm. It picks the
// cheapest sets that are neither above a fix found (they work, but are
// not minimal) nor below a set known to fail (they fail too), several
// of one cost at a time, explored in parallel. A set picked that works
// is a minimal fix: every cheaper set, among them every set below it,
// is known to fail. A set that fails is raised, site by site, as high as
// it still fails, and everything below that fails too, so it is never
// picked. The search ends when no set is left to pick (it was
// complete), at the exploration limit, or once MaxFixes fixes are found
// and the sets as cheap as the last are done.
func search(spec *Spec, sites []fixSite, fm *FixMode, eo machine.Options, opts FixOptions) {
	ctx := contextOf(eo)
	n := len(sites)
	if n == 0 {
		fm.NoFix, fm.Complete = true, true
		return
	}
	// The strongest form of each site is its last.
	top := make(assignment, n)
	maxCost := 0
	for i, s := range sites {
		top[i] = uint8(len(s.levels) - 1)
		maxCost += s.levels[top[i]].cost
	}
	eo.Workers = 1 // small explorations, many at once
	fs := &fixSearch{spec: spec, sites: sites, fm: fm, eo: eo, memo: map[string]fixResult{}, budget: opts.MaxExplorations}
	// Every strengthening at once: if that does not work, nothing does.
	fs.explore([]assignment{top})
	switch fs.result(top) {
	case fixFails:
		fm.NoFix, fm.Complete = true, true
		return
	case fixUnknown:
		fm.Stop = "even the search with every strengthening at once did not finish"
		return
	}
	for c := 1; c <= maxCost; {
		if ctx.Err() != nil {
			fm.Stop = "cancelled"
			return
		}
		seeds, ok := fs.seeds(c)
		if !ok {
			fm.Stop = fmt.Sprintf("there are too many sets costing %d to go through", c)
			return
		}
		if len(seeds) == 0 {
			c++
			continue
		}
		spent := !fs.explore(seeds)
		var fails []assignment
		for _, a := range seeds {
			switch fs.result(a) {
			case fixWorks:
				sp, changes, seq, err := spec.fixSpec(a, sites)
				if err != nil {
					continue
				}
				fs.working = append(fs.working, a)
				fm.Fixes = append(fm.Fixes, Fix{Changes: changes, Edits: seq, Spec: sp, Cost: c, a: a})
			case fixFails:
				fails = append(fails, a)
			}
		}
		if fs.unsure {
			fm.Stop = fmt.Sprintf("an exploration stopped at a limit among the sets costing %d, so dearer sets could not be called minimal", c)
			return
		}
		if len(fm.Fixes) >= opts.MaxFixes && (len(fm.Fixes) > opts.MaxFixes || c < maxCost) {
			fm.Fixes = fm.Fixes[:opts.MaxFixes]
			fm.Stop = fmt.Sprintf("the %d cheapest fixes were found (--max-fixes); others were not looked for", opts.MaxFixes)
			return
		}
		if spent {
			fm.Stop = fmt.Sprintf("the limit of %d explorations was reached among the sets costing %d", opts.MaxExplorations, c)
			return
		}
		// Raise the failing ones, one after another (so that what each
		// explores, and the report's counts, do not depend on timing).
		for _, a := range fails {
			fs.failing = append(fs.failing, fs.grow(a))
		}
		switch {
		case fs.unsure:
			fm.Stop = fmt.Sprintf("an exploration stopped at a limit among the sets costing more than %d, so dearer sets could not be called minimal", c)
			return
		case fs.budget <= 0:
			fm.Stop = fmt.Sprintf("the limit of %d explorations was reached among the sets costing %d", opts.MaxExplorations, c)
			return
		}
	}
	fm.Complete = true
}

// fixSearch is the state of one mode's search: what each set explored
// gave, the fixes and the raised failing sets found, and the budget left.
type fixSearch struct {
	spec  *Spec
	sites []fixSite
	fm    *FixMode
	eo    machine.Options

	mu               sync.Mutex
	memo             map[string]fixResult
	working, failing []assignment
	budget           int
	unsure           bool // an exploration stopped at a limit
}

// explore explores the sets not known yet, in parallel, and records
// what each gives; it returns false once the budget is spent.
func (fs *fixSearch) explore(as []assignment) bool {
	var todo []assignment
	fs.mu.Lock()
	for _, a := range as {
		if _, ok := fs.memo[a.key()]; !ok && !slices.ContainsFunc(todo, func(b assignment) bool { return b.key() == a.key() }) {
			todo = append(todo, a)
		}
	}
	if len(todo) > fs.budget {
		todo = todo[:fs.budget]
	}
	fs.budget -= len(todo)
	fs.fm.Explorations += len(todo)
	fs.mu.Unlock()
	jobs := make([]Job, len(todo))
	for i, a := range todo {
		sp, _, _, err := fs.spec.fixSpec(a, fs.sites)
		if err != nil {
			sp = &Spec{Name: fs.spec.Name} // no program: an error, unsure
		}
		jobs[i] = Job{Spec: sp, Mode: fs.fm.Mode}
	}
	runs := ExploreAll(jobs, fs.eo, nil)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, run := range runs {
		nr := necessityRun(run)
		switch {
		case nr.Known() && !nr.Reachable:
			fs.memo[todo[i].key()] = fixWorks
		case nr.Err == nil && nr.Reachable:
			fs.memo[todo[i].key()] = fixFails
		default:
			fs.memo[todo[i].key()] = fixUnknown
			fs.unsure = true
		}
	}
	return fs.budget > 0 || len(todo) == len(as)
}

// result is what set a is known to give.
func (fs *fixSearch) result(a assignment) fixResult {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if r, ok := fs.memo[a.key()]; ok {
		return r
	}
	for _, f := range fs.failing {
		if f.above(a, fs.sites) {
			return fixFails
		}
	}
	return fixUnexplored
}

// grow raises a failing set site by site as high as it still fails: at
// each site, its stronger forms are explored at once, and the strongest
// that fails is kept.
func (fs *fixSearch) grow(a assignment) assignment {
	sites := fs.sites
	g := slices.Clone(a)
	for i := range sites {
		var tries []assignment
		for l := len(sites[i].levels) - 1; l >= 0; l-- {
			if l != int(g[i]) && sites[i].le[g[i]][l] {
				t := slices.Clone(g)
				t[i] = uint8(l)
				tries = append(tries, t)
			}
		}
		var todo []assignment
		for _, t := range tries {
			if fs.result(t) == fixUnexplored {
				todo = append(todo, t)
			}
		}
		if len(todo) > 0 && !fs.explore(todo) {
			return g
		}
		for _, t := range tries {
			if fs.result(t) == fixFails {
				g = t
				break
			}
		}
	}
	return g
}

// fixNodeLimit bounds the sets seeds goes through for one cost.
const fixNodeLimit = 4 << 20

// seeds are the cheapest sets left to pick, of cost c (at most
// fixBatch); false when there are too many sets of that cost to go
// through.
func (fs *fixSearch) seeds(c int) ([]assignment, bool) {
	sites, n := fs.sites, len(fs.sites)
	var seeds []assignment
	nodes := 0
	var walk func(i, left int, a assignment)
	walk = func(i, left int, a assignment) {
		nodes++
		if len(seeds) >= fixBatch || nodes > fixNodeLimit {
			return
		}
		if i == n {
			if left != 0 {
				return
			}
			for _, w := range fs.working {
				if a.above(w, sites) {
					return
				}
			}
			for _, f := range fs.failing {
				if f.above(a, sites) {
					return
				}
			}
			if r, ok := fs.memo[a.key()]; ok && r != fixWorks {
				return
			}
			seeds = append(seeds, slices.Clone(a))
			return
		}
		for l := range sites[i].levels {
			if k := sites[i].levels[l].cost; k <= left {
				a[i] = uint8(l)
				walk(i+1, left-k, a)
			}
		}
		a[i] = 0
	}
	walk(0, c, make(assignment, n))
	return seeds, nodes <= fixNodeLimit
}

// fixBatch is how many sets of one cost are explored at once.
var fixBatch = 4 * runtime.GOMAXPROCS(0)

// fixResult is what exploring a set said.
type fixResult uint8

const (
	fixUnexplored fixResult = iota
	fixWorks                // the outcome is unreachable
	fixFails                // the outcome is reachable
	fixUnknown              // a limit stopped the search first
)

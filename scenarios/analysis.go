package scenarios

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"smpscope/machine"
)

// This file answers the two questions reviewers ask of a family of
// scenarios and of one scenario: how do the variants compare in each mode
// (Compare, CompareFamily), and which ordering annotations are needed
// (Necessity, NecessityOf). The command line (smpscope compare, smpscope
// why) and the interactive UI (the c and n panels) render these results.

// Question is what the analyses need of a scenario: its program and how to
// judge the outcomes of its final states. [Compiled.Question] builds one
// from a litmus test; programs built in Go can fill one in directly.
type Question struct {
	Name    string // the scenario's name, e.g. "mp+wmb-rmb"
	Variant string // its variant in the family, "" if none
	Title   string
	Program *machine.Program
	// Kind is the final clause's quantifier and Condition the clause as
	// written, e.g. "exists (1:r0=1 /\ 1:r1=0)".
	Kind      FinalKind
	Condition string
	// Satisfies evaluates the proposition of the final clause; Filtered
	// the filter clause (nil keeps every outcome).
	Satisfies func(machine.Outcome) bool
	Filtered  func(machine.Outcome) bool
	// Expected is the LKMM verdict the scenario records ("" if none).
	Expected Observation
}

// Question returns the analysis question of a compiled scenario.
func (c *Compiled) Question() Question {
	s := c.Scenario
	q := Question{
		Name: s.Name, Variant: s.Meta.Variant, Title: s.Meta.Title,
		Program: c.Program, Satisfies: c.Satisfies, Expected: s.Meta.Result,
	}
	if s.Filter != nil {
		q.Filtered = c.Filtered
	}
	if s.Final != nil {
		q.Kind = s.Final.Kind
		q.Condition = s.Final.Kind.String() + " " + FormatCond(s.Final.Cond)
	}
	return q
}

// Label names the question in a family's table: its variant, else its
// name.
func (q Question) Label() string {
	if q.Variant != "" {
		return q.Variant
	}
	return q.Name
}

// kept reports whether the filter clause keeps o.
func (q Question) kept(o machine.Outcome) bool { return q.Filtered == nil || q.Filtered(o) }

// Asked reports whether an outcome is the one the final clause asks about:
// one that satisfies the condition for exists and ~exists, one that
// violates it for forall. Outcomes the filter leaves out never are.
func (q Question) Asked(o machine.Outcome) bool {
	if q.Satisfies == nil || !q.kept(o) {
		return false
	}
	if q.Kind == Forall {
		return !q.Satisfies(o)
	}
	return q.Satisfies(o)
}

// Verdict evaluates the final clause over what an exploration found,
// counting each outcome as the number of final states that produced it.
func (q Question) Verdict(r *machine.Result) Verdict {
	outs, counts := resultOutcomes(r)
	return verdictOf(outs, counts, q.Kind, q.Satisfies, q.kept)
}

// verdictOf evaluates a final clause of kind k over final states;
// counts[i] is how many states outcomes[i] stands for (nil: one each).
func verdictOf(outcomes []machine.Outcome, counts []int, k FinalKind, sat, kept func(machine.Outcome) bool) Verdict {
	var v Verdict
	for i, o := range outcomes {
		n := 1
		if counts != nil && i < len(counts) {
			n = counts[i]
		}
		switch {
		case !kept(o):
			v.Filtered += n
		case sat(o):
			v.Positive += n
		default:
			v.Negative += n
		}
	}
	switch {
	case v.Positive == 0:
		v.Observation = Never
	case v.Negative == 0:
		v.Observation = Always
	default:
		v.Observation = Sometimes
	}
	switch k {
	case Exists:
		v.Validated = v.Positive > 0
	case NotExists:
		v.Validated = v.Positive == 0
	case Forall:
		v.Validated = v.Negative == 0
	}
	return v
}

// ShortestWitness returns the shortest witness among the outcomes the
// final clause asks about (see [Question.Asked]), and whether there is
// one.
func (q Question) ShortestWitness(res *machine.Result) ([]machine.Step, bool) {
	var best []machine.Step
	found := false
	for _, o := range res.Outcomes {
		if q.Asked(o.Outcome) && (!found || len(o.Witness) < len(best)) {
			best, found = o.Witness, true
		}
	}
	return best, found
}

// parallel runs job(0) … job(n-1) on all cores and waits for them. Jobs
// not yet started when ctx is cancelled are skipped.
func parallel(ctx context.Context, n int, job func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if ctx.Err() == nil {
					job(i)
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}

// shareCores divides the machine among the given number of explorations
// running at once: unless the caller chose it, opts.Workers so that they
// share the cores rather than each taking all of them; and a memory bound
// (opts.MaxMemory, when set) among those that run at the same time.
func shareCores(opts machine.Options, jobs int) machine.Options {
	if jobs <= 0 {
		return opts
	}
	procs := runtime.GOMAXPROCS(0)
	if opts.Workers <= 0 {
		opts.Workers = max(1, procs/jobs)
	}
	if opts.MaxMemory > 0 {
		opts.MaxMemory = max(opts.MaxMemory/int64(min(jobs, procs)), 1)
	}
	return opts
}

func contextOf(opts machine.Options) context.Context {
	if opts.Context != nil {
		return opts.Context
	}
	return context.Background()
}

// ---- Compare ----

// CompareCell is one variant explored in one mode.
type CompareCell struct {
	Mode    machine.Mode
	Verdict Verdict
	// Complete is false when a limit (or cancellation) stopped the search:
	// the counts are then partial.
	Complete bool
	// Deadlock is true when the search also reached deadlocked states.
	Deadlock bool
	States   int    // distinct states explored
	Stop     string // why the search stopped early, "" if it did not
	Err      error
}

// Text is the cell as a table shows it: the observation and the final
// states satisfying the condition out of all final states ("Sometimes
// 1/4"), prefixed by "? " when the search did not finish and followed by
// " *" when it reached deadlocks; "error" when the variant could not run.
func (c CompareCell) Text() string {
	if c.Err != nil {
		return "error"
	}
	total := c.Verdict.Positive + c.Verdict.Negative
	s := fmt.Sprintf("%s %d/%d", c.Verdict.Observation, c.Verdict.Positive, total)
	if !c.Complete {
		s = "? " + s
	}
	if c.Deadlock {
		s += " *"
	}
	return s
}

// CompareRow is one variant of a family with a cell per mode.
type CompareRow struct {
	Question Question
	Cells    []CompareCell // in CompareTable.Modes order
}

// CompareTable is every variant of a family explored in each mode: the
// table kernel patch mails carry.
type CompareTable struct {
	Family string
	Modes  []machine.Mode
	Rows   []CompareRow
}

// Condition returns the final clause the variants share, and false when
// they differ.
func (t CompareTable) Condition() (string, bool) {
	if len(t.Rows) == 0 {
		return "", false
	}
	c := t.Rows[0].Question.Condition
	for _, r := range t.Rows[1:] {
		if r.Question.Condition != c {
			return "", false
		}
	}
	return c, true
}

// HasExpected reports whether any variant records an LKMM verdict (so a
// table has an LKMM column).
func (t CompareTable) HasExpected() bool {
	for _, r := range t.Rows {
		if r.Question.Expected != "" {
			return true
		}
	}
	return false
}

// Incomplete reports whether any cell's search did not finish or failed.
func (t CompareTable) Incomplete() bool {
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if !c.Complete || c.Err != nil {
				return true
			}
		}
	}
	return false
}

// Deadlock reports whether any cell's search reached deadlocks.
func (t CompareTable) Deadlock() bool {
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.Deadlock {
				return true
			}
		}
	}
	return false
}

// Compare explores every question in each mode, in parallel, each
// exploration bounded by opts (whose Context cancels them all). It
// returns ctx.Err() when cancelled; the table then holds partial cells.
func Compare(family string, qs []Question, modes []machine.Mode, opts machine.Options) (CompareTable, error) {
	t := CompareTable{Family: family, Modes: append([]machine.Mode(nil), modes...)}
	for _, q := range qs {
		t.Rows = append(t.Rows, CompareRow{Question: q, Cells: make([]CompareCell, len(modes))})
	}
	ctx := contextOf(opts)
	opts = shareCores(opts, len(qs)*len(modes))
	parallel(ctx, len(qs)*len(modes), func(k int) {
		i, j := k/len(modes), k%len(modes)
		t.Rows[i].Cells[j] = compareCell(qs[i], modes[j], opts)
	})
	for _, r := range t.Rows {
		for j := range r.Cells {
			if c := &r.Cells[j]; c.Err == nil && c.Stop == "" && !c.Complete {
				// Skipped after a cancellation.
				c.Mode, c.Stop = modes[j], "cancelled"
			}
		}
	}
	return t, ctx.Err()
}

func compareCell(q Question, mode machine.Mode, opts machine.Options) CompareCell {
	c := CompareCell{Mode: mode}
	if q.Satisfies == nil {
		c.Err = fmt.Errorf("%s has no final condition", q.Name)
		return c
	}
	m, err := machine.New(q.Program, mode)
	if err != nil {
		c.Err = err
		return c
	}
	res := machine.Explore(m, opts)
	c.Verdict = q.Verdict(res)
	c.Complete, c.Deadlock, c.States = res.Complete, len(res.Deadlocks) > 0, res.States
	if !res.Complete {
		c.Stop = res.StopReason
	}
	return c
}

// CompareFamily compiles every variant of a built-in family and compares
// them (see [Compare]). It fails if a variant does not compile.
func CompareFamily(fam Family, modes []machine.Mode, opts machine.Options) (CompareTable, error) {
	var qs []Question
	for _, e := range fam.Entries {
		s, err := Parse("library/"+e.File, []byte(e.Source))
		if err != nil {
			return CompareTable{}, fmt.Errorf("%s: %w", e.Name, err)
		}
		c, err := s.Compile()
		if err != nil {
			return CompareTable{}, fmt.Errorf("%s: %w", e.Name, err)
		}
		qs = append(qs, c.Question())
	}
	return Compare(fam.Name, qs, modes, opts)
}

// FindFamily returns the built-in family called name (ignoring case), or
// the family of the built-in scenario called name.
func FindFamily(name string) (Family, error) {
	fams, err := Families()
	if err != nil {
		return Family{}, err
	}
	var names []string
	for _, f := range fams {
		if strings.EqualFold(f.Name, name) {
			return f, nil
		}
		names = append(names, f.Name)
	}
	for _, f := range fams {
		for _, e := range f.Entries {
			if e.Name == name || strings.TrimSuffix(e.File, ".litmus") == name {
				return f, nil
			}
		}
	}
	return Family{}, fmt.Errorf("no built-in family %q; families: %s", name, strings.Join(names, ", "))
}

// ---- Necessity ----

// NecessityRun is one program (as written, with annotations weakened)
// explored in one mode.
type NecessityRun struct {
	// Reachable is true when the search found the outcome the final
	// clause asks about; Witness is then the shortest one it found.
	Reachable bool
	Witness   []machine.Step
	States    int
	// Complete is false when a limit stopped the search; Stop then says
	// why (machine.Result.Summary).
	Complete bool
	Stop     string
	Err      error
}

// Known reports whether the run answers the question: it found the
// outcome, or it explored everything.
func (r NecessityRun) Known() bool { return r.Err == nil && (r.Reachable || r.Complete) }

// StopText says why a run is not known: its error or where it stopped.
func (r NecessityRun) StopText() string {
	switch {
	case r.Err != nil:
		return r.Err.Error()
	case r.Stop == "":
		return "not explored"
	}
	return r.Stop
}

// WeakenedRuns is a program with one or more annotations weakened,
// explored in each mode.
type WeakenedRuns struct {
	Program *machine.Program
	Runs    []NecessityRun // in NecessityReport.Modes order
}

// Annotation is one ordering annotation of the scenario, weakened on its
// own.
type Annotation struct {
	machine.Weakening
	WeakenedRuns
}

// Need is the answer for one annotation in one mode.
type Need uint8

// Needs.
const (
	// NeedMoot: the outcome is reachable as written (or that could not be
	// decided), so no annotation can be needed in the mode.
	NeedMoot Need = iota
	// Needed: weakening the annotation makes the outcome reachable.
	Needed
	// NotNeeded: the outcome stays unreachable without it.
	NotNeeded
	// NeedUnknown: the search stopped at a limit before deciding.
	NeedUnknown
)

// Together is what weakening every annotation at once shows in a mode
// where none is needed on its own.
type Together uint8

// Togethers.
const (
	// TogetherMoot: not asked (some annotation is needed alone, the
	// outcome is reachable as written, or there are fewer than two).
	TogetherMoot Together = iota
	// TogetherNeeded: all of them together are needed; they back each
	// other up, and not all of them can go.
	TogetherNeeded
	// TogetherNotNeeded: even weakening all of them leaves the outcome
	// unreachable.
	TogetherNotNeeded
	// TogetherUnknown: the search stopped at a limit before deciding.
	TogetherUnknown
)

// NecessityReport answers "is this barrier needed?" for every ordering
// annotation of a scenario, per mode.
type NecessityReport struct {
	Question Question
	Modes    []machine.Mode
	// AsWritten is the scenario explored as written, per mode. Only in
	// modes where the outcome is unreachable as written can an
	// annotation be needed, and only there are weakened programs
	// explored.
	AsWritten   []NecessityRun
	Annotations []Annotation
	// All has every annotation weakened at once; nil with fewer than two.
	All *WeakenedRuns
}

// Open reports whether the outcome is (known to be) unreachable as
// written in mode j (an index into Modes).
func (r NecessityReport) Open(j int) bool {
	w := r.AsWritten[j]
	return w.Known() && !w.Reachable
}

// Need answers for annotation i in mode j.
func (r NecessityReport) Need(i, j int) Need {
	if !r.Open(j) {
		return NeedMoot
	}
	run := r.Annotations[i].Runs[j]
	switch {
	case !run.Known():
		return NeedUnknown
	case run.Reachable:
		return Needed
	}
	return NotNeeded
}

// Together answers, for mode j, what weakening every annotation at once
// shows when none is needed on its own.
func (r NecessityReport) Together(j int) Together {
	if r.All == nil || !r.Open(j) {
		return TogetherMoot
	}
	for i := range r.Annotations {
		if r.Need(i, j) == Needed {
			return TogetherMoot
		}
	}
	run := r.All.Runs[j]
	switch {
	case !run.Known():
		return TogetherUnknown
	case run.Reachable:
		return TogetherNeeded
	}
	return TogetherNotNeeded
}

// Unknown reports whether a search stopped at a limit before answering a
// question the report asks.
func (r NecessityReport) Unknown() bool {
	for j := range r.Modes {
		if !r.AsWritten[j].Known() || r.Together(j) == TogetherUnknown {
			return true
		}
		for i := range r.Annotations {
			if r.Need(i, j) == NeedUnknown {
				return true
			}
		}
	}
	return false
}

// Verdict words the answer for annotation i, e.g. "needed in ARM-like
// mode, not in TSO", over the modes where the outcome is unreachable as
// written.
func (r NecessityReport) Verdict(i int) string {
	var needed, notNeeded, unsure []machine.Mode
	for j, m := range r.Modes {
		switch r.Need(i, j) {
		case Needed:
			needed = append(needed, m)
		case NotNeeded:
			notNeeded = append(notNeeded, m)
		case NeedUnknown:
			unsure = append(unsure, m)
		}
	}
	names := func(ms []machine.Mode) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.Title())
		}
		return strings.Join(s, " and ")
	}
	var v string
	switch {
	case len(needed) == 2:
		v = "needed in both modes (TSO and ARM-like)"
	case len(needed) == 1 && len(notNeeded) == 1:
		v = fmt.Sprintf("needed in %s mode, not in %s", names(needed), names(notNeeded))
	case len(needed) == 1:
		v = fmt.Sprintf("needed in %s mode", names(needed))
	case len(notNeeded) == 2:
		v = "not needed on its own in either mode"
	case len(notNeeded) == 1:
		v = fmt.Sprintf("not needed on its own in %s mode", names(notNeeded))
	}
	if len(unsure) > 0 {
		if v != "" {
			v += "; "
		}
		v += fmt.Sprintf("unknown in %s mode (the search stopped at a limit)", names(unsure))
	}
	return v
}

// Necessity finds which ordering annotations of a compiled scenario are
// needed (see [NecessityOf]).
func Necessity(c *Compiled, modes []machine.Mode, opts machine.Options) (NecessityReport, error) {
	return NecessityOf(c.Question(), modes, opts)
}

// NecessityOf finds which ordering annotations of q's program are needed:
// it explores the program as written in each mode, then, in the modes
// where the outcome the final clause asks about is unreachable, each
// annotation weakened on its own (machine.Weakenings) and all of them
// together. Explorations run in parallel, each bounded by opts, whose
// Context cancels them all; when cancelled it returns ctx.Err().
func NecessityOf(q Question, modes []machine.Mode, opts machine.Options) (NecessityReport, error) {
	r := NecessityReport{Question: q, Modes: append([]machine.Mode(nil), modes...)}
	switch {
	case q.Program == nil:
		return r, errors.New("no program to analyse")
	case q.Satisfies == nil:
		return r, fmt.Errorf("%s has no final condition", q.Name)
	case len(modes) == 0:
		return r, errors.New("no mode to explore")
	}
	ctx := contextOf(opts)
	r.AsWritten = make([]NecessityRun, len(modes))
	parallel(ctx, len(modes), func(j int) {
		r.AsWritten[j] = necessityRun(q, q.Program, modes[j], shareCores(opts, len(modes)))
	})
	if err := ctx.Err(); err != nil {
		return r, err
	}

	ws := machine.Weakenings(q.Program)
	progs := make([]*WeakenedRuns, 0, len(ws)+1)
	for _, w := range ws {
		r.Annotations = append(r.Annotations, Annotation{Weakening: w, WeakenedRuns: WeakenedRuns{Program: w.Apply(q.Program), Runs: make([]NecessityRun, len(modes))}})
	}
	for i := range r.Annotations {
		progs = append(progs, &r.Annotations[i].WeakenedRuns)
	}
	if len(ws) > 1 {
		r.All = &WeakenedRuns{Program: machine.WeakenAll(q.Program, ws), Runs: make([]NecessityRun, len(modes))}
		progs = append(progs, r.All)
	}
	type job struct{ p, j int }
	var jobs []job
	for p := range progs {
		for j := range modes {
			if r.Open(j) {
				jobs = append(jobs, job{p, j})
			}
		}
	}
	jobOpts := shareCores(opts, len(jobs))
	parallel(ctx, len(jobs), func(k int) {
		jb := jobs[k]
		progs[jb.p].Runs[jb.j] = necessityRun(q, progs[jb.p].Program, modes[jb.j], jobOpts)
	})
	return r, ctx.Err()
}

func necessityRun(q Question, p *machine.Program, mode machine.Mode, opts machine.Options) NecessityRun {
	m, err := machine.New(p, mode)
	if err != nil {
		return NecessityRun{Err: err}
	}
	res := machine.Explore(m, opts)
	w, ok := q.ShortestWitness(res)
	return NecessityRun{Reachable: ok, Witness: w, States: res.States, Complete: res.Complete, Stop: res.Summary()}
}

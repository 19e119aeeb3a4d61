package scenarios

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
)

// This file answers the two questions reviewers ask of a family of
// scenarios and of one scenario: how do the variants compare in each mode
// (Compare, CompareFamily), and which ordering annotations are needed
// (Necessity, NecessityOf). The command line (smpscope compare, smpscope
// why) and the interactive UI (the c and n panels) render these results.

// Job is one exploration: a scenario's program in one mode.
type Job struct {
	Spec *Spec
	Mode machine.Mode
}

// Run is a finished Job.
type Run struct {
	Job
	// Result is what the search found; nil when the job could not run
	// (Err) or was skipped after a cancellation.
	Result  *machine.Result
	Err     error
	Elapsed time.Duration
}

// Failure is why the run does not answer: its error, or the limit that
// stopped the search (the counts are then partial); nil when it
// explored everything.
func (r Run) Failure() error {
	switch {
	case r.Err != nil:
		return r.Err
	case r.Result == nil:
		return errors.New("not explored (cancelled)")
	case !r.Result.Complete:
		return errors.New(r.Spec.Unknown(r.Result))
	}
	return nil
}

// Unsound reports whether the run reached an outcome the scenario's
// expected LKMM verdict "Never" forbids: smpscope would then allow what
// the kernel's memory model does not. An outcome a search found is
// reachable even when a limit stopped it later, so a partial run can be
// unsound too.
func (r Run) Unsound() bool {
	return r.Err == nil && r.Result != nil && r.Spec.Expected == syntax.Never && r.Verdict().Positive > 0
}

// Ends counts how executions of a complete search ended: the distinct
// final states it reached (before the filter), and the stuck and faulted
// states, which are no outcomes.
func (r Run) Ends() (final, deadlocked, faulted int) {
	if r.Result == nil {
		return 0, 0, 0
	}
	for _, o := range r.Result.Outcomes {
		final += o.States
	}
	return final, r.Result.DeadlockStates, r.Result.FaultStates
}

// NoEnd reports whether a complete search found no execution that
// reached the end: every one deadlocked or faulted (and the filter pruned
// none). Its verdict then holds of no execution at all ("Never 0 0").
func (r Run) NoEnd() bool {
	if r.Err != nil || r.Result == nil || !r.Result.Complete || r.Result.Pruned > 0 {
		return false
	}
	final, dl, ft := r.Ends()
	return final == 0 && dl+ft > 0
}

// EndsWords words how executions that did not reach the end ended: "no
// execution reached the end: 2 deadlocked, 1 faulted" when none did, else
// "3 executions deadlocked" and the like; "" when every one ended.
func (r Run) EndsWords() string {
	_, dl, ft := r.Ends()
	var parts []string
	if dl > 0 {
		parts = append(parts, fmt.Sprintf("%d deadlocked", dl))
	}
	if ft > 0 {
		parts = append(parts, fmt.Sprintf("%d faulted", ft))
	}
	if len(parts) == 0 {
		return ""
	}
	if r.NoEnd() {
		return "no execution reached the end: " + strings.Join(parts, ", ") + " (the verdict holds of no execution)"
	}
	return "besides the outcomes, " + strings.Join(parts, " and ") + " (stuck or faulted states, no outcomes)"
}

// Unknown words what a search that a limit stopped found, claiming no
// verdict (the outcomes not found yet could change it): "verdict unknown
// (stopped after 45927 states: time limit); found so far: 3 outcomes, 1
// satisfying the condition". Every front-end says it this way.
func (s *Spec) Unknown(r *machine.Result) string {
	return fmt.Sprintf("verdict unknown (%s); found so far: %s", words.Summary(r), s.FoundSoFar(r))
}

// FoundSoFar counts what a search found, by the one counting rule: "3
// outcomes, 1 satisfying the condition" ("3 outcomes" without a final
// clause).
func (s *Spec) FoundSoFar(r *machine.Result) string {
	if s.Final == nil {
		return plural(len(r.Outcomes), "outcome")
	}
	v := s.Verdict(r)
	return fmt.Sprintf("%s, %d satisfying the condition", plural(v.Positive+v.Negative, "outcome"), v.Positive)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Verdict is the run's verdict by the one counting rule ([Spec.Verdict]).
func (r Run) Verdict() Verdict {
	if r.Result == nil {
		return Verdict{}
	}
	return r.Spec.Verdict(r.Result)
}

// ExploreAll is the one pool that runs explorations: check, compare and
// why all explore through it. It runs the jobs on GOMAXPROCS goroutines,
// sharing the cores and opts.MaxMemory among them (see shareCores), and
// returns their runs in job order. opts.Context cancels them all: jobs
// not yet started are skipped. each, when not nil, is called with each
// job's run as it finishes (from one goroutine at a time), so that a
// front-end can report what is done before the rest is.
func ExploreAll(jobs []Job, opts machine.Options, each func(i int, r Run)) []Run {
	runs := make([]Run, len(jobs))
	ctx := contextOf(opts)
	opts = shareCores(opts, len(jobs))
	machines := sharedMachines(jobs)
	var mu sync.Mutex
	parallel(ctx, len(jobs), func(i int) {
		var sm *specMachine
		if machines != nil {
			sm = machines[i]
		}
		runs[i] = runJob(jobs[i], opts, sm)
		if each != nil {
			mu.Lock()
			each(i, runs[i])
			mu.Unlock()
		}
	})
	for i := range runs {
		runs[i].Job = jobs[i]
	}
	return runs
}

// specMachine is the machine of a spec that several jobs explore (in
// its modes), built by the first of them to start.
type specMachine struct {
	once sync.Once
	m    *machine.Machine
	err  error
}

// sharedMachines returns, for each job whose spec the job before or
// after it explores too (check lists a spec's modes one after the other),
// the place where the first of them to start leaves its machine for the
// others, which take it in their own mode (machine.InMode): a check of
// both modes validates and analyses each program once. It is nil when no
// spec repeats, and nil for a job whose spec does not.
func sharedMachines(jobs []Job) []*specMachine {
	var out []*specMachine
	for i := 1; i < len(jobs); i++ {
		if sp := jobs[i].Spec; sp != nil && sp == jobs[i-1].Spec {
			if out == nil {
				out = make([]*specMachine, len(jobs))
			}
			if out[i-1] == nil {
				out[i-1] = &specMachine{}
			}
			out[i] = out[i-1]
		}
	}
	return out
}

// machineOf is j's machine, shared through sm when sm is not nil.
func machineOf(j Job, sm *specMachine) (*machine.Machine, error) {
	if sm == nil {
		return j.Spec.Machine(j.Mode)
	}
	sm.once.Do(func() { sm.m, sm.err = j.Spec.Machine(j.Mode) })
	if sm.err != nil {
		return nil, sm.err
	}
	return sm.m.InMode(j.Mode), nil
}

func runJob(j Job, opts machine.Options, sm *specMachine) Run {
	r := Run{Job: j}
	start := time.Now()
	m, err := machineOf(j, sm)
	if err != nil {
		r.Err = err
		return r
	}
	opts.Prune = j.Spec.Prune() // executions the filter rejects do not matter to a verdict
	r.Result = machine.Explore(m, opts)
	r.Elapsed = time.Since(start)
	return r
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
// (opts.MaxMemory, when set and no Budget is) becomes one budget they all
// share. (The commands and the UI pass their one budget in opts.Budget.)
func shareCores(opts machine.Options, jobs int) machine.Options {
	if jobs <= 0 {
		return opts
	}
	procs := runtime.GOMAXPROCS(0)
	if opts.Workers <= 0 {
		opts.Workers = max(1, procs/jobs)
	}
	if opts.MaxMemory > 0 && opts.Budget == nil {
		opts.Budget = machine.NewBudget(opts.MaxMemory)
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
	// Deadlock is true when the search also reached deadlocked states,
	// Fault when some execution faulted, NoEnd when no execution reached
	// the end (the verdict holds of none).
	Deadlock, Fault, NoEnd bool
	States                 int          // distinct states explored
	Stop                   machine.Stop // why the search stopped early (words.Stop says it)
	Err                    error
}

// Text is the cell as a table shows it: the observation and the final
// states satisfying the condition out of all final states ("Sometimes
// 1/4"), followed by " *" when it reached deadlocks and " !" when some
// execution faulted; "no final state" instead when no execution reached
// the end; "error" when the variant could not run. A search a limit
// stopped has no observation: "? 1/3 so far", the counts it found ("? not
// explored" when it never ran).
func (c CompareCell) Text() string {
	if c.Err != nil {
		return "error"
	}
	total := c.Verdict.Positive + c.Verdict.Negative
	s := fmt.Sprintf("%s %d/%d", c.Verdict.Observation, c.Verdict.Positive, total)
	switch {
	case !c.Complete && c.States == 0:
		s = "? not explored"
	case !c.Complete:
		s = fmt.Sprintf("? %d/%d so far", c.Verdict.Positive, total)
	case c.NoEnd:
		s = "no final state"
	}
	if c.Deadlock {
		s += " *"
	}
	if c.Fault {
		s += " !"
	}
	return s
}

// CompareRow is one variant with a cell per mode.
type CompareRow struct {
	Spec *Spec
	// Label names the row: a family's variant, a scenario's name, a
	// what-if's edits.
	Label string
	Cells []CompareCell // in CompareTable.Modes order
}

// CompareTable is variants explored in each mode: a family's (the table
// kernel patch mails carry), the scenarios named on a command line, or a
// scenario and its what-ifs.
type CompareTable struct {
	Family string // the family compared, "" for other tables
	// Title names what is compared: "Family mp", "sb+once and 2
	// what-ifs".
	Title string
	Modes []machine.Mode
	Rows  []CompareRow
}

// Condition returns the final clause the variants share, and false when
// they differ.
func (t CompareTable) Condition() (string, bool) {
	if len(t.Rows) == 0 {
		return "", false
	}
	c := t.Rows[0].Spec.Condition()
	for _, r := range t.Rows[1:] {
		if r.Spec.Condition() != c {
			return "", false
		}
	}
	return c, true
}

// HasExpected reports whether any variant records an LKMM verdict (so a
// table has an LKMM column).
func (t CompareTable) HasExpected() bool {
	for _, r := range t.Rows {
		if r.Spec.Expected != "" {
			return true
		}
	}
	return false
}

// Incomplete reports whether any cell's search did not finish or failed.
func (t CompareTable) Incomplete() bool {
	return t.anyCell(func(c CompareCell) bool { return !c.Complete || c.Err != nil })
}

// Fault reports whether some cell's search reached a fault.
func (t CompareTable) Fault() bool { return t.anyCell(func(c CompareCell) bool { return c.Fault }) }

// NoEnd reports whether some cell's search found no execution that
// reached the end.
func (t CompareTable) NoEnd() bool { return t.anyCell(func(c CompareCell) bool { return c.NoEnd }) }

// Deadlock reports whether any cell's search reached deadlocks.
func (t CompareTable) Deadlock() bool {
	return t.anyCell(func(c CompareCell) bool { return c.Deadlock })
}

// anyCell reports whether some cell of the table satisfies f.
func (t CompareTable) anyCell(f func(CompareCell) bool) bool {
	for _, r := range t.Rows {
		if slices.ContainsFunc(r.Cells, f) {
			return true
		}
	}
	return false
}

// Compare explores every variant of a family in each mode, in parallel,
// each exploration bounded by opts (whose Context cancels them all). It
// returns ctx.Err() when cancelled; the table then holds partial cells.
func Compare(family string, specs []*Spec, modes []machine.Mode, opts machine.Options) (CompareTable, error) {
	labels := make([]string, len(specs))
	for i, sp := range specs {
		labels[i] = sp.Label()
	}
	title := ""
	if family != "" {
		title = "Family " + family
	}
	t, err := CompareLabeled(title, specs, labels, modes, opts)
	t.Family = family
	return t, err
}

// CompareEdits compares a scenario as written with its what-ifs: each
// variant a list of edits, applied in order (a row per variant, labelled
// by its edits).
func CompareEdits(spec *Spec, variants [][]Edit, modes []machine.Mode, opts machine.Options) (CompareTable, error) {
	specs := []*Spec{spec}
	labels := []string{"as written"}
	for i, v := range variants {
		sp, err := spec.Edited(v...)
		if err != nil {
			return CompareTable{}, err
		}
		specs = append(specs, sp)
		// A long list of edits gets a short name; the table's legend
		// gives the edits (CompareRow.Legend).
		label := EditsText(v)
		if len(label) > maxEditLabel {
			label = fmt.Sprintf("what-if %d", i+1)
		}
		labels = append(labels, label)
	}
	title := fmt.Sprintf("%s and %d what-ifs", spec.Name, len(variants))
	if len(variants) == 1 {
		title = spec.Name + " and a what-if"
	}
	return CompareLabeled(title, specs, labels, modes, opts)
}

// maxEditLabel is the longest list of edits a row is named by.
const maxEditLabel = 24

// Legend is the edits of a what-if row whose label does not say them
// (see CompareEdits), else "".
func (r CompareRow) Legend() string {
	if len(r.Spec.Edits) == 0 || r.Label == EditsText(r.Spec.Edits) || r.Label == "as written" {
		return ""
	}
	return EditFlags(r.Spec.Edits)
}

// CompareLabeled compares specs, each row named by its label, under a
// title (see Compare).
func CompareLabeled(title string, specs []*Spec, labels []string, modes []machine.Mode, opts machine.Options) (CompareTable, error) {
	t := CompareTable{Title: title, Modes: append([]machine.Mode(nil), modes...)}
	var jobs []Job
	var cells []*CompareCell
	for i, sp := range specs {
		row := CompareRow{Spec: sp, Label: labels[i], Cells: make([]CompareCell, len(modes))}
		for j, mode := range modes {
			row.Cells[j] = CompareCell{Mode: mode}
			if sp.Final == nil {
				row.Cells[j].Err = fmt.Errorf("%s has no final condition", sp.Name)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	for i := range t.Rows {
		for j := range modes {
			if t.Rows[i].Cells[j].Err == nil {
				jobs = append(jobs, Job{Spec: t.Rows[i].Spec, Mode: modes[j]})
				cells = append(cells, &t.Rows[i].Cells[j])
			}
		}
	}
	opts.NoWitnesses = true // a table needs counts only
	for k, r := range ExploreAll(jobs, opts, nil) {
		*cells[k] = compareCell(r)
	}
	return t, contextOf(opts).Err()
}

func compareCell(r Run) CompareCell {
	c := CompareCell{Mode: r.Mode, Err: r.Err}
	switch {
	case r.Err != nil:
	case r.Result == nil:
		c.Stop = machine.Stop{Kind: machine.StopCancelled} // skipped after a cancellation
	default:
		res := r.Result
		c.Verdict = r.Verdict()
		c.Complete, c.Deadlock, c.States = res.Complete, res.DeadlockStates > 0, res.States
		c.Fault, c.NoEnd = res.FaultStates > 0, r.NoEnd()
		if !res.Complete {
			c.Stop = res.Stop
		}
	}
	return c
}

// CompareFamily compiles every variant of a built-in family and compares
// them (see [Compare]). It fails if a variant does not compile.
func CompareFamily(fam Family, modes []machine.Mode, opts machine.Options) (CompareTable, error) {
	var specs []*Spec
	for _, e := range fam.Entries {
		s, err := Parse("library/"+e.File, []byte(e.Source))
		if err != nil {
			return CompareTable{}, fmt.Errorf("%s: %w", e.Name, err)
		}
		c, err := Compile(s)
		if err != nil {
			return CompareTable{}, fmt.Errorf("%s: %w", e.Name, err)
		}
		specs = append(specs, NewSpec(c))
	}
	return Compare(fam.Name, specs, modes, opts)
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
	var all []string
	for _, f := range fams {
		for _, e := range f.Entries {
			all = append(all, e.Name)
		}
	}
	// The families first: a scenario's name is suggested only when no
	// family's is near.
	hint := didYouMean(name, names)
	if hint == "" {
		hint = didYouMean(name, all)
	}
	if hint != "" {
		return Family{}, fmt.Errorf("no built-in family %q%s", name, hint)
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
	// why (words.Summary).
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

// WeakenedRuns is the scenario with one or more annotations weakened,
// explored in each mode.
type WeakenedRuns struct {
	// Spec is the weakened scenario: the report's with Edits applied
	// (Spec.Edits lists all of its edits, the ones the report's scenario
	// already had first), so its witnesses replay with those --edit flags.
	Spec  *Spec
	Edits []Edit
	Runs  []NecessityRun // in NecessityReport.Modes order
}

// Annotation is one ordering annotation of the scenario, weakened on its
// own.
type Annotation struct {
	Weakening
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
	// TogetherMoot: not asked (some annotation is needed alone or could
	// not be decided alone, the outcome is reachable as written, or there
	// are fewer than two).
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
	Spec  *Spec
	Modes []machine.Mode
	// AsWritten is the scenario explored as written, per mode. Only in
	// modes where the outcome is unreachable as written can an
	// annotation be needed, and only there are weakened programs
	// explored.
	AsWritten   []NecessityRun
	Annotations []Annotation
	// Fixed names the ordered annotations no edit can weaken (see
	// Spec.Weakenings): they are not asked about.
	Fixed []string
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
		switch r.Need(i, j) {
		case Needed:
			return TogetherMoot
		case NeedUnknown:
			// "none is needed on its own" is not known: a stopped
			// search has no verdict (issue 22, item 1).
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

// Necessity finds which ordering annotations of spec's program are
// needed: it explores the program as written in each mode, then, in the
// modes where the outcome the final clause asks about is unreachable,
// each annotation weakened on its own (Spec.Weakenings: each an edit, so
// every answer replays with --edit) and all of them together. Explorations run in parallel, each bounded by opts,
// whose Context cancels them all; when cancelled it returns ctx.Err().
func Necessity(spec *Spec, modes []machine.Mode, opts machine.Options) (NecessityReport, error) {
	r := NecessityReport{Spec: spec, Modes: append([]machine.Mode(nil), modes...)}
	switch {
	case spec.Program == nil:
		return r, errors.New("no program to analyse")
	case spec.Final == nil:
		return r, fmt.Errorf("%s has no final condition", spec.Name)
	case len(modes) == 0:
		return r, errors.New("no mode to explore")
	}
	ctx := contextOf(opts)
	var jobs []Job
	for _, m := range modes {
		jobs = append(jobs, Job{Spec: spec, Mode: m})
	}
	for _, run := range ExploreAll(jobs, opts, nil) {
		r.AsWritten = append(r.AsWritten, necessityRun(run))
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}

	ws, fixed := spec.Weakenings()
	r.Fixed = fixed
	weakened := func(set []Edit) (WeakenedRuns, error) {
		sp, seq, err := spec.EditSet(set)
		return WeakenedRuns{Spec: sp, Edits: seq, Runs: make([]NecessityRun, len(modes))}, err
	}
	var all []Edit
	for _, w := range ws {
		wr, err := weakened([]Edit{w.Edit})
		if err != nil {
			return r, fmt.Errorf("weakening %s: %v", w, err)
		}
		r.Annotations = append(r.Annotations, Annotation{Weakening: w, WeakenedRuns: wr})
		all = append(all, w.Edit)
	}
	progs := make([]*WeakenedRuns, 0, len(ws)+1)
	for i := range r.Annotations {
		progs = append(progs, &r.Annotations[i].WeakenedRuns)
	}
	if len(ws) > 1 {
		wr, err := weakened(all)
		if err != nil {
			return r, fmt.Errorf("weakening all of them: %v", err)
		}
		r.All = &wr
		progs = append(progs, r.All)
	}
	jobs = jobs[:0]
	var into []*NecessityRun
	for _, p := range progs {
		for j, m := range modes {
			if r.Open(j) {
				jobs = append(jobs, Job{Spec: p.Spec, Mode: m})
				into = append(into, &p.Runs[j])
			}
		}
	}
	for k, run := range ExploreAll(jobs, opts, nil) {
		*into[k] = necessityRun(run)
	}
	return r, ctx.Err()
}

func necessityRun(r Run) NecessityRun {
	if r.Err != nil {
		return NecessityRun{Err: r.Err}
	}
	if r.Result == nil {
		return NecessityRun{} // skipped after a cancellation
	}
	w, ok := r.Spec.ShortestWitness(r.Result)
	return NecessityRun{Reachable: ok, Witness: w, States: r.Result.States, Complete: r.Result.Complete, Stop: words.Summary(r.Result)}
}

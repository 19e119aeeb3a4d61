package litmusgen

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
)

// MachineResult is the machine's outcome set for a test in one mode.
type MachineResult struct {
	Mode machine.Mode
	// States are the outcomes the filter keeps, restricted to the
	// registers and locations herd7 prints (locations clause and
	// condition), canonical (CanonState) and sorted.
	States    []string
	Complete  bool
	Summary   string
	Deadlocks int
}

// Compile parses and compiles a test with smpscope.
func Compile(name, src string) (*scenarios.Compiled, error) {
	s, err := scenarios.Parse(name, []byte(src))
	if err != nil {
		return nil, err
	}
	return scenarios.Compile(s)
}

// ExploreStates explores a compiled test in one mode.
func ExploreStates(c *scenarios.Compiled, mode machine.Mode, opts machine.Options) (*MachineResult, error) {
	m, err := machine.New(c.Program, mode)
	if err != nil {
		return nil, err
	}
	opts.NoWitnesses = true
	r := machine.Explore(m, opts)
	res := &MachineResult{Mode: mode, Complete: r.Complete, Summary: words.Summary(r), Deadlocks: r.DeadlockStates}
	shown := c.Shown()
	for _, o := range r.Outcomes {
		if !c.Filtered(o.Outcome) {
			continue
		}
		res.States = append(res.States, CanonState(o.Outcome.Format(c.Program, shown)))
	}
	slices.Sort(res.States)
	res.States = slices.Compact(res.States)
	return res, nil
}

// bothModes are the modes a test is compared in, in order.
var bothModes = []machine.Mode{machine.TSO, machine.ARM}

// Finding is one outcome on which a mode and herd7 disagree.
type Finding struct {
	State string
	// Class says why it counts: for an outcome the mode reaches,
	// "hw" (the mode's hardware model forbids it) or "lkmm" (LKMM
	// forbids it); for an outcome it misses, a Gap* name.
	Class string
}

// Missing-outcome classes. GapTSO and GapUnexplained are failures; the
// others name a difference machine/RULES.md lists, or an RCU approximation.
const (
	// GapTSO: TSO mode misses an outcome x86-TSO allows (no RCU).
	GapTSO = "tso"
	// GapRCU: the test uses RCU, which herd7's hardware models only
	// approximate (a grace period as a full fence); the missing outcome
	// may be forbidden by real RCU.
	GapRCU = "rcu"
	// GapUnexplained: ARM-like mode misses an outcome ARMv8 allows, and
	// no listed difference fits the program.
	GapUnexplained = "unexplained"
	// GapCtrlJoin: a store after an if whose condition depends on a load;
	// herd7's C-level model ends the control dependency at the join
	// (verified: the outcome goes away when the rest of the thread is
	// copied into both branches).
	GapCtrlJoin = "ctrl-join"
	// (rmw-read-early, noret-rmb and rmw-store, the relaxed-RMW, acquire
	// and smp_rmb gaps, were closed in issue 21, and so was ppoca, a store
	// inside an if forwarded to a later address-dependent load: such
	// misses are failures now.)
	//
	// GapWmbRMW: an RMW after smp_wmb-ordered stores reads before they
	// have committed, while another CPU may write its line.
	GapWmbRMW = "wmb-rmw"
)

// ModeReport compares one mode with its hardware model and LKMM.
type ModeReport struct {
	Mode  machine.Mode
	Model string // herd7 model: "tso" or "arm"
	// Got is the machine's outcome set; Target the outcomes it should
	// reach (the hardware model's, minus those LKMM forbids).
	Got, Target []string
	Complete    bool
	Summary     string
	Unsound     []Finding
	Missing     []Finding
}

// Failures returns the findings that are bugs: every unsound outcome,
// and missing outcomes of class GapTSO or GapUnexplained.
func (m *ModeReport) Failures() []Finding {
	out := slices.Clone(m.Unsound)
	for _, f := range m.Missing {
		if failing(f.Class) {
			out = append(out, f)
		}
	}
	return out
}

// failing reports whether a missing outcome of this class is a bug.
func failing(class string) bool {
	return class == GapTSO || class == GapUnexplained
}

// Exact reports whether the mode reached exactly the target.
func (m *ModeReport) Exact() bool { return len(m.Unsound) == 0 && len(m.Missing) == 0 }

// Report is the comparison of one test.
type Report struct {
	Name string
	Src  string
	Herd map[string]*HerdResult
	// Skip, when its Kind is not NotSkipped, says why the test was not
	// compared (herd7 rejected it or timed out, smpscope rejected it,
	// the machine hit a limit).
	Skip Skip
	// RCU is true when the test has RCU read-side sections or grace
	// periods; Racy when LKMM flags a data race (LKMM then constrains
	// nothing).
	RCU, Racy bool
	// HWNotLKMM are outcomes the hardware model allows but LKMM forbids
	// (per mode model); they are not in the target.
	HWNotLKMM map[string][]string
	Modes     []*ModeReport
}

// Failures returns every failing finding, per mode name.
func (r *Report) Failures() map[string][]Finding {
	out := map[string][]Finding{}
	for _, m := range r.Modes {
		if f := m.Failures(); len(f) > 0 {
			out[m.Mode.String()] = f
		}
	}
	return out
}

// Failed reports whether any mode has a failing finding.
func (r *Report) Failed() bool { return len(r.Failures()) > 0 }

// Skipped reports whether the test was not compared (Skip says why).
func (r *Report) Skipped() bool { return r.Skip.Kind != NotSkipped }

// SkipKind is why a test was not compared.
type SkipKind uint8

// Skip kinds.
const (
	NotSkipped   SkipKind = iota // compared
	HerdTimedOut                 // herd7 ran out of time
	HerdRejected                 // herd7 rejected the test, or flagged an unmatched unlock
	// MachineSkipped: smpscope rejected the test, the machine hit a
	// limit, or no herd7 result was stored for it.
	MachineSkipped
)

// Skip is why a test was not compared: its kind, and the words.
type Skip struct {
	Kind SkipKind
	Why  string // "herd7 lkmm timed out", "machine arm mode: stopped after …"
}

func (s Skip) String() string { return s.Why }

// Signature names a kind of failure, for grouping and minimising: a
// mode, whether it reaches an outcome herd7 forbids (Unsound) or misses
// one it allows, and the finding's class. Its String is the name in
// counts and file names, "arm:unsound-hw" or "tso:missing-tso".
type Signature struct {
	Mode    machine.Mode
	Unsound bool
	Class   string
}

func (s Signature) String() string { return s.Mode.String() + ":" + s.Kind() }

// Kind is the signature without its mode: "unsound-hw".
func (s Signature) Kind() string {
	if s.Unsound {
		return "unsound-" + s.Class
	}
	return "missing-" + s.Class
}

// sortSignatures sorts signatures by name and drops repeats.
func sortSignatures(s []Signature) []Signature {
	slices.SortFunc(s, func(a, b Signature) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(s)
}

// Signature is the kind of failure of the first failing finding of the
// first failing mode; ok is false when nothing fails.
func (r *Report) Signature() (sig Signature, ok bool) {
	for _, m := range r.Modes {
		for _, f := range m.Failures() {
			return Signature{Mode: m.Mode, Unsound: slices.Contains(m.Unsound, f), Class: f.Class}, true
		}
	}
	return Signature{}, false
}

// Signatures returns every failing kind, sorted by name.
func (r *Report) Signatures() []Signature {
	var out []Signature
	for _, m := range r.Modes {
		for _, f := range m.Unsound {
			out = append(out, Signature{m.Mode, true, f.Class})
		}
		for _, f := range m.Missing {
			if failing(f.Class) {
				out = append(out, Signature{m.Mode, false, f.Class})
			}
		}
	}
	return sortSignatures(out)
}

// Kinds is Signatures plus the tolerated missing classes, for studying
// the gaps.
func (r *Report) Kinds() []Signature {
	out := r.Signatures()
	for _, m := range r.Modes {
		for _, f := range m.Missing {
			if !failing(f.Class) {
				out = append(out, Signature{m.Mode, false, f.Class})
			}
		}
	}
	return sortSignatures(out)
}

// Oracle checks tests against herd7.
type Oracle struct {
	Herd *Herd
	// Explore bounds the machine's searches (NoWitnesses is forced).
	Explore machine.Options
}

func (o *Oracle) exploreOpts() machine.Options {
	opts := o.Explore
	if opts.Timeout == 0 {
		opts.Timeout = time.Minute
	}
	if opts.Workers == 0 {
		opts.Workers = 1 // callers run several checks at once
	}
	return opts
}

// Check compares a generated program, using its structure to classify
// ARM-like mode's missing outcomes.
func (o *Oracle) Check(ctx context.Context, p *Program) *Report {
	r := o.CheckSource(ctx, p.Name, p.Source())
	if !r.Skipped() {
		o.classify(ctx, p, r)
	}
	return r
}

// CheckSource compares a test given as source. Without the program's
// structure, ARM-like mode's missing outcomes are GapUnexplained unless
// the test uses RCU.
func (o *Oracle) CheckSource(ctx context.Context, name, src string) *Report {
	r := &Report{Name: name, Src: src, Herd: map[string]*HerdResult{}}
	c, err := Compile(name, src)
	if err != nil {
		r.Skip = Skip{MachineSkipped, "smpscope rejects it: " + err.Error()}
		return r
	}
	for _, m := range Models {
		h := o.Herd.Run(ctx, m, name, src)
		r.Herd[m] = h
		if !h.Accepted {
			if h.TimedOut {
				r.Skip = Skip{HerdTimedOut, "herd7 " + m + " timed out"}
			} else {
				r.Skip = Skip{HerdRejected, "herd7 " + m + " rejects it: " + h.Error}
			}
			return r
		}
	}
	o.compareWith(r, c)
	return r
}

// CompareStored compares a compiled test with herd7 results obtained
// earlier (for example stored in a regression file), without running
// herd7.
func (o *Oracle) CompareStored(name, src string, c *scenarios.Compiled, herd map[string]*HerdResult) *Report {
	r := &Report{Name: name, Src: src, Herd: herd}
	o.compareWith(r, c)
	return r
}

func (o *Oracle) compareWith(r *Report, c *scenarios.Compiled) {
	for _, m := range Models {
		if r.Herd[m] == nil || !r.Herd[m].Accepted {
			r.Skip = Skip{MachineSkipped, "no herd7 " + m + " result"}
			return
		}
		if r.Herd[m].HasFlag("unmatched-unlock") {
			r.Skip = Skip{HerdRejected, "herd7 flags unmatched-unlock"}
			return
		}
	}
	r.RCU = usesRCU(c)
	r.Racy = r.Herd["lkmm"].HasFlag("data-race")
	r.HWNotLKMM = map[string][]string{}
	for _, mode := range bothModes {
		mr, err := ExploreStates(c, mode, o.exploreOpts())
		if err != nil {
			r.Skip = Skip{MachineSkipped, "machine: " + err.Error()}
			return
		}
		if !mr.Complete {
			r.Skip = Skip{MachineSkipped, fmt.Sprintf("machine %s mode: %s", mode, mr.Summary)}
			return
		}
		mrep := r.compare(mr)
		r.Modes = append(r.Modes, mrep)
	}
}

// usesRCU reports whether the program has RCU read-side sections or
// grace periods.
func usesRCU(c *scenarios.Compiled) bool {
	for _, t := range c.Program.Threads {
		for _, in := range t.Code {
			switch in.Op {
			case machine.OpRCULock, machine.OpSyncRCU, machine.OpSRCULock, machine.OpSyncSRCU:
				return true
			}
		}
	}
	return false
}

// compare builds the mode's report from herd7's sets:
//   - reaching an outcome the hardware model forbids is unsound (for RCU
//     tests too: the models treat a grace period as a full fence and
//     readers as nothing, which only allows more than real RCU);
//   - reaching one LKMM forbids is unsound, unless LKMM flags a data
//     race (its verdict is then "undefined");
//   - the target is the hardware model's set minus what LKMM forbids; a
//     missing outcome is GapTSO or GapUnexplained until classify names
//     a listed difference, or GapRCU in RCU tests.
func (r *Report) compare(mr *MachineResult) *ModeReport {
	model := mr.Mode.String()
	hw := r.Herd[model].States
	lk := r.Herd["lkmm"].States
	mrep := &ModeReport{Mode: mr.Mode, Model: model, Got: mr.States, Complete: mr.Complete, Summary: mr.Summary}
	for _, s := range hw {
		if r.Racy || slices.Contains(lk, s) {
			mrep.Target = append(mrep.Target, s)
		} else {
			r.HWNotLKMM[model] = append(r.HWNotLKMM[model], s)
		}
	}
	for _, s := range mr.States {
		switch {
		case !slices.Contains(hw, s):
			mrep.Unsound = append(mrep.Unsound, Finding{s, "hw"})
		case !r.Racy && !slices.Contains(lk, s):
			mrep.Unsound = append(mrep.Unsound, Finding{s, "lkmm"})
		}
	}
	for _, s := range mrep.Target {
		if slices.Contains(mr.States, s) {
			continue
		}
		class := GapUnexplained
		switch {
		case r.RCU:
			class = GapRCU
		case mr.Mode == machine.TSO:
			class = GapTSO
		}
		mrep.Missing = append(mrep.Missing, Finding{s, class})
	}
	return mrep
}

// Mode returns the report of one mode, or nil.
func (r *Report) Mode(m machine.Mode) *ModeReport {
	for _, x := range r.Modes {
		if x.Mode == m {
			return x
		}
	}
	return nil
}

// String summarises the report in a few lines.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", r.Name)
	if r.Skipped() {
		fmt.Fprintf(&b, " skipped: %s\n", r.Skip)
		return b.String()
	}
	for _, m := range Models {
		fmt.Fprintf(&b, " %s=%s", m, r.Herd[m].Observation)
	}
	b.WriteString("\n")
	for _, m := range r.Modes {
		fmt.Fprintf(&b, "  %s mode: %d outcomes, target %d", m.Mode.Title(), len(m.Got), len(m.Target))
		if m.Exact() {
			b.WriteString(", exact\n")
			continue
		}
		b.WriteString("\n")
		for _, f := range m.Unsound {
			fmt.Fprintf(&b, "    reaches (forbidden by %s): %s\n", f.Class, f.State)
		}
		for _, f := range m.Missing {
			fmt.Fprintf(&b, "    misses (%s): %s\n", f.Class, f.State)
		}
	}
	return b.String()
}

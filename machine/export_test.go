package machine

import (
	"cmp"
	"fmt"
	"slices"
)

// What the external tests (package machine_test) need of the explorer's
// internals: its reductions one by one (reduction_test.go) and its state
// encoding (the round trip).

// Reduction is one of the explorer's reductions.
type Reduction = reduction

// Reductions lists every reduction with its name, in a fixed order.
var Reductions = []struct {
	Name string
	R    Reduction
}{
	{"lazy", redLazy}, {"unreadable", redUnreadable}, {"eagerQS", redEagerQS},
	{"graceStep", redGraceStep}, {"private", redPrivate}, {"earlyStore", redEarlyStore},
	{"persistentCPU", redPersistentCPU}, {"postpone", redPostpone}, {"deadLines", redDeadLines},
	{"postponeLock", redPostponeLock}, {"persistentSet", redPersistentSet},
	{"earlyPair", redEarlyPair}, {"symmetry", redSymmetry}, {"partialSet", redPartialSet},
	{"chain", redChain}, {"sleep", redSleep}, {"reservedCommit", redReservedCommit},
	{"deadSections", redDeadSections}, {"outRegs", redOutRegs},
}

// RedSymmetry is the symmetry reduction (symmetry.go).
const RedSymmetry = redSymmetry

// RedLazy and RedUnreadable are the lazy invalidations and those applied
// at once because nobody can read them (explore.go).
const (
	RedLazy       = redLazy
	RedUnreadable = redUnreadable
)

// RedOutRegs is the outcome-register reduction (outregs.go).
const RedOutRegs = redOutRegs

// Automorphisms returns how many automorphisms besides the identity the
// symmetry reduction finds in p.
func Automorphisms(p *Program) int { return len(automorphisms(p)) }

// AllReductions is every reduction.
const AllReductions = allReductions

// Requires is what reduction r relies on (see requires).
func Requires(r Reduction) Reduction { return requires[r] }

// ExploreWithout explores with the reductions off turned off.
func ExploreWithout(m *Machine, opts Options, off Reduction) *Result {
	opts.off = off
	return Explore(m, opts)
}

// RoundTrip encodes s as the search does (with the reductions of on,
// deadLines among them or not) and decodes it again, and reports the
// first way the decoded state differs from s in what a step can observe:
// its encoding, its enabled steps, whether it is final, its outcome, a
// deadlock or a fault, and the encodings of the states every enabled step
// leads to (taken as the search takes it, by perform).
func RoundTrip(m *Machine, s *State, off Reduction) error {
	e := newExplorer(m, Options{Workers: 1, off: off}, NewBudget(1<<30))
	defer e.release()
	w := e.workers[0]
	enc := append(encoding(nil), e.encode(s, w)...)
	blocks := enc.blocks(nil)
	var sc scratch
	var d *State
	if err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v: encoding %v", r, blocks)
			}
		}()
		d = m.decodeState(&sc, blocks[0], blocks[1:], e.on(redDeadLines), e.skipRegs())
		e.fillSkipped(d, s)
		return nil
	}(); err != nil {
		return err
	}
	if again := e.encode(d, w); string(again) != string(enc) {
		return fmt.Errorf("encode(decode(encode(s))) != encode(s)")
	}
	// Queued invalidations decode in location order, not arrival order:
	// the same steps, listed otherwise.
	sorted := func(steps []Step) string {
		slices.SortFunc(steps, func(a, b Step) int {
			return cmp.Or(cmp.Compare(a.CPU, b.CPU), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Arg, b.Arg))
		})
		return fmt.Sprint(steps)
	}
	if a, b := sorted(m.Enabled(s)), sorted(m.Enabled(d)); a != b {
		return fmt.Errorf("enabled steps %s, decoded %s", a, b)
	}
	if m.Final(s) != m.Final(d) || m.Final(s) && m.Outcome(s).Key() != m.Outcome(d).Key() {
		return fmt.Errorf("final/outcome differ")
	}
	if m.Deadlocked(s) != m.Deadlocked(d) {
		return fmt.Errorf("deadlock differs")
	}
	if _, f := m.Fault(s); func() bool { _, g := m.Fault(d); return f != g }() {
		return fmt.Errorf("fault differs")
	}
	for _, st := range m.Enabled(s) {
		// Each step as the search takes it: with what perform takes at
		// once after it (invalidations nobody can read, reports), which
		// the key's dead lines rely on.
		a, b := s.clone(), d.clone()
		e.perform(a, macro{step: st}, nil, func(Step) {})
		e.perform(b, macro{step: st}, nil, func(Step) {})
		ea := string(e.encode(a, w))
		if eb := string(e.encode(b, w)); ea != eb {
			return fmt.Errorf("after %s the encodings differ:\n%v\n%v\nfrom %v", m.ID(st), encoding(ea).blocks(nil), encoding(eb).blocks(nil), blocks)
		}
	}
	return nil
}

// Unfolded returns a machine like New's in which no instruction is
// folded into the step before it: register arithmetic, branches, reader
// markers and fences whose condition holds are steps of their own.
func Unfolded(p *Program, mode Mode) *Machine {
	m := MustNew(p, mode)
	m.noFold = true
	return m
}

// Permuted returns g·s, g·st and g·o for the program's automorphism i
// (symmetry.go), for the equivariance test.
func Permuted(m *Machine, i int, s *State) *State {
	var sc scratch
	var buf permBuf
	return m.sym[i].permute(&sc, s, &buf).clone()
}

// PermutedStep is g·st for automorphism i.
func PermutedStep(m *Machine, i int, st Step) Step { return m.sym[i].step(st) }

// PermutedOutcome is g·o for automorphism i.
func PermutedOutcome(m *Machine, i int, o Outcome) Outcome { return m.sym[i].outcome(o) }

// MayFoldSRCUUnlock is mayFoldSRCUUnlock (persistentCPU's shortcut).
func MayFoldSRCUUnlock(m *Machine, s *State, c int) bool { return m.mayFoldSRCUUnlock(s, c) }

// GraceSet returns the moves gracePeriodStep takes alone at s (a start or
// end taken alone, or srcuStartsWithLocks' starts and locks), as steps,
// and whether it takes any.
func GraceSet(m *Machine, s *State) ([]Step, bool) {
	e := newExplorer(m, Options{Workers: 1}, NewBudget(1<<30))
	defer e.release()
	mvs, ok := e.gracePeriodStep(s, e.workers[0])
	var steps []Step
	for _, mv := range mvs {
		steps = append(steps, mv.step)
	}
	return steps, ok
}

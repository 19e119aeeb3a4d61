package litmusgen

import (
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
)

const herdSample = `Test MP Allowed
States 3
0:r0=0; 1:r0=x; [p]=x; [x]=1;
0:r0=-1; 1:r0=x; [p]=x; [x]=1;
1:r0=x; 0:r0=1; [p]=x; [x]=1;
Ok
Witnesses
Positive: 1 Negative: 2
Flag data-race
Condition exists (0:r0=1)
Observation MP Sometimes 1 2
Time MP 0.01
`

func TestParseHerd(t *testing.T) {
	var r HerdResult
	parseHerd(herdSample, &r)
	if !r.Accepted || r.Observation != "Sometimes" {
		t.Fatalf("parsed %+v", r)
	}
	want := []string{"0:r0=-1; 1:r0=x; p=x; x=1;", "0:r0=0; 1:r0=x; p=x; x=1;", "0:r0=1; 1:r0=x; p=x; x=1;"}
	if !slices.Equal(r.States, want) {
		t.Errorf("states %q, want %q", r.States, want)
	}
	if !r.HasFlag("data-race") || r.HasFlag("lock-final") {
		t.Errorf("flags %v", r.Flags)
	}
	var none HerdResult
	parseHerd("", &none)
	if none.Accepted {
		t.Errorf("empty output accepted")
	}
	if got := CanonState("y=2; 0:r1=&x; [x]=0;"); got != "0:r1=x; x=0; y=2;" {
		t.Errorf("CanonState = %q", got)
	}
	if got := StateCond("0:r0=1; x=2;"); got != `0:r0=1 /\ x=2` {
		t.Errorf("StateCond = %q", got)
	}
}

// mpProgram is MP without barriers: TSO forbids 1:r0=1 /\ 1:r1=0,
// ARM-like mode reaches it.
func mpProgram() *Program {
	return &Program{
		Name: "MP",
		Ints: []Location{{Name: "x"}, {Name: "y"}},
		Threads: []*Thread{
			{Body: []*Stmt{{Text: "WRITE_ONCE(*x, 1);", Op: OpStore}, {Text: "WRITE_ONCE(*y, 1);", Op: OpStore}}},
			{Regs: []Reg{{Name: "r0"}, {Name: "r1"}}, Body: []*Stmt{
				{Text: "r0 = READ_ONCE(*y);", Defs: []int{0}, Op: OpLoad},
				{Text: "r1 = READ_ONCE(*x);", Defs: []int{1}, Op: OpLoad},
			}},
		},
		Exists: `1:r0=1 /\ 1:r1=0`,
	}
}

// TestCompareStored checks the comparison rules on MP with made-up herd7
// results: an outcome outside the mode's model is unsound, one outside
// LKMM too (unless LKMM flags a data race), a model outcome the mode
// misses is a failure in TSO mode and unexplained in ARM-like mode.
func TestCompareStored(t *testing.T) {
	p := mpProgram()
	src := p.Source()
	c, err := Compile(p.Name, src)
	if err != nil {
		t.Fatal(err)
	}
	sc := []string{"1:r0=0; 1:r1=0; x=1; y=1;", "1:r0=0; 1:r1=1; x=1; y=1;", "1:r0=1; 1:r1=1; x=1; y=1;"}
	weak := "1:r0=1; 1:r1=0; x=1; y=1;"
	fake := "1:r0=2; 1:r1=0; x=1; y=1;"
	herd := func(lkmm, tso, arm []string, flags ...string) map[string]*HerdResult {
		return map[string]*HerdResult{
			"lkmm": {Model: "lkmm", Accepted: true, States: lkmm, Flags: flags, Observation: "Sometimes"},
			"tso":  {Model: "tso", Accepted: true, States: tso, Observation: "Sometimes"},
			"arm":  {Model: "arm", Accepted: true, States: arm, Observation: "Sometimes"},
		}
	}
	all := append(slices.Clone(sc), weak)
	slices.Sort(all)
	o := &Oracle{}

	r := o.CompareStored("MP", src, c, herd(all, sc, all))
	if r.Skipped() || r.Failed() {
		t.Fatalf("the right sets fail:\n%s", r)
	}
	if !r.Mode(machine.TSO).Exact() || !r.Mode(machine.ARM).Exact() {
		t.Errorf("not exact:\n%s", r)
	}

	// ARMv8 said to forbid MP: ARM-like mode is unsound.
	r = o.CompareStored("MP", src, c, herd(all, sc, sc))
	if got := r.Mode(machine.ARM).Unsound; len(got) != 1 || got[0] != (Finding{weak, "hw"}) {
		t.Errorf("ARM unsound = %v", got)
	}
	if s, ok := r.Signature(); !ok || s != (Signature{machine.ARM, true, "hw"}) || s.String() != "arm:unsound-hw" {
		t.Errorf("signature %v (%v)", s, ok)
	}

	// LKMM said to forbid MP: unsound against LKMM, unless it flags a race.
	r = o.CompareStored("MP", src, c, herd(sc, sc, all))
	if got := r.Mode(machine.ARM).Unsound; len(got) != 1 || got[0].Class != "lkmm" {
		t.Errorf("ARM unsound = %v", got)
	}
	if got := r.HWNotLKMM["arm"]; !slices.Equal(got, []string{weak}) {
		t.Errorf("HWNotLKMM = %v", got)
	}
	r = o.CompareStored("MP", src, c, herd(sc, sc, all, "data-race"))
	if r.Failed() {
		t.Errorf("racy LKMM still constrains:\n%s", r)
	}

	// A model outcome no mode reaches.
	withFake := append(slices.Clone(all), fake)
	slices.Sort(withFake)
	tsoFake := append(slices.Clone(sc), fake)
	slices.Sort(tsoFake)
	r = o.CompareStored("MP", src, c, herd(withFake, tsoFake, withFake))
	if got := r.Mode(machine.TSO).Missing; len(got) != 1 || got[0] != (Finding{fake, GapTSO}) {
		t.Errorf("TSO missing = %v", got)
	}
	if got := r.Mode(machine.ARM).Missing; len(got) != 1 || got[0] != (Finding{fake, GapUnexplained}) {
		t.Errorf("ARM missing = %v", got)
	}
	if got := signatureNames(r.Signatures()); !slices.Equal(got, []string{"arm:missing-unexplained", "tso:missing-tso"}) {
		t.Errorf("signatures %v", got)
	}

	// The same, as a regression file: it must round-trip and fail the
	// same way.
	req := Requirements(r)
	file := RegressionSource(p, r, req, "title", []string{"story"})
	rg, err := ParseRegression("MP.litmus", file)
	if err != nil {
		t.Fatalf("%v\n%s", err, file)
	}
	for _, m := range Models {
		if !slices.Equal(rg.Herd[m].States, r.Herd[m].States) {
			t.Errorf("%s states %v, wrote %v", m, rg.Herd[m].States, r.Herd[m].States)
		}
	}
	if !slices.Equal(rg.Require, req) {
		t.Errorf("requirements %v, wrote %v", rg.Require, req)
	}
	bad, _, err := rg.Verify(o)
	if err != nil || len(bad) != 2 {
		t.Errorf("Verify = %q, %v", bad, err)
	}
}

// TestMinimize shrinks random programs with a made-up predicate (some
// cmpxchg, two CPUs) and checks the results are minimal for it.
func TestMinimize(t *testing.T) {
	hasCmpxchg := func(p *Program) bool {
		n := 0
		for _, th := range p.Threads {
			for _, it := range flatten(th.Body, false, nil) {
				if strings.Contains(it.s.Text, "cmpxchg") {
					n++
				}
			}
		}
		return n > 0 && len(p.Threads) >= 2
	}
	tried := 0
	for seed := uint64(0); seed < 300 && tried < 10; seed++ {
		p := Generate(seed, Config{MinCPUs: 3, MinInstrs: 3})
		if !hasCmpxchg(p) {
			continue
		}
		tried++
		small := Minimize(p, hasCmpxchg, 0)
		if !hasCmpxchg(small) {
			t.Fatalf("seed %d: the result does not satisfy the predicate", seed)
		}
		if len(small.Threads) != 2 {
			t.Errorf("seed %d: %d threads left", seed, len(small.Threads))
		}
		// One-minimal: no valid one-step shrink still satisfies it.
		for _, q := range shrinks(small) {
			if q = prune(q); derefsDefined(q) && hasCmpxchg(q) {
				t.Errorf("seed %d: not minimal; this still has a cmpxchg:\n%s", seed, q.Source())
				break
			}
		}
		if _, err := Compile(small.Name, small.Source()); err != nil {
			t.Errorf("seed %d: %v\n%s", seed, err, small.Source())
		}
		if !strings.Contains(p.Source(), "cmpxchg") {
			t.Errorf("seed %d: the original changed", seed)
		}
	}
	if tried == 0 {
		t.Fatal("no program with a cmpxchg")
	}
}

// TestJoinCopies checks the transformation behind the ctrl-join class.
func TestJoinCopies(t *testing.T) {
	p := &Program{Name: "j", Ints: []Location{{Name: "x"}, {Name: "y"}}, Threads: []*Thread{{
		Regs: []Reg{{Name: "r0"}},
		Body: []*Stmt{
			{Text: "r0 = READ_ONCE(*x);", Defs: []int{0}, Op: OpLoad},
			{Cond: "r0", Uses: []int{0}, Op: OpIf, Body: []*Stmt{{Text: "WRITE_ONCE(*y, 1);", Op: OpStore}}},
			{Text: "WRITE_ONCE(*y, 2);", Op: OpStore},
		},
	}}}
	q, ok := joinCopies(p)
	if !ok {
		t.Fatal("nothing to copy")
	}
	src := q.Source()
	if strings.Count(src, "WRITE_ONCE(*y, 2);") != 2 || !strings.Contains(src, "} else {") {
		t.Errorf("rest not copied into both branches:\n%s", src)
	}
	if strings.Count(p.Source(), "WRITE_ONCE(*y, 2);") != 1 {
		t.Errorf("the original changed")
	}
	if _, err := Compile(q.Name, src); err != nil {
		t.Error(err)
	}
}

// TestWithoutRCU checks the transformation behind the rcu class.
func TestWithoutRCU(t *testing.T) {
	p, err := CycleProgram("G+R+B", "RW")
	if err != nil {
		t.Fatal(err)
	}
	src := withoutRCU(p).Source()
	if strings.Contains(src, "rcu_") || strings.Contains(src, "synchronize") || strings.Count(src, "smp_mb();") != 2 {
		t.Errorf("RCU left, or grace periods not smp_mb():\n%s", src)
	}
	if !strings.Contains(p.Source(), "synchronize_rcu();") {
		t.Errorf("the original changed")
	}
	if _, err := Compile("x", src); err != nil {
		t.Error(err)
	}
}

// signatureNames are the signatures' names, in order.
func signatureNames(sigs []Signature) []string {
	var out []string
	for _, s := range sigs {
		out = append(out, s.String())
	}
	return out
}

// TestWmbRMWWithWriter checks the shape behind the wmb-rmw class: an RMW
// after a store and smp_wmb is the gap only when another CPU may write
// its line (else the machine reads it past the marker).
func TestWmbRMWWithWriter(t *testing.T) {
	prog := func(otherWritesY bool) *Program {
		other := []*Stmt{{Text: "WRITE_ONCE(*x, 2);", Op: OpStore}}
		if otherWritesY {
			other = append(other, &Stmt{Text: "WRITE_ONCE(*y, 2);", Op: OpStore})
		}
		return &Program{Name: "w", Ints: []Location{{Name: "x"}, {Name: "y"}}, Threads: []*Thread{{
			Regs: []Reg{{Name: "r0"}},
			Body: []*Stmt{
				{Text: "WRITE_ONCE(*x, 1);", Op: OpStore},
				{Text: "smp_wmb();", Op: OpFence},
				{Text: "r0 = xchg_relaxed(y, 1);", Defs: []int{0}, Op: OpRMWRelaxed},
			},
		}, {Body: other}}}
	}
	for _, writer := range []bool{false, true} {
		p := prog(writer)
		if !patterns(p)[GapWmbRMW] {
			t.Fatalf("the shape is not matched:\n%s", p.Source())
		}
		if got := wmbRMWWithWriter(p); got != writer {
			t.Errorf("another CPU writes y: %v; wmbRMWWithWriter = %v\n%s", writer, got, p.Source())
		}
	}
}

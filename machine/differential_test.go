package machine_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/scenarios/words"
)

// Differential tests: the explorer against the reference explorer of
// reference_test.go, on the library, the shared corpora and random
// programs. They agree on the set of outcomes, on whether some execution
// deadlocks and on whether some execution faults; every witness the
// explorer gives replays to its outcome.

var modes = []machine.Mode{machine.TSO, machine.ARM}

// refLimit bounds the reference search of one program and mode. Programs
// whose complete state space is larger are not compared (and counted);
// -reflimit raises it for a long run (.ci/run's long lane).
var refLimit = defaultRefLimit

const defaultRefLimit = 30_000

func init() {
	flag.IntVar(&refLimit, "reflimit", refLimit, "largest reference search the differential tests run")
}

// compile parses and compiles litmus source.
func compile(t testing.TB, name string, src []byte) *scenarios.Compiled {
	t.Helper()
	s, err := scenarios.Parse(name, src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	c, err := scenarios.Compile(s)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return c
}

// outcomeKeys returns the sorted outcome keys of a map or result.
func outcomeKeys(outs map[string]machine.Outcome) []string {
	var ks []string
	for k := range outs {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// difference reports the first disagreement between the explorer and the
// reference on p in mode, or "" when they agree. It returns skipped when
// the reference did not finish within refLimit states.
func difference(p *machine.Program, mode machine.Mode) (diff string, skipped bool) {
	diff, ref := compareWithReference(p, mode, refLimit)
	return diff, !ref.complete
}

// compareWithReference is difference with the reference's result, for
// its size.
func compareWithReference(p *machine.Program, mode machine.Mode, limit int) (diff string, ref refResult) {
	m := machine.MustNew(p, mode)
	ref = refExplore(m, limit)
	if !ref.complete {
		return "", ref
	}
	res := machine.Explore(m, machine.Options{Workers: 1})
	if !res.Complete {
		return fmt.Sprintf("explorer incomplete (%s) where the reference finished in %d states", words.Summary(res), ref.states), ref
	}
	got := map[string]machine.Outcome{}
	for _, o := range res.Outcomes {
		got[o.Outcome.Key()] = o.Outcome
		states, _, err := m.Replay(o.Witness)
		if err != nil {
			return fmt.Sprintf("witness of %s does not replay: %v", o.Outcome.Format(p, nil), err), ref
		}
		last := states[len(states)-1]
		if !m.Final(last) || m.Outcome(last).Key() != o.Outcome.Key() {
			return fmt.Sprintf("witness of %s does not end in that outcome", o.Outcome.Format(p, nil)), ref
		}
	}
	var missing, extra []string
	for k, o := range ref.outcomes {
		if _, ok := got[k]; !ok {
			missing = append(missing, o.Format(p, nil))
		}
	}
	for k, o := range got {
		if _, ok := ref.outcomes[k]; !ok {
			extra = append(extra, o.Format(p, nil))
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	var b strings.Builder
	if len(missing) > 0 {
		fmt.Fprintf(&b, "explorer misses %d outcome(s) the reference reaches: %s\n", len(missing), strings.Join(missing, " | "))
	}
	if len(extra) > 0 {
		fmt.Fprintf(&b, "explorer reaches %d outcome(s) the reference does not: %s\n", len(extra), strings.Join(extra, " | "))
	}
	// Without witnesses the valuations take another path (outregs.go,
	// propagateSets): the same outcomes, counts and pairs, or a diff.
	b.WriteString(sameWithoutWitnesses(m, res))
	if (res.DeadlockStates > 0) != ref.deadlock {
		fmt.Fprintf(&b, "deadlocks: explorer %d states, reference %v\n", res.DeadlockStates, ref.deadlock)
	}
	if (res.FaultStates > 0) != ref.fault {
		fmt.Fprintf(&b, "faults: explorer %d states, reference %v\n", res.FaultStates, ref.fault)
	}
	return b.String(), ref
}

// programText lists a program for failure messages.
func programText(p *machine.Program) string {
	var b strings.Builder
	for _, t := range p.Threads {
		fmt.Fprintf(&b, "%s:", t.Name)
		for _, in := range t.Code {
			fmt.Fprintf(&b, " %s", strings.TrimSpace(in.Text))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func checkDifference(t *testing.T, name string, p *machine.Program) (compared int) {
	t.Helper()
	for _, mode := range modes {
		diff, skipped := difference(p, mode)
		if skipped {
			t.Logf("%s/%s: reference search over %d states; not compared", name, mode, refLimit)
			continue
		}
		compared++
		if diff != "" {
			t.Errorf("%s/%s:\n%s%s", name, mode, diff, programText(p))
		}
	}
	return compared
}

// TestReferenceLibrary compares the explorer with the reference on every
// built-in scenario.
func TestReferenceLibrary(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	entries, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		c, err := scenarios.Compile(e.Scenario)
		if err != nil {
			t.Fatalf("%s: %v", e.Scenario.Name, err)
		}
		n += checkDifference(t, e.Scenario.Name, c.Program)
	}
	t.Logf("%d library scenarios, %d explorations compared", len(entries), n)
}

// sharedLitmus is the shared conformance corpus beside the project.
const sharedLitmus = "../../shared/litmus"

// TestReferenceCorpus compares the explorer with the reference on every
// file of the shared corpora that smpscope accepts.
func TestReferenceCorpus(t *testing.T) {
	t.Parallel() // one of the long differential tests: they share both cores after the quick ones
	var files []string
	filepath.WalkDir(sharedLitmus, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".litmus") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no shared corpus at " + sharedLitmus)
	}
	n, rejected := 0, 0
	var compared, notCompared, listed atomic.Int64
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenarios.Parse(path, src)
		if err != nil {
			rejected++
			continue
		}
		c, err := scenarios.Compile(s)
		if err != nil {
			rejected++
			continue
		}
		if testing.Short() && len(c.Program.Threads) > 3 {
			continue
		}
		rel, _ := filepath.Rel(sharedLitmus, path)
		n++
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			for _, mode := range modes {
				name := rel + "/" + mode.String()
				large := overDefaultLimit[name]
				if large && refLimit <= defaultRefLimit {
					// It would only spend the limit's worth of states
					// and conclude nothing: the long lane compares it.
					listed.Add(1)
					continue
				}
				diff, ref := compareWithReference(c.Program, mode, refLimit)
				over := !ref.complete || ref.states > defaultRefLimit
				switch {
				case large && !over:
					t.Errorf("%s: the reference finishes in %d states, within the default limit of %d: take it off overDefaultLimit", name, ref.states, defaultRefLimit)
				case !large && over && refLimit > defaultRefLimit:
					t.Errorf("%s: the reference needs more than the default limit of %d states: add it to overDefaultLimit", name, defaultRefLimit)
				}
				if !ref.complete {
					t.Logf("%s: reference search over %d states; not compared", name, refLimit)
					notCompared.Add(1)
					continue
				}
				compared.Add(1)
				if diff != "" {
					t.Errorf("%s:\n%s%s", name, diff, programText(c.Program))
				}
			}
		})
	}
	t.Cleanup(func() {
		t.Logf("%d files, %d not accepted by the parser, %d accepted; %d explorations compared, %d over the limit of %d states, %d listed in overDefaultLimit and left to the long lane",
			len(files), rejected, n, compared.Load(), notCompared.Load(), refLimit, listed.Load())
	})
}

// overDefaultLimit lists the corpus explorations (file/mode) whose
// reference search needs more than defaultRefLimit states. The default
// run skips them instead of spending 30,000 states on each to conclude
// nothing; with a larger -reflimit (the long lane) they are compared,
// and the list is checked both ways: a listed exploration that fits in
// the default limit, or an unlisted one that does not, fails the run.
// The comments give the reference's size when the list was made: with
// the long lane's -reflimit 200000, those with a number are compared.
var overDefaultLimit = map[string]bool{
	"kernel/ISA2+pooncelock+pooncelock+pombonce.litmus/arm":                         true, // 36,957 states
	"kernel/Z6.0+pooncelock+poonceLock+pombonce.litmus/arm":                         true, // 44,455 states
	"kernel/Z6.0+pooncelock+pooncelock+pombonce.litmus/arm":                         true, // 49,190 states
	"public/herdtools-linux/C-ISA2+o-r+a-r+a-r+a-o.litmus/arm":                      true, // over 200,000
	"public/herdtools-linux/C-LB+a-r+a-r+a-r+a-r.litmus/arm":                        true, // over 200,000
	"public/herdtools-linux/C-WWC+o-cge-o+o-cge-o+o+dstb.litmus/arm":                true, // 31,892 states
	"public/herdtools-linux/C-Z6.2+o-r+a-r+a-r+a-o.litmus/arm":                      true, // over 200,000
	"public/herdtools-linux/ISA2+pooncelock+pooncelock+pombonce.litmus/arm":         true, // 36,957 states
	"public/herdtools-linux/Z6.0+pooncelock+pooncelock+pombonce.litmus/arm":         true, // 49,190 states
	"public/herdtools-linux/Z6.0+pooncelock+pooncelock-mb+pombonce.litmus/arm":      true, // 44,455 states
	"public/perfbook/C-Lock-across-unlock-lock-3.litmus/arm":                        true, // over 200,000
	"public/perfbook/C-MP+o-o-rcusync-o+o-o-rcusync-o+rl-o-o-rul.litmus/arm":        true, // 196,720 states
	"public/perfbook/C-MP+o-xchg-rcusync-o+o-xchg-rcusync-o+rl-o-o-rul.litmus/arm":  true, // 44,216 states (the grace periods' CPUs report with stores buffered)
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-C.litmus/arm":     true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-C.litmus/tso":     true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-CE.litmus/arm":    true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-CE.litmus/tso":    true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-X.litmus/arm":     true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-X.litmus/tso":     true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-XE.litmus/arm":    true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-XE.litmus/tso":    true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u.litmus/arm":       true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-C.litmus/arm":             true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-C.litmus/tso":             true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-CE.litmus/arm":            true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-CE.litmus/tso":            true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-X.litmus/arm":             true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-X.litmus/tso":             true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-XE.litmus/arm":            true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-XE.litmus/tso":            true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u.litmus/arm":               true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u-C.litmus/arm":                     true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u-CE.litmus/arm":                    true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u-X.litmus/arm":                     true, // over 200,000
	"public/perfbook/C-SB+l-o-o-u+l-o-o-u+l-o-o-u-XE.litmus/arm":                    true, // over 200,000
	"public/perfbook/C-SB+o-rcusync-o+o-rcusync-o+rl-o-o-rul+rl-o-o-rul.litmus/arm": true, // over 200,000
	"public/perfbook/C-double-check-rcu-3.litmus/arm":                               true, // 44,587 states
	"public/perfbook/C-double-check-rcu-4.litmus/arm":                               true, // over 200,000
	"public/perfbook/C-double-check-rcu-4.litmus/tso":                               true, // 173,897 states
}

func BenchmarkReference(b *testing.B) {
	src, err := os.ReadFile(sharedLitmus + "/kernel/IRIW+fencembonceonces+OnceOnce.litmus")
	if err != nil {
		b.Skip(err)
	}
	c := compile(b, "iriw", src)
	m := machine.MustNew(c.Program, machine.ARM)
	for i := 0; i < b.N; i++ {
		r := refExplore(m, refLimit)
		b.ReportMetric(float64(r.states), "states")
	}
}

// sameWithoutWitnesses explores m again without witnesses and says how
// its result differs from res, the search with them ("" for not at all):
// the outcomes and how many final states gave each, the deadlocked,
// faulted and misspeculated states, the states and the pairs.
func sameWithoutWitnesses(m *machine.Machine, res *machine.Result) string {
	nw := machine.Explore(m, machine.Options{Workers: 1, NoWitnesses: true})
	count := func(r *machine.Result) string {
		var b strings.Builder
		for _, o := range r.Outcomes {
			fmt.Fprintf(&b, "%s ×%d\n", o.Outcome.Key(), o.States)
		}
		fmt.Fprintf(&b, "deadlocks %d, faults %d, misspeculated %d, states %d, pairs %d, complete %v\n",
			r.DeadlockStates, r.FaultStates, r.MisspecStates, r.States, r.Pairs, r.Complete)
		return b.String()
	}
	if a, b := count(res), count(nw); a != b {
		return fmt.Sprintf("without witnesses the search differs:\n--- with\n%s--- without\n%s", a, b)
	}
	return ""
}

package machine_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
)

// Differential tests: the explorer against the reference explorer of
// reference_test.go, on the library, the shared corpora and random
// programs. They agree on the set of outcomes, on whether some execution
// deadlocks and on whether some execution faults; every witness the
// explorer gives replays to its outcome.

var modes = []machine.Mode{machine.TSO, machine.ARM}

// refLimit bounds the reference search of one program and mode. Programs
// whose complete state space is larger are not compared (and counted);
// -reflimit raises it for a long run.
var refLimit = 30_000

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
	c, err := s.Compile()
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
	m := machine.MustNew(p, mode)
	ref := refExplore(m, refLimit)
	if !ref.complete {
		return "", true
	}
	res := machine.Explore(m, machine.Options{Workers: 1})
	if !res.Complete {
		return fmt.Sprintf("explorer incomplete (%s) where the reference finished in %d states", res.Summary(), ref.states), false
	}
	got := map[string]machine.Outcome{}
	for _, o := range res.Outcomes {
		got[o.Outcome.Key()] = o.Outcome
		states, _, err := m.Replay(o.Witness)
		if err != nil {
			return fmt.Sprintf("witness of %s does not replay: %v", o.Outcome.Format(p, nil), err), false
		}
		last := states[len(states)-1]
		if !m.Final(last) || m.Outcome(last).Key() != o.Outcome.Key() {
			return fmt.Sprintf("witness of %s does not end in that outcome", o.Outcome.Format(p, nil)), false
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
	if (res.DeadlockStates > 0) != ref.deadlock {
		fmt.Fprintf(&b, "deadlocks: explorer %d states, reference %v\n", res.DeadlockStates, ref.deadlock)
	}
	if (res.FaultStates > 0) != ref.fault {
		fmt.Fprintf(&b, "faults: explorer %d states, reference %v\n", res.FaultStates, ref.fault)
	}
	return b.String(), false
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
	entries, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		c, err := e.Scenario.Compile()
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
		c, err := s.Compile()
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
			checkDifference(t, rel, c.Program)
		})
	}
	t.Logf("%d files, %d not accepted by the parser, %d compared", len(files), rejected, n)
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

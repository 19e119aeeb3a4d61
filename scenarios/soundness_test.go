package scenarios

import (
	"os"
	"path/filepath"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
)

// explored is one scenario's exhaustive result in one mode.
type exploredResult struct {
	res     *machine.Result
	verdict Verdict
}

func exploreFull(t *testing.T, cs *Compiled, mode machine.Mode, opts machine.Options) exploredResult {
	t.Helper()
	m, err := machine.New(cs.Program, mode)
	if err != nil {
		t.Fatal(err)
	}
	res := machine.Explore(m, opts)
	if !res.Complete {
		t.Fatalf("%s/%s: %s", cs.Scenario.Name, mode, words.Summary(res))
	}
	return exploredResult{res, cs.ResultVerdict(res)}
}

// readExpectedModes reads expected.tsv: file -> column -> verdict.
func readExpectedModes(t *testing.T) map[string]map[string]syntax.Observation {
	rows, err := readTSV(filepath.Join(corpusDir, "expected.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]syntax.Observation{}
	for _, r := range rows {
		row := map[string]syntax.Observation{}
		for col, v := range r {
			row[col] = syntax.Observation(v)
		}
		out[r["file"]] = row
	}
	return out
}

// TestCorpusSoundnessAndReduction explores every corpus file in both modes
// and checks the per-mode verdicts of expected.tsv, that no outcome a
// "Result: Never" forbids is reached in either mode, and that the reduced
// and the unreduced search reach the same outcomes on every file.
func TestCorpusSoundnessAndReduction(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("conformance corpus not present at %s", corpusDir)
	}
	expected := readExpectedModes(t)
	if len(expected) == 0 {
		t.Fatal("expected.tsv has no rows")
	}
	for file, want := range expected {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(corpusDir, file))
			if err != nil {
				t.Fatal(err)
			}
			sc, err := Parse(file, src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			cs, err := Compile(sc)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
				got := exploreFull(t, cs, mode, machine.Options{})
				if sc.Meta.Result == syntax.Never && got.verdict.Positive > 0 {
					t.Errorf("%s: SOUNDNESS: Result: Never, but %s mode reaches it (%d final states)", file, mode, got.verdict.Positive)
				}
				if w := want[mode.String()]; got.verdict.Observation != w {
					t.Errorf("%s mode: got %s, expected.tsv says %s", mode, got.verdict.Observation, w)
				}
			}
		})
	}
}

// TestLibraryDeadlocks explores every built-in scenario in both modes:
// none may reach an outcome its "Result: Never" forbids or deadlock. (The
// machine's differential tests compare every scenario's search with the
// reference explorer.)
func TestLibraryDeadlocks(t *testing.T) {
	lib, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lib {
		t.Run(e.Name, func(t *testing.T) {
			cs, err := Compile(e.Scenario)
			if err != nil {
				t.Fatal(err)
			}
			for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
				got := exploreFull(t, cs, mode, machine.Options{})
				if e.Result == syntax.Never && got.verdict.Positive > 0 {
					t.Errorf("SOUNDNESS: Result: Never, but %s mode reaches it", mode)
				}
				if len(got.res.Deadlocks) > 0 {
					t.Errorf("%s mode: %d deadlocks: %v", mode, len(got.res.Deadlocks), got.res.Deadlocks[0].Waits)
				}
			}
		})
	}
}

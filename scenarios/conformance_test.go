package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"smpscope/machine"
)

// explore runs the explorer on a compiled scenario in
// one mode and returns the verdict of its final clause.
func explore(t *testing.T, c *Compiled, mode machine.Mode) Verdict {
	t.Helper()
	m, err := machine.New(c.Program, mode)
	if err != nil {
		t.Fatalf("machine.New: %v", err)
	}
	r := machine.Explore(m, machine.Options{Timeout: time.Minute})
	if !r.Complete {
		t.Fatalf("exploration incomplete: %s", r.Summary())
	}
	v := c.ResultVerdict(r)
	outs, counts := resultOutcomes(r)
	if v2 := c.Verdict(outs, counts); v2 != v {
		t.Fatalf("ResultVerdict %+v differs from Verdict %+v", v, v2)
	}
	return v
}

// TestConformance compiles every corpus file and checks that exploring it
// in TSO and ARM-like mode gives the verdicts of expected.tsv. A wrong
// primitive mapping in the compiler shows up here as a wrong verdict.
func TestConformance(t *testing.T) {
	files := corpusFiles(t)
	data, err := os.ReadFile(filepath.Join(corpusDir, "expected.tsv"))
	if err != nil {
		t.Skipf("no expected.tsv: %v", err)
	}
	want := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 4 && f[0] != "file" {
			want[f[0]] = f[1:]
		}
	}
	for _, path := range files {
		rel, _ := filepath.Rel(corpusDir, path)
		rel = filepath.ToSlash(rel)
		w, ok := want[rel]
		if !ok {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			c, err := s.Compile()
			if err != nil {
				t.Fatal(err)
			}
			for i, mode := range []machine.Mode{machine.TSO, machine.ARM} {
				name := []string{"tso", "arm"}[i]
				if got := explore(t, c, mode).Observation; string(got) != w[i+1] {
					t.Errorf("%s: %s, expected.tsv says %s (lkmm %s)", name, got, w[i+1], w[0])
				}
			}
		})
	}
}

// TestLibrarySoundness checks that no built-in scenario whose Result says
// LKMM never allows the outcome reaches it in either mode.
func TestLibrarySoundness(t *testing.T) {
	entries, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Result != Never {
			continue
		}
		t.Run(e.File, func(t *testing.T) {
			c, err := e.Scenario.Compile()
			if err != nil {
				t.Fatal(err)
			}
			for i, mode := range []machine.Mode{machine.TSO, machine.ARM} {
				if v := explore(t, c, mode); v.Positive > 0 {
					t.Errorf("%s mode reaches an outcome LKMM forbids (%+v)", []string{"TSO", "ARM-like"}[i], v)
				}
			}
		})
	}
}

package scenarios

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"smpscope/scenarios/syntax"
	"smpscope/scenarios/syntax/syntaxtest"
)

// corpusDir is the shared conformance corpus, relative to this package.
const corpusDir = "../../shared/litmus"

// corpusFiles returns every .litmus file of the shared corpus, or skips
// the test when the corpus is not there.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("conformance corpus %s not present: %v", corpusDir, err)
	}
	var files []string
	err := filepath.WalkDir(corpusDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(path) == ".litmus" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Skipf("no .litmus files under %s", corpusDir)
	}
	return files
}

func mustParse(t testing.TB, src string) *syntax.Scenario {
	t.Helper()
	return syntaxtest.MustParse(t, src, KernelFuncs)
}

func mustCompile(t testing.TB, src string) *Compiled {
	t.Helper()
	c, err := Compile(mustParse(t, src))
	if err != nil {
		t.Fatalf("Compile: %v\nsource:\n%s", err, src)
	}
	return c
}

// checkRoundTrip asserts parse → Format → parse gives an equal scenario and
// that formatting is idempotent.
func checkRoundTrip(t testing.TB, name string, s *syntax.Scenario) {
	t.Helper()
	syntaxtest.RoundTrip(t, name, s, KernelFuncs)
}

package scenarios

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
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

// clearPositions zeroes every Position in the tree rooted at v (a pointer),
// so that trees parsed from differently laid out sources can be compared.
func clearPositions(v any) {
	clearValue(reflect.ValueOf(v), map[uintptr]bool{})
}

var positionType = reflect.TypeOf(Position{})

func clearValue(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		clearValue(v.Elem(), seen)
	case reflect.Interface:
		if !v.IsNil() {
			clearValue(v.Elem(), seen)
		}
	case reflect.Struct:
		if v.Type() == positionType {
			if v.CanSet() {
				v.Set(reflect.Zero(positionType))
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			clearValue(v.Field(i), seen)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			clearValue(v.Index(i), seen)
		}
	}
}

// sameAST reports whether two scenarios are equal apart from positions
// (and File). It modifies both.
func sameAST(a, b *Scenario) bool {
	clearPositions(a)
	clearPositions(b)
	a.File, b.File = "", ""
	return reflect.DeepEqual(a, b)
}

func mustParse(t testing.TB, src string) *Scenario {
	t.Helper()
	s, err := Parse("test.litmus", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\nsource:\n%s", err, src)
	}
	return s
}

func mustCompile(t testing.TB, src string) *Compiled {
	t.Helper()
	c, err := mustParse(t, src).Compile()
	if err != nil {
		t.Fatalf("Compile: %v\nsource:\n%s", err, src)
	}
	return c
}

// checkRoundTrip asserts parse → Format → parse gives an equal scenario and
// that formatting is idempotent.
func checkRoundTrip(t testing.TB, name string, s *Scenario) {
	t.Helper()
	out := Format(s)
	s2, err := Parse(name, []byte(out))
	if err != nil {
		t.Fatalf("%s: reparse of Format output: %v\n%s", name, err, out)
	}
	if out2 := Format(s2); out2 != out {
		t.Errorf("%s: Format is not idempotent:\n--- first\n%s\n--- second\n%s", name, out, out2)
	}
	if !sameAST(s, s2) {
		t.Errorf("%s: round trip changed the scenario; formatted:\n%s", name, out)
	}
}

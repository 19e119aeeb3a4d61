// Package scenariotest holds what the tests of the packages that use
// scenarios share (like testing/fstest, it is imported by tests only).
package scenariotest

import (
	"testing"

	"smpscope/scenarios"
)

// Spec parses and compiles a litmus test written in a test, failing t on
// any error.
func Spec(t testing.TB, name, src string) *scenarios.Spec {
	t.Helper()
	sc, err := scenarios.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := scenarios.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	return scenarios.NewSpec(c)
}

package views

import (
	"testing"

	"smpscope/scenarios"
)

// litmusSpec parses and compiles a litmus test written in a test.
func litmusSpec(t testing.TB, name, src string) *scenarios.Spec {
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

package model

import (
	"fmt"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
)

// TestLibraryScenarios opens every built-in scenario in both modes at two
// sizes, takes random steps to the end and back, and checks that every
// frame fills the window exactly.
func TestLibraryScenarios(t *testing.T) {
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	entries := LibraryEntries(lib)
	if testing.Short() && len(entries) > 12 {
		entries = entries[:12]
	}
	for _, e := range entries {
		sc, err := LoadScenario(e.Name)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			for _, sz := range [][2]int{{80, 24}, {140, 45}} {
				t.Run(fmt.Sprintf("%s_%s_%dx%d", e.Name, mode, sz[0], sz[1]), func(t *testing.T) {
					opts := Options{Scenario: sc, Library: entries, Load: LoadScenario, Mode: mode, Seed: 5,
						Explore: machine.Options{MaxStates: 5000}}
					m := start(t, opts, sz[0], sz[1])
					checkSize(t, m.View(), sz[0], sz[1])
					for i := 0; i < 200 && len(m.sess.enabled) > 0; i++ {
						m = drive(t, m, keyMsg(" "))
						checkSize(t, m.View(), sz[0], sz[1])
					}
					for _, k := range []string{"?", "?", "s", "s", "tab", "tab", "tab", "tab", "w", "right"} {
						m = drive(t, m, keyMsg(k))
						checkSize(t, m.View(), sz[0], sz[1])
					}
				})
			}
		}
	}
}

package model

import (
	"flag"
	"fmt"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
)

var libraryAll = flag.Bool("library.all", false, "TestLibraryScenarios: every scenario in both modes at both sizes (default: each mode at one size, alternating; .ci/run's long lane sets it)")

// TestLibraryScenarios opens every built-in scenario in both modes and at
// two sizes (each mode at one of them, in turn, without -library.all),
// takes random steps to the end and back, and checks that every frame
// fills the window exactly.
func TestLibraryScenarios(t *testing.T) {
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	entries := LibraryEntries(lib)
	if testing.Short() && len(entries) > 12 {
		entries = entries[:12]
	}
	for i, e := range entries {
		sc, err := LoadSpec(e.Name)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		for j, mode := range []machine.Mode{machine.TSO, machine.ARM} {
			for k, sz := range [][2]int{{80, 24}, {140, 45}} {
				// Each scenario in both modes and at both sizes, each
				// mode at one size in turn (all four with -library.all).
				if !*libraryAll && (i+j+k)%2 != 0 {
					continue
				}
				t.Run(fmt.Sprintf("%s_%s_%dx%d", e.Name, mode, sz[0], sz[1]), func(t *testing.T) {
					opts := Options{Scenario: sc, Library: entries, Load: LoadSpec, Mode: mode, Seed: 5,
						Explore: &machine.Options{MaxStates: 5000}}
					m := Start(opts, sz[0], sz[1])
					checkSize(t, m.View(), sz[0], sz[1])
					for i := 0; i < 200 && len(m.scen.sess.enabled) > 0; i++ {
						m = Drive(m, keyMsg(" "))
						checkSize(t, m.View(), sz[0], sz[1])
					}
					for _, k := range []string{"?", "?", "s", "s", "tab", "tab", "tab", "tab", "w", "right"} {
						m = Drive(m, keyMsg(k))
						checkSize(t, m.View(), sz[0], sz[1])
					}
				})
			}
		}
	}
}

func TestFirstSentence(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"P0 writes x. Then y.", 20, "P0 writes x."},
		{"  Jan Kara suggested\n  plain WRITE_ONCE()/READ_ONCE(). Baokun Li measured both.", 100, "Jan Kara suggested plain WRITE_ONCE()/READ_ONCE()."},
		{"Barriers, e.g. smp_mb(), order accesses. More.", 100, "Barriers, e.g. smp_mb(), order accesses."},
		{"No full stop at all", 20, "No full stop at all"},
		{"", 20, ""},
		{"one two three four five six seven eight nine ten eleven.", 20, "one two three four…"},
		{"abcdefghijklmnopqrstuvwxyz.", 20, "abcdefghijklmnopqrs…"},
	} {
		if got := firstSentence(c.in, c.limit); got != c.want {
			t.Errorf("firstSentence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Every built-in scenario gets a summary that is not its name.
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range LibraryEntries(lib) {
		if e.Summary == "" || e.Summary == e.Name || len([]rune(e.Summary)) > summaryMax {
			t.Errorf("%s: summary %q", e.Name, e.Summary)
		}
	}
}

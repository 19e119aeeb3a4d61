package model

import (
	"flag"
	"fmt"
	"slices"
	"strings"
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

// TestPickerFilterLibrary (issue 19): the picker's filter finds what is
// typed, as typed, in the library's names, families and stories, and
// says what matched; nothing else matches (no fuzzy hits).
func TestPickerFilterLibrary(t *testing.T) {
	lib, err := scenarios.Library()
	if err != nil {
		t.Fatal(err)
	}
	entries := LibraryEntries(lib)
	fams := families(entries)
	var targets []string
	for _, f := range fams {
		targets = append(targets, f.FilterValue())
	}
	found := func(term string) []string {
		var out []string
		for _, r := range filterFamilies(term, targets) {
			out = append(out, fams[r.Index].family)
		}
		return out
	}
	if got := found("llseek"); len(got) != 0 {
		t.Errorf("llseek finds %v", got)
	}
	if got := found("wake"); !slices.Contains(got, "sb-end-write") {
		t.Errorf("wake does not find the lost wake-up family sb-end-write: %v", got)
	}
	if got := found("ext4"); len(got) == 0 || got[0] != "ext4-last-group" {
		t.Errorf("ext4 finds %v, want ext4-last-group first", got)
	}
	// For every word of every story, each row found holds the word in a
	// field, and the row says which and shows it; each row not found
	// holds it nowhere.
	words := map[string]bool{}
	for _, e := range entries {
		for _, w := range strings.Fields(strings.ToLower(e.Story + " " + e.Name + " " + e.Title)) {
			if len(w) >= 4 {
				words[w] = true
			}
		}
	}
	for w := range words {
		hit := map[int]bool{}
		for _, r := range filterFamilies(w, targets) {
			hit[r.Index] = true
			f := fams[r.Index]
			fl, ok := f.match(w)
			if !ok {
				t.Fatalf("%q: %s found but matches nothing", w, f.family)
			}
			row := f.row(w)
			if fl.what != "family" && (row.Matched == "" || !strings.Contains(strings.ToLower(row.Context), w)) {
				t.Fatalf("%q: %s's row says %q: %q", w, f.family, row.Matched, row.Context)
			}
		}
		for i, f := range fams {
			for _, fl := range f.fields() {
				if !hit[i] && strings.Contains(strings.ToLower(fl.text), w) {
					t.Fatalf("%q: %s's %s holds it but is not found", w, f.family, fl.what)
				}
			}
		}
	}
}

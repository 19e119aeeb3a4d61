package scenarios

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"smpscope/scenarios/syntax"
)

// TestLibrary checks every built-in scenario: it parses, compiles,
// round-trips through Format and carries its metadata.
func TestLibrary(t *testing.T) {
	files, err := fs.Glob(libraryFS, "library/*.litmus")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("scenarios/library holds no .litmus files yet")
	}
	entries, err := Library()
	if err != nil {
		t.Fatalf("Library: %v", err)
	}
	if len(entries) != len(files) {
		t.Fatalf("Library has %d entries for %d files", len(entries), len(files))
	}
	for _, e := range entries {
		t.Run(e.File, func(t *testing.T) {
			if e.Title == "" || e.Family == "" || e.Variant == "" || e.Scenario.Meta.Story == "" {
				t.Errorf("missing metadata: Title %q, Family %q, Variant %q, Story %q", e.Title, e.Family, e.Variant, e.Scenario.Meta.Story)
			}
			if e.Name != strings.TrimSuffix(e.File, ".litmus") {
				t.Errorf("test name %q differs from the file name %q", e.Name, e.File)
			}
			if _, err := Compile(e.Scenario); err != nil {
				t.Errorf("Compile: %v", err)
			}
			s, err := Parse(e.File, []byte(e.Source))
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, e.File, s)
		})
	}
	if !sort.SliceIsSorted(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Family != b.Family {
			return familyRank(a.Family) < familyRank(b.Family)
		}
		return a.Variant < b.Variant
	}) {
		t.Errorf("Library is not sorted by family (library order), then variant")
	}
	fams, err := Families()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, f := range fams {
		if i > 0 && familyRank(fams[i-1].Name) >= familyRank(f.Name) {
			t.Errorf("families out of order: %q then %q", fams[i-1].Name, f.Name)
		}
		for _, e := range f.Entries {
			if e.Family != f.Name {
				t.Errorf("entry %s of family %q grouped under %q", e.Name, e.Family, f.Name)
			}
			n++
		}
	}
	if n != len(entries) {
		t.Errorf("Families hold %d entries, Library %d", n, len(entries))
	}

	// Lookup by C name and by file name, with or without .litmus.
	e := entries[0]
	for _, key := range []string{e.Name, e.File, strings.TrimSuffix(e.File, ".litmus")} {
		s, err := Lookup(key)
		if err != nil || s.Name != e.Name {
			t.Errorf("Lookup(%q) = %v, %v", key, s, err)
			continue
		}
		if s == e.Scenario {
			t.Errorf("Lookup(%q) returned the shared scenario, not a copy", key)
		}
	}
	sp, err := Resolve(e.Name, nil)
	if err != nil || sp.Name != e.Name || sp.File != "" || sp.Litmus == nil {
		t.Errorf("Resolve(%q) = %+v, %v", e.Name, sp, err)
	}
}

func TestLookupMissing(t *testing.T) {
	if _, err := Lookup("no-such-scenario"); err == nil {
		t.Errorf("Lookup of a missing name succeeded")
	}
	if _, err := Resolve(filepath.Join(t.TempDir(), "missing.litmus"), nil); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Resolve of a missing file: %v", err)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.litmus")
	if err := os.WriteFile(good, []byte("C good\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Resolve(good, nil)
	if err != nil || s.Name != "good" || s.File != good {
		t.Fatalf("Resolve(%s) = %v, %v", good, s, err)
	}
	bad := filepath.Join(dir, "bad.litmus")
	if err := os.WriteFile(bad, []byte("C bad\n{}\nP0(int *x)\n{\n\twhile (1) ;\n}\nexists (x=1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Resolve(bad, nil)
	if err == nil || !strings.HasPrefix(err.Error(), bad+":5:2: unsupported statement") {
		t.Errorf("Resolve(bad) error = %v", err)
	}
}

func TestLoadLibraryFromFS(t *testing.T) {
	mk := func(name, family, variant string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("C " + name + "\n(*\n * Family: " + family + "\n * Variant: " + variant +
			"\n * Title: t\n * Story: s\n *)\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (x=1)\n")}
	}
	fsys := fstest.MapFS{
		"lib/b+2.litmus": mk("b+2", "B", "2"),
		"lib/a+z.litmus": mk("a+z", "A", "z"),
		"lib/b+1.litmus": mk("b+1", "B", "1"),
		"lib/a+a.litmus": mk("a+a", "A", "a"),
		"lib/README.md":  {Data: []byte("not a scenario")},
	}
	entries, err := loadLibrary(fsys, "lib")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, " "); got != "a+a a+z b+1 b+2" {
		t.Errorf("order = %s", got)
	}
	if e := findEntry(entries, "b+1.litmus"); e == nil || e.Family != "B" || e.Variant != "1" || e.Title != "t" {
		t.Errorf("findEntry(b+1.litmus) = %+v", e)
	}

	fsys["lib/c.litmus"] = &fstest.MapFile{Data: []byte("C c\n{}\nP0(int *x)\n{\n\tfor (;;) ;\n}\nexists (x=1)\n")}
	if _, err := loadLibrary(fsys, "lib"); err == nil || !strings.Contains(err.Error(), "library/c.litmus:5:2:") {
		t.Errorf("bad library file: %v", err)
	}
	delete(fsys, "lib/c.litmus")
	fsys["lib/dup.litmus"] = mk("a+a", "A", "a")
	if _, err := loadLibrary(fsys, "lib"); err == nil || !strings.Contains(err.Error(), "also used by") {
		t.Errorf("duplicate names: %v", err)
	}
}

// TestLibraryOrder checks the library order: the classic teaching shapes
// first, then the kernel-patch families; every family is listed in
// libraryOrder (so none falls to the end by accident), and each opens on
// exactly one baseline, a variant in which LKMM allows the outcome (when
// the family has fixes to compare it with).
func TestLibraryOrder(t *testing.T) {
	fams, err := Families()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fams {
		names = append(names, f.Name)
		if familyRank(f.Name) == len(libraryOrder) {
			t.Errorf("family %q is not in libraryOrder", f.Name)
		}
		var base []string
		for _, e := range f.Entries {
			if e.Baseline {
				base = append(base, e.Variant)
				if e.Result != syntax.Sometimes && len(f.Entries) > 1 {
					t.Errorf("%s: the baseline of %s is expected %q, not broken", e.Name, f.Name, e.Result)
				}
			}
		}
		if len(base) != 1 {
			t.Errorf("family %s has baselines %v, want one", f.Name, base)
		}
	}
	if len(names) < 9 || strings.Join(names[:5], " ") != "mp sb lb iriw ext4-last-group" {
		t.Errorf("families start %v, want mp sb lb iriw ext4-last-group …", names[:min(len(names), 5)])
	}
	for _, o := range libraryOrder {
		if !slices.Contains(names, o.family) {
			t.Errorf("libraryOrder lists %q, which the library does not have", o.family)
		}
	}
}

// TestMarkBaselines: a family outside libraryOrder opens on its first
// variant expected Sometimes, else its first.
func TestMarkBaselines(t *testing.T) {
	es := []*Entry{
		{Family: "new", Variant: "a", Result: syntax.Never}, {Family: "new", Variant: "b", Result: syntax.Sometimes}, {Family: "new", Variant: "c", Result: syntax.Sometimes},
		{Family: "other", Variant: "x", Result: syntax.Never}, {Family: "other", Variant: "y"},
		{Family: "mp", Variant: "mb", Result: syntax.Never}, {Family: "mp", Variant: "once", Result: syntax.Sometimes},
	}
	markBaselines(es)
	var got []string
	for _, e := range es {
		if e.Baseline {
			got = append(got, e.Family+"+"+e.Variant)
		}
	}
	if want := "new+b other+x mp+once"; strings.Join(got, " ") != want {
		t.Errorf("baselines %v, want %s", got, want)
	}
}

// TestStoriesSayTheirSources: a story from a kernel thread never passes
// off what the test adds as the thread's: each says what comes from the
// thread ("From the thread:") and what was added to make a test ("Added
// to make a test:"), or that the variant is not from the thread at all.
func TestStoriesSayTheirSources(t *testing.T) {
	lib, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range lib {
		fromThread := false
		for _, o := range libraryOrder {
			if o.family == e.Family {
				fromThread = o.fromThread
			}
		}
		if !fromThread {
			continue
		}
		n++
		story := strings.Join(strings.Fields(e.Scenario.Meta.Story), " ")
		sourced := strings.Contains(story, "From the thread:") && strings.Contains(story, "Added to make a test")
		if !sourced && !strings.Contains(story, "Not from the thread:") {
			t.Errorf("%s: the story does not say what comes from the thread and what was added:\n%s", e.Name, story)
		}
		for _, over := range []string{"his counterexample", "Play his", "as in the patch's code"} {
			if strings.Contains(story, over) {
				t.Errorf("%s: the story overstates its source (%q)", e.Name, over)
			}
		}
	}
	if n < 25 {
		t.Errorf("only %d stories from threads checked", n)
	}
}

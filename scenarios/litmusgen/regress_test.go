package litmusgen

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"smpscope/machine"
)

const regressDir = "testdata/regress"

// knownOpen lists the regression files today's machine is expected to
// fail, each with the reason. The test fails when a listed file passes
// (take it off the list) or an unlisted one fails, so the list stays
// honest while the machine is being fixed.
var knownOpen = map[string]string{}

// TestRegressions checks every regression file against the herd7 states
// recorded in its header (and, with -herd.full when herd7 is present, the
// recorded states against a fresh herd7 run: that checks the files, not
// the machine).
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(regressDir, "*.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no regression files in %s", regressDir)
	}
	var herd *Herd
	if h, err := FindHerd("."); err == nil && *herdFull {
		herd = h
		herd.TmpDir = t.TempDir()
	}
	o := &Oracle{}
	seen := map[string]bool{}
	for _, path := range files {
		base := filepath.Base(path)
		seen[base] = true
		t.Run(strings.TrimSuffix(base, ".litmus"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rg, err := ParseRegression(base, string(src))
			if err != nil {
				t.Fatal(err)
			}
			c, err := Compile(base, string(src))
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSuffix(base, ".litmus"); c.Scenario.Name != want {
				t.Errorf("test name %q, file name %q", c.Scenario.Name, want)
			}
			// herd7 nests comments: a "(*" inside the header, as in
			// "WRITE_ONCE(*x, 1)", opens one the header's "*)" does not
			// close, and herd7 rejects the file (only -herd.full runs
			// herd7, so the default run says so first).
			if open := strings.Index(string(src), "(*"); open >= 0 {
				if end := strings.Index(string(src)[open:], "*)"); end >= 0 && strings.Contains(string(src)[open+2:open+end], "(*") {
					t.Errorf("the header comment holds \"(*\", which herd7 reads as a nested comment")
				}
			}
			if herd != nil {
				for _, m := range Models {
					fresh := herd.Run(context.Background(), m, base, string(src))
					if !fresh.Accepted {
						t.Errorf("herd7 %s: %s", m, fresh)
						continue
					}
					if !slices.Equal(fresh.States, rg.Herd[m].States) || fresh.Observation != rg.Herd[m].Observation {
						t.Errorf("herd7 %s now says %s %v; the file records %s %v", m, fresh.Observation, fresh.States, rg.Herd[m].Observation, rg.Herd[m].States)
					}
				}
			}
			bad, _, err := rg.verify(o, c)
			if err != nil {
				t.Fatal(err)
			}
			why, listed := knownOpen[base]
			switch {
			case len(bad) > 0 && listed:
				t.Logf("known open (%s):\n  %s", why, strings.Join(bad, "\n  "))
			case len(bad) > 0:
				t.Errorf("fails and is not in knownOpen:\n  %s", strings.Join(bad, "\n  "))
			case listed:
				t.Errorf("passes now: remove it from knownOpen (%s)", why)
			}
		})
	}
	for f := range knownOpen {
		if !seen[f] {
			t.Errorf("knownOpen lists %s, which is not in %s", f, regressDir)
		}
	}
}

// A require line names a mode by its name and a kind by its word; any
// other word is an error, not a requirement of some default kind.
func TestParseRegressionRequireLines(t *testing.T) {
	head := "C t\n(*\n * herd7 lkmm: Never, 0 states\n * herd7 tso: Never, 0 states\n * herd7 arm: Never, 0 states\n"
	ok := head + " * require tso: exact\n * require arm: sound\n * require arm: reach 0:r0=1; x=1;\n *)\n"
	rg, err := ParseRegression("t", ok)
	if err != nil {
		t.Fatal(err)
	}
	want := []Requirement{{machine.TSO, Exact, ""}, {machine.ARM, Sound, ""}, {machine.ARM, Reach, CanonState("0:r0=1; x=1;")}}
	if !slices.Equal(rg.Require, want) {
		t.Errorf("requirements %v, want %v", rg.Require, want)
	}
	for _, bad := range []string{"require x86: exact", "require arm: fuzzy", "require arm exact"} {
		if _, err := ParseRegression("t", head+" * "+bad+"\n *)\n"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

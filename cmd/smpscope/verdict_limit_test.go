package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A limit is never a verdict, in any command (issue 22, item 1): at every
// state limit from 1 to past the full count, each command either prints
// what it prints without a limit, or exits 2 and prints no verdict the
// stopped search did not prove. A limit hit in the last states of a search
// once gave "Observation sb+once Never 0 1" (check), "unreachable … the
// closest attempt" (trace, record), a "Never" cell (compare) and "not
// needed on its own" (why).

var timeLine = regexp.MustCompile(`(?m)^Time .*\n`)

// witnessSteps is the step list of a witness that why prints: a search
// cut short by a limit after it reached an outcome reports it, with a
// shortest path in the graph it explored, which need not be the whole
// search's (the outcome registers' valuations travel along the edges
// explored, machine/outregs.go).
var witnessSteps = regexp.MustCompile(`(?s)reaches the outcome in \d+ steps:\n.*?\n(\s+Replay:)`)

// sameClaims normalises a report for comparison with the unlimited one.
func sameClaims(out string) string {
	return witnessSteps.ReplaceAllString(timeLine.ReplaceAllString(out, ""), "reaches the outcome: …\n$1")
}

// limitRuns runs args at every --max-states from 1 to upto, and checks
// that the last one printed the unlimited output. each judges the others:
// out and errOut of a run that exited 2.
func limitRuns(t *testing.T, upto int, args []string, each func(limit int, out, errOut string)) {
	t.Helper()
	full, _, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d without a limit", args, code)
	}
	full = sameClaims(full)
	stopped := 0
	for limit := 1; limit <= upto; limit++ {
		a := append(append([]string(nil), args...), "--max-states", fmt.Sprint(limit))
		out, errOut, code := runCmd(t, a...)
		out = sameClaims(out)
		switch code {
		case 0:
			if out != full {
				t.Errorf("%v: exit 0 with\n%s\nwhere the full search prints\n%s", a, out, full)
			}
		case 2:
			stopped++
			each(limit, out, errOut)
		default:
			t.Errorf("%v: exit %d: %s", a, code, errOut)
		}
		if limit == upto && code != 0 {
			t.Errorf("%v: still stopped at the last limit tried", a)
		}
	}
	if stopped == 0 {
		t.Errorf("%v: no limit stopped a search", args)
	}
}

func TestLimitIsNeverAVerdictCheck(t *testing.T) {
	for _, name := range []string{"sb+once", "sb+mb", "mp+wmb-rmb"} {
		args := []string{"check", name}
		full, _, _ := runCmd(t, args...)
		blocks := map[string]bool{}
		for _, b := range strings.Split(timeLine.ReplaceAllString(full, ""), "\n\n") {
			blocks[b] = true
		}
		limitRuns(t, 30, args, func(limit int, out, errOut string) {
			// A mode that finished prints its block; one that stopped
			// prints none, and says so on stderr.
			for _, b := range strings.Split(out, "\n\n") {
				if b != "" && !blocks[b] {
					t.Errorf("check %s --max-states %d printed\n%s\nwhich the full search does not", name, limit, b)
				}
			}
			if !strings.Contains(errOut, "verdict unknown") {
				t.Errorf("check %s --max-states %d: exit 2 with %q", name, limit, errOut)
			}
		})
	}
}

func TestLimitIsNeverAVerdictTrace(t *testing.T) {
	for _, args := range [][]string{
		{"trace", "sb+once", "--mode", "tso"}, // reachable
		{"trace", "sb+mb", "--mode", "arm"},   // unreachable: the closest attempt
	} {
		limitRuns(t, 30, args, func(limit int, out, errOut string) {
			if out != "" || !strings.Contains(errOut, "is unknown") {
				t.Errorf("%v --max-states %d: exit 2 with\n%s\n%s", args, limit, out, errOut)
			}
		})
	}
}

func TestLimitIsNeverAVerdictRecord(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"sb+once", "sb+mb"} {
		cast := filepath.Join(dir, name+".cast")
		args := []string{"record", name, "--mode", "tso", "--out", cast, "--force"}
		if _, errOut, code := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		want, err := os.ReadFile(cast)
		if err != nil {
			t.Fatal(err)
		}
		for limit := 1; limit <= 30; limit++ {
			os.Remove(cast)
			a := append(args, "--max-states", fmt.Sprint(limit))
			_, errOut, code := runCmd(t, a...)
			got, err := os.ReadFile(cast)
			switch {
			case code == 0 && string(got) != string(want):
				t.Errorf("%v: exit 0 and a cast unlike the full search's", a)
			case code == 2 && (err == nil || !strings.Contains(errOut, "is unknown")):
				t.Errorf("%v: exit 2, cast written %v, %q", a, err == nil, errOut)
			case code != 0 && code != 2:
				t.Errorf("%v: exit %d: %s", a, code, errOut)
			case limit == 30 && code != 0:
				t.Errorf("%v: still stopped", a)
			}
		}
	}
}

func TestLimitIsNeverAVerdictCompare(t *testing.T) {
	args := []string{"compare", "sb"}
	full, _, _ := runCmd(t, args...)
	limitRuns(t, 30, args, func(limit int, out, errOut string) {
		// Each cell is the full search's or "?" and the counts so far.
		rows, n := tableRows(full), 0
		for _, c := range tableRows(out) {
			n++
			for j := 1; j < 3; j++ {
				if c[j] != rows[c[0]][j] && !strings.HasPrefix(c[j], "? ") {
					t.Errorf("compare sb --max-states %d: %s cell %q, the full search's %q", limit, c[0], c[j], rows[c[0]][j])
				}
			}
		}
		if n != len(rows) {
			t.Errorf("compare sb --max-states %d: %d rows of %d in\n%s", limit, n, len(rows), out)
		}
	})
}

// tableRows are the variant rows of compare's table, by variant.
func tableRows(out string) map[string][]string {
	rows := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if c := cells(l); len(c) == 4 && c[0] != "Variant" && !strings.HasPrefix(c[0], "---") {
			rows[c[0]] = c
		}
	}
	return rows
}

// cells splits a table row at runs of two or more spaces.
func cells(row string) []string {
	return regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(row), -1)
}

func TestLimitIsNeverAVerdictWhy(t *testing.T) {
	// iriw+mb: in TSO neither smp_mb is needed, alone or together; in ARM
	// each is, and the weakened searches are bigger than the one as
	// written, so some limits decide the first and not the others.
	for _, mode := range []string{"tso", "arm"} {
		args := []string{"why", "iriw+mb", "--mode", mode}
		full, _, _ := runCmd(t, args...)
		want := whyClaims(full)
		limitRuns(t, 160, args, func(limit int, out, errOut string) {
			for what, got := range whyClaims(out) {
				if what == "together, alone" {
					// "no annotation is needed on its own": the full
					// search must say that of each.
					for a, w := range want {
						if strings.HasPrefix(a, "annotation ") && w != "not needed" {
							t.Errorf("%v --max-states %d: %q, but %s is %s", args, limit, got, a, w)
						}
					}
					continue
				}
				if got != want[what] && got != "unknown" {
					t.Errorf("%v --max-states %d: %s %q, the full search %q", args, limit, what, got, want[what])
				}
			}
		})
	}
}

// whyClaims reads what a one-mode why report claims: as written, per
// annotation, and for all of them together — "needed", "not needed",
// "unknown", or the together paragraph as printed.
func whyClaims(report string) map[string]string {
	claims := map[string]string{}
	for _, para := range strings.Split(report, "\n\n") {
		p := flat(para)
		switch {
		case strings.HasPrefix(p, "As written"):
			claims["as written"] = "reachable"
			if strings.Contains(p, "unknown") {
				claims["as written"] = "unknown"
			} else if strings.Contains(p, "unreachable") {
				claims["as written"] = "unreachable"
			}
		case strings.HasPrefix(p, "In "):
			claims["together"] = p
			if strings.Contains(p, "could not be decided") {
				// What it says of each annotation alone must be what
				// the full search says.
				claims["together"] = "unknown"
				claims["together, alone"] = strings.Split(p, ";")[0]
			}
		}
	}
	for _, l := range strings.Split(report, "\n") {
		if before, answer, ok := strings.Cut(l, "): "); ok && !strings.HasPrefix(l, " ") {
			switch {
			case strings.Contains(answer, "unknown"):
				answer = "unknown"
			case strings.HasPrefix(answer, "needed"):
				answer = "needed"
			case strings.HasPrefix(answer, "not needed"):
				answer = "not needed"
			}
			claims["annotation "+before+")"] = answer
		}
	}
	return claims
}

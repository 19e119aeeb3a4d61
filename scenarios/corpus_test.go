package scenarios

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"smpscope/scenarios/syntax"
)

// herdRejectedButAccepted lists public-corpus files that herd7 rejects
// (lkmm column "error") and smpscope accepts, each with the reason, which
// FORMAT.md also gives. Every other file herd7 rejects must be rejected.
var herdRejectedButAccepted = map[string]string{}

// TestCorpus parses, compiles and round-trips every file of the shared
// conformance corpus that herd7 accepts, checks that the files herd7
// rejects are rejected with a positioned error, and checks the Result
// metadata of the kernel tests against expected.tsv.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	lkmm := readExpected(t)
	for _, path := range files {
		rel, _ := filepath.Rel(corpusDir, path)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(path, src)
			var c *Compiled
			if err == nil {
				c, err = Compile(s)
			}
			if want := lkmm[rel]; want == "error" {
				if _, ok := herdRejectedButAccepted[rel]; ok {
					if err != nil {
						t.Fatalf("listed as accepted although herd7 rejects it, but: %v", err)
					}
					return
				}
				if err == nil {
					t.Fatalf("herd7 rejects this file (%s) and smpscope accepts it", want)
				}
				e, ok := err.(syntax.Error)
				if !ok || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.File != path {
					t.Fatalf("rejected without a file:line:col position: %v", err)
				}
				t.Logf("rejected as herd7 does: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("%v", err)
			}
			// The name is the word after "C" on the first line, whatever
			// the file is called (kernel-doc files carry a prefix).
			first, _, _ := strings.Cut(string(src), "\n")
			if f := strings.Fields(first); len(f) < 2 || s.Name != f[1] {
				t.Errorf("Name = %q, first line %q", s.Name, first)
			}
			if len(c.Program.Threads) != len(s.Threads) {
				t.Errorf("%d threads compiled, %d parsed", len(c.Program.Threads), len(s.Threads))
			}
			// The kernel tests carry "Result:" lines; they must agree with
			// the LKMM column of expected.tsv.
			if strings.HasPrefix(rel, "kernel") {
				if s.Meta.Result == "" {
					t.Errorf("no Result: metadata found")
				} else if want, ok := lkmm[rel]; ok && string(s.Meta.Result) != want {
					t.Errorf("Result: %s, expected.tsv says %s", s.Meta.Result, want)
				}
			}
			checkRoundTrip(t, path, s)
		})
	}
}

// readExpected returns the lkmm column by file (a path relative to
// corpusDir) of expected.tsv and of public/expected.tsv.
func readExpected(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, r := range conformanceRows(t) {
		out[r.file] = r.lkmm
	}
	return out
}

// readTSV reads a tab-separated table whose first line names the columns.
func readTSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var cols []string
	var rows []map[string]string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if cols == nil {
			cols = fields
			continue
		}
		if len(fields) < 2 {
			continue
		}
		r := map[string]string{}
		for i, c := range cols {
			if i < len(fields) {
				r[c] = fields[i]
			}
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

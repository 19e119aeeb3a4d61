package scenarios

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus parses, compiles and round-trips every file of the shared
// conformance corpus, and checks the Result metadata against expected.tsv.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	lkmm := readExpected(t)
	for _, path := range files {
		rel, _ := filepath.Rel(corpusDir, path)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(path, src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if want := strings.TrimSuffix(filepath.Base(path), ".litmus"); s.Name != want {
				t.Errorf("Name = %q, want %q", s.Name, want)
			}
			c, err := s.Compile()
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			if len(c.Program.Threads) != len(s.Threads) {
				t.Errorf("%d threads compiled, %d parsed", len(c.Program.Threads), len(s.Threads))
			}
			// The kernel tests carry "Result:" lines; they must agree with
			// the LKMM column of expected.tsv.
			if strings.HasPrefix(rel, "kernel") {
				if s.Meta.Result == "" {
					t.Errorf("no Result: metadata found")
				} else if want, ok := lkmm[filepath.ToSlash(rel)]; ok && string(s.Meta.Result) != want {
					t.Errorf("Result: %s, expected.tsv says %s", s.Meta.Result, want)
				}
			}
			checkRoundTrip(t, path, s)
		})
	}
}

// readExpected returns the lkmm column of expected.tsv by file.
func readExpected(t *testing.T) map[string]string {
	out := map[string]string{}
	f, err := os.Open(filepath.Join(corpusDir, "expected.tsv"))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) >= 2 && fields[0] != "file" {
			out[fields[0]] = fields[1]
		}
	}
	return out
}

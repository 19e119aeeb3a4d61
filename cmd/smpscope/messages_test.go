package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"smpscope/scenarios/syntax"
)

// Every message is short, whatever it quotes (issue 22, item 5): no line
// of stderr over syntax.MaxMessageLine characters, for a 5,000-term
// condition, a megabyte test name, a 200,000-letter location name, a
// 100,000-character argument or trace header.
func TestMessagesAreShort(t *testing.T) {
	show, _, _ := runCmd(t, "show", "sb+once")
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	cond := write("cond.litmus", strings.Replace(show, "exists (0:r0=0 /\\ 1:r1=0)", "exists (0:r0=0"+strings.Repeat(" /\\ 0:r0=0", 5000)+")", 1))
	name := write("name.litmus", strings.Replace(show, "C sb+once", "C "+strings.Repeat("n", 1_000_000), 1))
	loc := write("loc.litmus", regexp.MustCompile(`\bx\b`).ReplaceAllString(show, strings.Repeat("a", 200_000)))
	long := strings.Repeat("z", 100_000)
	trace := write("t.trace", "smpscope trace 1\nscenario: "+long+"\nmode: tso\n\nP0 exec\n")
	for _, args := range [][]string{
		{"trace", cond, "--max-states", "1"},
		{"check", cond, "--max-states", "1"},
		{"why", cond, "--max-states", "1"},
		{"record", cond, "--max-states", "1", "--out", filepath.Join(dir, "x.cast")},
		{"trace", cond, "--mode", "tso", "--max-states", "1"},
		{"trace", name, "--max-states", "1"},
		{"check", name, "--max-states", "1"},
		{"trace", loc, "--max-states", "1"},
		{"trace", "sb+mb", "--mode", "tso", "--out", filepath.Join(dir, long)},
		{"check", long},
		{"check", "mp+once", "--edit", long},
		{"check", "mp+once", "--edit", "P1:2=" + long},
		{"trace", "--replay", trace},
		{"compare", long},
	} {
		_, errs, code := runCmd(t, args...)
		if code == 0 || errs == "" {
			t.Errorf("%.80q: exit %d, stderr %q", args, code, errs)
		}
		for _, l := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
			if n := utf8.RuneCountInString(l); n > syntax.MaxMessageLine {
				t.Errorf("%.80q: a line of %d characters: %.400q", args, n, l)
			}
		}
	}
}

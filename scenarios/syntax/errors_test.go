package syntax

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Brief keeps every line of a message within MaxMessageLine characters,
// a long word to its head and tail, and leaves short messages alone.
func TestBrief(t *testing.T) {
	short := `smpscope check: t.litmus:3:4: unknown function "foo"`
	if Brief(short) != short {
		t.Errorf("a short message changed: %q", Brief(short))
	}
	path := "/" + strings.Repeat("d", 200) + "/file.litmus:3:4:"
	got := Brief("smpscope check: " + path + " bad\nsteps enabled there:\n\t" + strings.Repeat("x /\\ ", 20000))
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "…ddd/file.litmus:3:4: bad") {
		t.Errorf("the path lost its end: %q", lines[0])
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > MaxMessageLine {
			t.Errorf("a line of %d characters", n)
		}
	}
	if !strings.Contains(lines[2], " … ") || !strings.HasSuffix(lines[2], "x /\\ ") {
		t.Errorf("the long line was not cut in the middle: %.100q…", lines[2])
	}
	if l := Brief(strings.Repeat("é", 10_000)); utf8.RuneCountInString(l) != 71 || !utf8.ValidString(l) {
		t.Errorf("a long word: %d characters", utf8.RuneCountInString(l))
	}
}

func TestQuoteShort(t *testing.T) {
	for in, want := range map[string]string{
		"short":                 "short",
		strings.Repeat("é", 50): strings.Repeat("é", MaxQuoted) + "…",
		strings.Repeat("x", 41): strings.Repeat("x", 40) + "…",
	} {
		if got := QuoteShort(in); got != want {
			t.Errorf("quoteShort(%.20q…) = %q", in, got)
		}
	}
	e := Errorf(Position{}, "%d %5q and %s and %-3q", 1, strings.Repeat("a", 100), strings.Repeat("b", 50), strings.Repeat("c", 50))
	if want := `1 "` + strings.Repeat("a", 40) + `…" and ` + strings.Repeat("b", 50) + ` and "` + strings.Repeat("c", 40) + `…"`; e.Msg != want {
		t.Errorf("errorf: %s", e.Msg)
	}
}

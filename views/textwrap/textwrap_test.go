package textwrap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// wrapGuard runs Words with a generous hang guard: what the wrapper
// does in milliseconds once took minutes (a cut measured the whole rest of
// the word, so an unbroken word cost its length squared) or forever (a
// character wider than the line was never cut).
func wrapGuard(t *testing.T, text string, first, rest int) []string {
	t.Helper()
	done := make(chan []string, 1)
	go func() { done <- Words(text, first, rest, false) }()
	select {
	case ls := <-done:
		return ls
	case <-time.After(60 * time.Second):
		t.Fatalf("wrapping %d bytes at %d cells did not end within a minute", len(text), rest)
		return nil
	}
}

// Wrapping is linear in an unbroken word (issue 22, item 3), and the cut
// lines are the word, in order, each as wide as the line allows.
func TestWrapLongWord(t *testing.T) {
	for _, tc := range []struct {
		word        string
		first, rest int
	}{
		{strings.Repeat("a", 4_000_000), 72, 72}, // minutes when quadratic
		{strings.Repeat("漢", 1000) + "x", 71, 9},
		{"漢字", 1, 1}, // wider than the line: one per line
		{strings.Repeat("\x1b[1mab\x1b[0m", 1000), 10, 7},
	} {
		ls := wrapGuard(t, tc.word, tc.first, tc.rest)
		if got := strings.Join(ls, ""); got != tc.word {
			t.Errorf("%.20q…: the lines do not join back to the word", tc.word)
		}
		for i, l := range ls {
			limit := tc.rest
			if i == 0 {
				limit = tc.first
			}
			w := ansi.StringWidth(l)
			if w > limit && ansi.StringWidth(ansi.Strip(l)) > 2 || i < len(ls)-1 && w < limit-1 {
				t.Errorf("%.20q…: line %d is %d cells for %d", tc.word, i, w, limit)
				break
			}
		}
	}
}

func BenchmarkWrapLongWord(b *testing.B) {
	for _, n := range []int{50_000, 200_000, 1_000_000} {
		word := strings.Repeat("a", n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Words(word, 72, 72, false)
			}
		})
	}
}

package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestBoxBottomEveryWidth: a bottom text of any width, in a box of any
// width, draws a bottom border of the box's width (a limit's message in
// the outcomes pane's border once made a negative repeat count).
func TestBoxBottomEveryWidth(t *testing.T) {
	st := DefaultStyles()
	for w := 2; w <= 30; w++ {
		for n := 0; n <= 32; n++ {
			out := renderBox(boxSpec{title: "t", bottom: strings.Repeat("x", n), right: strings.Repeat("y", n), notice: true}, st, w, 3)
			lines := strings.Split(out, "\n")
			if got := ansi.StringWidth(lines[len(lines)-1]); got != w {
				t.Fatalf("w %d, bottom %d: the border is %d wide", w, n, got)
			}
		}
	}
}

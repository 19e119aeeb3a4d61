package views

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The code wrapper of the CPU columns is linear in a long name too.
func TestWrapCodeLongName(t *testing.T) {
	name := strings.Repeat("a", 2_000_000)
	done := make(chan []string, 1)
	go func() { done <- wrapCode("WRITE_ONCE(*"+name+", 1);", 30) }()
	select {
	case ls := <-done:
		if got := strings.Join(ls, ""); got != "WRITE_ONCE(*"+name+", 1);" && got != "WRITE_ONCE(*"+name+",1);" {
			t.Errorf("the lines do not join back to the code: %d bytes", len(got))
		}
		for i, l := range ls {
			if ansi.StringWidth(l) > 30 {
				t.Fatalf("line %d is %d cells", i, ansi.StringWidth(l))
			}
		}
	case <-time.After(60 * time.Second):
		t.Fatal("wrapping a 2,000,000-letter name did not end within a minute")
	}
}

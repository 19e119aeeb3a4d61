package scenarios

import (
	"fmt"
	"testing"
)

// TestListing: every instruction of every library scenario is on a line
// of its listing, under its own address, in order.
func TestListing(t *testing.T) {
	lib, err := Library()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lib {
		sp, err := BuiltinSpec(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, l := range sp.Listing() {
			for _, a := range l.Instrs {
				seen[a]++
			}
		}
		for _, th := range sp.Program.Threads {
			for i := range th.Code {
				if a := fmt.Sprintf("%s:%d", th.Name, i+1); seen[a] != 1 {
					t.Errorf("%s: %s is on %d lines of the listing", e.Name, a, seen[a])
				}
			}
		}
	}
}

package litmusgen

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var familiesDir = flag.String("families.dir", "", "write issue 10's family files (cycles of 3 to 8 CPUs, lock cycles) into this directory")

// familyLinks are the link mixes of issue 10's families for n CPUs: all
// grace periods, all smp_mb, all readers, all release/acquire, and mixes
// of grace periods, readers and barriers.
func familyLinks(n int) map[string]string {
	rep := func(l string, k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = l
		}
		return out
	}
	join := func(parts ...[]string) string {
		var all []string
		for _, p := range parts {
			all = append(all, p...)
		}
		return strings.Join(all, "+")
	}
	alt := make([]string, 0, n)
	for i := 0; i < n; i++ {
		if i < n-3 {
			alt = append(alt, []string{"G", "R"}[i%2])
		} else {
			alt = append(alt, "B")
		}
	}
	return map[string]string{
		"G":     join(rep("G", n)),
		"B":     join(rep("B", n)),
		"R":     join(rep("R", n-1), []string{"B"}),
		"A":     join(rep("A", n)),
		"GB":    join(rep("G", (n+1)/2), rep("B", n/2)),
		"GRB":   strings.Join(alt, "+"),
		"RB":    join(rep("R", 2), rep("B", n-2)),
		"G1":    join([]string{"G"}, rep("B", n-1)),
		"GGB":   join(rep("G", n-2), rep("B", 2)),
		"RRRB":  join(rep("R", n-3), rep("B", 3)),
		"mixed": join([]string{"G", "R", "A"}[:min(3, n)], rep("B", max(0, n-3))),
	}
}

// TestWriteFamilies writes the family files for measurement runs (see the
// README's Performance section); without -families.dir it checks that
// every family builds and parses.
func TestWriteFamilies(t *testing.T) {
	n := 0
	write := func(name, src string) {
		n++
		if _, err := Compile(name, src); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if *familiesDir != "" {
			if err := os.WriteFile(filepath.Join(*familiesDir, name+".litmus"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if *familiesDir != "" {
		if err := os.MkdirAll(*familiesDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for cpus := 3; cpus <= 8; cpus++ {
		for kind, links := range familyLinks(cpus) {
			for _, shape := range []string{"RW", "WR", "WW"} {
				src, err := Cycle(links, shape)
				if err != nil {
					t.Fatalf("%s %s: %v", links, shape, err)
				}
				write(fmt.Sprintf("cyc-%s-%s-N%d", shape, kind, cpus), src)
			}
		}
	}
	for cpus := 4; cpus <= 6; cpus++ {
		for _, variant := range []string{"", "C", "X"} {
			src, err := LockCycle(cpus, "WR", variant)
			if err != nil {
				t.Fatal(err)
			}
			write(fmt.Sprintf("lock-WR%s-N%d", variant, cpus), src)
		}
	}
	t.Logf("%d family files", n)
}

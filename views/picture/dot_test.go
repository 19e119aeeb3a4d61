package picture

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
)

// TestGraphCycles: the event graph names the cycle each shape's witness
// has, and for a closest attempt the edge the outcome needs and what
// orders the po edges of the cycle it would close.
func TestGraphCycles(t *testing.T) {
	cases := []struct {
		name string
		mode machine.Mode
		want []string
	}{
		{"mp+once", machine.ARM, []string{"cycle: a:W x=1 →po b:W y=1 →rfe c:R y=1 →po d:R x=0 →fre a", "no fence, acquire, release or dependency orders its po edges"}},
		{"sb+once", machine.ARM, []string{"cycle: a:W x=1 →po b:R y=0 →fre c:W y=1 →po d:R x=0 →fre a"}},
		{"sb+once", machine.TSO, []string{"cycle: a:W x=1 →po b:R y=0 →fre c:W y=1 →po d:R x=0 →fre a"}},
		{"iriw+once", machine.ARM, []string{"→rfe b:R x=1 →po c:R y=0 →fre d:W y=1 →rfe e:R y=1 →po f:R x=0 →fre a"}},
		{"mp+wmb-rmb", machine.ARM, []string{
			"the outcome asked for needs ix:W x=0 →rfe d:R x=0? →fre a:W x=1",
			"which closes the cycle a:W x=1 →po+wmb b:W y=1 →rfe c:R y=1 →po+rmb d:R x=0? →fre a",
			"forbidden: its po edges are ordered (a→b: wmb; c→d: rmb)"}},
		{"mp+rel-acq", machine.ARM, []string{"po+rel", "po+acq", "forbidden"}},
		{"mp+once", machine.TSO, []string{"needs", "which closes the cycle a:W x=1 →po b:W y=1 →rfe c:R y=1 →po d:R x=0? →fre a"}},
		{"rcu-mp+assign-deref", machine.ARM, []string{"po+addr"}},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.mode.String(), func(t *testing.T) {
			pic := Build(witness(t, c.name, c.mode))
			got := strings.Join(pic.Graph.Summary(pic.Attempt), "\n")
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("summary lacks %q:\n%s", w, got)
				}
			}
		})
	}
	// An execution that an interleaving explains has no cycle: mp+once
	// with the stores committed in order and read after both.
	ex, err := scenarios.NewExecution(spec(t, "mp+once"), machine.ARM,
		[]machine.Step{exec(0), exec(0), commit(0, 0), commit(0, 1), inv(1, 0), inv(1, 1), exec(1), exec(1)}, "")
	if err != nil {
		t.Fatal(err)
	}
	pic := Build(ex)
	if c := pic.Graph.CycleText(); c != "" {
		t.Errorf("an SC execution has a cycle: %s", c)
	}
	if s := strings.Join(pic.Graph.Summary(false), " "); !strings.Contains(s, "no cycle") {
		t.Errorf("summary %q", s)
	}
}

// TestDOT: the event graph's DOT names every event and edge and the
// cycle; Graphviz, where installed, accepts it.
func TestDOT(t *testing.T) {
	for _, c := range []struct {
		name string
		mode machine.Mode
	}{{"mp+once", machine.ARM}, {"mp+wmb-rmb", machine.ARM}, {"iriw+once", machine.ARM}, {"ext4-last-group+rel-acq", machine.ARM}} {
		pic := Build(witness(t, c.name, c.mode))
		dot := DOT(pic)
		for _, w := range []string{"digraph ", "subgraph \"cluster_0\"", "-> ", "label=\"rfe\"", "penwidth=2.5"} {
			if !strings.Contains(dot, w) {
				t.Errorf("%s: DOT lacks %q:\n%s", c.name, w, dot)
			}
		}
		if pic.Attempt && !strings.Contains(dot, "style=dashed") {
			t.Errorf("%s: the needed edge is not dashed:\n%s", c.name, dot)
		}
		if out := os.Getenv("SMPSCOPE_SVG_DIR"); out != "" {
			os.WriteFile(filepath.Join(out, c.name+".dot"), []byte(dot), 0o644)
		}
		bin, err := osexec.LookPath("dot")
		if err != nil {
			continue // Graphviz is never required; the check runs where it is installed
		}
		cmd := osexec.Command(bin, "-Tsvg")
		cmd.Stdin = strings.NewReader(dot)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Errorf("%s: dot -Tsvg: %v %s\n%s", c.name, err, stderr.String(), dot)
			continue
		}
		if root := wellFormed(t, out); root != "svg" {
			t.Errorf("%s: dot wrote %q", c.name, root)
		}
	}
}

// TestDOTEscapes: a hostile name cannot break out of its string.
func TestDOTEscapes(t *testing.T) {
	pic := Build(mpStale(t))
	pic.Name = "a\" -> evil [x=\"\\\n\x1b"
	dot := DOT(pic)
	if !strings.Contains(dot, `digraph "a\" -> evil [x=\"\\\n\\x1b"`) || strings.Contains(dot, "\x1b") {
		t.Errorf("unescaped name:\n%s", dot)
	}
	if bin, err := osexec.LookPath("dot"); err == nil {
		cmd := osexec.Command(bin, "-Tsvg")
		cmd.Stdin = strings.NewReader(dot)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("dot: %v %s", err, out)
		}
	}
}

package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPictureCommand(t *testing.T) {
	dir := t.TempDir()
	svg, dot := filepath.Join(dir, "mp.svg"), filepath.Join(dir, "mp.dot")
	_, errs, code := runCmd(t, "picture", "mp+once", "--svg", svg, "--dot", dot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, errs, "wrote "+svg, "wrote "+dot)
	doc, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	var root struct{ XMLName xml.Name }
	if err := xml.Unmarshal(doc, &root); err != nil || root.XMLName.Local != "svg" {
		t.Fatalf("the SVG does not parse: %v %v", err, root.XMLName)
	}
	g, _ := os.ReadFile(dot)
	mustContain(t, string(g), "digraph \"mp+once\"", "label=\"rfe\"")
	// Never over an existing file without --force; with it, replaced.
	if _, errs, code = runCmd(t, "picture", "mp+once", "--svg", svg); code != 2 || !strings.Contains(errs, "exists (--force overwrites it)") {
		t.Errorf("overwrite: exit %d, %q", code, errs)
	}
	if _, _, code = runCmd(t, "picture", "mp+once", "--svg", svg, "--force"); code != 0 {
		t.Errorf("--force: exit %d", code)
	}
	// A trace file as the argument; text on stdout.
	tr := filepath.Join(dir, "sb.trace")
	if _, errs, code = runCmd(t, "trace", "sb+once", "--save", tr); code != 0 {
		t.Fatalf("save: %d %s", code, errs)
	}
	out, errs, code := runCmd(t, "picture", tr, "--ascii")
	if code != 0 {
		t.Fatalf("picture TRACE: exit %d: %s", code, errs)
	}
	mustContain(t, out, "sb+once, ARM-like mode: where every value travelled", "cycle: a:W x=1 ->po b:R y=0 ->fre c:W y=1 ->po d:R x=0 ->fre a")
	for i, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 72 || strings.IndexFunc(l, func(r rune) bool { return r > 0x7e }) >= 0 {
			t.Errorf("line %d: %q", i+1, l)
		}
	}
	// SVG on standard output; both on it is refused.
	out, _, code = runCmd(t, "picture", "mp+wmb-rmb", "--svg", "-")
	if code != 0 || !strings.HasPrefix(out, "<?xml") || !strings.Contains(out, "smp_rmb passes") {
		t.Errorf("--svg -: exit %d, %.60q", code, out)
	}
	if _, errs, code = runCmd(t, "picture", "mp+once", "--svg", "-", "--dot", "-"); code != 2 {
		t.Errorf("both on stdout: exit %d %q", code, errs)
	}
	if _, errs, code = runCmd(t, "picture", "no-such-scenario"); code != 2 {
		t.Errorf("unknown scenario: exit %d %q", code, errs)
	}
}

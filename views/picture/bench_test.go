package picture

import (
	"testing"

	"smpscope/machine"
	"smpscope/scenarios"
)

// BenchmarkPicturePage is what the UI's picture page costs per frame:
// building the picture of a history and drawing it at 80×24, on the
// library's longest random run (seed 1) in ARM-like mode.
func BenchmarkPicturePage(b *testing.B) {
	lib, err := scenarios.Library()
	if err != nil {
		b.Fatal(err)
	}
	var ex *scenarios.Execution
	for _, e := range lib {
		x, err := scenarios.RandomExecution(spec(b, e.Name), machine.ARM, 1)
		if err == nil && (ex == nil || len(x.Steps) > len(ex.Steps)) {
			ex = x
		}
	}
	b.Logf("%s: %d steps", ex.Spec.Name, len(ex.Steps))
	b.ReportAllocs()
	for b.Loop() {
		TextPage(Build(ex), TextOptions{Width: 78, MaxLines: 20, NoHeader: true})
	}
}

package model

import (
	"fmt"
	"testing"

	"smpscope/machine"
)

// BenchmarkUpdateView measures what a key press costs before the new frame
// is ready: Update for a step key, then View, on four CPUs with ten
// instructions each (the speed target is 16 ms).
func BenchmarkUpdateView(b *testing.B) {
	for _, mode := range []machine.Mode{machine.TSO, machine.ARM} {
		for _, sz := range [][2]int{{80, 24}, {140, 45}, {220, 60}} {
			b.Run(fmt.Sprintf("%s_%dx%d", mode, sz[0], sz[1]), func(b *testing.B) {
				m := Start(testOptions(bigScenario(), mode), sz[0], sz[1])
				step, reset := keyMsg("1"), keyMsg("r")
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					msg := step
					if len(m.scen.sess.enabled) == 0 {
						msg = reset
					}
					m, _ = m.update(msg)
					_ = m.View()
				}
			})
		}
	}
}

// BenchmarkFirstFrame measures New, the first WindowSizeMsg and View.
func BenchmarkFirstFrame(b *testing.B) {
	sc := bigScenario()
	for i := 0; i < b.N; i++ {
		m := New(testOptions(sc, machine.ARM))
		m, _ = m.update(size(140, 45))
		_ = m.View()
	}
}

package machine

import (
	"fmt"
	"testing"
)

// ring builds an n-CPU program in which CPU i writes x_i, then reads
// x_{i+1} and x_{i+2} (three accesses per CPU), with an optional fence
// after the write.
func ring(n int, f *Fence) *Program {
	b := NewBuilder(fmt.Sprintf("ring%d", n))
	var xs []Loc
	for i := 0; i < n; i++ {
		xs = append(xs, b.Loc(fmt.Sprintf("x%d", i), 0))
	}
	for i := 0; i < n; i++ {
		t := b.Thread()
		r0, r1 := t.Reg("r0"), t.Reg("r1")
		t.StoreConst(Once, xs[i], 1)
		if f != nil {
			t.Fence(*f)
		}
		t.Load(Once, r0, xs[(i+1)%n])
		t.Load(Once, r1, xs[(i+2)%n])
	}
	return b.Program()
}

func benchPrograms() []struct {
	name string
	p    *Program
} {
	shape := func(name string) *Program {
		p, _ := shapeNamed(name)
		return p
	}
	return []struct {
		name string
		p    *Program
	}{
		{"SB", shape("SB")},
		{"MP", shape("MP")},
		{"IRIW", shape("IRIW")},
		{"IRIW+mbs", shape("IRIW+mbs")},
		{"ring4", ring(4, nil)},
		{"ring5", ring(5, nil)},
		{"ring5+mbs", ring(5, fence(FenceMb))},
	}
}

// BenchmarkExplore reports states/s and bytes/state for each program and
// mode: go test ./machine -run '^$' -bench Explore -benchmem
func BenchmarkExplore(b *testing.B) {
	for _, bp := range benchPrograms() {
		for _, mode := range []Mode{TSO, ARM} {
			b.Run(fmt.Sprintf("%s/%s", bp.name, mode), func(b *testing.B) {
				m := MustNew(bp.p, mode)
				var res *Result
				for i := 0; i < b.N; i++ {
					res = Explore(m, Options{})
				}
				if !res.Complete {
					b.Fatal(summary(res))
				}
				b.ReportMetric(float64(res.States), "states")
				b.ReportMetric(float64(res.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(float64(res.PeakBytes)/float64(res.States), "peakB/state")
			})
		}
	}
}

// BenchmarkExploreTiny is the fixed cost of one small exploration in a
// batch (check over a directory): CoRR and MP, both modes, verdicts
// only, one worker, as check runs them.
//
//	go test ./machine -run '^$' -bench ExploreTiny -benchmem
func BenchmarkExploreTiny(b *testing.B) {
	for _, name := range []string{"CoRR", "MP"} {
		p, _ := shapeNamed(name)
		for _, mode := range []Mode{TSO, ARM} {
			b.Run(fmt.Sprintf("%s/%s", name, mode), func(b *testing.B) {
				m := MustNew(p, mode)
				b.ReportAllocs()
				var r *Result
				for i := 0; i < b.N; i++ {
					r = Explore(m, Options{Workers: 1, NoWitnesses: true})
				}
				b.ReportMetric(float64(r.States), "states")
			})
		}
	}
}

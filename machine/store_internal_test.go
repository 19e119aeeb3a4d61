package machine

import (
	"testing"

	"pgregory.net/rapid"
)

// TestEndTuplesMatchTheStore: phase two of outcome registers decodes the
// end skeletons from the tuples keepEnds copied apart, found by their rank
// in the ends bitset (endTuple); for every end, at word boundaries too,
// that is the tuple the search stored. A buffer a larger search left is
// not kept when it is more than twice too large (fit).
func TestEndTuplesMatchTheStore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.IntRange(1, 9).Draw(t, "width")
		n := rapid.IntRange(1, 300).Draw(t, "states")
		var ts tupleSet
		ts.reset(width)
		tuple := make([]uint32, width)
		for i := range n {
			for j := range tuple {
				tuple[j] = uint32(i*31 + j)
			}
			if _, isNew := ts.add(tuple); !isNew {
				t.Fatalf("tuple %d not new", i)
			}
		}
		var o orState
		// A buffer from a larger search, to be let go.
		o.endWords = make([]uint32, 0, 8*n*width+4096)
		ends := rapid.SliceOfNDistinct(rapid.IntRange(0, n-1), 0, n, rapid.ID[int]).Draw(t, "ends")
		for _, idx := range ends {
			for idx/64 >= len(o.ends) {
				o.ends = append(o.ends, 0)
			}
			o.ends[idx/64] |= 1 << (idx % 64)
		}
		o.keepEnds(&ts)
		if len(o.endWords) != len(ends)*width {
			t.Fatalf("kept %d words for %d ends of width %d", len(o.endWords), len(ends), width)
		}
		if c := cap(o.endWords); c > 2*len(ends)*width+1024 {
			t.Fatalf("kept a buffer of %d words for %d", c, len(ends)*width)
		}
		want := make([]uint32, width)
		got := make([]uint32, width)
		for _, idx := range ends {
			ts.get(idx, want)
			o.endTuple(idx, got)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("end %d: tuple %v, stored %v", idx, got, want)
				}
			}
		}
	})
}

package machine

import (
	"slices"
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

// TestTupleWordsWiden: a tupleSet stores its words in 16 bits until one
// does not fit, then moves every word to 32 bits. Across that move, at a
// page boundary too, every tuple reads back as stored and is found again,
// a new search starts narrow, and the narrow pages are let go once the
// words are wide.
func TestTupleWordsWiden(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.IntRange(1, 9).Draw(t, "width")
		// Up to a little over one page of words, so that widening meets a
		// full narrow page (every fourth program crosses one).
		most := min(0xFFFF, (1<<pageBits)/width+300)
		least := 1 // (and crossing, widening after the first page is full)
		if width > 1 && rapid.IntRange(0, 3).Draw(t, "crossPage") == 0 {
			least = (1<<pageBits)/width + 1
		}
		n := rapid.IntRange(least, most).Draw(t, "tuples")
		wideAt := rapid.IntRange(least-1, n).Draw(t, "wideAt") // n: never
		var ts tupleSet
		for round := range 2 {
			ts.reset(width)
			if ts.words.isWide || ts.words.bytes() > int64(smallPage)*4+int64(1<<pageBits)*2 {
				t.Fatalf("round %d starts wide (%v) or holding %d bytes", round, ts.words.isWide, ts.words.bytes())
			}
			tuple := make([]uint32, width)
			stored := make([][]uint32, 0, n)
			for i := range n {
				tuple[0] = uint32(i) // (fits 16 bits: n does)
				for j := 1; j < width; j++ {
					tuple[j] = uint32(j)
				}
				if i == wideAt && round == 0 {
					tuple[width-1] = 1 << 20
				}
				if _, isNew := ts.add(tuple); !isNew {
					t.Fatalf("tuple %d not new", i)
				}
				stored = append(stored, append([]uint32(nil), tuple...))
			}
			wantWide := round == 0 && wideAt < n
			if ts.words.isWide != wantWide {
				t.Fatalf("round %d: wide %v, want %v", round, ts.words.isWide, wantWide)
			}
			if wantWide && len(ts.words.narrow.pages) != 0 {
				t.Fatalf("wide, and still holding %d narrow pages", len(ts.words.narrow.pages))
			}
			got := make([]uint32, width)
			for i, want := range stored {
				ts.get(i, got)
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("round %d, tuple %d: %v, stored %v", round, i, got, want)
					}
				}
				if idx, ok := ts.lookup(want); !ok || idx != i {
					t.Fatalf("round %d, tuple %d: lookup gave %d, %v", round, i, idx, ok)
				}
			}
		}
	})
}

// TestValuationsWiden: phase two interns valuations a byte a value while
// every value fits, and moves them all to 8 bytes at the first that does
// not. Before and after, each valuation reads back as interned and
// interning it again gives its number; a new search starts narrow.
func TestValuationsWiden(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 12).Draw(t, "slots")
		var o orState
		for round := range 2 {
			o.vals, o.vals8, o.wideVals = o.vals[:0], o.vals8[:0], false
			o.valIdx.reset()
			o.k = k
			n := rapid.IntRange(1, 200).Draw(t, "valuations")
			big := round == 0 && rapid.Bool().Draw(t, "big")
			var kept [][]Value
			var ids []uint32
			for range n {
				v := make([]Value, k)
				for j := range v {
					v[j] = Value(rapid.IntRange(-128, 127).Draw(t, "value"))
				}
				if big && rapid.IntRange(0, 9).Draw(t, "makeBig") == 0 {
					v[rapid.IntRange(0, k-1).Draw(t, "bigSlot")] = Value(rapid.Int64().Filter(func(x int64) bool { return x != int64(int8(x)) }).Draw(t, "bigValue"))
				}
				kept = append(kept, v)
				ids = append(ids, o.internVal(v))
			}
			wantWide := false
			for _, v := range kept {
				wantWide = wantWide || !fitsByte(v)
			}
			if o.wideVals != wantWide {
				t.Fatalf("round %d: wide %v, want %v", round, o.wideVals, wantWide)
			}
			got := make([]Value, k)
			for i, v := range kept {
				o.valInto(ids[i], got)
				if !slices.Equal(got, v) {
					t.Fatalf("round %d: valuation %d reads %v, interned %v", round, ids[i], got, v)
				}
				if id := o.internVal(v); id != ids[i] {
					t.Fatalf("round %d: %v interned again as %d, first %d", round, v, id, ids[i])
				}
			}
		}
	})
}

package machine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// u64Table agrees with a Go map on any sequence of puts and gets,
// across its growths and a reset.
func TestU64TableIsAMap(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var tab u64Table
		want := map[uint64]uint32{}
		// Keys from a small range collide often; from a wide one, spread.
		key := rapid.OneOf(rapid.Uint64Range(0, 300), rapid.Uint64())
		for i, n := 0, rapid.IntRange(0, 2000).Draw(rt, "ops"); i < n; i++ {
			k := key.Draw(rt, "k")
			switch rapid.IntRange(0, 9).Draw(rt, "op") {
			case 0:
				tab.reset()
				clear(want)
			case 1, 2, 3, 4:
				v := rapid.Uint32().Draw(rt, "v")
				tab.put(k, v)
				want[k] = v
			default:
				got, ok := tab.get(k)
				if w, wok := want[k]; ok != wok || got != w {
					rt.Fatalf("get(%d) = %d, %v; want %d, %v", k, got, ok, w, wok)
				}
			}
		}
		for k, w := range want {
			if got, ok := tab.get(k); !ok || got != w {
				rt.Fatalf("at the end get(%d) = %d, %v; want %d", k, got, ok, w)
			}
		}
		if tab.n != len(want) {
			rt.Fatalf("%d keys, want %d", tab.n, len(want))
		}
	})
}

// idTable finds every item put, by hash and the caller's own equality,
// however many items share a hash (here: most of them).
func TestIDTableFindsItems(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var tab idTable
		var items []uint64 // item id is its index
		hash := func(x uint64) uint64 { return x % 7 }
		for i, n := 0, rapid.IntRange(0, 1500).Draw(rt, "ops"); i < n; i++ {
			x := rapid.Uint64Range(0, 400).Draw(rt, "x")
			id, ok := tab.get(hash(x), func(id uint32) bool { return items[id] == x })
			want := slices.Index(items, x)
			if ok != (want >= 0) || ok && int(id) != want {
				rt.Fatalf("get(%d) = %d, %v; want %d", x, id, ok, want)
			}
			if !ok {
				tab.put(hash(x), uint32(len(items)))
				items = append(items, x)
			}
		}
	})
}

package machine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// memoCache never returns a result for a key other than its own, and
// holds a result put until another key takes its slot, across its
// growths and a reset.
func TestMemoCacheForgetsButNeverLies(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var c memoCache
		want := map[uint64]uint32{}
		key := rapid.OneOf(rapid.Uint64Range(0, 3000), rapid.Uint64Range(0, 1<<56))
		for i, n := 0, rapid.IntRange(0, 5000).Draw(rt, "ops"); i < n; i++ {
			k := key.Draw(rt, "k")
			if rapid.IntRange(0, 99).Draw(rt, "op") == 0 {
				c.reset()
				clear(want)
				continue
			}
			sl, hit := c.get(k)
			if hit {
				if w, ok := want[k]; !ok || sl.val != w {
					rt.Fatalf("get(%d) hit with %d; want %d, %v", k, sl.val, w, ok)
				}
				continue
			}
			v := rapid.Uint32().Draw(rt, "v")
			*sl = memoSlot{key: k + 1, val: v}
			want[k] = v
			if again, hit := c.get(k); !hit || again.val != v {
				rt.Fatalf("get(%d) just after its put: %v, %v", k, again, hit)
			}
		}
		if len(c.slots) > 1<<memoMaxBits {
			rt.Fatalf("%d slots, more than %d", len(c.slots), 1<<memoMaxBits)
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

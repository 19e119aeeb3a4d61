package machine

import "math/bits"

// tableShape returns, for a table of size slots (a power of two), the
// mask of a slot number, the shift that takes a 64-bit multiplicative hash
// to a slot (its top bits, the best mixed), and no entries yet.
func tableShape(size int) (mask uint64, shift uint, n int) {
	return uint64(size - 1), uint(64 - bits.Len(uint(size-1))), 0
}

// pairTable finds outcome-register pairs (outregs.go) by state and
// valuation. It holds only pair numbers (plus one, 0 for an empty slot)
// and compares keys in the pairs themselves: 4 bytes a slot, where a
// table of keys and values took 13, and the pairs are most of what a
// large search with outcome registers holds.
type pairTable struct {
	slots []uint32
	n     int
	mask  uint64
	shift uint
}

func (t *pairTable) reset() {
	clear(t.slots)
	t.n = 0
}

func pairKey(state int32, val uint32) uint64 {
	return (uint64(state)<<32 | uint64(val)) * 0x9E3779B97F4A7C15
}

// get returns the pair of state and val in o, or -1.
func (t *pairTable) get(o *orState, state int32, val uint32) int32 {
	if t.n == 0 {
		return -1
	}
	for i := pairKey(state, val) >> t.shift; ; i = (i + 1) & t.mask {
		q := t.slots[i]
		if q == 0 {
			return -1
		}
		if pr := o.pair(int32(q - 1)); pr.state == state && pr.val == val {
			return int32(q - 1)
		}
	}
}

// put adds pair p of o, whose state and valuation are not in t.
func (t *pairTable) put(o *orState, p int32) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		size := max(64, 2*len(old))
		t.slots = make([]uint32, size)
		t.mask, t.shift, t.n = tableShape(size)
		for _, q := range old {
			if q != 0 {
				t.insert(o, int32(q-1))
			}
		}
	}
	t.insert(o, p)
}

func (t *pairTable) insert(o *orState, p int32) {
	pr := o.pair(p)
	i := pairKey(pr.state, pr.val) >> t.shift
	for t.slots[i] != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = uint32(p + 1)
	t.n++
}

func (t *pairTable) bytes() int64 { return int64(len(t.slots)) * 4 }

// idTable finds numbered items (valuations, lists of writes: outregs.go)
// by their hash. With each number it keeps the top 32 bits of the
// hash's spread (h times the golden ratio), which place the number in
// any table of up to 2^32 slots, so that growing needs no items, and
// which turn away most mismatches; the caller confirms a match against
// its own copy of the item. 8 bytes a slot where the whole hash made it
// 12 (the valuations' table was a tenth of a read-read cycle's memory).
// It allocates nothing per item, where a map keyed by the item's bytes
// allocated a string each (a fifth of a small exploration's allocations).
type idTable struct {
	tops  []uint32
	ids   []uint32 // number + 1, 0 for an empty slot
	n     int
	mask  uint64
	shift uint // of a slot from its top: 32 - log2(slots)
}

func (t *idTable) reset() {
	clear(t.ids)
	t.n = 0
}

// spread is what idTable keeps of hash h.
func spread(h uint64) uint32 { return uint32((h * 0x9E3779B97F4A7C15) >> 32) }

// get returns the number stored with hash h for which same is true.
func (t *idTable) get(h uint64, same func(id uint32) bool) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	top := spread(h)
	for i := uint64(top >> t.shift); ; i = (i + 1) & t.mask {
		switch id := t.ids[i]; {
		case id == 0:
			return 0, false
		case t.tops[i] == top && same(id-1):
			return id - 1, true
		}
	}
}

// put stores number id with hash h.
func (t *idTable) put(h uint64, id uint32) {
	if 2*(t.n+1) > len(t.ids) {
		tops, ids := t.tops, t.ids
		size := max(64, 2*len(ids))
		t.tops, t.ids = make([]uint32, size), make([]uint32, size)
		var shift uint
		t.mask, shift, t.n = tableShape(size)
		t.shift = shift - 32
		for i, old := range ids {
			if old != 0 {
				t.insert(tops[i], old)
			}
		}
	}
	t.insert(spread(h), id+1)
}

func (t *idTable) insert(top uint32, stored uint32) {
	i := uint64(top >> t.shift)
	for t.ids[i] != 0 {
		i = (i + 1) & t.mask
	}
	t.tops[i], t.ids[i] = top, stored
	t.n++
}

func (t *idTable) bytes() int64 { return int64(len(t.ids)) * 8 }

// memoCache holds some of update's results: a slot per key hash, a new
// result taking the slot of an old one. It starts small and doubles, up
// to memoMaxBits, each time it has missed four times its size, so that a
// search with few distinct updates holds little; and up to a slot per two
// skeletons (limit), so that a small search's cache stays small beside
// the rest of what it holds.
type memoCache struct {
	slots    []memoSlot
	shift    uint
	misses   int
	maxSlots int
}

// memoSlot is a key (plus one: 0 is an empty slot) and its result.
type memoSlot struct {
	key uint64
	val uint32
}

// memoMinBits and memoMaxBits bound the cache: 256 to 1,024 slots (4 to
// 16 KiB): 16,384 took a quarter of the read-read cycles' memory and
// saved no time on them (1,024 measured as fast: the pairs come in runs).
const memoMinBits, memoMaxBits = 8, 10

// limit bounds c's growth for a search of n skeletons.
func (c *memoCache) limit(n int) {
	c.maxSlots = 1 << max(memoMinBits, min(memoMaxBits, bits.Len(uint(n/2))-1))
}

// reset empties c, keeping its slots.
func (c *memoCache) reset() {
	clear(c.slots)
	c.misses = 0
}

// get returns key's slot and whether it holds key's result; put the
// result there when it does not.
func (c *memoCache) get(key uint64) (*memoSlot, bool) {
	if c.slots == nil {
		c.grow(memoMinBits)
	}
	sl := &c.slots[(key*0x9E3779B97F4A7C15)>>c.shift]
	if sl.key == key+1 {
		return sl, true
	}
	if c.misses++; c.misses > 4*len(c.slots) && len(c.slots) < c.maxSlots {
		c.grow(bits.Len(uint(len(c.slots))))
		sl = &c.slots[(key*0x9E3779B97F4A7C15)>>c.shift]
	}
	return sl, false
}

// grow replaces c's slots by 1<<b empty ones.
func (c *memoCache) grow(b int) {
	c.slots, c.shift, c.misses = make([]memoSlot, 1<<b), uint(64-b), 0
}

// bytes is what c holds.
func (c *memoCache) bytes() int64 { return int64(cap(c.slots)) * 16 }

package machine

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The explorer's visited set in compact form. A state is stored as a tuple
// of block numbers — its shared block and one block per CPU, each interned
// once (a CPU's block recurs across very many states) — plus what its
// witness needs (parent, the move from it, distance). Everything lives in
// large pages, so the set grows without copying and its size is known
// exactly for the memory budget.

const pageBits = 16 // elements per page: 64 Ki

// pagedBytes is an append-only byte store in pages.
type pagedBytes struct {
	pages [][]byte
}

const bytePage = 1 << 20

// add stores b and returns its reference: page<<20 | offset. Blocks never
// straddle pages. (Blocks are at most a few hundred bytes.)
func (p *pagedBytes) add(b []byte) uint32 {
	need := len(b) + binary.MaxVarintLen32
	n := len(p.pages)
	switch {
	case n == 0:
		p.pages = append(p.pages, make([]byte, 0, max(512, need)))
		n++
	case len(p.pages[n-1])+need > cap(p.pages[n-1]):
		if c := cap(p.pages[n-1]); c < bytePage {
			// The first page grows (by copying) up to full size, so
			// small searches hold little; by a quarter, as paged32's.
			pg := make([]byte, len(p.pages[n-1]), min(bytePage, max(c+c/4, c+need)))
			copy(pg, p.pages[n-1])
			p.pages[n-1] = pg
		} else {
			p.pages = append(p.pages, make([]byte, 0, bytePage))
			n++
		}
	}
	pg := p.pages[n-1]
	off := len(pg)
	pg = binary.AppendUvarint(pg, uint64(len(b)))
	pg = append(pg, b...)
	p.pages[n-1] = pg
	return uint32(n-1)<<20 | uint32(off)
}

// reset empties p, keeping its first page.
func (p *pagedBytes) reset() {
	if len(p.pages) > 0 {
		clear(p.pages[1:])
		p.pages = p.pages[:1]
		p.pages[0] = p.pages[0][:0]
	}
}

func (p *pagedBytes) get(ref uint32) []byte {
	pg := p.pages[ref>>20]
	off := int(ref & (bytePage - 1))
	n, k := binary.Uvarint(pg[off:])
	return pg[off+k : off+k+int(n)]
}

func (p *pagedBytes) bytes() int64 {
	var n int64
	for _, pg := range p.pages {
		n += int64(cap(pg))
	}
	return n
}

// paged is an append-only slice of T in pages.
type paged[T uint16 | uint32] struct {
	pages [][]T
	n     int
}

// paged32 holds the explorer's per-state numbers (parents, moves,
// distances, sleep sets) and an interner's references.
type paged32 = paged[uint32]

func (p *paged[T]) append(v T) {
	switch {
	case p.n>>pageBits == len(p.pages):
		size := 1 << pageBits
		if p.n == 0 {
			size = 64 // the first page grows up to full size
		}
		p.pages = append(p.pages, make([]T, size))
	case p.n < 1<<pageBits && p.n == len(p.pages[0]):
		// By a quarter, not double: the page is what the search holds,
		// and doubling left up to half of it unused (a fifth of the
		// peak of a 4,400-state search); the copies cost little.
		pg := make([]T, min(1<<pageBits, (p.n+p.n/4+63)&^63))
		copy(pg, p.pages[0])
		p.pages[0] = pg
	}
	p.pages[p.n>>pageBits][p.n&(1<<pageBits-1)] = v
	p.n++
}

// reset empties p, keeping its first page.
func (p *paged[T]) reset() {
	if len(p.pages) > 0 {
		clear(p.pages[1:])
		p.pages = p.pages[:1]
	}
	p.n = 0
}

// release empties p and, when its first page has grown past what a small
// search needs, lets that page go too: the explorer calls it once the
// search no longer reads p (outcome registers' phase two), where keeping
// a large page for the next search would hold memory through the phase
// that peaks.
func (p *paged[T]) release() {
	p.reset()
	if len(p.pages) > 0 && len(p.pages[0]) > smallPage {
		p.pages = nil
	}
}

// smallPage is the largest first page release keeps: a batch of small
// searches reuses it.
const smallPage = 1024

func (p *paged[T]) at(i int) T     { return p.pages[i>>pageBits][i&(1<<pageBits-1)] }
func (p *paged[T]) set(i int, v T) { p.pages[i>>pageBits][i&(1<<pageBits-1)] = v }
func (p *paged[T]) bytes() int64 {
	var n int64
	for _, pg := range p.pages {
		n += int64(len(pg)) * int64(unsafe.Sizeof(pg[0]))
	}
	return n
}

// tupleWords is a tupleSet's words: 16 bits each while every word fits,
// 32 bits from the first that does not. A word is a block number of one
// CPU or of memory, and a search of a few thousand states numbers a few
// thousand blocks of each, so a stored state takes half the bytes there
// (8-CPU tuples: 18 bytes instead of 36, of about 90 a state).
type tupleWords struct {
	narrow paged[uint16]
	wide   paged32
	isWide bool
}

func (t *tupleWords) append(v uint32) {
	if !t.isWide {
		if v <= 0xFFFF {
			t.narrow.append(uint16(v))
			return
		}
		t.widen()
	}
	t.wide.append(v)
}

// widen moves the words to 32 bits, letting each narrow page go once it
// is copied, so the two copies never coexist for more than a page.
func (t *tupleWords) widen() {
	t.wide.reset()
	for i := 0; i < t.narrow.n; i++ {
		t.wide.append(uint32(t.narrow.at(i)))
		if i&(1<<pageBits-1) == 1<<pageBits-1 {
			t.narrow.pages[i>>pageBits] = nil
		}
	}
	t.narrow = paged[uint16]{}
	t.isWide = true
}

func (t *tupleWords) at(i int) uint32 {
	if t.isWide {
		return t.wide.at(i)
	}
	return uint32(t.narrow.at(i))
}

// reset empties t for a new search, which starts narrow: it keeps the
// narrow first page, and the wide one only if it is small (release), or a
// batch would hold the wide page of its largest search for good.
func (t *tupleWords) reset() {
	t.narrow.reset()
	t.wide.release()
	t.isWide = false
}

// release is paged's release of both widths.
func (t *tupleWords) release() {
	t.narrow.release()
	t.wide.release()
	t.isWide = false
}

func (t *tupleWords) bytes() int64 { return t.narrow.bytes() + t.wide.bytes() }

// hashBytes is FNV-1a, 32 bits: blocks are short.
func hashBytes(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

// Tagged slots. A table of 2^k slots holds at most 3/4·2^k entries, so an
// entry's number+1 fits in its low k bits; the high bits hold the same
// bits of its hash, which the slot index (the low bits) does not use. A
// probe compares those first and reads the stored block or tuple (a
// random access into the pages) only when they agree. The probe sequence
// and the numbers are those of untagged slots: only comparisons that
// would fail are skipped.

// interner numbers distinct byte blocks.
type interner struct {
	data  pagedBytes
	refs  paged32  // block id -> reference into data
	table []uint32 // open addressing: hash&^mask | id+1, 0 for empty
}

func (in *interner) find(b []byte, h uint32) (slot int, id uint32, ok bool) {
	mask := len(in.table) - 1
	tag := h &^ uint32(mask)
	for i := int(h) & mask; ; i = (i + 1) & mask {
		v := in.table[i]
		if v == 0 {
			return i, 0, false
		}
		if v&^uint32(mask) == tag && bytes.Equal(in.data.get(in.refs.at(int(v&uint32(mask))-1)), b) {
			return i, v&uint32(mask) - 1, true
		}
	}
}

// lookup returns the id of block b if it is known. It only reads, so
// several goroutines may call it between writes.
func (in *interner) lookup(b []byte) (uint32, bool) {
	if len(in.table) == 0 {
		return 0, false
	}
	_, id, ok := in.find(b, hashBytes(b))
	return id, ok
}

// intern returns b's id, adding it if it is new.
func (in *interner) intern(b []byte) uint32 {
	if (in.refs.n+1)*4 > len(in.table)*3 {
		in.rehash()
	}
	h := hashBytes(b)
	slot, id, ok := in.find(b, h)
	if ok {
		return id
	}
	id = uint32(in.refs.n)
	in.refs.append(in.data.add(b))
	in.table[slot] = h&^uint32(len(in.table)-1) | (id + 1)
	return id
}

func (in *interner) rehash() {
	n := max(64, 2*len(in.table))
	in.table = make([]uint32, n)
	mask := n - 1
	for id := 0; id < in.refs.n; id++ {
		h := hashBytes(in.data.get(in.refs.at(id)))
		i := int(h) & mask
		for in.table[i] != 0 {
			i = (i + 1) & mask
		}
		in.table[i] = h&^uint32(mask) | (uint32(id) + 1)
	}
}

// reset empties in, keeping its buffers.
func (in *interner) reset() {
	in.data.reset()
	in.refs.reset()
	clear(in.table)
}

func (in *interner) get(id uint32) []byte { return in.data.get(in.refs.at(int(id))) }

func (in *interner) bytes() int64 {
	return in.data.bytes() + in.refs.bytes() + int64(len(in.table))*4
}

// tupleSet numbers distinct fixed-width tuples of uint32 (the states).
type tupleSet struct {
	width int
	words tupleWords // tuple i is words[i*width : (i+1)*width]
	table []uint32   // open addressing: hash&^mask | index+1, 0 for empty (tagged slots, above)
	n     int
}

func hashTuple(t []uint32) uint32 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range t {
		h = bits.RotateLeft64(h^uint64(w), 27) * 0xbf58476d1ce4e5b9
	}
	return uint32(h >> 32)
}

func (ts *tupleSet) equal(i int, t []uint32) bool {
	base := i * ts.width
	for j, w := range t {
		if ts.words.at(base+j) != w {
			return false
		}
	}
	return true
}

func (ts *tupleSet) find(t []uint32, h uint32) (slot int, idx int, ok bool) {
	mask := len(ts.table) - 1
	tag := h &^ uint32(mask)
	for i := int(h) & mask; ; i = (i + 1) & mask {
		v := ts.table[i]
		if v == 0 {
			return i, 0, false
		}
		if v&^uint32(mask) == tag && ts.equal(int(v&uint32(mask))-1, t) {
			return i, int(v&uint32(mask)) - 1, true
		}
	}
}

// lookup returns the index of tuple t if it is known (read-only).
func (ts *tupleSet) lookup(t []uint32) (int, bool) {
	if len(ts.table) == 0 {
		return 0, false
	}
	_, idx, ok := ts.find(t, hashTuple(t))
	return idx, ok
}

// add returns t's index and whether it was new.
func (ts *tupleSet) add(t []uint32) (int, bool) {
	if (ts.n+1)*4 > len(ts.table)*3 {
		ts.rehash()
	}
	h := hashTuple(t)
	slot, idx, ok := ts.find(t, h)
	if ok {
		return idx, false
	}
	idx = ts.n
	for _, w := range t {
		ts.words.append(w)
	}
	ts.table[slot] = h&^uint32(len(ts.table)-1) | (uint32(idx) + 1)
	ts.n++
	return idx, true
}

func (ts *tupleSet) rehash() {
	n := max(64, 2*len(ts.table))
	ts.table = make([]uint32, n)
	mask := n - 1
	t := make([]uint32, ts.width)
	for idx := 0; idx < ts.n; idx++ {
		ts.get(idx, t)
		h := hashTuple(t)
		i := int(h) & mask
		for ts.table[i] != 0 {
			i = (i + 1) & mask
		}
		ts.table[i] = h&^uint32(mask) | (uint32(idx) + 1)
	}
}

// reset empties ts for tuples of width words, keeping its buffers.
func (ts *tupleSet) reset(width int) {
	ts.width = width
	ts.words.reset()
	clear(ts.table)
	ts.n = 0
}

// get copies tuple idx into t.
func (ts *tupleSet) get(idx int, t []uint32) {
	base := idx * ts.width
	for j := range t {
		t[j] = ts.words.at(base + j)
	}
}

func (ts *tupleSet) bytes() int64 { return ts.words.bytes() + int64(len(ts.table))*4 }

// growBytes is how much a tupleSet or interner allocates when it next
// grows its table, so the budget can be asked first.
func tableGrowth(n, tableLen int) int64 {
	if (n+1)*4 > tableLen*3 {
		return int64(max(64, 2*tableLen)) * 4
	}
	return 0
}

package machine

import "math/bits"

// u64Table maps uint64 keys to uint32 values by open addressing with
// linear probing. Propagating outcome-register valuations (outregs.go)
// looks up a pair and a memo per edge it crosses, millions of times in a
// large search, where Go's maps took 0.75 s of that phase's 1.26 s of CPU
// (pprof, BenchmarkGrace read-read G+G+R+R+R+R ARM-like, 1.46 million
// pairs); with this table the phase takes 1.01 s. Keys are never removed.
type u64Table struct {
	keys  []uint64
	vals  []uint32
	used  []bool
	n     int
	mask  uint64
	shift uint // 64 less log2 of the slots
}

// reset empties t, keeping its slots when it had some.
func (t *u64Table) reset() {
	clear(t.used)
	t.n = 0
}

// slot is k's first slot: a multiplicative hash, whose top bits are the
// best mixed.
func (t *u64Table) slot(k uint64) uint64 {
	return (k * 0x9E3779B97F4A7C15) >> t.shift
}

// get returns k's value.
func (t *u64Table) get(k uint64) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		if !t.used[i] {
			return 0, false
		}
		if t.keys[i] == k {
			return t.vals[i], true
		}
	}
}

// put sets k's value to v.
func (t *u64Table) put(k uint64, v uint32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		if !t.used[i] {
			t.used[i], t.keys[i], t.vals[i] = true, k, v
			t.n++
			return
		}
		if t.keys[i] == k {
			t.vals[i] = v
			return
		}
	}
}

// grow doubles the slots (at least 64) and re-inserts every key.
func (t *u64Table) grow() {
	keys, vals, used := t.keys, t.vals, t.used
	size := max(64, 2*len(keys))
	t.keys, t.vals, t.used = make([]uint64, size), make([]uint32, size), make([]bool, size)
	t.mask = uint64(size - 1)
	t.shift = uint(64 - bits.Len(uint(size-1)))
	t.n = 0
	for i, u := range used {
		if u {
			t.put(keys[i], vals[i])
		}
	}
}

// bytes is what t holds.
func (t *u64Table) bytes() int64 {
	return int64(len(t.keys)) * 13
}

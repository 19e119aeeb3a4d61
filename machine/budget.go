package machine

import "sync/atomic"

// Budget is a memory allowance shared by the explorations that run at the
// same time in one process: each charges what its store holds (counted
// exactly: its pages and tables), and stops before the total, with what
// its next chunk may add, would pass the budget.
type Budget struct {
	limit   int64 // what people asked for, for messages
	reserve int64 // of the limit, left to everything but the stores
	used    atomic.Int64
	peak    atomic.Int64
	// large, when set, is called once when used first reaches largeAt.
	large   atomic.Pointer[func()]
	largeAt atomic.Int64
}

// NewBudget returns a budget of limit bytes for explorers' stores.
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// Limit returns the budget's size in bytes, as asked for.
func (b *Budget) Limit() int64 { return b.limit }

// Used returns how many bytes the explorations hold now.
func (b *Budget) Used() int64 { return b.used.Load() }

func (b *Budget) fits(more int64) bool { return b.used.Load()+more <= b.limit-b.reserve }

// charge adds delta bytes and keeps the peak.
func (b *Budget) charge(delta int64) {
	now := b.used.Add(delta)
	if b.large.Load() != nil && now >= b.largeAt.Load() {
		if f := b.large.Swap(nil); f != nil {
			(*f)()
		}
	}
	for {
		p := b.peak.Load()
		if now <= p || b.peak.CompareAndSwap(p, now) {
			return
		}
	}
}

// Peak returns the most bytes the explorations held at one time.
func (b *Budget) Peak() int64 { return b.peak.Load() }

// NewProcessBudget returns the budget of every exploration of a process
// bounded to limit bytes in all: it leaves a third of the limit (at least
// 32 MiB) to everything but the stores — the runtime, the program,
// successor states being built, garbage not yet collected — so that the
// process's resident memory stays under the limit when the Go runtime is
// told RuntimeLimit(limit) too. The program builds one (main, from
// --max-memory) and passes it in every exploration's Options.
func NewProcessBudget(limit int64) *Budget {
	return &Budget{limit: limit, reserve: max(limit/3, 32<<20)}
}

// RuntimeLimit is the Go runtime's memory limit (debug.SetMemoryLimit)
// that goes with a process budget of limit bytes: a little less, for what
// the runtime does not count (the program's own pages).
func RuntimeLimit(limit int64) int64 { return limit - min(limit/10, 16<<20) }

// OnLarge calls f once, from the exploration that gets there, when the
// explorations sharing b first hold at least bytes together. A
// short-lived command can collect garbage rarely while its searches are
// small and more often once they are large, when the heap's headroom
// would otherwise dominate the resident memory. A nil f removes the call.
func (b *Budget) OnLarge(bytes int64, f func()) {
	if f == nil {
		b.large.Store(nil)
		return
	}
	b.largeAt.Store(bytes)
	b.large.Store(&f)
}

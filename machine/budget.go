package machine

import (
	"runtime/debug"
	"sync/atomic"
)

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

// processBudget is the budget of explorations that name none (Options
// Budget and MaxMemory unset): one for the whole process.
var processBudget atomic.Pointer[Budget]

func init() { processBudget.Store(NewBudget(defaultMaxMemory)) }

// SetProcessMemoryLimit makes limit the memory bound of the whole process:
// the Go runtime is told to keep the heap under it (debug.SetMemoryLimit),
// and explorations that name no budget share one that leaves part of the
// limit to everything else the process holds — the runtime, the program,
// successor states being built, garbage not yet collected — so that the
// process's resident memory stays under the limit. Explorations already
// running keep the budget they started with.
func SetProcessMemoryLimit(limit int64) {
	// The runtime's limit leaves room for what it does not count: the
	// program's own pages.
	debug.SetMemoryLimit(limit - min(limit/10, 16<<20))
	processBudget.Store(&Budget{limit: limit, reserve: max(limit/3, 32<<20)})
}

// WhenProcessExplorationsExceed calls f once, from the exploration that
// gets there, when the explorations sharing the process's budget first
// hold at least bytes together. A short-lived command can collect garbage
// rarely while its searches are small and more often once they are large,
// when the heap's headroom would otherwise dominate the resident memory.
// A nil f removes the call.
func WhenProcessExplorationsExceed(bytes int64, f func()) {
	b := processBudget.Load()
	if f == nil {
		b.large.Store(nil)
		return
	}
	b.largeAt.Store(bytes)
	b.large.Store(&f)
}

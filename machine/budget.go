package machine

import "sync/atomic"

// Budget is a memory allowance shared by the explorations that run at the
// same time in one process: each charges what its store holds, and stops
// before the total would pass the limit.
type Budget struct {
	limit int64
	used  atomic.Int64
}

// NewBudget returns a budget of limit bytes.
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// Limit returns the budget's size in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used returns how many bytes the explorations hold now.
func (b *Budget) Used() int64 { return b.used.Load() }

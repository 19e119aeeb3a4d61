package machine

import "time"

// StopKind is why a search stopped before expanding every state it
// found (Result.Stop). The words for it are scenarios/words' (Stop,
// Summary): callers decide by kind, people read the words.
type StopKind uint8

// Stop kinds.
const (
	StopNone      StopKind = iota // the search finished: Result.Complete
	StopStates                    // Options.MaxStates distinct states were expanded
	StopTime                      // Options.Timeout, or the context's deadline, passed
	StopMemory                    // the memory budget would have been exceeded
	StopCancelled                 // the context was cancelled
)

// Stop says why a search stopped early, and at what limit.
type Stop struct {
	Kind StopKind
	// MaxStates is the state limit (StopStates).
	MaxStates int
	// Timeout is Options.Timeout (StopTime; 0 when the context's own
	// deadline passed).
	Timeout time.Duration
	// MaxMemory is the budget's limit in bytes (StopMemory).
	MaxMemory int64
	// Cause is why the caller cancelled, when it said
	// (context.WithCancelCause; check's "interrupted"), else nil
	// (StopCancelled).
	Cause error
}

var stopKindNames = [...]string{
	StopNone: "none", StopStates: "states", StopTime: "time", StopMemory: "memory", StopCancelled: "cancelled",
}

// String names the kind (for logs and tests; words.Stop says it for
// people).
func (k StopKind) String() string { return stopKindNames[k] }

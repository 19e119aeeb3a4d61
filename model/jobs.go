package model

import (
	"container/list"
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
)

// Background work (the exploration behind the outcomes pane, the analyses
// behind the compare and necessity panels) is one kind of thing: a job.
// It runs in a command with a cancellable context, while a spinner turns
// and keys keep working; its result arrives in a jobDoneMsg and is kept
// in a cache keyed by what was computed (a program's content and a mode,
// a scenario's question), so that it is computed once however often the
// scenario is opened, and bounded, so that a long session does not grow
// without end.

// jobKind says which slot a job runs in: one job of each kind at a time.
type jobKind uint8

const (
	exploreJob jobKind = iota // the current scenario in the current mode
	panelJob                  // the open panel's analysis
	whatIfJob                 // what an edited scenario is compared with (whatif.go)
	attemptJob                // w's closest attempt at an unreachable outcome
	numJobKinds
)

// computation is what a job computes; each has a result type of its
// own (its field of jobValue).
type computation uint8

const (
	noComputation  computation = iota // the zero jobKey: nothing asked for
	exploration                       // machine.Explore of a program in a mode: jobValue.explored
	closestAttempt                    // scenarios.WitnessOrAttempt in a mode: jobValue.attempt
	comparison                        // scenarios.Compare of a family: jobValue.compare
	fixSearch                         // scenarios.FixSearch: jobValue.fix
	necessity                         // scenarios.Necessity: jobValue.necessity
)

// jobKey names a job's result in the cache by what was computed, from
// what: two jobs with equal keys compute the same thing.
type jobKey struct {
	what computation
	// of is the content computed from: scenarios.ProgramKey of the
	// program explored, or the Spec.Key of the scenario analysed.
	of string
	// variants are the library entries a comparison opens (their
	// family and names).
	variants string
	mode     machine.Mode // exploration, closestAttempt
}

// jobValue is what a job computes: the field of its key's computation
// is set (nil when the job failed).
type jobValue struct {
	explored  *machine.Result
	attempt   *scenarios.Execution
	compare   *scenarios.CompareTable
	fix       *scenarios.FixReport
	necessity *scenarios.NecessityReport
}

// jobResult is what a job computes: a value, or an error. keep says the
// value may be cached (not when a cancellation cut it short).
type jobResult struct {
	value jobValue
	err   error
	keep  bool
}

// jobDoneMsg carries a finished job's result.
type jobDoneMsg struct {
	kind jobKind
	id   int
	key  jobKey
	jobResult
}

// job is a job running.
type job struct {
	id     int
	key    jobKey
	what   string // what is computed, in words, for the spinner line
	cancel context.CancelFunc
}

// jobs runs the jobs and keeps their results. Model values share it; only
// Update changes it.
type jobs struct {
	running [numJobKinds]*job
	lastID  int
	cache   *cache
}

func newJobs(size int) *jobs { return &jobs{cache: newCache(size)} }

// start runs run in the background as the job of kind for key, unless its
// result is cached or it is already running; a job of the same kind for
// another key is cancelled. It returns the command to run (nil when there
// is nothing to do).
func (j *jobs) start(kind jobKind, key jobKey, what string, run func(ctx context.Context) jobResult) tea.Cmd {
	if _, ok := j.cache.get(key); ok {
		j.stop(kind)
		return nil
	}
	if r := j.running[kind]; r != nil && r.key == key {
		return nil
	}
	j.stop(kind)
	ctx, cancel := context.WithCancel(context.Background())
	j.lastID++
	id := j.lastID
	j.running[kind] = &job{id: id, key: key, what: what, cancel: cancel}
	return func() tea.Msg {
		return jobDoneMsg{kind: kind, id: id, key: key, jobResult: run(ctx)}
	}
}

// stop cancels the job of kind, if one runs.
func (j *jobs) stop(kind jobKind) {
	if r := j.running[kind]; r != nil {
		r.cancel()
		j.running[kind] = nil
	}
}

// stopAll cancels every job.
func (j *jobs) stopAll() {
	for k := range j.running {
		j.stop(jobKind(k))
	}
}

// done records a finished job: its value is cached when it may be, and it
// reports whether it is the job still running for its kind (a cancelled
// or superseded one is not).
func (j *jobs) done(msg jobDoneMsg) bool {
	if msg.err == nil && msg.keep {
		j.cache.put(msg.key, msg.value)
	}
	r := j.running[msg.kind]
	if r == nil || r.id != msg.id {
		return false
	}
	j.stop(msg.kind) // releases the context
	return true
}

// busy returns the job of kind running for key, or nil.
func (j *jobs) busy(kind jobKind, key jobKey) *job {
	if r := j.running[kind]; r != nil && r.key == key {
		return r
	}
	return nil
}

// any reports whether a job runs (the spinner turns while one does).
func (j *jobs) any() bool {
	for _, r := range j.running {
		if r != nil {
			return true
		}
	}
	return false
}

// result returns the cached value for key.
func (j *jobs) result(key jobKey) (jobValue, bool) { return j.cache.get(key) }

// cache keeps the last size values put, most recently used first.
type cache struct {
	size  int
	order *list.List // of *cacheEntry, most recent first
	index map[jobKey]*list.Element
}

type cacheEntry struct {
	key   jobKey
	value jobValue
}

func newCache(size int) *cache {
	return &cache{size: size, order: list.New(), index: map[jobKey]*list.Element{}}
}

func (c *cache) get(key jobKey) (jobValue, bool) {
	e, ok := c.index[key]
	if !ok {
		return jobValue{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).value, true
}

func (c *cache) put(key jobKey, value jobValue) {
	if e, ok := c.index[key]; ok {
		e.Value.(*cacheEntry).value = value
		c.order.MoveToFront(e)
		return
	}
	c.index[key] = c.order.PushFront(&cacheEntry{key, value})
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.index, last.Value.(*cacheEntry).key)
	}
}

func (c *cache) len() int { return c.order.Len() }

package model

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
)

// exploreDoneMsg carries the result of a background exploration.
type exploreDoneMsg struct {
	key string
	gen int
	res *machine.Result
}

// explorer tracks the background exploration of the current scenario and
// mode. Results are cached per program and mode for the model's lifetime
// (the cache is shared by model values; only Update writes it).
type explorer struct {
	key     string
	gen     int
	running bool
	cancel  context.CancelFunc
	cache   map[string]*machine.Result
}

func exploreKey(m *machine.Machine) string { return fmt.Sprintf("%p/%s", m.Prog, m.Mode) }

// start returns the command exploring m unless its result is cached or
// already being computed.
func (e *explorer) start(m *machine.Machine, opts machine.Options) tea.Cmd {
	key := exploreKey(m)
	if _, ok := e.cache[key]; ok {
		e.stop()
		e.key = key
		return nil
	}
	if e.running && e.key == key {
		return nil
	}
	e.stop()
	ctx, cancel := context.WithCancel(context.Background())
	e.gen++
	e.key, e.running, e.cancel = key, true, cancel
	gen := e.gen
	opts.Context = ctx
	return func() tea.Msg {
		return exploreDoneMsg{key: key, gen: gen, res: machine.Explore(m, opts)}
	}
}

// stop cancels a running exploration.
func (e *explorer) stop() {
	if e.cancel != nil {
		e.cancel()
	}
	e.running, e.cancel = false, nil
}

// done records a finished exploration; it reports whether it was the one
// the model is waiting for.
func (e *explorer) done(msg exploreDoneMsg) bool {
	if msg.res != nil && (msg.res.Complete || msg.res.StopReason != "cancelled") {
		e.cache[msg.key] = msg.res
	}
	if msg.gen != e.gen || !e.running {
		return false
	}
	e.stop() // releases the context
	return true
}

// result returns the cached result for m, if any.
func (e *explorer) result(m *machine.Machine) *machine.Result { return e.cache[exploreKey(m)] }

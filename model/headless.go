package model

import (
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

// The headless driver runs the UI model without a terminal, the way a
// tea.Program would but synchronously and deterministically: smpscope
// record renders its frames with it, and the tests drive the model with
// it.

// Start builds the model for a w×h screen, runs Init and waits for its
// work (the background exploration) to land. Its timers fire at once
// (see Drive).
func Start(opts Options, w, h int) Model {
	opts.tick = instantTick
	m := New(opts)
	return Drive(m, append([]tea.Msg{tea.WindowSizeMsg{Width: w, Height: h}}, messages(m.Init())...)...)
}

// Drive feeds msgs to m one at a time, as a terminal delivers them: the
// commands each returns run at once and their messages are fed back
// before the next msg. Spinner frames and presentation steps, which
// would repeat for ever, are dropped (a caller that wants a presentation
// step sends it), and so is quitting.
func Drive(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		queue := []tea.Msg{msg}
		for n := 0; len(queue) > 0 && n < maxDriven; n++ {
			msg := queue[0]
			queue = queue[1:]
			var cmd tea.Cmd
			m, cmd = m.update(msg)
			queue = append(queue, messages(cmd)...)
		}
	}
	return m
}

// maxDriven bounds the messages one input may cause: a chain of commands
// that never ends is cut there.
const maxDriven = 10000

// commandWait is how long the driver waits for a command (an
// exploration bounded by its own limits) before abandoning it.
const commandWait = 2 * time.Minute

// messages runs cmd and returns the messages it produces, flattening
// batches; timers that repeat are dropped (see Drive).
func messages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(commandWait):
		return nil
	}
	switch msg := msg.(type) {
	case nil, spinner.TickMsg, tea.QuitMsg, presentTickMsg:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, messages(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// instantTick is the headless timer: it fires at once.
func instantTick(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg { return fn(time.Time{}) }
}

package model

import (
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
)

// Terminal is where Run shows the UI.
type Terminal struct {
	In  io.Reader
	Out io.Writer
	// InTTY reads keys from the terminal itself rather than In (In held
	// the scenario or the trace).
	InTTY bool
	// Mouse reports clicks and the wheel to the UI; off, the terminal
	// keeps the mouse for selecting text.
	Mouse bool
}

// frameInterval is how often a real terminal is redrawn at most: keys
// that arrive faster are all handled, and the screen is rendered once per
// interval (bubbletea's renderer draws at 60 frames a second too).
const frameInterval = time.Second / 60

// Run shows the UI on a terminal until the user quits.
func Run(opts Options, t Terminal) error {
	// Ask the terminal for its background before bubbletea owns the
	// input: asked later, the reply would arrive as keystrokes.
	lipgloss.HasDarkBackground()
	opts.frameInterval = frameInterval
	po := []tea.ProgramOption{tea.WithAltScreen(), tea.WithOutput(t.Out)}
	if t.Mouse {
		po = append(po, tea.WithMouseCellMotion())
	}
	in := t.In
	if t.InTTY {
		tty, err := os.Open("/dev/tty")
		if err != nil {
			return err
		}
		defer tty.Close()
		in = tty
	}
	// On a Unix terminal the keys are read ahead (aheadReader), so that q
	// and ctrl+c act at once however many keys wait; the terminal is then
	// put in raw mode here, as bubbletea would for a terminal it reads.
	var prog atomic.Pointer[tea.Program]
	if f, ok := in.(*os.File); ok && runtime.GOOS != "windows" && term.IsTerminal(f.Fd()) {
		state, err := term.MakeRaw(f.Fd())
		if err != nil {
			return err
		}
		defer term.Restore(f.Fd(), state)
		ahead, err := newAheadReader(f, func(q quitAheadMsg) {
			if p := prog.Load(); p != nil {
				p.Send(q)
			}
		})
		if err != nil {
			return err
		}
		defer ahead.Close()
		in = ahead
	}
	po = append(po, tea.WithInput(in))
	p := tea.NewProgram(New(opts), po...)
	prog.Store(p)
	// bubbletea restores the terminal on SIGINT and SIGTERM; a hangup or
	// a SIGQUIT would kill the process in the alternate screen with mouse
	// reporting on (and SIGQUIT dump goroutines into it): stop the
	// program instead, which restores the terminal (issue 22, item 6).
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGQUIT)
	var caught atomic.Value
	stopped := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			caught.Store(s)
			p.Kill()
		case <-stopped:
		}
	}()
	_, err := p.Run()
	signal.Stop(sigs)
	close(stopped)
	if s, ok := caught.Load().(os.Signal); ok {
		return &SignalError{Signal: s}
	}
	return err
}

// SignalError is Run's error when a signal stopped the UI.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return "stopped by " + e.Signal.String() }

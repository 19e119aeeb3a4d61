package model

import (
	"io"
	"os"
	"runtime"
	"sync/atomic"
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
	_, err := p.Run()
	return err
}

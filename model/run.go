package model

import (
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
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

// Run shows the UI on a terminal until the user quits.
func Run(opts Options, t Terminal) error {
	// Ask the terminal for its background before bubbletea owns the
	// input: asked later, the reply would arrive as keystrokes.
	lipgloss.HasDarkBackground()
	po := []tea.ProgramOption{tea.WithAltScreen(), tea.WithOutput(t.Out)}
	if t.InTTY {
		po = append(po, tea.WithInputTTY())
	} else {
		po = append(po, tea.WithInput(t.In))
	}
	if t.Mouse {
		po = append(po, tea.WithMouseCellMotion())
	}
	_, err := tea.NewProgram(New(opts), po...).Run()
	return err
}

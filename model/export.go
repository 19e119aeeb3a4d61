package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

// e writes the history (up to the step shown) to a trace file and y
// copies it, rendered for a mail, to the clipboard over OSC 52. Both do
// their work in commands; Update only reports the outcome.

// Messages of the export commands.
type (
	exportedMsg struct {
		path  string // as shown to the user
		steps int
		err   error
	}
	copiedMsg struct {
		lines int
		err   error
	}
)

// execution is the history up to the cursor as an execution (its slices
// copied, safe to use in a command).
func (s *session) execution() *scenarios.Execution {
	return &scenarios.Execution{
		Spec: s.spec, Mach: s.mach(),
		Steps:  append([]machine.Step(nil), s.steps[:s.cursor]...),
		States: append([]*machine.State(nil), s.states[:s.cursor+1]...),
		Events: append([]machine.Event(nil), s.events[:s.cursor]...),
		Origin: fmt.Sprintf("Written from the smpscope UI at step %d", s.cursor),
	}
}

// exportCmd writes the history to a new trace file in Options.TraceDir.
func (s *scenarioModel) exportCmd(c common) tea.Cmd {
	ex := s.sess.execution()
	dir := c.opts.TraceDir
	return func() tea.Msg {
		path, err := scenarios.WriteNewTrace(dir, ex.Trace(dir))
		if err != nil {
			return exportedMsg{err: err}
		}
		if dir == "" {
			path = "." + string(filepath.Separator) + path
		}
		return exportedMsg{path: path, steps: len(ex.Steps)}
	}
}

// copyCmd copies the mail-ready text of the history (what smpscope trace
// prints: 72 columns, no colour) to the clipboard: it writes an OSC 52
// sequence to Options.Clipboard (os.Stderr when nil), which the terminal
// turns into a clipboard update if it allows it.
func (s *scenarioModel) copyCmd(c common) tea.Cmd {
	ex := s.sess.execution()
	w := c.opts.Clipboard
	return func() tea.Msg {
		t := views.RenderTrace(ex, views.TraceOptions{Format: views.TraceText, Width: views.DefaultTraceWidth})
		out := w
		if out == nil {
			out = os.Stderr
		}
		if _, err := osc52.New(t).WriteTo(out); err != nil {
			return copiedMsg{err: err}
		}
		return copiedMsg{lines: strings.Count(strings.TrimSuffix(t, "\n"), "\n") + 1}
	}
}

package model

import (
	"errors"
	"fmt"
	"io/fs"
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

// traceName is the file name e writes for a scenario in a mode, before
// any "-2" suffix: "mp+once-arm.trace". Characters that do not belong in
// a file name become "_".
func traceName(name string, mode machine.Mode) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '+', r == '-', r == '.', r == '_':
			return r
		}
		return '_'
	}, name)
	clean = strings.TrimLeft(clean, ".")
	if clean == "" {
		clean = "scenario"
	}
	return clean + "-" + mode.String()
}

// createUnique writes data to dir/base+ext, or, when that exists,
// dir/base-2+ext, dir/base-3+ext, …: it never overwrites a file. It
// returns the path written.
func createUnique(dir, base, ext string, data []byte) (string, error) {
	for i := 1; i < 10000; i++ {
		name := base + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(path)
			return "", werr
		}
		return path, nil
	}
	return "", fmt.Errorf("%s: too many traces with this name", filepath.Join(dir, base+ext))
}

// execution is the history up to the cursor as an execution (its slices
// copied, safe to use in a command).
func (s *session) execution() *scenarios.Execution {
	return &scenarios.Execution{
		Spec: s.sc, Mach: s.mach(),
		Steps:  append([]machine.Step(nil), s.steps[:s.cursor]...),
		States: append([]*machine.State(nil), s.states[:s.cursor+1]...),
		Events: append([]machine.Event(nil), s.events[:s.cursor]...),
		Origin: fmt.Sprintf("Written from the smpscope UI at step %d", s.cursor),
	}
}

// exportCmd writes the history to a new trace file in Options.TraceDir.
func (m Model) exportCmd() tea.Cmd {
	ex := m.sess.execution()
	dir := m.opts.TraceDir
	return func() tea.Msg {
		tr := ex.Trace(dir)
		path, err := createUnique(dir, traceName(ex.Spec.Name, ex.Mach.Mode), ".trace", []byte(tr.Format()))
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
func (m Model) copyCmd() tea.Cmd {
	ex := m.sess.execution()
	w := m.opts.Clipboard
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

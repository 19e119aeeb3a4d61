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

// history returns the machine, steps, states and events of the history
// up to the cursor (copies of the slices, safe to use in a command).
func (s *session) history() (*machine.Machine, []machine.Step, []*machine.State, []machine.Event) {
	return s.mach(),
		append([]machine.Step(nil), s.steps[:s.cursor]...),
		append([]*machine.State(nil), s.states[:s.cursor+1]...),
		append([]machine.Event(nil), s.events[:s.cursor]...)
}

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

// exportCmd writes the history to a new trace file in Options.TraceDir.
func (m Model) exportCmd() tea.Cmd {
	s := &m.sess
	sc := s.sc
	mach, steps, states, _ := s.history()
	dir := m.opts.TraceDir
	return func() tea.Msg {
		tr, err := scenarios.NewTrace(mach, steps)
		if err != nil {
			return exportedMsg{err: err}
		}
		tr.Variant = sc.Variant
		if sc.Title != "" {
			tr.Notes = append(tr.Notes, sc.Title)
		}
		tr.Notes = append(tr.Notes, fmt.Sprintf("Written from the smpscope UI at step %d", len(steps)))
		if last := states[len(states)-1]; mach.Final(last) {
			f := sc.FormatOutcome
			if f == nil {
				f = func(o machine.Outcome) string { return views.FormatOutcome(mach.Prog, o) }
			}
			tr.Notes = append(tr.Notes, "Ends in outcome "+f(mach.Outcome(last)))
		}
		if sc.File != "" {
			tr.Source = sourceRelative(sc.File, dir)
		} else if sc.Name != mach.Prog.Name {
			tr.Source = sc.Name
		}
		path, err := createUnique(dir, traceName(sc.Name, mach.Mode), ".trace", []byte(tr.Format()))
		if err != nil {
			return exportedMsg{err: err}
		}
		if dir == "" {
			path = "." + string(filepath.Separator) + path
		}
		return exportedMsg{path: path, steps: len(steps)}
	}
}

// sourceRelative names a .litmus file relative to the directory a trace
// is written to, so that the two can move together (as smpscope trace
// --save does); it falls back to the absolute path.
func sourceRelative(file, dir string) string {
	a, err1 := filepath.Abs(file)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return file
	}
	if rel, err := filepath.Rel(d, a); err == nil {
		return filepath.ToSlash(rel)
	}
	return a
}

// traceText renders the history as views.RenderTrace does for a mail:
// text, 72 columns, no colour.
func (m Model) traceText() func() string {
	s := &m.sess
	sc := s.sc
	mach, steps, states, events := s.history()
	return func() string {
		in := views.TraceInput{
			Mach: mach, Steps: steps, States: states, Events: events,
			Name: sc.Name, Variant: sc.Variant, Title: sc.Title,
			Condition: sc.Condition, Satisfies: sc.Holds, Filtered: sc.Keep, Shown: sc.Shown,
		}
		return views.RenderTrace(in, views.TraceOptions{Format: views.TraceText, Width: views.DefaultTraceWidth})
	}
}

// copyCmd copies the mail-ready text of the history to the clipboard: it
// writes an OSC 52 sequence to Options.Clipboard (os.Stderr when nil),
// which the terminal turns into a clipboard update if it allows it.
func (m Model) copyCmd() tea.Cmd {
	text := m.traceText()
	w := m.opts.Clipboard
	return func() tea.Msg {
		t := text()
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

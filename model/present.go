package model

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"smpscope/views"
)

// Presentation mode (Options.Present) is for teaching: the history (a
// witness or a trace) is the redo future of the initial state, and a
// timer takes its next step every Options.Every. Space pauses and resumes
// (at the end it replays from the start), ←/→ still step by hand (the
// timer then waits a whole interval again), ↑/↓ scroll the story, and esc
// leaves presentation mode for the normal screen at the same step.

// DefaultEvery is the pace of presentation mode when Options.Every is 0.
const DefaultEvery = 3 * time.Second

// presentTickMsg advances the presentation; seq identifies the timer, so
// that a timer started before a pause or a manual step is ignored.
type presentTickMsg struct{ seq int }

// presenter is the state of presentation mode.
type presenter struct {
	on       bool
	paused   bool
	every    time.Duration
	seq      int
	storyOff int
}

// presentTick starts a new timer (forgetting the previous one).
func (m *Model) presentTick() tea.Cmd {
	m.pr.seq++
	seq := m.pr.seq
	return m.opts.tick(m.pr.every, func(time.Time) tea.Msg { return presentTickMsg{seq: seq} })
}

// presentStep handles the timer: take the next step of the history unless
// paused, a page is open, or the end is reached.
func (m Model) presentStep(msg presentTickMsg) (Model, tea.Cmd) {
	if !m.pr.on || msg.seq != m.pr.seq || m.pr.paused || !m.hasSess {
		return m, nil
	}
	s := &m.sess
	if m.screen != screenScenario || s.page != views.PagePanes {
		return m, m.presentTick() // wait until the panes show again
	}
	if !s.forward() {
		return m, nil // the end
	}
	if s.cursor >= len(s.steps) {
		return m, nil
	}
	return m, m.presentTick()
}

// updatePresent handles a key in presentation mode (on the panes).
func (m Model) updatePresent(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	s := &m.sess
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Pause):
		switch {
		case !m.pr.paused && s.cursor < len(s.steps):
			m.pr.paused = true
			m.pr.seq++ // forget the running timer
			return m, nil
		case s.cursor >= len(s.steps):
			s.travel(0)
			m.notice = "from the start"
		}
		m.pr.paused = false
		return m, m.presentTick()
	case key.Matches(msg, k.Back), key.Matches(msg, k.Forward):
		moved := false
		if key.Matches(msg, k.Back) {
			moved = s.back()
			if !moved {
				m.notice = "at the initial state"
			}
		} else {
			moved = s.forward()
			if !moved {
				m.notice = "the end: space replays from the start"
			}
		}
		if moved && !m.pr.paused {
			return m, m.presentTick()
		}
		return m, nil
	case key.Matches(msg, k.Up):
		m.pr.storyOff = max(m.pr.storyOff-1, 0)
	case key.Matches(msg, k.Down):
		m.pr.storyOff++
	case key.Matches(msg, k.PageUp):
		m.pr.storyOff = max(m.pr.storyOff-5, 0)
	case key.Matches(msg, k.PageDown):
		m.pr.storyOff += 5
	case key.Matches(msg, k.ScrollLeft):
		s.cpuOff = max(s.cpuOff-1, 0)
	case key.Matches(msg, k.ScrollRight):
		s.cpuOff++
	case key.Matches(msg, k.Picker):
		m.pr.on = false
		m.pr.seq++
		m.notice = "presentation over: every key works again"
		return m.fixView(), nil
	case key.Matches(msg, k.Help):
		s.page, s.pageOff = views.PageHelp, 0
	case key.Matches(msg, k.Compare), key.Matches(msg, k.Necessity), key.Matches(msg, k.Export), key.Matches(msg, k.Copy):
		return m.shared(msg)
	default:
		m.notice = "presenting: space pauses, ←/→ step, esc leaves"
	}
	m.pr.storyOff = clampInt(m.pr.storyOff, 0, m.storyScroll())
	return m.clampOffsets(), nil
}

// storyScroll is how far the presentation's story can scroll.
func (m Model) storyScroll() int {
	if m.width == 0 {
		return 0
	}
	return views.PresentStoryScroll(m.input(), m.width, m.height)
}

// presentInput is what the views need of presentation mode (nil when off).
func (m Model) presentInput() *views.PresentInput {
	if !m.pr.on {
		return nil
	}
	return &views.PresentInput{Paused: m.pr.paused, Every: m.pr.every, StoryOff: m.pr.storyOff}
}

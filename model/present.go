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
// (at the end it replays from the start); ←/→ step by hand and pause, so
// that the class stays on the step the teacher went to until space
// resumes; ↑/↓ scroll the story, pgup/pgdn the explanation; m presents
// the other mode (its witness, or its closest attempt), and esc leaves
// presentation mode for the normal screen at the same step.

// DefaultEvery is the pace of presentation mode when Options.Every is 0.
const DefaultEvery = 3 * time.Second

// storyStep is how far pgup and pgdn move the story.
const storyStep = 5

// presentTickMsg advances the presentation; seq identifies the timer, so
// that a timer started before a pause or a manual step is ignored.
type presentTickMsg struct{ seq int }

// presenter is the presentation sub-model: whether it runs, its pace and
// timer, and the story it shows beside the last event.
type presenter struct {
	on     bool
	paused bool
	every  time.Duration
	seq    int
	story  pane
	tick   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	// searching: the witness to present is not known yet; the screen
	// shows at once and the steps start when the background exploration
	// lands (witnessLanded).
	searching bool
	what      string // what is presented instead of a witness, if anything
}

// What the presenter asks of the scenario it presents (its messages up).
type (
	presentStep    struct{ d int } // step back (-1) or forward (+1)
	presentRestart struct{}        // replay from the start
	presentLeave   struct{}        // back to the normal screen
	presentShared  struct{}        // a key every screen shares (c, n, e, y)
	presentHelp    struct{}        // the help page
	presentCPUs    struct{ d int } // scroll the CPU columns sideways
	presentScroll  struct{ d int } // scroll the explanation
	presentMode    struct{}        // present the other mode
	presentOther   struct{}        // a key presentation mode does not use
)

// timer starts a new timer (forgetting the previous one).
func (p *presenter) timer() tea.Cmd {
	p.seq++
	seq := p.seq
	return p.tick(p.every, func(time.Time) tea.Msg { return presentTickMsg{seq: seq} })
}

// ticked handles the timer: it reports whether to take the next step
// (not when paused, and not a timer forgotten since).
func (p presenter) ticked(msg presentTickMsg) bool {
	return p.on && msg.seq == p.seq && !p.paused
}

// update handles a key on the presentation screen. atEnd says the last
// step of the history is shown. It returns what the scenario should do
// (nil: nothing).
func (p presenter) update(msg tea.KeyMsg, k KeyMap, atEnd bool) (presenter, tea.Cmd, tea.Msg) {
	if p.searching {
		// Nothing to step through yet: esc leaves for the normal screen
		// (the exploration goes on there), q quits, ? and the story work.
		switch {
		case key.Matches(msg, k.Picker):
			p.on, p.searching = false, false
			return p, nil, presentLeave{}
		case key.Matches(msg, k.Help):
			return p, nil, presentHelp{}
		case key.Matches(msg, k.Mode):
			return p, nil, presentMode{}
		case p.story.scrollKeys(msg, k, storyStep):
			return p, nil, nil
		}
		return p, nil, presentOther{}
	}
	switch {
	case key.Matches(msg, k.Pause):
		switch {
		case !p.paused && !atEnd:
			p.paused = true
			p.seq++ // forget the running timer
			return p, nil, nil
		case atEnd:
			p.paused = false
			return p, p.timer(), presentRestart{}
		}
		p.paused = false
		return p, p.timer(), nil
	case key.Matches(msg, k.Back), key.Matches(msg, k.Forward):
		// Stepping by hand pauses: the class stays on the step the
		// teacher went to until space resumes.
		p.paused = true
		p.seq++ // forget the running timer
		if key.Matches(msg, k.Back) {
			return p, nil, presentStep{-1}
		}
		return p, nil, presentStep{+1}
	case key.Matches(msg, k.PageUp):
		return p, nil, presentScroll{-storyStep}
	case key.Matches(msg, k.PageDown):
		return p, nil, presentScroll{+storyStep}
	case key.Matches(msg, k.Mode):
		return p, nil, presentMode{}
	case p.story.scrollKeys(msg, k, storyStep):
	case key.Matches(msg, k.ScrollLeft):
		return p, nil, presentCPUs{-1}
	case key.Matches(msg, k.ScrollRight):
		return p, nil, presentCPUs{+1}
	case key.Matches(msg, k.Picker):
		p.on = false
		p.seq++
		return p, nil, presentLeave{}
	case key.Matches(msg, k.Help):
		return p, nil, presentHelp{}
	case key.Matches(msg, k.Compare), key.Matches(msg, k.Necessity), key.Matches(msg, k.Export), key.Matches(msg, k.Copy):
		return p, nil, presentShared{}
	default:
		return p, nil, presentOther{}
	}
	return p, nil, nil
}

// input is what the views need of presentation mode (nil when off).
func (p presenter) input() *views.PresentInput {
	if !p.on {
		return nil
	}
	return &views.PresentInput{Paused: p.paused, Every: p.every, Searching: p.searching, What: p.what}
}

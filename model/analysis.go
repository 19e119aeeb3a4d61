package model

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

// The compare (c) and necessity (n) panels are pages of the scenario
// screen whose content is computed in the background: a command runs the
// analysis (package scenarios) with a cancellable context, a spinner turns
// meanwhile, and keys keep working. Closing the panel or leaving the
// scenario cancels it. Finished results are cached for the model's
// lifetime, like explorations.

// analysisDoneMsg carries a finished (or cancelled) analysis.
type analysisDoneMsg struct {
	page      views.Page // PageCompare or PageNecessity
	key       string
	gen       int
	compare   *scenarios.CompareTable
	necessity *scenarios.NecessityReport
	err       error
}

// analyses tracks the background analysis and caches results. The maps
// are shared by model values; only Update writes them.
type analyses struct {
	page    views.Page // what is running
	key     string
	gen     int
	running bool
	cancel  context.CancelFunc
	what    string // e.g. "4 variants × 2 modes"
	err     map[string]string

	compare   map[string]*scenarios.CompareTable
	necessity map[string]*scenarios.NecessityReport
}

func newAnalyses() analyses {
	return analyses{
		err:       map[string]string{},
		compare:   map[string]*scenarios.CompareTable{},
		necessity: map[string]*scenarios.NecessityReport{},
	}
}

// stop cancels a running analysis.
func (a *analyses) stop() {
	if a.cancel != nil {
		a.cancel()
	}
	a.running, a.cancel = false, nil
}

var bothModes = []machine.Mode{machine.TSO, machine.ARM}

// compareKey identifies a compare table: the family and its variants.
func (m Model) compareKey() (string, []string) {
	sc := m.sess.sc
	var names []string
	for _, e := range m.family(sc) {
		names = append(names, e.Name)
	}
	if len(names) == 0 || m.opts.Load == nil {
		names = []string{sc.Name}
	}
	return "compare/" + sc.Family + "/" + strings.Join(names, ","), names
}

func necessityKey(sc *scenarios.Spec) string { return fmt.Sprintf("necessity/%p", sc.Program) }

// panelKey is the cache key of what page p shows for the open scenario.
func (m Model) panelKey(p views.Page) string {
	if p == views.PageCompare {
		k, _ := m.compareKey()
		return k
	}
	return necessityKey(m.sess.sc)
}

// openPanel shows page p (PageCompare or PageNecessity), starting its
// analysis unless the result is known or already being computed.
func (m Model) openPanel(p views.Page) (Model, tea.Cmd) {
	s := &m.sess
	if s.page != p {
		s.page, s.pageOff = p, 0
	}
	key := m.panelKey(p)
	if m.an.running && m.an.key == key {
		return m, nil
	}
	m.an.stop()
	if m.an.compare[key] != nil || m.an.necessity[key] != nil {
		return m, nil
	}
	delete(m.an.err, key)
	ctx, cancel := context.WithCancel(context.Background())
	m.an.gen++
	m.an.page, m.an.key, m.an.running, m.an.cancel = p, key, true, cancel
	gen := m.an.gen
	opts := m.opts.Explore
	opts.Context = ctx
	var run func() analysisDoneMsg
	if p == views.PageCompare {
		_, names := m.compareKey()
		cur, load, family := s.sc, m.opts.Load, s.sc.Family
		m.an.what = fmt.Sprintf("%d variants × 2 modes", len(names))
		if len(names) == 1 {
			m.an.what = "this scenario in both modes"
		}
		run = func() analysisDoneMsg {
			var specs []*scenarios.Spec
			for _, name := range names {
				sc := cur
				if name != cur.Name {
					var err error
					if sc, err = load(name); err != nil {
						return analysisDoneMsg{err: fmt.Errorf("cannot open %s: %v", name, err)}
					}
				}
				specs = append(specs, sc)
			}
			t, err := scenarios.Compare(family, specs, bothModes, opts)
			return analysisDoneMsg{compare: &t, err: err}
		}
	} else {
		q := s.sc
		progs := 1 + s.weakenings // as written, each annotation weakened
		if s.weakenings > 1 {
			progs++ // and all of them together
		}
		m.an.what = fmt.Sprintf("%d programs × 2 modes", progs)
		run = func() analysisDoneMsg {
			r, err := scenarios.Necessity(q, bothModes, opts)
			return analysisDoneMsg{necessity: &r, err: err}
		}
	}
	cmd := func() tea.Msg {
		msg := run()
		msg.page, msg.key, msg.gen = p, key, gen
		return msg
	}
	return m, tea.Batch(cmd, m.spin.Tick)
}

// closePanel returns to the panes (or presentation), cancelling the
// panel's analysis.
func (m Model) closePanel() Model {
	m.an.stop()
	m.sess.page, m.sess.pageOff = views.PagePanes, 0
	return m
}

// analysisDone records a finished analysis.
func (m Model) analysisDone(msg analysisDoneMsg) Model {
	if msg.gen != m.an.gen || !m.an.running {
		return m // cancelled or superseded
	}
	m.an.stop()
	switch {
	case msg.err != nil:
		m.an.err[msg.key] = msg.err.Error()
	case msg.compare != nil:
		m.an.compare[msg.key] = msg.compare
	case msg.necessity != nil:
		m.an.necessity[msg.key] = msg.necessity
	}
	return m
}

// analysisInput is what the open panel shows.
func (m Model) analysisInput() views.AnalysisInput {
	s := &m.sess
	a := views.AnalysisInput{Current: s.sc.Name}
	if s.page != views.PageCompare && s.page != views.PageNecessity {
		return a
	}
	key := m.panelKey(s.page)
	a.Compare, a.Necessity = m.an.compare[key], m.an.necessity[key]
	a.Err = m.an.err[key]
	if m.an.running && m.an.key == key {
		a.Running, a.Spinner, a.What = true, m.spin.View(), m.an.what
	}
	return a
}

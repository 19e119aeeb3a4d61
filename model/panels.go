package model

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"smpscope/machine"
	"smpscope/scenarios"
	"smpscope/views"
)

// The compare (c) and necessity (n) panels are pages over the scenario
// screen whose content is an analysis (package scenarios) computed in the
// background as a job. Closing the panel or leaving the scenario cancels
// it; finished results stay in the jobs' cache.

// panels is the panels sub-model: which panel is open, the analysis it
// shows (by its cache key), and its scroll position.
type panels struct {
	open views.Page // PageCompare, PageNecessity, or PagePanes when none is
	key  string
	err  map[string]string // the analyses that failed, by key; shared, as the cache is
	view pane
}

// What a panel asks of the root (its messages up).
type (
	panelClosed struct{}                  // back to the scenario screen
	panelToPage struct{ page views.Page } // the scenario's help or story page
	panelShared struct{ key tea.KeyMsg }  // e or y: the scenario exports its history
)

func newPanels() panels { return panels{err: map[string]string{}} }

var bothModes = []machine.Mode{machine.TSO, machine.ARM}

// family returns the library entries of sp's family, in library order.
func family(lib []LibraryEntry, sp *scenarios.Spec) []LibraryEntry {
	var out []LibraryEntry
	if sp.Family == "" {
		return nil
	}
	for _, e := range lib {
		if e.Family == sp.Family {
			out = append(out, e)
		}
	}
	return out
}

// openPanel shows panel p for the scenario sp, starting its analysis
// unless the result is known or already being computed.
func (pn panels) openPanel(p views.Page, sp *scenarios.Spec, weakenings int, c common) (panels, tea.Cmd) {
	if pn.open != p {
		pn.open = p
		pn.view.top()
	}
	opts := c.opts.Explore
	var what string
	var run func(ctx context.Context) jobResult
	if p == views.PageCompare {
		var names []string
		for _, e := range family(c.opts.Library, sp) {
			names = append(names, e.Name)
		}
		if len(names) == 0 || c.opts.Load == nil {
			names = []string{sp.Name}
		}
		pn.key = "compare " + sp.Family + " " + strings.Join(names, ",") + " " + sp.Key()
		what = fmt.Sprintf("%d variants × 2 modes", len(names))
		if len(names) == 1 {
			what = "this scenario in both modes"
		}
		load := c.opts.Load
		run = func(ctx context.Context) jobResult {
			var specs []*scenarios.Spec
			for _, name := range names {
				s := sp
				if name != sp.Name {
					var err error
					if s, err = load(name); err != nil {
						return jobResult{err: fmt.Errorf("cannot open %s: %v", name, err)}
					}
				}
				specs = append(specs, s)
			}
			opts.Context = ctx
			t, err := scenarios.Compare(sp.Family, specs, bothModes, opts)
			return jobResult{value: &t, err: err, keep: true}
		}
	} else {
		pn.key = "necessity " + sp.Key()
		progs := 1 + weakenings // as written, each annotation weakened
		if weakenings > 1 {
			progs++ // and all of them together
		}
		what = fmt.Sprintf("%d programs × 2 modes", progs)
		run = func(ctx context.Context) jobResult {
			opts.Context = ctx
			r, err := scenarios.Necessity(sp, bothModes, opts)
			return jobResult{value: &r, err: err, keep: true}
		}
	}
	if c.jobs.busy(panelJob, pn.key) == nil {
		delete(pn.err, pn.key) // a failed analysis is tried again
	}
	return pn, c.jobs.start(panelJob, pn.key, what, run)
}

// close closes the panel, cancelling its analysis.
func (pn panels) close(c common) panels {
	c.jobs.stop(panelJob)
	pn.open = views.PagePanes
	pn.view.top()
	return pn
}

// done records a finished analysis (an error is shown, not cached).
func (pn panels) done(msg jobDoneMsg) panels {
	if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
		pn.err[msg.key] = msg.err.Error()
	}
	return pn
}

// update handles a key while a panel is open.
func (pn panels) update(msg tea.KeyMsg, c common, presenting bool) (panels, tea.Msg) {
	k := c.keys
	switch {
	case key.Matches(msg, k.Quit):
		return pn, quitMsg{}
	case key.Matches(msg, k.Picker),
		pn.open == views.PageCompare && key.Matches(msg, k.Compare),
		pn.open == views.PageNecessity && key.Matches(msg, k.Necessity):
		return pn, panelClosed{}
	case key.Matches(msg, k.Compare):
		return pn, openPanelMsg{views.PageCompare}
	case key.Matches(msg, k.Necessity):
		return pn, openPanelMsg{views.PageNecessity}
	case key.Matches(msg, k.Export), key.Matches(msg, k.Copy):
		return pn, panelShared{msg}
	case key.Matches(msg, k.Help):
		return pn, panelToPage{views.PageHelp}
	case key.Matches(msg, k.Story) && !presenting:
		return pn, panelToPage{views.PageStory}
	default:
		pn.view.scrollKeys(msg, k, pageStep)
	}
	return pn, nil
}

// input is what the open panel shows.
func (pn panels) input(sp *scenarios.Spec, c common) views.AnalysisInput {
	a := views.AnalysisInput{Current: sp.Name}
	if pn.open == views.PagePanes {
		return a
	}
	if v, ok := c.jobs.result(pn.key); ok {
		switch v := v.(type) {
		case *scenarios.CompareTable:
			a.Compare = v
		case *scenarios.NecessityReport:
			a.Necessity = v
		}
	}
	a.Err = pn.err[pn.key]
	if j := c.jobs.busy(panelJob, pn.key); j != nil {
		a.Running, a.Spinner, a.What = true, c.spin, j.what
	}
	return a
}

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

// The compare (c), necessity (n) and fix (f) panels are pages over the
// scenario screen whose content is an analysis (package scenarios)
// computed in the background as a job. Closing the panel or leaving the
// scenario cancels it; finished results stay in the jobs' cache. On the
// necessity and fix panels ↑/↓ select an item (an annotation, a fix) and
// enter acts on it: the scenario screen takes the edits as a what-if.

// panels is the panels sub-model: which panel is open, the analysis it
// shows (by its cache key), its scroll position and the item selected.
type panels struct {
	open views.Page // PageCompare, PageNecessity, PageFix, or PagePanes when none is
	key  jobKey
	err  map[jobKey]string // the analyses that failed, by key; shared, as the cache is
	view pane
	sel  int
	// reveal asks the next frame to scroll to the item selected.
	reveal bool
}

// What a panel asks of the root (its messages up).
type (
	panelClosed struct{}                  // back to the scenario screen
	panelToPage struct{ page views.Page } // the scenario's help or story page
	panelShared struct{ key tea.KeyMsg }  // e or y: the scenario exports its history
	// panelApply: the scenario takes these edits as a what-if and, when
	// steps are given, loads them ahead of the initial state in mode
	// (the witness the necessity panel shows).
	panelApply struct {
		edits []scenarios.Edit
		steps []machine.Step
		mode  machine.Mode
		what  string
	}
)

func newPanels() panels { return panels{err: map[jobKey]string{}} }

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
		pn.sel = 0
	}
	opts := *c.opts.Explore
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
		pn.key = jobKey{what: comparison, of: sp.Key(), variants: sp.Family + " " + strings.Join(names, ",")}
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
			return jobResult{value: jobValue{compare: &t}, err: err, keep: true}
		}
	} else if p == views.PageFix {
		pn.key = jobKey{what: fixSearch, of: sp.Key()}
		what = "the strengthenings × 2 modes"
		run = func(ctx context.Context) jobResult {
			opts.Context = ctx
			r, err := scenarios.FixSearch(sp, bothModes, scenarios.FixOptions{Explore: opts})
			return jobResult{value: jobValue{fix: &r}, err: err, keep: true}
		}
	} else {
		pn.key = jobKey{what: necessity, of: sp.Key()}
		progs := 1 + weakenings // as written, each annotation weakened
		if weakenings > 1 {
			progs++ // and all of them together
		}
		what = fmt.Sprintf("%d programs × 2 modes", progs)
		run = func(ctx context.Context) jobResult {
			opts.Context = ctx
			r, err := scenarios.Necessity(sp, bothModes, opts)
			return jobResult{value: jobValue{necessity: &r}, err: err, keep: true}
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
func (pn panels) update(msg tea.KeyMsg, c common, presenting bool, mode machine.Mode) (panels, tea.Msg) {
	k := c.keys
	switch {
	case key.Matches(msg, k.Quit):
		return pn, quitMsg{}
	case key.Matches(msg, k.Picker),
		pn.open == views.PageCompare && key.Matches(msg, k.Compare),
		pn.open == views.PageNecessity && key.Matches(msg, k.Necessity),
		pn.open == views.PageFix && key.Matches(msg, k.Fix):
		return pn, panelClosed{}
	case key.Matches(msg, k.Compare):
		return pn, openPanelMsg{views.PageCompare}
	case key.Matches(msg, k.Necessity):
		return pn, openPanelMsg{views.PageNecessity}
	case key.Matches(msg, k.Fix):
		return pn, openPanelMsg{views.PageFix}
	case pn.items(c) > 0 && key.Matches(msg, k.Up):
		pn.sel = max(pn.sel-1, 0)
		pn.reveal = true
	case pn.items(c) > 0 && key.Matches(msg, k.Down):
		pn.sel = min(pn.sel+1, pn.items(c)-1)
		pn.reveal = true
	case key.Matches(msg, k.Enter):
		return pn, pn.apply(c, mode)
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

// items is how many items the open panel has to select from.
func (pn panels) items(c common) int {
	v, _ := c.jobs.result(pn.key)
	switch {
	case v.necessity != nil && pn.open == views.PageNecessity:
		return len(v.necessity.Annotations)
	case v.fix != nil && pn.open == views.PageFix:
		return len(views.FixItems(v.fix))
	}
	return 0
}

// apply is what enter asks for on the item selected: the annotation's
// weakening and the witness without it (in the current mode if it is
// needed there, else in the mode where it is), or the fix's edits.
func (pn panels) apply(c common, mode machine.Mode) tea.Msg {
	v, _ := c.jobs.result(pn.key)
	switch {
	case v.necessity != nil:
		r := v.necessity
		if pn.open != views.PageNecessity || pn.sel >= len(r.Annotations) {
			return nil
		}
		a := r.Annotations[pn.sel]
		order := []int{}
		for j, m := range r.Modes {
			if m == mode {
				order = append([]int{j}, order...)
			} else {
				order = append(order, j)
			}
		}
		for _, j := range order {
			if r.Need(pn.sel, j) == scenarios.Needed {
				return panelApply{edits: a.Edits, steps: a.Runs[j].Witness, mode: r.Modes[j], what: "without " + a.Weakening.String()}
			}
		}
		return panelNote{"weakening " + a.Weakening.String() + " does not make the outcome reachable: no witness to load"}
	case v.fix != nil:
		items := views.FixItems(v.fix)
		if pn.open != views.PageFix || pn.sel >= len(items) {
			return nil
		}
		f := items[pn.sel]
		return panelApply{edits: f.Edits, mode: mode, what: "fix " + scenarios.EditsText(f.Edits)}
	}
	return nil
}

// panelNote is a notice for the scenario screen, the panel staying open.
type panelNote struct{ text string }

// input is what the open panel shows.
func (pn panels) input(sp *scenarios.Spec, c common) views.AnalysisInput {
	a := views.AnalysisInput{Current: sp.Name}
	if pn.open == views.PagePanes {
		return a
	}
	v, _ := c.jobs.result(pn.key)
	a.Compare, a.Necessity, a.Fix = v.compare, v.necessity, v.fix
	a.Sel = pn.sel
	a.Err = pn.err[pn.key]
	if j := c.jobs.busy(panelJob, pn.key); j != nil {
		a.Running, a.Spinner, a.What = true, c.spin, j.what
	}
	return a
}

package model

import (
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/paginator"
	tea "github.com/charmbracelet/bubbletea"

	"smpscope/views"
)

// familyItem is one row of the picker: a family of library entries.
type familyItem struct {
	family  string
	entries []LibraryEntry
	sel     int // chosen variant
}

// FilterValue is what the filter matches: the family and scenario names,
// then (after a tab) the titles; see filterFamilies.
func (f familyItem) FilterValue() string {
	names := []string{f.family}
	var titles []string
	for _, e := range f.entries {
		names = append(names, e.Variant, e.Name)
		titles = append(titles, e.Title, e.Summary)
	}
	return strings.Join(names, " ") + "\t" + strings.Join(titles, " ")
}

// filterFamilies ranks picker rows for a filter term: rows whose names
// contain the term come first (family name matches before scenario
// names), then rows whose titles contain it, then fuzzy matches on the
// names. Matching ignores case.
func filterFamilies(term string, targets []string) []list.Rank {
	term = strings.ToLower(strings.TrimSpace(term))
	var exact, named, titled, fuzzy []list.Rank
	var rest []string
	var restIdx []int
	for i, t := range targets {
		names, titles, _ := strings.Cut(strings.ToLower(t), "\t")
		family, _, _ := strings.Cut(names, " ")
		switch {
		case family == term || strings.HasPrefix(family, term):
			exact = append(exact, list.Rank{Index: i})
		case strings.Contains(names, term):
			named = append(named, list.Rank{Index: i})
		case strings.Contains(titles, term):
			titled = append(titled, list.Rank{Index: i})
		default:
			rest = append(rest, names)
			restIdx = append(restIdx, i)
		}
	}
	for _, r := range list.DefaultFilter(term, rest) {
		fuzzy = append(fuzzy, list.Rank{Index: restIdx[r.Index]})
	}
	return append(append(append(exact, named...), titled...), fuzzy...)
}

func (f familyItem) chosen() LibraryEntry { return f.entries[f.sel] }

func (f familyItem) row() views.PickerRow {
	e := f.chosen()
	r := views.PickerRow{Family: f.family, Title: e.Title, Summary: e.Summary, Selected: f.sel}
	if r.Title == "" {
		r.Title = e.Name
	}
	if r.Summary == "" && e.Name != r.Title {
		r.Summary = e.Name
	}
	for _, x := range f.entries {
		v := x.Variant
		if v == "" {
			v = x.Name
		}
		r.Variants = append(r.Variants, v)
	}
	return r
}

// families groups library entries by family, in library order; each
// row's chosen variant is its baseline.
func families(lib []LibraryEntry) []familyItem {
	var out []familyItem
	index := map[string]int{}
	for _, e := range lib {
		fam := e.Family
		if fam == "" {
			fam = e.Name
		}
		i, ok := index[fam]
		if !ok {
			i = len(out)
			index[fam] = i
			out = append(out, familyItem{family: fam})
		}
		if e.Baseline {
			out[i].sel = len(out[i].entries)
		}
		out[i].entries = append(out[i].entries, e)
	}
	return out
}

// pickerDelegate draws family rows with views.RenderPickerRow.
type pickerDelegate struct{ styles views.Styles }

func (d pickerDelegate) Height() int                         { return views.PickerRowHeight }
func (d pickerDelegate) Spacing() int                        { return 1 }
func (d pickerDelegate) Update(tea.Msg, *list.Model) tea.Cmd { return nil }
func (d pickerDelegate) Render(w io.Writer, m list.Model, index int, item list.Item) {
	f, ok := item.(familyItem)
	if !ok {
		return
	}
	io.WriteString(w, views.RenderPickerRow(f.row(), index == m.Index(), d.styles, m.Width()))
}

// picker is the scenario picker screen: the library as a list of
// families, filtered as the user types.
type picker struct {
	list   list.Model
	notice string
}

// What the picker asks of the root (its messages up).
type (
	openMsg   struct{ name string } // enter: open this library entry
	resumeMsg struct{}              // esc: back to the scenario left open
)

func newPicker(lib []LibraryEntry, st views.Styles, keys KeyMap) picker {
	fams := families(lib)
	items := make([]list.Item, len(fams))
	for i, f := range fams {
		items[i] = f
	}
	l := list.New(items, pickerDelegate{styles: st}, 0, 0)
	l.Title = "smpscope · scenarios"
	l.SetStatusBarItemName("family", "families")
	l.SetShowHelp(false)
	l.DisableQuitKeybindings()
	l.KeyMap.ShowFullHelp.SetEnabled(false)
	l.KeyMap.CloseFullHelp.SetEnabled(false)
	// ←/→ choose a variant; pages move with pgup/pgdown only.
	l.KeyMap.PrevPage = key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "prev page"))
	l.KeyMap.NextPage = key.NewBinding(key.WithKeys("pgdown", "f"), key.WithHelp("pgdn", "next page"))
	l.Paginator.Type = paginator.Arabic
	l.Filter = filterFamilies
	// A steady cursor: no blink timer.
	l.FilterInput.Cursor.SetMode(cursor.CursorStatic)
	ls := list.DefaultStyles()
	ls.Title = st.PickerTitle
	ls.Spinner = st.Spinner
	ls.FilterPrompt = st.Bold
	ls.FilterCursor = st.Bold
	ls.StatusBar = st.Dim.Padding(0, 0, 1, 2)
	ls.StatusEmpty = st.Dim
	ls.StatusBarActiveFilter = st.Bold
	ls.StatusBarFilterCount = st.Dim
	ls.NoItems = st.Dim
	ls.ArabicPagination = st.Dim
	ls.DividerDot = st.Dim.SetString(" • ")
	l.Styles = ls
	l.FilterInput.PromptStyle = st.Bold
	l.FilterInput.Cursor.Style = st.Bold
	return picker{list: l}
}

func (p *picker) setSize(w, h int) { p.list.SetSize(w, max(h-2, 0)) }

// filtering reports whether the filter input has the keyboard.
func (p picker) filtering() bool { return p.list.FilterState() == list.Filtering }

// selected returns the entry of the selected row's chosen variant.
func (p picker) selected() (LibraryEntry, bool) {
	f, ok := p.list.SelectedItem().(familyItem)
	if !ok {
		return LibraryEntry{}, false
	}
	return f.chosen(), true
}

// shiftVariant changes the chosen variant of the selected row. The
// selection stays on that row: under a filter the list filters again
// (its rows are copies), here and now rather than in a command, and the
// cursor is put back on the family (filtering again starts at the top).
func (p picker) shiftVariant(d int) picker {
	f, ok := p.list.SelectedItem().(familyItem)
	if !ok || len(f.entries) < 2 {
		return p
	}
	f.sel = (f.sel + d + len(f.entries)) % len(f.entries)
	p.list.SetItem(p.list.GlobalIndex(), f) // its filter command is replaced by refilter
	p.refilter(f.family)
	return p
}

// refilter filters again for the text the filter holds, keeping the
// filter's state (typing or applied) and, when keep names a family
// still shown, the selection on it.
func (p *picker) refilter(keep string) {
	state := p.list.FilterState()
	if state == list.Unfiltered {
		return
	}
	p.list.SetFilterText(p.list.FilterValue())
	if state == list.Filtering {
		p.list.SetFilterState(list.Filtering)
	}
	for i, it := range p.list.VisibleItems() {
		if it.(familyItem).family == keep {
			p.list.Select(i)
		}
	}
}

// selectName moves the selection to the row holding the named entry and
// makes it the chosen variant.
func (p picker) selectName(name string) picker {
	for i, it := range p.list.Items() {
		f := it.(familyItem)
		for j, e := range f.entries {
			if e.Name == name {
				f.sel = j
				p.list.SetItem(i, f)
				if !p.list.IsFiltered() {
					p.list.Select(i)
				}
				return p
			}
		}
	}
	return p
}

// update handles a message for the picker; open says a scenario is
// open behind it (esc returns to it).
func (p picker) update(msg tea.Msg, c common, open bool) (picker, tea.Cmd, tea.Msg) {
	k := c.keys
	switch msg := msg.(type) {
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			p.list.CursorUp()
		case tea.MouseButtonWheelDown:
			p.list.CursorDown()
		}
		return p, nil, nil
	case tea.KeyMsg:
		if p.filtering() {
			// ←/→ choose the variant while typing, too (h and l are
			// letters of the filter then).
			switch msg.Type {
			case tea.KeyLeft:
				return p.shiftVariant(-1), nil, nil
			case tea.KeyRight:
				return p.shiftVariant(+1), nil, nil
			}
			break
		}
		p.notice = ""
		switch {
		case key.Matches(msg, k.Quit):
			return p, nil, quitMsg{}
		case key.Matches(msg, k.Picker) && !p.list.IsFiltered():
			if open {
				return p, nil, resumeMsg{}
			}
			return p, nil, nil
		case key.Matches(msg, k.Open):
			if e, ok := p.selected(); ok {
				return p, nil, openMsg{e.Name}
			}
			return p, nil, nil
		case key.Matches(msg, k.PrevVariant):
			return p.shiftVariant(-1), nil, nil
		case key.Matches(msg, k.NextVariant):
			return p.shiftVariant(+1), nil, nil
		}
	}
	p, cmd := p.updateList(msg)
	return p, cmd, nil
}

// updateList passes a message to the list.
func (p picker) updateList(msg tea.Msg) (picker, tea.Cmd) {
	if _, ok := msg.(list.FilterMatchesMsg); ok {
		// The list filters in commands, whose results can arrive out of
		// order when keys come fast ("s" after "sb"). Filter again,
		// synchronously, for the text the filter holds now.
		p.refilter("")
		return p, nil
	}
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyEnter && p.list.FilterState() == list.Filtering {
		// Enter typed right after the filter text (one burst from the
		// terminal) can come before the filter commands answer: filter
		// now, so that enter accepts the matches for the text typed.
		p.list.SetFilterText(p.list.FilterValue())
		p.list.SetFilterState(list.Filtering)
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return p, cmd
}

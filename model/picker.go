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

// FilterValue is what the filter matches: the family's fields (its
// name, its entries' names and variants, titles and stories), each
// written as its kind, kindSep and its text, separated by fieldSep; see
// filterFamilies.
func (f familyItem) FilterValue() string {
	var fields []string
	for _, fl := range f.fields() {
		fields = append(fields, fl.what+kindSep+fl.text)
	}
	return strings.Join(fields, fieldSep)
}

// fieldSep and kindSep structure FilterValue: no name, title or story
// holds them.
const (
	fieldSep = "\x00"
	kindSep  = "\x01"
)

// A field of a family the filter can match, and the word for it that
// the row shows when it is what matched.
type field struct {
	what  string // "family", "name", "variant", "title", "story"
	text  string
	entry int // the entry it belongs to, -1 for the family
}

// fields lists what the filter matches, best first: the family's name,
// then each entry's variant and name, then their titles, then their
// stories.
func (f familyItem) fields() []field {
	out := []field{{"family", f.family, -1}}
	for i, e := range f.entries {
		if e.Variant != "" {
			out = append(out, field{"variant", e.Variant, i})
		}
		out = append(out, field{"name", e.Name, i})
	}
	for i, e := range f.entries {
		out = append(out, field{"title", e.Title, i})
	}
	for i, e := range f.entries {
		if e.Story != "" {
			out = append(out, field{"story", e.Story, i})
		}
	}
	return out
}

// match finds term in the family's fields, as typed (ignoring case, no
// fuzzy matching): the first field that holds it.
func (f familyItem) match(term string) (field, bool) {
	term = strings.ToLower(strings.TrimSpace(term))
	if term == "" {
		return field{}, false
	}
	for _, fl := range f.fields() {
		if strings.Contains(strings.ToLower(fl.text), term) {
			return fl, true
		}
	}
	return field{}, false
}

// filterRank orders the kinds of field a term can match.
var filterRank = map[string]int{"family": 1, "name": 1, "variant": 1, "title": 2, "story": 3}

// filterFamilies ranks picker rows for a filter term: the term as typed
// (ignoring case) must occur in a row's names, titles or stories; rows
// whose family name starts with it come first, then those matching a
// name, then a title, then only a story. Nothing else matches: no fuzzy
// matching ("llseek" finds no family whose names merely hold its
// letters in order).
func filterFamilies(term string, targets []string) []list.Rank {
	term = strings.ToLower(strings.TrimSpace(term))
	var ranks [4][]list.Rank
	for i, t := range targets {
		for _, fl := range strings.Split(strings.ToLower(t), fieldSep) {
			kind, text, _ := strings.Cut(fl, kindSep)
			if !strings.Contains(text, term) {
				continue
			}
			r := filterRank[kind]
			if kind == "family" && strings.HasPrefix(text, term) {
				r = 0
			}
			ranks[r] = append(ranks[r], list.Rank{Index: i})
			break
		}
	}
	return append(append(append(ranks[0], ranks[1]...), ranks[2]...), ranks[3]...)
}

func (f familyItem) chosen() LibraryEntry { return f.entries[f.sel] }

// row is the family as the picker draws it; term is the filter being
// typed or applied ("" for none): the row then says what matched, and
// where.
func (f familyItem) row(term string) views.PickerRow {
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
	if fl, ok := f.match(term); ok && fl.what != "family" {
		r.Matched = fl.what
		if fl.entry >= 0 && fl.entry != f.sel && fl.what != "name" && fl.what != "variant" {
			v := f.entries[fl.entry].Variant
			if v == "" {
				v = f.entries[fl.entry].Name
			}
			r.Matched += " of " + v
		}
		r.Context = matchContext(fl.text, term)
	}
	return r
}

// matchContext is what a row shows of a match of term in a title or
// story: the text on one line from the word the match starts in, so that
// the match shows on a narrow row.
func matchContext(text, term string) string {
	text = strings.Join(strings.Fields(text), " ")
	i := strings.Index(strings.ToLower(text), strings.ToLower(strings.TrimSpace(term)))
	if i <= 0 {
		return text
	}
	start := strings.LastIndex(text[:i], " ") + 1
	if start == 0 {
		return text
	}
	return "…" + text[start:]
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
	io.WriteString(w, views.RenderPickerRow(f.row(m.FilterValue()), index == m.Index(), d.styles, m.Width()))
}

// picker is the scenario picker screen: the library as a list of
// families, filtered as the user types.
type picker struct {
	list   list.Model
	notice string
	help   bool // the help page (?) shows
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
		if p.help {
			// The help page: ? or esc closes it, q quits.
			switch {
			case key.Matches(msg, k.Quit):
				return p, nil, quitMsg{}
			case key.Matches(msg, k.Help), key.Matches(msg, k.Picker):
				p.help = false
			}
			return p, nil, nil
		}
		switch {
		case key.Matches(msg, k.Quit):
			return p, nil, quitMsg{}
		case key.Matches(msg, k.Help):
			p.help = true
			return p, nil, nil
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

// pickerHelp is the picker's help page: its keys, and how the filter
// matches.
func pickerHelp(k KeyMap) (keys [][2]string, notes []string) {
	keys = [][2]string{
		{"↑/↓", "move between families (pgup/pgdn: a page)"},
		{"←/→ h/l", "choose the variant of the selected family (←/→ while typing the filter too)"},
		{"enter", "open the chosen variant"},
		{k.Filter.Help().Key, "filter: type, then enter to keep the matches or esc to clear them"},
		{k.Picker.Help().Key, "clear the filter; back to the scenario left open"},
		{k.Help.Help().Key, "this help (? or esc closes it)"},
		{k.Quit.Help().Key, "quit"},
	}
	notes = []string{
		"The filter looks for what you type as you type it (case aside; no fuzzy matching) in each family's name, its variants and scenario names, their titles and their stories: \"wake\" finds the lost wake-up families by their stories, \"rel-acq\" every family with that variant.",
		"Families whose name starts with it come first, then those matching a variant or a name, a title, a story. A row says what matched and shows it: \"story of mb-before-check: …wake_up()…\".",
	}
	return keys, notes
}

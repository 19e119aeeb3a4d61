package views

import "github.com/charmbracelet/lipgloss"

// Styles holds every style the views use, by meaning. Render code never
// names a colour: it asks for StaleLine or ReleaseEntry, and DefaultStyles
// decides what that looks like. Every mark a style colours is also written
// as a symbol or a word, so the screen reads the same with NO_COLOR or on
// a monochrome projector.
type Styles struct {
	// Frame and panes.
	Header        lipgloss.Style // the top line
	HeaderTitle   lipgloss.Style // scenario name in the header
	HeaderDim     lipgloss.Style // separators and secondary header text
	Mode          lipgloss.Style // the TSO / ARM-like badge
	Running       lipgloss.Style // status word "running"
	Final         lipgloss.Style // status word "final"
	Deadlock      lipgloss.Style // status word "deadlock"
	Notice        lipgloss.Style // transient notices
	PaneFocused   lipgloss.Style // border of the focused pane
	PaneBlurred   lipgloss.Style // border of the other panes
	TitleFocused  lipgloss.Style // title of the focused pane
	TitleBlurred  lipgloss.Style // title of the other panes
	Dim           lipgloss.Style // secondary text
	Bold          lipgloss.Style // emphasis
	Selected      lipgloss.Style // the selected row of a list pane
	ScrollMark    lipgloss.Style // "▲ more" / "▼ more" hints
	TooSmall      lipgloss.Style // the terminal-too-small message
	HelpKey       lipgloss.Style // keys in the help screen
	HelpDesc      lipgloss.Style // descriptions in the help screen
	HelpSection   lipgloss.Style // section titles in the help screen
	DigitsPending lipgloss.Style // digits typed but not yet applied

	// CPU columns.
	CPUName          lipgloss.Style
	CPUBlocked       lipgloss.Style // "⏸ blocked" and the reason
	CPUFinished      lipgloss.Style // "✓ finished"
	PCLine           lipgloss.Style // the source line at the program counter
	InstrNumber      lipgloss.Style // an instruction's number (P0:2 is line 2 of P0)
	ExecutedLine     lipgloss.Style // source lines already executed
	PendingLine      lipgloss.Style // source lines not yet reached
	SkippedLine      lipgloss.Style // lines passed over by a branch
	EarlyLine        lipgloss.Style // lines issued early (ARM-like)
	Register         lipgloss.Style
	Label            lipgloss.Style // "regs", "sb", "iq", "cache"
	Empty            lipgloss.Style // "empty"
	StoreBufferEntry lipgloss.Style
	ReleaseEntry     lipgloss.Style
	ExclusiveEntry   lipgloss.Style
	WmbMarker        lipgloss.Style
	InvalEntry       lipgloss.Style
	InvalMarked      lipgloss.Style // an invalidation a later acquire applies first
	CacheModified    lipgloss.Style
	CacheExclusive   lipgloss.Style
	CacheShared      lipgloss.Style
	CacheInvalid     lipgloss.Style
	StaleLine        lipgloss.Style // a readable but out-of-date cache copy

	// Memory / coherence.
	LocName   lipgloss.Style
	Latest    lipgloss.Style
	Owner     lipgloss.Style
	Coherence lipgloss.Style
	Pending   lipgloss.Style // a store still in some store buffer

	// Steps, event, history, outcomes.
	StepNumber    lipgloss.Style
	StepRedo      lipgloss.Style // the step → would take next
	EventText     lipgloss.Style
	Forwarded     lipgloss.Style
	UpToDate      lipgloss.Style
	StaleRead     lipgloss.Style
	NewerPending  lipgloss.Style
	HistoryNow    lipgloss.Style // the entry the screen shows
	HistoryFuture lipgloss.Style // entries ahead of the cursor (redo)
	OutcomeMatch  lipgloss.Style // an outcome satisfying the condition
	Verdict       lipgloss.Style
	Condition     lipgloss.Style
	Spinner       lipgloss.Style
	Error         lipgloss.Style

	// What if: edited code and its effect.
	EditedLine lipgloss.Style // the ~ of an instruction an edit changed
	EditCursor lipgloss.Style // the instruction under the edit cursor
	DiffAdded  lipgloss.Style // a "+" line of the source diff
	DiffGone   lipgloss.Style // a "-" line of the source diff
	Appeared   lipgloss.Style // an outcome the edit made reachable
	Vanished   lipgloss.Style // an outcome the edit made unreachable

	// Picker.
	PickerTitle           lipgloss.Style
	PickerRowTitle        lipgloss.Style
	PickerRowSelected     lipgloss.Style // the selection bar
	PickerVariant         lipgloss.Style
	PickerVariantSelected lipgloss.Style
	PickerSummary         lipgloss.Style
	PickerFamily          lipgloss.Style
}

// DefaultStyles returns smpscope's styles. They use the 16 ANSI colours, so
// they follow the terminal's own theme (light or dark) and need no
// background query; lipgloss drops them entirely under NO_COLOR.
func DefaultStyles() Styles {
	c := func(n string) lipgloss.Color { return lipgloss.Color(n) }
	const (
		red, green, yellow, blue, magenta, cyan = "1", "2", "3", "4", "5", "6"
		gray, bred, bgreen, byellow, bblue      = "8", "9", "10", "11", "12"
		bmagenta, bcyan                         = "13", "14"
	)
	s := lipgloss.NewStyle
	return Styles{
		Header:        s().Bold(true),
		HeaderTitle:   s().Bold(true).Foreground(c(bcyan)),
		HeaderDim:     s().Foreground(c(gray)),
		Mode:          s().Bold(true).Reverse(true),
		Running:       s().Foreground(c(bgreen)),
		Final:         s().Bold(true).Foreground(c(bblue)),
		Deadlock:      s().Bold(true).Foreground(c(bred)),
		Notice:        s().Foreground(c(byellow)),
		PaneFocused:   s().Foreground(c(bcyan)),
		PaneBlurred:   s().Foreground(c(gray)),
		TitleFocused:  s().Bold(true).Foreground(c(bcyan)),
		TitleBlurred:  s().Bold(true),
		Dim:           s().Foreground(c(gray)),
		Bold:          s().Bold(true),
		Selected:      s().Reverse(true),
		ScrollMark:    s().Foreground(c(gray)),
		TooSmall:      s().Bold(true).Foreground(c(byellow)),
		HelpKey:       s().Bold(true).Foreground(c(bcyan)),
		HelpDesc:      s(),
		HelpSection:   s().Bold(true).Underline(true),
		DigitsPending: s().Bold(true).Foreground(c(byellow)),

		CPUName:          s().Bold(true),
		CPUBlocked:       s().Foreground(c(yellow)),
		CPUFinished:      s().Foreground(c(blue)),
		PCLine:           s().Bold(true).Foreground(c(bgreen)),
		InstrNumber:      s().Foreground(c(gray)),
		ExecutedLine:     s(),
		PendingLine:      s().Foreground(c(gray)),
		SkippedLine:      s().Foreground(c(gray)).Strikethrough(true),
		EarlyLine:        s().Foreground(c(bmagenta)),
		Register:         s(),
		Label:            s().Foreground(c(gray)),
		Empty:            s().Foreground(c(gray)),
		StoreBufferEntry: s().Foreground(c(byellow)),
		ReleaseEntry:     s().Bold(true).Foreground(c(bmagenta)),
		ExclusiveEntry:   s().Bold(true).Foreground(c(magenta)),
		WmbMarker:        s().Foreground(c(cyan)),
		InvalEntry:       s().Foreground(c(yellow)),
		InvalMarked:      s().Bold(true).Foreground(c(yellow)),
		CacheModified:    s().Bold(true).Foreground(c(bgreen)),
		CacheExclusive:   s().Foreground(c(green)),
		CacheShared:      s(),
		CacheInvalid:     s().Foreground(c(gray)),
		StaleLine:        s().Bold(true).Foreground(c(bred)),

		LocName:   s().Bold(true),
		Latest:    s().Bold(true),
		Owner:     s().Foreground(c(green)),
		Coherence: s(),
		Pending:   s().Foreground(c(byellow)),

		StepNumber:    s().Bold(true).Foreground(c(bcyan)),
		StepRedo:      s().Bold(true).Foreground(c(bmagenta)),
		EventText:     s(),
		Forwarded:     s().Bold(true).Foreground(c(byellow)),
		UpToDate:      s().Bold(true).Foreground(c(bgreen)),
		StaleRead:     s().Bold(true).Reverse(true).Foreground(c(red)),
		NewerPending:  s().Bold(true).Foreground(c(yellow)),
		HistoryNow:    s().Bold(true),
		HistoryFuture: s().Foreground(c(gray)),
		OutcomeMatch:  s().Bold(true).Foreground(c(bmagenta)),
		Verdict:       s().Bold(true),
		Condition:     s().Foreground(c(cyan)),
		Spinner:       s().Foreground(c(bcyan)),
		Error:         s().Bold(true).Foreground(c(bred)),

		EditedLine: s().Bold(true).Foreground(c(byellow)),
		EditCursor: s().Reverse(true),
		DiffAdded:  s().Foreground(c(bgreen)),
		DiffGone:   s().Foreground(c(bred)),
		Appeared:   s().Bold(true).Foreground(c(bgreen)),
		Vanished:   s().Foreground(c(gray)).Strikethrough(true),

		PickerTitle:           s().Bold(true).Reverse(true).Padding(0, 1),
		PickerRowTitle:        s().Bold(true),
		PickerRowSelected:     s().Foreground(c(bcyan)),
		PickerVariant:         s().Foreground(c(gray)),
		PickerVariantSelected: s().Bold(true).Underline(true).Foreground(c(bcyan)),
		PickerSummary:         s(),
		PickerFamily:          s().Foreground(c(gray)),
	}
}

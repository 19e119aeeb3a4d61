package model

// LibraryEntry is one scenario of the built-in library, as the picker lists
// it. Entries with the same Family are shown as one row with their
// variants.
type LibraryEntry struct {
	Name    string // what Options.Load is called with
	Family  string
	Variant string
	Title   string
	Summary string // optional one-line summary; Title is shown when empty
}

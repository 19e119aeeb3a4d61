package syntax

import (
	"strings"
)

// metaKeys are the metadata keys recognised in the leading comment.
var metaKeys = []string{"Result", "Title", "Source", "Story", "Variant", "Family"}

// IsMetaKey reports whether k is a metadata key ("Result", "Title", ...).
func IsMetaKey(k string) bool {
	for _, m := range metaKeys {
		if k == m {
			return true
		}
	}
	return false
}

// commentLine is one line of comment text with the position of its first
// character in the source.
type commentLine struct {
	pos  Position
	text string
}

// commentLines splits comments into lines of text without the comment
// delimiters. Consecutive // comments on consecutive lines form one group;
// each group ends with a nil separator so that values stop at the end of a
// comment.
func commentLines(cs []Comment) [][]commentLine {
	var groups [][]commentLine
	var cur []commentLine
	lastLine := -1
	for _, c := range cs {
		if c.Free {
			continue // free text is not a comment: herd7 skips it, and so does metadata
		}
		if c.IsLine() {
			if !(lastLine >= 0 && c.Pos.Line == lastLine+1 && cur != nil) {
				if cur != nil {
					groups = append(groups, cur)
				}
				cur = []commentLine{}
			}
			cur = append(cur, commentLine{pos: Position{File: c.Pos.File, Line: c.Pos.Line, Col: c.Pos.Col + 2}, text: c.Text[2:]})
			lastLine = c.Pos.Line
			continue
		}
		if cur != nil {
			groups = append(groups, cur)
			cur = nil
		}
		lastLine = -1
		body := c.Text[2 : len(c.Text)-2]
		var g []commentLine
		for i, l := range strings.Split(body, "\n") {
			pos := Position{File: c.Pos.File, Line: c.Pos.Line + i, Col: 1}
			if i == 0 {
				pos.Col = c.Pos.Col + 2
			}
			g = append(g, commentLine{pos: pos, text: l})
		}
		groups = append(groups, g)
	}
	if cur != nil {
		groups = append(groups, cur)
	}
	return groups
}

// parseMeta extracts "Key: value" metadata from the comments before the
// initial-state block (see FORMAT.md). A comment never makes a file fail:
// a Result that is not a verdict, or a key given twice, becomes a note.
func parseMeta(header []Comment) Metadata {
	var m Metadata
	seen := map[string]bool{}
	var notes []string
	var key string
	var val []string
	finish := func() {
		if key == "" {
			return
		}
		v := cleanText(strings.Join(val, " "))
		k := key
		key, val = "", nil
		if seen[k] {
			notes = append(notes, k+": "+v)
			return
		}
		seen[k] = true
		switch k {
		case "Result":
			first, rest, _ := strings.Cut(v, " ")
			switch o := Observation(strings.TrimRight(first, ".,;:!")); o {
			case Never, Sometimes, Always:
				m.Result = o
				if strings.TrimSpace(rest) != "" {
					notes = append(notes, k+": "+v)
				}
			default:
				notes = append(notes, k+": "+v)
			}
		case "Title":
			m.Title = v
		case "Source":
			m.Source = v
		case "Story":
			m.Story = v
		case "Variant":
			m.Variant = v
		case "Family":
			m.Family = v
		}
	}
	for _, g := range commentLines(header) {
		for _, cl := range g {
			raw := strings.TrimRight(cl.text, " \t\r")
			l := strings.TrimLeft(raw, " \t")
			if strings.HasPrefix(l, "*") {
				l = strings.TrimLeft(l[1:], " \t")
			}
			if l == "" {
				finish()
				continue
			}
			if i := strings.Index(l, ":"); i > 0 && IsMetaKey(l[:i]) {
				finish()
				key = l[:i]
				if v := strings.TrimSpace(l[i+1:]); v != "" {
					val = append(val, v)
				}
				continue
			}
			if key != "" {
				val = append(val, l)
			}
		}
		finish()
	}
	m.Note = strings.Join(notes, "; ")
	return m
}

// cleanText makes comment text safe to print in a terminal: a tab becomes
// a space, and the rest is made Printable, so that a file cannot send
// escape sequences through its metadata.
func cleanText(s string) string {
	return Printable(strings.ReplaceAll(s, "\t", " "))
}

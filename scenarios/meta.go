package scenarios

import (
	"strings"
)

// metaKeys are the metadata keys recognised in the leading comment.
var metaKeys = []string{"Result", "Title", "Source", "Story", "Variant", "Family"}

func isMetaKey(k string) bool {
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
		if c.isLine() {
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
// initial-state block (see FORMAT.md).
func parseMeta(header []Comment) (Metadata, error) {
	var m Metadata
	seen := map[string]Position{}
	var key string
	var keyPos Position
	var val []string
	finish := func() error {
		if key == "" {
			return nil
		}
		v := strings.Join(val, " ")
		switch key {
		case "Result":
			switch Observation(v) {
			case Never, Sometimes, Always:
				m.Result = Observation(v)
			default:
				return errorf(keyPos, "Result: must be Never, Sometimes or Always, not %q", v)
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
		key, val = "", nil
		return nil
	}
	for _, g := range commentLines(header) {
		for _, cl := range g {
			raw := strings.TrimRight(cl.text, " \t\r")
			l := strings.TrimLeft(raw, " \t")
			if strings.HasPrefix(l, "*") {
				l = strings.TrimLeft(l[1:], " \t")
			}
			if l == "" {
				if err := finish(); err != nil {
					return m, err
				}
				continue
			}
			if i := strings.Index(l, ":"); i > 0 && isMetaKey(l[:i]) {
				if err := finish(); err != nil {
					return m, err
				}
				key = l[:i]
				keyPos = cl.pos
				keyPos.Col += strings.Index(raw, key)
				if prev, dup := seen[key]; dup {
					return m, errorf(keyPos, "duplicate %s: metadata (first at %s)", key, prev)
				}
				seen[key] = keyPos
				if v := strings.TrimSpace(l[i+1:]); v != "" {
					val = append(val, v)
				}
				continue
			}
			if key != "" {
				val = append(val, l)
			}
		}
		if err := finish(); err != nil {
			return m, err
		}
	}
	return m, nil
}

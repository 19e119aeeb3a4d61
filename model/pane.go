package model

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// pane is a scrollable part of the screen: it owns its content lines and
// its offset, and bubbles' viewport keeps the offset within the lines.
// The lines come from the frame, once per update (set); keys and the
// wheel move the offset (scroll), and a selected row can be brought into
// view (reveal).
type pane struct{ vp viewport.Model }

// set gives the pane its lines and the rows it shows, and clamps the
// offset to them.
func (p *pane) set(lines []string, visible int) {
	p.vp.Height = visible
	p.vp.SetContent(strings.Join(lines, "\n"))
	p.vp.SetYOffset(p.vp.YOffset)
}

// scroll moves the offset by d lines.
func (p *pane) scroll(d int) { p.vp.SetYOffset(p.vp.YOffset + d) }

// scrollKeys scrolls the pane for ↑/↓ (a line) and pgup/pgdn (page
// lines); it reports whether msg was one of them.
func (p *pane) scrollKeys(msg tea.KeyMsg, k KeyMap, page int) bool {
	switch {
	case key.Matches(msg, k.Up):
		p.scroll(-1)
	case key.Matches(msg, k.Down):
		p.scroll(+1)
	case key.Matches(msg, k.PageUp):
		p.scroll(-page)
	case key.Matches(msg, k.PageDown):
		p.scroll(+page)
	default:
		return false
	}
	return true
}

// top returns to the first line.
func (p *pane) top() { p.vp.SetYOffset(0) }

// reveal scrolls just enough to show row (at least one row counts as
// visible).
func (p *pane) reveal(row int) {
	off, vis := p.vp.YOffset, max(p.vp.Height, 1)
	if row < off {
		off = row
	}
	if row >= off+vis {
		off = row - vis + 1
	}
	p.vp.SetYOffset(off)
}

// offset is the first line shown.
func (p pane) offset() int { return p.vp.YOffset }

// visible is how many rows show.
func (p pane) visible() int { return p.vp.Height }

// maxOffset is how far the pane can scroll.
func (p pane) maxOffset() int { return max(p.vp.TotalLineCount()-p.vp.Height, 0) }

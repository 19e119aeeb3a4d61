package model

import (
	"fmt"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/views"
)

// TestPicturePage: p opens the picture of the history up to the step
// shown; the stepping keys work on it and it follows them; p closes it.
func TestPicturePage(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {140, 45}} {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := Start(testOptions(mpScenario("plain"), machine.ARM), w, h)
			m = Drive(m, keys("w", "p")...)
			if m.page() != views.PagePicture {
				t.Fatalf("p opened page %v", m.page())
			}
			n := len(m.scen.sess.steps)
			v := m.View()
			for _, want := range []string{"picture · ←/→ step", "no steps yet", fmt.Sprintf("⋮ %d more steps ahead", n)} {
				if !strings.Contains(v, want) {
					t.Errorf("empty picture lacks %q:\n%s", want, v)
				}
			}
			// → replays the witness on the page, one row at a time.
			for i := 1; i <= n; i++ {
				m = Drive(m, keys("right")...)
				v = m.View()
				checkSize(t, v, w, h)
				if row := fmt.Sprintf("%3d ", i); !strings.Contains(v, "\n│"+row) && !strings.Contains(v, row) {
					t.Errorf("after %d steps the row of step %d is not in view:\n%s", i, i, v)
				}
			}
			if m.page() != views.PagePicture {
				t.Fatal("stepping left the picture page")
			}
			requireScreen(t, m)
			if !strings.Contains(v, "cycle: a:W x=1 →po b:W y=1 →rfe c:R y=1 →po d:R x=0") && h >= 30 {
				t.Errorf("the end lacks the cycle:\n%s", v)
			}
			// ← takes the last step back: its row goes.
			m = Drive(m, keys("left")...)
			if v = m.View(); !strings.Contains(v, "⋮ 1 more step ahead") || strings.Contains(v, "outcome:") {
				t.Errorf("after ← the picture still shows the end:\n%s", v)
			}
			// m switches the mode on the page: the picture follows.
			m = Drive(m, keys("m")...)
			if m.scen.sess.mode != machine.TSO || m.page() != views.PagePicture || !strings.Contains(m.View(), "TSO") {
				t.Errorf("m on the picture page: mode %v, page %v", m.scen.sess.mode, m.page())
			}
			m = Drive(m, keys("p")...)
			if m.page() != views.PagePanes {
				t.Fatalf("p did not close the picture")
			}
		})
	}
}

// TestPictureFollows: a history longer than the screen: the page keeps
// the step shown in view, folds quiet steps, and scrolls.
func TestPictureFollows(t *testing.T) {
	m := Start(testOptions(bigScenario(), machine.ARM), 80, 24)
	m = Drive(m, keys("g", "p")...)
	n := m.scen.sess.cursor
	if n < 30 {
		t.Fatalf("g took only %d steps", n)
	}
	v := m.View()
	checkSize(t, v, 80, 24)
	if !strings.Contains(v, fmt.Sprintf("%3d ", n)) {
		t.Errorf("the last step %d is not in view:\n%s", n, v)
	}
	if !strings.Contains(v, "⋮ ") {
		t.Errorf("no folded quiet steps:\n%s", v)
	}
	top := m.scen.pageV.offset()
	m = Drive(m, keys("up", "up")...)
	if m.scen.pageV.offset() != top-2 {
		t.Errorf("↑↑ scrolled from %d to %d", top, m.scen.pageV.offset())
	}
	m = Drive(m, keys("left")...)
	if v := m.View(); !strings.Contains(v, fmt.Sprintf("%3d ", n-1)) {
		t.Errorf("after ← step %d is not in view:\n%s", n-1, v)
	}
}

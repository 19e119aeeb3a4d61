//go:build unix

package model

import (
	"io"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"smpscope/machine"
)

// BenchmarkRenderedFrame measures a frame as the terminal receives it:
// the real model in a real tea.Program (bubbletea's standard renderer),
// colours on (true colour), at 140×45 on the 4×10 scenario, one key a
// frame: a step ("1", "r" when the program has ended), or a move of the
// selection in the steps pane (↓ and ↑ in turn). It reports the bytes written
// to the terminal per frame and the process's CPU time per frame
// (Update, View and the renderer's diff and write). These are the v1
// figures README's "How the code is organised" compares with the charm
// v2 line (issue 23, item 10).
func BenchmarkRenderedFrame(b *testing.B) {
	for _, c := range []struct {
		name       string
		key, else_ string
		alternate  bool // key and else_ in turn, else else_ when key changes nothing
	}{
		{"step", "1", "r", false},
		{"move", "down", "up", true},
	} {
		b.Run(c.name, func(b *testing.B) {
			lipgloss.SetColorProfile(termenv.TrueColor)
			defer lipgloss.SetColorProfile(termenv.Ascii)
			out := &frameWriter{wrote: make(chan struct{}, 1)}
			in, feed := io.Pipe()
			defer feed.Close()
			opts := testOptions(bigScenario(), machine.ARM)
			opts.Scenario = bigScenario()
			p := tea.NewProgram(New(opts), tea.WithOutput(out), tea.WithInput(in), tea.WithAltScreen(), tea.WithoutSignalHandler())
			done := make(chan struct{})
			go func() { p.Run(); close(done) }()
			p.Send(tea.WindowSizeMsg{Width: 140, Height: 45})
			// Let the first frame and the exploration land.
			for out.wait(500 * time.Millisecond) {
			}
			start, bytes0 := cpuTime(), out.total()
			b.ResetTimer()
			frames, misses := 0, 0
			for frames < b.N {
				k := c.key
				if c.alternate && frames%2 == 1 {
					k = c.else_
				}
				p.Send(keyMsg(k))
				if out.wait(200 * time.Millisecond) {
					frames++
					continue
				}
				p.Send(keyMsg(c.else_)) // nothing changed: the other key
				if out.wait(time.Second) {
					frames++
				} else if misses++; misses > 3 {
					b.Fatalf("neither %s nor %s changes the screen", c.key, c.else_)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(out.total()-bytes0)/float64(frames), "B/frame")
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/float64(frames), "cpu-µs/frame")
			p.Quit()
			<-done
		})
	}
}

// frameWriter counts what the renderer writes and signals each write.
type frameWriter struct {
	mu    sync.Mutex
	n     int64
	wrote chan struct{}
}

func (w *frameWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.n += int64(len(p))
	w.mu.Unlock()
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (w *frameWriter) total() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// wait reports whether the renderer wrote within d.
func (w *frameWriter) wait(d time.Duration) bool {
	select {
	case <-w.wrote:
		return true
	case <-time.After(d):
		return false
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

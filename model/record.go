package model

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"smpscope/scenarios"
	"smpscope/scenarios/syntax"
	"smpscope/scenarios/words"
	"smpscope/views"
)

// Recording a demo: the real UI's frames of an execution, rendered by the
// headless driver, written as an asciicast v2 file; and a VHS tape with
// the keys that take the same steps in the real UI.

// View is what a recording shows: the panes (the default), the
// picture page (record --picture) or presentation mode (record
// --present).
type View uint8

// Views a recording can show.
const (
	ViewPanes View = iota
	ViewPicture
	ViewPresent
)

// pictureOn reports whether views asks for the picture page.
func pictureOn(views []View) bool { return len(views) > 0 && views[0] == ViewPicture }

// Frames opens the execution's scenario at w×h with the whole execution
// as history, lets the background exploration finish (so the outcomes
// pane is filled in), steps back to the initial state and forward one
// step at a time, and returns the view after each: one frame per step,
// the initial state first. With color the frames carry 256-colour
// styling (for a dark background; no terminal is asked), without it none.
// With ViewPicture the picture page (p) is open throughout.
func Frames(ex *scenarios.Execution, w, h int, color bool, view ...View) []string {
	return framesWith(ex, w, h, color, nil, view...)
}

// framesWith is Frames with the options adjusted by set.
func framesWith(ex *scenarios.Execution, w, h int, color bool, set func(*Options), view ...View) []string {
	if color {
		lipgloss.SetColorProfile(termenv.ANSI256)
	} else {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	lipgloss.SetHasDarkBackground(true)
	// The library the real UI has, so that frames number the variant in
	// its family ("variant once 2/4") as the screen does.
	opts, err := LibraryOptions()
	if err != nil {
		opts = Options{}
	}
	opts.Scenario, opts.Mode, opts.History, opts.Attempt, opts.Seed = ex.Spec, ex.Mach.Mode, ex.Steps, ex.Attempt, 1
	if set != nil {
		set(&opts)
	}
	if len(view) > 0 && view[0] == ViewPresent {
		return presentFrames(opts, ex, w, h)
	}
	m := Start(opts, w, h)
	for range ex.Steps {
		m = Drive(m, tea.KeyMsg{Type: tea.KeyLeft})
	}
	if pictureOn(view) {
		m = Drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	}
	frames := []string{m.View()}
	for range ex.Steps {
		m = Drive(m, tea.KeyMsg{Type: tea.KeyRight})
		frames = append(frames, m.View())
	}
	return frames
}

// presentFrames is Frames in presentation mode: the presentation of the
// execution from its initial state, one frame per step of its own timer
// (each timer delivered as the model's tick would), the pace the
// frames' delay says (PresentEvery, set by the caller in opts.Every).
func presentFrames(opts Options, ex *scenarios.Execution, w, h int) []string {
	opts.Present = true
	if opts.Every <= 0 {
		opts.Every = DefaultEvery
	}
	m := Start(opts, w, h)
	frames := []string{m.View()}
	for range ex.Steps {
		m, _ = m.update(presentTickMsg{seq: m.scen.present.seq})
		frames = append(frames, m.View())
	}
	return frames
}

// PresentFrames is Frames in presentation mode at the pace every (what
// the indicator says: "▶ presenting · step 3/9 · every 1.5s").
func PresentFrames(ex *scenarios.Execution, w, h int, color bool, every time.Duration) []string {
	return framesWith(ex, w, h, color, func(o *Options) { o.Every = every }, ViewPresent)
}

// Captions are a recording's caption lines, one per frame of Frames:
// the step shown and what it did, in words ("step 3 · P0:2 commit: P0
// commits y=1 from its store buffer …"), or the initial state.
func Captions(ex *scenarios.Execution) []string {
	out := []string{"initial state: every CPU holds every location in S; store buffers and queues are empty"}
	if ex.Attempt != nil {
		out[0] = "closest attempt: the outcome asked about is unreachable in " + ex.Mach.Mode.Title() + " mode; " + out[0]
	}
	for i, st := range ex.Steps {
		text := words.Event(ex.Mach, &ex.Events[i])
		if i == len(ex.Steps)-1 && ex.Attempt != nil {
			text = strings.Join(ex.Attempt.Sentences(), " ") + " " + text
		}
		out = append(out, fmt.Sprintf("step %d · %s: %s", i+1, words.StepID(ex.Mach, st), text))
	}
	return out
}

// StepKeys is what a person types to take the i-th (from 0) of n enabled
// steps: its number, and whether enter must follow because the UI would
// wait for another digit (the rule typeDigit applies).
func StepKeys(i, n int) (digits string, enter bool) {
	return strconv.Itoa(i + 1), waitsForDigit(i+1, n)
}

// waitsForDigit reports whether the step number typed so far could still
// grow into another enabled step's number (ten or more are enabled and
// num·10 is one of them).
func waitsForDigit(num, n int) bool { return num*10 <= n }

// castHeader is the first line of an asciicast v2 file. A struct keeps
// "version" first; no timestamp, so that recordings are reproducible.
type castHeader struct {
	Version int               `json:"version"`
	Width   int               `json:"width"`
	Height  int               `json:"height"`
	Title   string            `json:"title,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// WriteCast writes frames as an asciicast v2 file: a header, then one
// output event per frame, delay apart, each clearing the screen first;
// lines end with \r\n as on a raw terminal. Times are whole milliseconds.
// The cursor is hidden with the first frame and shown again by a last
// event, which holds the final frame for one more delay (a player or a
// terminal that plays the file is left with its cursor).
func WriteCast(w io.Writer, width, height int, title string, frames []string, delay time.Duration) error {
	return WriteCaptionedCast(w, width, height, title, frames, nil, delay)
}

// WriteCaptionedCast is WriteCast with a caption per frame (captions[i]
// goes with frames[i]; nil: none): each caption is the recording's last
// line under its frame, cut to the width (height counts it), and a
// marker event ("m") labelled with the whole caption, which players show
// on their timeline.
func WriteCaptionedCast(w io.Writer, width, height int, title string, frames, captions []string, delay time.Duration) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(castHeader{Version: 2, Width: width, Height: height, Title: title, Env: map[string]string{"TERM": "xterm-256color"}}); err != nil {
		return err
	}
	step := int(delay / time.Millisecond)
	ms := 0
	event := func(data string) error {
		t := json.Number(fmt.Sprintf("%d.%03d", ms/1000, ms%1000))
		ms += step
		return enc.Encode([]any{t, "o", data})
	}
	marker := func(label string) error {
		t := json.Number(fmt.Sprintf("%d.%03d", ms/1000, ms%1000))
		return enc.Encode([]any{t, "m", label})
	}
	for i, f := range frames {
		data := "\x1b[H\x1b[2J" + strings.ReplaceAll(strings.ReplaceAll(f, "\r\n", "\n"), "\n", "\r\n")
		if i == 0 {
			data = "\x1b[?25l" + data // hide the cursor
		}
		if i < len(captions) {
			c := syntax.Printable(strings.Join(strings.Fields(captions[i]), " "))
			data += "\r\n" + lipgloss.NewStyle().Reverse(true).Render(fitCaption(c, width))
			if err := marker(c); err != nil {
				return err
			}
		}
		if err := event(data); err != nil {
			return err
		}
	}
	return event("\x1b[?25h") // show the cursor again
}

// fitCaption cuts a caption to w cells (with "…") and pads it, in time
// linear in its length (a name may be as long as the file).
func fitCaption(c string, w int) string {
	c = ansi.Truncate(c, w, "…")
	return c + strings.Repeat(" ", max(w-ansi.StringWidth(c), 0))
}

// vhsString quotes s for a VHS tape, with a quote character s does not
// contain.
func vhsString(s string) string {
	for _, q := range []string{`"`, `'`, "`"} {
		if !strings.Contains(s, q) {
			return q + s + q
		}
	}
	return `"` + strings.ReplaceAll(s, `"`, `'`) + `"`
}

// Tape is a VHS tape that opens the scenario (named as arg on the
// command line) in the UI in the execution's mode and types the keys
// taking its steps, delay apart, then q and a last second. The terminal is sized in pixels
// for about cols×rows cells at font size 16; tapePath names the GIF.
func Tape(ex *scenarios.Execution, arg, tapePath string, cols, rows int, delay time.Duration, view ...View) string {
	m := ex.Mach
	sleep := func(d time.Duration) string { return fmt.Sprintf("Sleep %dms\n", d.Milliseconds()) }
	var b strings.Builder
	out := strings.TrimSuffix(filepath.Base(tapePath), filepath.Ext(tapePath)) + ".gif"
	fmt.Fprintf(&b, "# smpscope: %s in %s mode, %d steps (written by smpscope record --tape).\n", m.Prog.Name, m.Mode.Title(), len(ex.Steps))
	b.WriteString("# Make the GIF with VHS: vhs " + filepath.Base(tapePath) + "\n")
	fmt.Fprintf(&b, "Output %s\n", out)
	b.WriteString("Require smpscope\n")
	b.WriteString("Set Shell \"bash\"\n")
	b.WriteString("Set FontSize 16\n")
	fmt.Fprintf(&b, "Set Width %d\n", cols*10+40)
	fmt.Fprintf(&b, "Set Height %d\n", rows*20+40)
	b.WriteString("Set Padding 20\n")
	b.WriteString("Set TypingSpeed 100ms\n")
	open := "smpscope " + views.ShellQuote(arg) + " --mode " + m.Mode.String()
	if len(ex.Spec.Edits) > 0 {
		open += " " + scenarios.EditFlags(ex.Spec.Edits)
	}
	fmt.Fprintf(&b, "Type %s\n", vhsString(open))
	b.WriteString("Enter\n")
	b.WriteString(sleep(max(delay, 2*time.Second)))
	if pictureOn(view) {
		// The picture page; the step numbers work on it as on the panes.
		b.WriteString("Type \"p\"\n")
		b.WriteString(sleep(delay))
	}
	for i, st := range ex.Steps {
		en := m.Enabled(ex.States[i])
		for k, e := range en {
			if e == st {
				digits, enter := StepKeys(k, len(en))
				fmt.Fprintf(&b, "Type %s\n", vhsString(digits))
				if enter {
					b.WriteString("Enter\n")
				}
			}
		}
		b.WriteString(sleep(delay))
	}
	b.WriteString(sleep(delay))
	b.WriteString("Type \"q\"\n")
	// VHS stops recording at the tape's last command: a last Sleep lets
	// the UI quit and the shell prompt come back on the final frames.
	b.WriteString(sleep(time.Second))
	return b.String()
}

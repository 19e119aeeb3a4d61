package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"smpscope/machine"
	"smpscope/model"
	"smpscope/scenarios"
)

type recordOptions struct {
	execSource
	out     string
	delay   time.Duration
	size    string
	noColor bool
	tape    string
}

func newRecordCmd(stdout, stderr io.Writer) *cobra.Command {
	var o recordOptions
	cmd := &cobra.Command{
		Use:   "record SCENARIO (--witness | --replay FILE | --random SEED) --out demo.cast [--delay 1.5s] [--size 100x30] [--tape demo.tape]",
		Short: "Record the UI stepping through an execution as an asciicast v2 file",
		Long: `record renders the real UI frames of an execution, one per step,
deterministically and without a terminal, into an asciicast v2 file that
asciinema plays ("asciinema play demo.cast") and converts (svg-term, agg).

The execution is the shortest witness of the outcome the final clause asks
about (--witness, the default), a saved trace file (--replay FILE; SCENARIO
may then be left out) or random steps (--random SEED). Frames are --delay
apart; the last one stays for one more delay.

--tape FILE also writes a VHS tape (https://github.com/charmbracelet/vhs)
with the keystrokes that produce the same run in the real UI: it types the
command that opens the scenario, then each step's number in the list of
enabled steps, --delay apart, and q.

Exit status: 0 written; 1 no witness (the outcome is unreachable); 2 usage,
parse, replay or write errors.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRecord(cmd, args, o, stderr)
		},
	}
	f := cmd.Flags()
	o.addFlags(f, "record")
	f.StringVar(&o.out, "out", "", "the asciicast `FILE` to write (required)")
	f.DurationVar(&o.delay, "delay", 1500*time.Millisecond, "time between frames")
	f.StringVar(&o.size, "size", "100x30", "terminal size COLSxROWS")
	f.BoolVar(&o.noColor, "no-color", false, "record without colours")
	f.StringVar(&o.tape, "tape", "", "also write a VHS tape `FILE` with the keystrokes of the same run")
	return cmd
}

// parseSize reads "COLSxROWS".
func parseSize(s string) (w, h int, err error) {
	if _, err := fmt.Sscanf(strings.ToLower(s), "%dx%d", &w, &h); err != nil || w < 20 || h < 5 || w > 1000 || h > 500 {
		return 0, 0, fmt.Errorf("--size %q: want COLSxROWS, e.g. 100x30", s)
	}
	return w, h, nil
}

func runRecord(cmd *cobra.Command, args []string, o recordOptions, stderr io.Writer) error {
	if o.out == "" {
		return usageErr("record: --out FILE is required")
	}
	w, h, err := parseSize(o.size)
	if err != nil {
		return usageErr("record: %v", err)
	}
	if o.delay <= 0 {
		return usageErr("record: --delay must be positive")
	}
	ex, err := chooseExecution("record", "record", cmd.Flags(), args, o.execSource)
	if err != nil {
		return err
	}
	cs, m, steps, arg := ex.cs, ex.m, ex.steps, ex.arg
	if o.noColor {
		lipgloss.SetColorProfile(termenv.Ascii)
	} else {
		lipgloss.SetColorProfile(termenv.ANSI256)
	}
	lipgloss.SetHasDarkBackground(true) // never query a terminal
	frames := recordFrames(cs, m.Mode, steps, w, h)

	file, err := os.Create(o.out)
	if err != nil {
		return usageErr("record: %v", err)
	}
	title := fmt.Sprintf("smpscope %s (%s mode)", cs.Scenario.Name, m.Mode.Title())
	werr := writeCast(file, w, h, title, frames, o.delay)
	if cerr := file.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return usageErr("record: %s: %v", o.out, werr)
	}
	fmt.Fprintf(stderr, "smpscope record: wrote %s (%d frames, %dx%d); play it with: asciinema play %s\n", o.out, len(frames), w, h, shellQuote(o.out))
	if o.tape != "" {
		tape, err := vhsTape(m, steps, arg, o.tape, w, h, o.delay)
		if err != nil {
			return &exitError{2, "smpscope record: " + err.Error()}
		}
		if err := os.WriteFile(o.tape, []byte(tape), 0o644); err != nil {
			return usageErr("record: %v", err)
		}
		fmt.Fprintf(stderr, "smpscope record: wrote %s (%d steps); record it with: vhs %s\n", o.tape, len(steps), shellQuote(o.tape))
	}
	return nil
}

// stepKeys returns what a person types in the UI to take step st in
// state s: its number in the list of enabled steps, followed by enter
// when the number could still grow (ten or more steps enabled and the
// number times ten within the list: the UI would wait for another digit).
func stepKeys(m *machine.Machine, s *machine.State, st machine.Step) (digits string, enter bool, err error) {
	en := m.Enabled(s)
	for i, e := range en {
		if e == st {
			n := i + 1
			return fmt.Sprint(n), len(en) >= 10 && n*10 <= len(en), nil
		}
	}
	return "", false, fmt.Errorf("step %s is not enabled", m.ID(st))
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

// vhsTape writes a VHS tape that opens the scenario (named as arg) in the
// UI in m's mode and types the keys taking steps, delay apart, then q.
// The terminal is sized in pixels for about cols×rows cells at font size
// 16.
func vhsTape(m *machine.Machine, steps []machine.Step, arg, tapePath string, cols, rows int, delay time.Duration) (string, error) {
	ms := func(d time.Duration) string { return fmt.Sprintf("Sleep %dms\n", d.Milliseconds()) }
	var b strings.Builder
	out := strings.TrimSuffix(filepath.Base(tapePath), filepath.Ext(tapePath)) + ".gif"
	fmt.Fprintf(&b, "# smpscope: %s in %s mode, %d steps (written by smpscope record --tape).\n", m.Prog.Name, m.Mode.Title(), len(steps))
	b.WriteString("# Make the GIF with VHS: vhs " + filepath.Base(tapePath) + "\n")
	fmt.Fprintf(&b, "Output %s\n", out)
	b.WriteString("Require smpscope\n")
	b.WriteString("Set Shell \"bash\"\n")
	b.WriteString("Set FontSize 16\n")
	fmt.Fprintf(&b, "Set Width %d\n", cols*10+40)
	fmt.Fprintf(&b, "Set Height %d\n", rows*20+40)
	b.WriteString("Set Padding 20\n")
	b.WriteString("Set TypingSpeed 100ms\n")
	fmt.Fprintf(&b, "Type %s\n", vhsString("smpscope "+shellQuote(arg)+" --mode "+m.Mode.String()))
	b.WriteString("Enter\n")
	b.WriteString(ms(max(delay, 2*time.Second)))
	s := m.Initial()
	for i, st := range steps {
		digits, enter, err := stepKeys(m, s, st)
		if err != nil {
			return "", fmt.Errorf("step %d: %v", i+1, err)
		}
		fmt.Fprintf(&b, "Type %s\n", vhsString(digits))
		if enter {
			b.WriteString("Enter\n")
		}
		b.WriteString(ms(delay))
		if s, _, err = m.Apply(s, st); err != nil {
			return "", fmt.Errorf("step %d: %v", i+1, err)
		}
	}
	b.WriteString(ms(delay))
	b.WriteString("Type \"q\"\n")
	return b.String(), nil
}

// recordFrames drives the UI model without a terminal: it opens the
// scenario with the whole execution as history, lets the background
// exploration finish, steps back to the initial state and then forward
// one step at a time, taking the view after each.
func recordFrames(cs *scenarios.Compiled, mode machine.Mode, steps []machine.Step, w, h int) []string {
	var tm tea.Model = model.New(model.Options{Scenario: model.FromCompiled(cs), Mode: mode, History: steps, Seed: 1})
	var cmd tea.Cmd
	tm, cmd = tm.Update(tea.WindowSizeMsg{Width: w, Height: h})
	tm = settle(tm, tea.Batch(tm.Init(), cmd), 8)
	press := func(k tea.KeyType) {
		var c tea.Cmd
		tm, c = tm.Update(tea.KeyMsg{Type: k})
		tm = settle(tm, c, 8)
	}
	for range steps {
		press(tea.KeyLeft)
	}
	frames := []string{tm.View()}
	for range steps {
		press(tea.KeyRight)
		frames = append(frames, tm.View())
	}
	return frames
}

// settle runs the commands a model returns and feeds their messages back,
// so that background work (the exploration) lands in the model. Timers
// (the spinner's ticks) are dropped, quitting is ignored, and a command
// that has not answered within a minute is abandoned. depth bounds the
// chain of follow-up commands.
func settle(m tea.Model, cmd tea.Cmd, depth int) tea.Model {
	if cmd == nil || depth == 0 {
		return m
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(time.Minute):
		return m
	}
	switch msg := msg.(type) {
	case nil, spinner.TickMsg, tea.QuitMsg:
		return m
	case tea.BatchMsg:
		for _, c := range msg {
			m = settle(m, c, depth-1)
		}
		return m
	}
	var next tea.Cmd
	m, next = m.Update(msg)
	return settle(m, next, depth-1)
}

// castHeader is the first line of an asciicast v2 file. A struct keeps
// "version" first; no timestamp, so that recordings are reproducible.
type castHeader struct {
	Version int               `json:"version"`
	Width   int               `json:"width"`
	Height  int               `json:"height"`
	Title   string            `json:"title,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// writeCast writes frames as an asciicast v2 file: a header, then one
// output event per frame, delay apart, each clearing the screen first;
// lines end with \r\n as on a raw terminal. Times are whole milliseconds.
// A last empty event holds the final frame for one more delay.
func writeCast(w io.Writer, width, height int, title string, frames []string, delay time.Duration) error {
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
	for i, f := range frames {
		data := "\x1b[H\x1b[2J" + strings.ReplaceAll(strings.ReplaceAll(f, "\r\n", "\n"), "\n", "\r\n")
		if i == 0 {
			data = "\x1b[?25l" + data // hide the cursor
		}
		if err := event(data); err != nil {
			return err
		}
	}
	return event("")
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"smpscope/machine"
	"smpscope/model"
	"smpscope/scenarios"
)

// readCast parses an asciicast v2 file: its header and the raw time
// strings and data of its output events (markers: readCastMarkers).
func readCast(t *testing.T, path string) (map[string]any, []string, []string) {
	t.Helper()
	h, times, data, _ := readCastMarkers(t, path)
	return h, times, data
}

// readCastMarkers is readCast with the labels of the marker events.
func readCastMarkers(t *testing.T, path string) (map[string]any, []string, []string, []string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	var header map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &header); err != nil {
		t.Fatalf("header %q: %v", lines[0], err)
	}
	if !strings.HasPrefix(lines[0], `{"version":2,`) {
		t.Errorf("header does not start with the version: %q", lines[0])
	}
	var times, data, markers []string
	for i, l := range lines[1:] {
		var ev []json.RawMessage
		if err := json.Unmarshal([]byte(l), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("event %d %q: %v", i+1, l, err)
		}
		var code, d string
		if err := json.Unmarshal(ev[1], &code); err != nil || code != "o" && code != "m" {
			t.Fatalf("event %d: code %s", i+1, ev[1])
		}
		if err := json.Unmarshal(ev[2], &d); err != nil {
			t.Fatalf("event %d: data %s", i+1, ev[2])
		}
		if code == "m" {
			markers = append(markers, d)
			continue
		}
		times = append(times, string(ev[0]))
		data = append(data, d)
	}
	return header, times, data, markers
}

func TestRecordCast(t *testing.T) {
	dir := t.TempDir()
	cast := filepath.Join(dir, "demo.cast")
	_, errs, code := runCmd(t, "record", "mp+once", "--witness", "--out", cast, "--size", "100x30", "--delay", "1.25s", "--no-color")
	if code != 0 || !strings.Contains(errs, "wrote "+cast) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	header, times, data := readCast(t, cast)
	if header["version"] != float64(2) || header["width"] != float64(100) || header["height"] != float64(30) {
		t.Fatalf("header %v", header)
	}
	// The witness has 7 steps: 8 frames and a closing event, which
	// shows the cursor the first frame hid.
	if len(data) != 9 || data[8] != "\x1b[?25h" || !strings.HasPrefix(data[0], "\x1b[?25l") {
		t.Fatalf("%d events, first %q…, last %q", len(data), data[0][:min(len(data[0]), 8)], data[len(data)-1])
	}
	prev := -1
	for i, ts := range times {
		// Whole milliseconds, strictly increasing, 1.25 s apart.
		whole, frac, ok := strings.Cut(ts, ".")
		s, err1 := strconv.Atoi(whole)
		ms, err2 := strconv.Atoi(frac)
		if !ok || len(frac) != 3 || err1 != nil || err2 != nil {
			t.Fatalf("time %q is not whole milliseconds", ts)
		}
		now := s*1000 + ms
		if now <= prev || now != i*1250 {
			t.Fatalf("event %d at %q (previous %d ms)", i, ts, prev)
		}
		prev = now
	}
	for i, d := range data[:8] {
		d = strings.TrimPrefix(d, "\x1b[?25l")
		if !strings.HasPrefix(d, "\x1b[H\x1b[2J") {
			t.Fatalf("frame %d does not start by clearing the screen: %q", i, d[:min(len(d), 20)])
		}
		if strings.Count(d, "\n") != strings.Count(d, "\r\n") {
			t.Fatalf("frame %d has a bare \\n", i)
		}
		lines := strings.Split(strings.TrimPrefix(d, "\x1b[H\x1b[2J"), "\r\n")
		if len(lines) > 30 {
			t.Errorf("frame %d has %d lines for 30 rows", i, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 100 {
				t.Errorf("frame %d: line %d cells wide: %q", i, w, ansi.Strip(l))
			}
		}
	}
	if strings.Contains(data[3], "\x1b[3") || strings.Contains(data[3], "\x1b[1;3") {
		t.Errorf("--no-color frame has colours")
	}
	first, last := ansi.Strip(data[0]), ansi.Strip(data[7])
	// Frames number the variant in its family, as the screen does.
	if !strings.Contains(first, "variant once 2/4") {
		t.Errorf("the frame does not say variant once 2/4:\n%s", first)
	}
	if !strings.Contains(first, "mp+once") || strings.Contains(first, "final") {
		t.Errorf("first frame is not the initial state:\n%s", first)
	}
	if !strings.Contains(last, "final") || !strings.Contains(last, "r0=1") || !strings.Contains(last, "r1=0") {
		t.Errorf("last frame does not show the final state:\n%s", last)
	}
	// Deterministic: a second recording is byte-identical.
	again := filepath.Join(dir, "again.cast")
	runCmd(t, "record", "mp+once", "--out", again, "--size", "100x30", "--delay", "1.25s", "--no-color")
	a, _ := os.ReadFile(cast)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Errorf("two recordings differ")
	}
}

func TestRecordReplayAndErrors(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "sb.trace")
	if _, errs, code := runCmd(t, "trace", "sb+once", "--mode", "tso", "--random", "3", "--save", trace, "--out", filepath.Join(dir, "sb.txt")); code != 0 {
		t.Fatalf("trace --save: exit %d %s", code, errs)
	}
	cast := filepath.Join(dir, "sb.cast")
	if _, errs, code := runCmd(t, "record", "--replay", trace, "--out", cast, "--size", "90x28"); code != 0 {
		t.Fatalf("record --replay: exit %d %s", code, errs)
	}
	header, _, data := readCast(t, cast)
	if header["width"] != float64(90) || header["height"] != float64(28) || !strings.Contains(ansi.Strip(data[len(data)-2]), "TSO") {
		t.Errorf("header %v", header)
	}
	// An unreachable outcome: the closest attempt is recorded, and its
	// last frame says why it gets no further.
	if _, errs, code := runCmd(t, "record", "mp+wmb-rmb", "--out", filepath.Join(dir, "x.cast"), "--no-color"); code != 0 || !strings.Contains(errs, "showing the closest attempt") {
		t.Errorf("unreachable: exit %d, stderr %q", code, errs)
	}
	_, _, data = readCast(t, filepath.Join(dir, "x.cast"))
	if last := strings.Join(strings.Fields(ansi.Strip(data[len(data)-2])), " "); !strings.Contains(last, "This is as far as it gets") {
		t.Errorf("the last frame of the attempt:\n%s", ansi.Strip(data[len(data)-2]))
	}
	for _, args := range [][]string{
		{"record", "mp+once"},
		{"record", "mp+once", "--out", cast, "--size", "big"},
		{"record", "mp+once", "--out", cast, "--delay", "0s"},
		{"record", "mp+once", "--out", cast, "--witness", "--random", "2"},
		{"record", "--out", cast},
	} {
		if _, errs, code := runCmd(t, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// wideLitmus has six CPUs with two stores each: in ARM-like mode ten or
// more steps are often enabled, so step numbers can have two digits.
const wideLitmus = `C wide6
{}
P0(int *a, int *b) { WRITE_ONCE(*a, 1); WRITE_ONCE(*b, 1); }
P1(int *c, int *d) { WRITE_ONCE(*c, 1); WRITE_ONCE(*d, 1); }
P2(int *e, int *f) { WRITE_ONCE(*e, 1); WRITE_ONCE(*f, 1); }
P3(int *g, int *h) { WRITE_ONCE(*g, 1); WRITE_ONCE(*h, 1); }
P4(int *i, int *j) { WRITE_ONCE(*i, 1); WRITE_ONCE(*j, 1); }
P5(int *k, int *l) { WRITE_ONCE(*k, 1); WRITE_ONCE(*l, 1); }
exists (a=1 /\ l=1)
`

// tapeLine is every command a tape may hold.
var tapeLine = regexp.MustCompile("^(#.*|Output \\S+\\.gif|Require smpscope|Set (Shell \"bash\"|FontSize \\d+|Width \\d+|Height \\d+|Padding \\d+|TypingSpeed \\d+ms)|Type \"[^\"]*\"|Enter|Sleep \\d+ms)$")

func TestRecordTape(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "wide6.litmus")
	if err := os.WriteFile(src, []byte(wideLitmus), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"witness", []string{"record", "mp+once", "--mode", "arm"}},
		{"random-wide", []string{"record", src, "--mode", "arm", "--random", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tape := filepath.Join(dir, c.name+".tape")
			cast := filepath.Join(dir, c.name+".cast")
			trace := filepath.Join(dir, c.name+".trace")
			args := append(append([]string{}, c.args...), "--out", cast, "--tape", tape, "--delay", "1.5s", "--size", "100x30")
			if _, errs, code := runCmd(t, args...); code != 0 || !strings.Contains(errs, "wrote "+tape) {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			// The same execution as a trace, to compare with.
			targs := []string{"trace", c.args[1], "--mode", "arm", "--save", trace, "--out", filepath.Join(dir, c.name+".txt")}
			if len(c.args) > 4 {
				targs = append(targs, c.args[4:]...)
			}
			if _, errs, code := runCmd(t, targs...); code != 0 {
				t.Fatalf("trace: exit %d %s", code, errs)
			}
			raw, _ := os.ReadFile(tape)
			lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")

			// Well formed: known commands only; settings before the first
			// action; the program started first and quit last.
			acting := false
			var typed []string // after the command line: the keys
			started := false
			for i, l := range lines {
				if !tapeLine.MatchString(l) {
					t.Fatalf("line %d: %q is not a tape command", i+1, l)
				}
				isSetting := strings.HasPrefix(l, "Set ") || strings.HasPrefix(l, "Output ") || strings.HasPrefix(l, "Require ")
				if isSetting && acting {
					t.Fatalf("line %d: setting %q after the first action", i+1, l)
				}
				if strings.HasPrefix(l, "Type ") || l == "Enter" {
					acting = true
				}
				switch {
				case !started && strings.HasPrefix(l, "Type "):
					want := "Type \"smpscope " + c.args[1] + " --mode arm\""
					if l != want {
						t.Fatalf("first Type %q, want %q", l, want)
					}
					if lines[i+1] != "Enter" {
						t.Fatalf("the command line is not followed by Enter")
					}
					started = true
				case started && strings.HasPrefix(l, "Type "):
					typed = append(typed, strings.Trim(strings.TrimPrefix(l, "Type "), "\""))
				case started && l == "Enter" && i > 0 && !strings.HasPrefix(lines[i-1], "Type \"smpscope"):
					typed = append(typed, "enter")
				}
			}
			if typed[len(typed)-1] != "q" || !strings.HasPrefix(lines[0], "#") {
				t.Fatalf("the tape does not end with q: %v", typed)
			}
			// VHS stops at the last command: a Sleep after q lets the
			// recording show the UI quitting.
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, "Sleep ") || lines[len(lines)-2] != `Type "q"` {
				t.Errorf("the tape ends %q, %q; want Type \"q\" then a Sleep", lines[len(lines)-2], last)
			}
			if c.name == "random-wide" && !strings.Contains(strings.Join(typed, " "), "enter") {
				t.Errorf("no step needed enter; the test no longer covers two-digit numbers: %v", typed)
			}

			// Feeding the keys to the UI model reproduces the run.
			ex, err := scenarios.ReplayTraceFile(trace, "", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var tm tea.Model = model.New(model.Options{Scenario: ex.Spec, Mode: machine.ARM, Seed: 1})
			tm, _ = tm.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			var quit bool
			for _, k := range typed {
				var msgs []tea.KeyMsg
				switch k {
				case "enter":
					msgs = []tea.KeyMsg{{Type: tea.KeyEnter}}
				default:
					for _, r := range k {
						msgs = append(msgs, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
					}
				}
				for _, msg := range msgs {
					var cmd tea.Cmd
					tm, cmd = tm.Update(msg)
					if k == "q" && cmd != nil {
						_, quit = cmd().(tea.QuitMsg)
					}
				}
			}
			got := tm.(model.Model)
			if !quit {
				t.Error("q did not quit")
			}
			if len(got.History()) != len(ex.Steps) || !got.State().Equal(ex.Last()) {
				t.Fatalf("the keys reached step %d of %d, or another state", len(got.History()), len(ex.Steps))
			}
		})
	}
}

// TestRecordPicture: record --picture records the picture page, its
// timeline one row longer each frame; the tape opens it with p.
func TestRecordPicture(t *testing.T) {
	dir := t.TempDir()
	cast, tape := filepath.Join(dir, "pic.cast"), filepath.Join(dir, "pic.tape")
	_, errs, code := runCmd(t, "record", "mp+once", "--picture", "--out", cast, "--tape", tape, "--size", "80x24", "--no-color")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	_, _, data := readCast(t, cast)
	if len(data) != 9 {
		t.Fatalf("%d events", len(data))
	}
	for i, d := range data[:8] {
		f := ansi.Strip(d)
		if !strings.Contains(f, "picture · ←/→ step") {
			t.Fatalf("frame %d is not the picture page:\n%s", i, f)
		}
		if i > 0 && !regexp.MustCompile(`(?m)^┃ +`+strconv.Itoa(i)+` `).MatchString(f) {
			t.Errorf("frame %d lacks the row of step %d:\n%s", i, i, f)
		}
	}
	if last := ansi.Strip(data[7]); !strings.Contains(last, "cycle: a:W x=1") {
		t.Errorf("the last frame lacks the cycle:\n%s", last)
	}
	raw, err := os.ReadFile(tape)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "Enter\nSleep 2000ms\nType \"p\"\n") {
		t.Errorf("the tape does not open the picture:\n%s", raw)
	}
}

// TestRecordPresent: record --present records presentation mode at the
// pace of --delay, with a caption line under each frame saying what its
// step did, and a marker per frame with the whole caption.
func TestRecordPresent(t *testing.T) {
	dir := t.TempDir()
	cast := filepath.Join(dir, "present.cast")
	_, errs, code := runCmd(t, "record", "mp+once", "--present", "--out", cast, "--size", "80x24", "--delay", "2s", "--no-color")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	header, _, data, markers := readCastMarkers(t, cast)
	if header["height"] != float64(24) || len(data) != 9 || len(markers) != 8 {
		t.Fatalf("header %v, %d frames, %d markers", header, len(data), len(markers))
	}
	for i, d := range data[:8] {
		lines := strings.Split(ansi.Strip(strings.TrimPrefix(strings.TrimPrefix(d, "\x1b[?25l"), "\x1b[H\x1b[2J")), "\r\n")
		if len(lines) != 24 {
			t.Fatalf("frame %d: %d lines, want 24 (23 of the UI and the caption)", i, len(lines))
		}
		caption := strings.TrimRight(lines[23], " ")
		if !strings.HasPrefix(markers[i], strings.TrimSuffix(caption, "…")) {
			t.Errorf("frame %d: caption %q is not the start of its marker %q", i, caption, markers[i])
		}
		if i > 0 && !strings.HasPrefix(caption, "step "+strconv.Itoa(i)+" · ") {
			t.Errorf("frame %d: caption %q", i, caption)
		}
		if want := "presenting · step " + strconv.Itoa(i) + "/7 · every 2s"; i < 7 && !strings.Contains(lines[22], want) {
			t.Errorf("frame %d: bottom line %q lacks %q", i, lines[22], want)
		}
	}
	if !strings.Contains(markers[3], "It overtakes the older x=1") {
		t.Errorf("the commit's marker does not say what it overtook: %q", markers[3])
	}
	if _, errs, code := runCmd(t, "record", "mp+once", "--present", "--picture", "--out", filepath.Join(dir, "x.cast")); code != 2 || !strings.Contains(errs, "one view at a time") {
		t.Errorf("--present --picture: exit %d, %q", code, errs)
	}
}

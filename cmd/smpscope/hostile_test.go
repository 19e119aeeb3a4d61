package main

// Issue 11: nothing a file, a trace or a terminal sends can crash, hang,
// flood or take over. These tests run the commands in the process; the
// real binary's are in binary_test.go.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"smpscope/model"
)

// failingWriter is an output that cannot be written (a full disk).
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteErrors checks item 3: every command that prints fails with a
// message and exit status 2 when its output cannot be written.
func TestWriteErrors(t *testing.T) {
	for _, args := range [][]string{
		{"check", "mp+once", "sb+once"},
		{"check", "--json", "mp+once"},
		{"list"},
		{"list", "--json"},
		{"show", "mp+once"},
		{"trace", "mp+once"},
		{"trace", "mp+once", "--format", "markdown"},
		{"compare", "mp"},
		{"why", "mp+wmb-rmb"},
		{}, // the help printed instead of the UI
	} {
		var errb bytes.Buffer
		code := run(args, strings.NewReader(""), failingWriter{}, &errb)
		if code != 2 || !strings.Contains(errb.String(), "cannot write the output: no space left on device") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestNonsenseLimits checks item 4: a limit that makes no sense is a
// usage error naming the flag, in every command that explores.
func TestNonsenseLimits(t *testing.T) {
	bad := map[string][]string{
		"--timeout":    {"-1s", "0s"},
		"--max-states": {"0", "-1"},
		"--max-memory": {"0", "-1", "lots", "12x", "1KiB", "100"},
	}
	for _, cmd := range [][]string{{"check", "mp+once"}, {"compare", "mp"}, {"why", "mp+once"}, {"trace", "mp+once"}, {"record", "mp+once", "--out", filepath.Join(t.TempDir(), "x.cast")}} {
		for flag, values := range bad {
			for _, v := range values {
				args := append(append([]string{}, cmd...), flag+"="+v)
				_, errs, code := runCmd(t, args...)
				if code != 2 || !strings.Contains(errs, flag) {
					t.Errorf("%v: exit %d, stderr %q", args, code, errs)
				}
			}
		}
		// Good values are accepted.
		args := append(append([]string{}, cmd...), "--timeout=1m", "--max-states=1000000", "--max-memory=512MiB")
		if _, errs, code := runCmd(t, args...); code != 0 && !strings.Contains(errs, "unreachable") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	for in, want := range map[string]int64{"512MiB": 512 << 20, "2G": 2 << 30, "2gib": 2 << 30, "1048576": 1 << 20, " 3 MB ": 3 << 20} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v", in, got, err)
		}
	}
}

// TestLimitsAreHonest checks items 4 and 5: a search a limit stops gives
// no verdict anywhere — not reachable, not unreachable, not needed — says
// where it stopped and what it found so far, and exits with status 2.
// The state limit is exact (the explorer stops at N states), so the
// message names N twice.
func TestLimitsAreHonest(t *testing.T) {
	out, errs, code := runCmd(t, "check", "--mode", "arm", "--max-states", "5", "mp+once")
	if code != 2 || out != "" || !strings.Contains(errs, "smpscope check: mp+once (arm mode): verdict unknown (stopped after 5 states: state limit (5)); found so far: 0 outcomes, 0 satisfying the condition") {
		t.Errorf("check: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = runCmd(t, "check", "--json", "--max-states", "1", "mp+once")
	if code != 2 || !strings.Contains(out, `"verdict":""`) || !strings.Contains(out, `"error":"verdict unknown`) {
		t.Errorf("check --json: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = runCmd(t, "compare", "--max-states", "1", "mp")
	if code != 2 || !strings.Contains(out, "so far") || !strings.Contains(errs, "no verdict") {
		t.Errorf("compare: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "once ") && (strings.Contains(l, "Never") || strings.Contains(l, "Sometimes 1")) {
			t.Errorf("compare claims a verdict for a partial search: %q", l)
		}
	}
	out, errs, code = runCmd(t, "why", "--max-states", "1", "mp+wmb-rmb")
	f := flat(out)
	if code != 2 || !strings.Contains(f, "unknown in TSO mode") || strings.Contains(f, "needed in") || strings.Contains(f, "nothing to weaken") || strings.Contains(f, "reachable as written") {
		t.Errorf("why: exit %d, stderr %q\n%s", code, errs, out)
	}
	for _, cmd := range [][]string{{"trace", "mp+once"}, {"record", "mp+once", "--out", filepath.Join(t.TempDir(), "x.cast")}} {
		_, errs, code = runCmd(t, append(cmd, "--max-states", "1")...)
		if code != 2 || !strings.Contains(errs, "no witness found in ARM-like mode before the search stopped after") || !strings.Contains(errs, "is reachable is unknown") {
			t.Errorf("%v: exit %d, stderr %q", cmd, code, errs)
		}
	}
}

// TestRecordOutputs checks item 8: the size range and the delay floor are
// checked, every output path is checked before anything is written, and
// no file is overwritten without --force.
func TestRecordOutputs(t *testing.T) {
	dir := t.TempDir()
	cast := filepath.Join(dir, "demo.cast")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--size", "20x5"}, "want 60x20 to 1000x500 (the UI needs at least 60x20)"},
		{[]string{"--size", "59x30"}, "the UI needs at least 60x20"},
		{[]string{"--size", "100x19"}, "the UI needs at least 60x20"},
		{[]string{"--size", "2000x30"}, "want 60x20 to 1000x500"},
		{[]string{"--size", "100x30x2"}, "want COLSxROWS"},
		{[]string{"--delay", "1ns"}, "--delay 1ns: at least 100ms between frames"},
		{[]string{"--delay", "-1s"}, "at least 100ms"},
		{[]string{"--tape", filepath.Join(dir, "missing", "demo.tape")}, "the directory " + filepath.Join(dir, "missing") + " does not exist"},
		{[]string{"--tape", dir}, "is a directory"},
		{[]string{"--tape", cast}, "are the same file"},
	} {
		args := append([]string{"record", "mp+once", "--out", cast}, tc.args...)
		_, errs, code := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(cast); err == nil {
			t.Fatalf("%v: wrote %s before failing", tc.args, cast)
		}
	}
	// The smallest size the UI draws records real frames.
	if _, errs, code := runCmd(t, "record", "mp+once", "--out", cast, "--size", "60x20", "--delay", "100ms"); code != 0 {
		t.Fatalf("60x20: exit %d %s", code, errs)
	}
	_, _, data := readCast(t, cast)
	for _, d := range data {
		if strings.Contains(d, "too small") {
			t.Fatal("a 60x20 frame says the terminal is too small")
		}
	}
	// Existing files: refused, left alone; --force overwrites.
	os.WriteFile(cast, []byte("mine"), 0o644)
	tape := filepath.Join(dir, "demo.tape")
	if _, errs, code := runCmd(t, "record", "mp+once", "--out", cast, "--tape", tape); code != 2 || !strings.Contains(errs, cast+" exists (--force overwrites it)") {
		t.Errorf("existing --out: exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(cast); string(b) != "mine" {
		t.Error("an existing --out file was changed")
	}
	if _, err := os.Stat(tape); err == nil {
		t.Error("the tape was written although the cast could not be")
	}
	if _, errs, code := runCmd(t, "record", "mp+once", "--out", cast, "--tape", tape, "--force"); code != 0 {
		t.Errorf("--force: exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(cast); !bytes.HasPrefix(b, []byte(`{"version":2`)) {
		t.Error("--force did not overwrite")
	}
	// trace's outputs follow the same rule.
	if _, errs, code := runCmd(t, "trace", "mp+once", "--out", cast); code != 2 || !strings.Contains(errs, "exists (--force overwrites it)") {
		t.Errorf("trace --out over a file: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runCmd(t, "trace", "mp+once", "--save", filepath.Join(dir, "no", "t.trace")); code != 2 || !strings.Contains(errs, "does not exist") {
		t.Errorf("trace --save in a missing directory: exit %d, stderr %q", code, errs)
	}
}

// escapes are what a hostile name carries: a window-title sequence, a
// colour, a carriage return.
const escapes = "\x1b]2;PWNED\a\x1b[31m\r"

// hostileRaw reports whether s would reach a terminal with an escape
// sequence or a control character in it.
func hostileRaw(s string) bool { return strings.ContainsAny(s, "\x1b\a\r\x00") }

// TestNoEscapesReachTheTerminal checks item 2: whatever a path, a file or
// a trace holds, the text and the messages the commands print carry no
// control characters.
func TestNoEscapesReachTheTerminal(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	show, _, _ := runCmd(t, "show", "mp+once")
	// A file whose path carries escapes, a good one and a broken one.
	good := "mp" + escapes + ".litmus"
	os.WriteFile(good, []byte(show), 0o644)
	broken := "broken" + escapes + ".litmus"
	os.WriteFile(broken, []byte("C x\n{\n"), 0o644)
	// A trace that says so in a comment, and one whose source has them.
	os.WriteFile("bad.trace", []byte("smpscope trace 1\nscenario: mp+once\nmode: arm\nP0 exec # "+escapes+"\n"), 0o644)
	os.WriteFile("src.trace", []byte("smpscope trace 1\nscenario: mp+once\nsource: x"+escapes+"\nmode: arm\n"), 0o644)
	os.WriteFile("cpu.trace", []byte("smpscope trace 1\nscenario: mp+once\nmode: arm\nP"+escapes+" exec\n"), 0o644)
	for _, args := range [][]string{
		{"check", good},
		{"check", broken},
		{"check", "no-such" + escapes},
		{"check", "--json", good, broken},
		{"trace", good},
		{"trace", good, "--format", "markdown"},
		{"trace", broken},
		{"trace", "--replay", "bad.trace"},
		{"trace", "--replay", "src.trace"},
		{"trace", "--replay", "cpu.trace"},
		{"trace", good, "--save", "saved" + escapes + ".trace"},
		{"why", good},
		{"why", broken},
		{"record", good, "--out", "demo" + escapes + ".cast"},
		{"record", good, "--out", "demo.cast", "--tape", "no" + escapes + "/x.tape"},
		{"show", "mp" + escapes},
		{"compare", "mp" + escapes},
		{good},
		{"--replay", "bad.trace"},
	} {
		out, errs, code := runCmd(t, args...)
		if hostileRaw(out) || hostileRaw(errs) {
			t.Errorf("%q: exit %d: raw control characters in\nstdout %q\nstderr %q", args, code, out, errs)
		}
	}
	// A trace of a file so named would not read back: it is not written.
	if _, errs, code := runCmd(t, "trace", good, "--save", "s.trace"); code != 2 || !strings.Contains(errs, "would not read back") {
		t.Errorf("--save of a file with escapes in its path: exit %d, %q", code, errs)
	}
	if _, err := os.Stat("s.trace"); err == nil {
		t.Error("the trace was written")
	}
	// The escapes are shown, escaped, so the user sees what the name holds.
	if _, errs, _ := runCmd(t, "check", broken); !strings.Contains(errs, `broken\x1b]2;PWNED\x07\x1b[31m\x0d.litmus`) {
		t.Errorf("the file name is not shown escaped: %q", errs)
	}
}

// TestNameRuleEveryCommand checks item 10: one rule in every command and
// the UI — "-" is standard input, an existing file wins over a built-in
// of the same name, anything else is a built-in.
func TestNameRuleEveryCommand(t *testing.T) {
	show, _, _ := runCmd(t, "show", "sb+once")
	mine := strings.Replace(show, "C sb+once", "C mine", 1)
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("mp+once", []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd(t, "trace", "mp+once", "--mode", "tso", "--save", "t.trace"); code != 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"check", "--mode", "tso", "mp+once"}, ""},
		{[]string{"trace", "mp+once", "--mode", "tso"}, ""},
		{[]string{"trace", "--replay", "t.trace"}, ""},
		{[]string{"trace", "--replay", "t.trace", "mp+once"}, ""},
		{[]string{"why", "mp+once", "--mode", "tso"}, ""},
		{[]string{"check", "--mode", "tso", "-"}, mine},
		{[]string{"trace", "-", "--mode", "tso"}, mine},
		{[]string{"why", "-", "--mode", "tso"}, mine},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, strings.NewReader(tc.stdin), &out, &errb)
		if code != 0 || !strings.Contains(out.String(), "mine") {
			t.Errorf("%v: exit %d, %s\n%s", tc.args, code, errb.String(), out.String())
		}
	}
	// record writes the file's name into the cast's title.
	for _, tc := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"record", "mp+once", "--mode", "tso", "--out", "a.cast"}, ""},
		{[]string{"record", "-", "--mode", "tso", "--out", "b.cast"}, mine},
		{[]string{"record", "--replay", "t.trace", "--out", "c.cast"}, ""},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, strings.NewReader(tc.stdin), &out, &errb); code != 0 {
			t.Errorf("%v: exit %d, %s", tc.args, code, errb.String())
			continue
		}
		header, _, _ := readCast(t, tc.args[len(tc.args)-1])
		if title, _ := header["title"].(string); !strings.Contains(title, "mine") {
			t.Errorf("%v: title %q", tc.args, title)
		}
	}
	// The UI, with a name, with -, and on the trace.
	for _, tc := range []struct {
		args   []string
		replay string
		stdin  string
	}{
		{[]string{"mp+once"}, "", ""},
		{[]string{"-"}, "", mine},
		{nil, "t.trace", ""},
		{nil, "-", "smpscope trace 1\nscenario: mine\nsource: mp+once\nmode: tso\n"},
	} {
		opts, err := uiModelOptions(tc.args, uiOptions{mode: "tso", seed: 1, every: model.DefaultEvery, replay: tc.replay}, strings.NewReader(tc.stdin))
		if err != nil || opts.Scenario == nil || opts.Scenario.Name != "mine" {
			t.Errorf("UI %v --replay %q: %v", tc.args, tc.replay, err)
		}
	}
	// The library's own names (the picker) are the built-ins.
	if opts, err := uiModelOptions([]string{"sb+once"}, uiOptions{mode: "tso", seed: 1, every: model.DefaultEvery}, nil); err != nil || opts.Scenario.Name != "sb+once" {
		t.Errorf("UI sb+once: %v", err)
	}
}

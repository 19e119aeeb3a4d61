package scenarios

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"smpscope/machine"
	"smpscope/scenarios/syntax"
)

// allocated runs f and returns the bytes it allocated: a bounded read
// must not allocate in proportion to what it refuses.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// bytesRead returns the bytes the process has read so far (Linux's
// /proc/self/io), or false where that is not known: a file refused by its
// size must be refused before it is read, however fast reading it is.
func bytesRead() (int64, bool) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// endless is standard input that never ends (like /dev/zero on a pipe).
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestReadBounded checks issue 11, item 1: whatever a path or standard
// input holds, nothing is read past the limit, and the size of a file is
// refused before reading it.
func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "big.litmus")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(sparse, 2<<30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	var rerr error
	read0, canCount := bytesRead()
	n := allocated(func() { _, rerr = Resolve(sparse, nil) })
	read1, _ := bytesRead()
	if rerr == nil || !strings.Contains(rerr.Error(), "the file is 2147483648 bytes; a scenario is at most 1 MiB") {
		t.Errorf("2 GB file: %v", rerr)
	}
	if n > 1<<20 {
		t.Errorf("2 GB file: allocated %d bytes before refusing it", n)
	}
	if canCount && read1-read0 > 1<<20 {
		t.Errorf("2 GB file: read %d bytes before refusing it", read1-read0)
	}
	// A trace of the same size, and one whose source is that file.
	if _, err := ReplayTraceFile(sparse, "", nil, nil); err == nil || !strings.Contains(err.Error(), "a trace is at most 16 MiB") {
		t.Errorf("2 GB trace: %v", err)
	}
	tr := filepath.Join(dir, "t.trace")
	os.WriteFile(tr, []byte("smpscope trace 1\nscenario: big\nsource: big.litmus\nmode: tso\n"), 0o644)
	if _, err := ReplayTraceFile(tr, "", nil, nil); err == nil || !strings.Contains(err.Error(), "a scenario is at most 1 MiB") {
		t.Errorf("trace with a 2 GB source: %v", err)
	}

	// Standard input without end: one byte past the limit is read, no more.
	n = allocated(func() { _, rerr = Resolve(StdinName, endless{}) })
	if rerr == nil || !strings.Contains(rerr.Error(), "<stdin>: more than 1048576 bytes; a scenario is at most 1 MiB") {
		t.Errorf("endless stdin: %v", rerr)
	}
	if n > 8<<20 {
		t.Errorf("endless stdin: allocated %d bytes", n)
	}
	if _, err := ReplayTraceFile(StdinName, "", nil, io.LimitReader(endless{}, 64<<20)); err == nil || !strings.Contains(err.Error(), "a trace is at most 16 MiB") {
		t.Errorf("endless trace on stdin: %v", err)
	}

	// A file exactly at the limit is read (and fails to parse, as junk).
	exact := filepath.Join(dir, "exact.litmus")
	os.WriteFile(exact, []byte(strings.Repeat(" ", syntax.MaxSourceSize)), 0o644)
	if _, err := Resolve(exact, nil); err == nil || strings.Contains(err.Error(), "at most") {
		t.Errorf("a file of exactly MaxSourceSize bytes: %v", err)
	}
}

// TestReadSpecialFiles checks that devices are refused with a clear
// message, never read: /dev/zero would never end.
func TestReadSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, read := range []func() error{
		func() error { _, err := Resolve("/dev/zero", nil); return err },
		func() error { _, err := ReplayTraceFile("/dev/zero", "", nil, nil); return err },
		func() error { _, err := ReplayTraceFile("/dev/zero", "mp+once", nil, nil); return err },
	} {
		var err error
		if n := allocated(func() { err = read() }); n > 1<<20 {
			t.Errorf("allocated %d bytes", n)
		}
		if err == nil || err.Error() != "/dev/zero: not a regular file (a character device); give a file, a pipe, or - for standard input" {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	// The same through a trace's source line.
	tr := filepath.Join(t.TempDir(), "t.trace")
	os.WriteFile(tr, []byte("smpscope trace 1\nscenario: zero\nsource: /dev/zero\nmode: tso\n"), 0o644)
	if _, err := ReplayTraceFile(tr, "", nil, nil); err == nil || !strings.Contains(err.Error(), `source "/dev/zero": a trace's source is a .litmus file beside the trace or below it`) {
		t.Errorf("source: /dev/zero: %v", err)
	}
}

// TestLongTokens checks issue 11, item 11: a huge token in a trace or a
// litmus file is quoted by its first characters, not in full.
func TestLongTokens(t *testing.T) {
	huge := strings.Repeat("A", 5<<20)
	head := "smpscope trace 1\nscenario: mp+once\nmode: arm\n"
	m := traceMachine(t, "mp+once", machine.ARM)
	for _, src := range []string{
		head + "P0 " + huge + "\n",
		head + huge + "\n",
		head + huge + " exec\n",
		head + "P0 exec " + huge + "\n",
		head + "P0 commit " + huge + "\n",
		head + "P1 inv " + huge + "\n",
		"smpscope trace 1\nscenario: " + huge + "\nmode: arm\n",
		"smpscope trace 1\nscenario: mp+once\nmode: " + huge + "\n",
		"smpscope trace 1\nscenario: mp+once\nsource: " + huge + "\nmode: arm\n",
		"smpscope trace " + huge + "\n",
		huge[:1<<20] + ":\n",
		head + "P0 exec # " + huge + "\n" + "P9 exec\n",
	} {
		tr, err := ParseTrace("t", []byte(src))
		if err == nil {
			_, _, err = tr.Replay(m)
		}
		if err == nil {
			t.Errorf("%.60q…: no error", src)
			continue
		}
		msg := err.Error()
		if i := strings.Index(msg, "\nsteps enabled there:"); i >= 0 {
			msg = msg[:i] // the list of the program's steps, not input
		}
		if len(msg) > 300 {
			t.Errorf("%.60q…: a message of %d bytes: %.400s", src, len(msg), msg)
		}
	}
	// The litmus parser quotes tokens the same way.
	big := strings.Repeat("b", syntax.MaxSourceSize-200)
	for _, src := range []string{
		"C t\n{}\nP0(int *x)\n{\n\t" + big + "(x);\n}\nexists (x=1)\n",
		"C t\n{}\nP0(int *x)\n{\n\tint " + big + ";\n\twhile" + big + ";\n}\nexists (x=1)\n",
		"C t\n{}\n" + big + "\n",
		"C t\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (" + big + "=1)\n",
	} {
		s, err := Parse("f.litmus", []byte(src))
		if err == nil {
			_, err = Compile(s)
		}
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("litmus with a %d-byte token: %.400v", len(big), err)
		}
	}
}

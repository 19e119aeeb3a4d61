//go:build unix

package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFIFO checks that a named pipe never hangs: without a writer it
// is an error at once; with one it is read (bounded) like standard input.
func TestReadFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.litmus")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Resolve(fifo, nil); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe with nothing written to it") {
			t.Errorf("FIFO without a writer: %v", err)
		}
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("reading a FIFO without a writer hangs")
	}
	// The same through a trace's source line.
	tr := filepath.Join(dir, "t.trace")
	os.WriteFile(tr, []byte("smpscope trace 1\nscenario: p\nsource: pipe.litmus\nmode: tso\n"), 0o644)
	go func() { _, err := ReplayTraceFile(tr, "", nil, nil); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("source: FIFO: %v", err)
		}
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("a trace whose source is a FIFO hangs")
	}

	// With a writer, the scenario arrives through the pipe (process
	// substitution, <(...), works this way).
	src, err := libraryFS.ReadFile("library/mp+once.litmus")
	if err != nil {
		t.Fatal(err)
	}
	// The data is written before Resolve opens the pipe (a reader held
	// open by the test keeps it there), so the test does not depend on
	// which goroutine runs first: a Resolve that opened before the
	// writer would rightly say nothing was written, and the writer's
	// open would then wait for a reader forever.
	hold, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	go func() { _, err := Resolve(fifo, nil); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("FIFO with a writer: %v", err)
		}
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("reading a FIFO with a writer hangs")
	}
}

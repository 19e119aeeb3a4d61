package scenarios

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// readInput is where every scenario and trace file is read: a path, or
// standard input for "-". what names the kind of file for messages ("a
// scenario", "a trace"). Nothing is read past limit bytes, whatever the
// input is: a regular file larger than limit is refused before reading,
// standard input and pipes are read through a limited reader, and other
// kinds of file (devices such as /dev/zero, sockets, directories) are
// refused. A named pipe is opened without waiting for a writer, so a FIFO
// nobody writes to gives an error instead of a hang.
func readInput(name string, stdin io.Reader, limit int, what string) ([]byte, error) {
	if name == StdinName {
		if stdin == nil {
			return nil, errors.New("no standard input to read")
		}
		return readLimited(stdinFile, stdin, limit, what)
	}
	// What the path is, from the stat, before anything is opened: a
	// device is refused without an open(2) that could have effects.
	pre, err := os.Stat(name)
	if err != nil {
		return nil, statError(name, err)
	}
	return readStated(name, pre, limit, what)
}

// readStated is readInput of a file, given what os.Stat said of it.
func readStated(name string, pre fs.FileInfo, limit int, what string) ([]byte, error) {
	if m := pre.Mode(); !m.IsRegular() && m&fs.ModeNamedPipe == 0 {
		return nil, fmt.Errorf("%s: not a regular file (%s); give a file, a pipe, or - for standard input", name, fileKind(m))
	}
	f, err := openNonBlocking(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch mode := fi.Mode(); {
	case mode.IsRegular():
		if fi.Size() > int64(limit) {
			return nil, fmt.Errorf("%s: the file is %d bytes; %s is at most %s", name, fi.Size(), what, byteSize(limit))
		}
		return readLimited(name, f, limit, what)
	case mode&fs.ModeNamedPipe != 0:
		src, err := readLimited(name, f, limit, what)
		if err == nil && len(src) == 0 {
			return nil, fmt.Errorf("%s: a named pipe with nothing written to it", name)
		}
		return src, err
	default:
		return nil, fmt.Errorf("%s: not a regular file (%s); give a file, a pipe, or - for standard input", name, fileKind(mode))
	}
}

// statError words why a path cannot be read: a symbolic link loop is
// said to be one.
func statError(name string, err error) error {
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("%s: a loop of symbolic links", name)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: no such file", name)
	}
	return err
}

// readLimited reads r to its end, failing once it has given more than
// limit bytes (reading one byte past the limit to tell).
func readLimited(name string, r io.Reader, limit int, what string) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(src) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes; %s is at most %s", name, limit, what, byteSize(limit))
	}
	return src, nil
}

// fileKind names the kind of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "a special file"
}

// byteSize words a power-of-two size: "1 MiB", "16 MiB", "512 KiB".
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// openNonBlocking opens name for reading without blocking in open(2): a
// FIFO with no writer would otherwise wait for ever.
func openNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|oNonblock, 0)
}

package model

import (
	"errors"
	"io"
	"sync"

	"github.com/muesli/cancelreader"
)

// Quitting ahead of queued keys. bubbletea reads the terminal only as
// fast as Update takes its messages, so keys typed faster than they are
// handled wait in the terminal, and a q behind two thousand of them
// waited seconds. aheadReader reads the terminal as soon as bytes arrive,
// hands them on to bubbletea unchanged, and tells the program at once
// when it sees ctrl+c, or q typed on its own (not inside an escape
// sequence, an alt+key or a paste): the model then quits without handling
// the keys queued before it (quitAheadMsg).

// quitAheadMsg says that ctrl+c (force) or q has just been typed, however
// many keys wait before it.
type quitAheadMsg struct{ force bool }

// maxAhead bounds what aheadReader holds that bubbletea has not read yet;
// beyond it, reading waits (the rest waits in the terminal).
const maxAhead = 64 << 10

// aheadReader is the terminal's input, read ahead (see above).
type aheadReader struct {
	src    cancelreader.CancelReader
	notify func(quitAheadMsg)

	mu   sync.Mutex
	cond *sync.Cond
	buf  []byte
	err  error
	scan quitScanner
}

// newAheadReader starts reading src; notify is called (from the reading
// goroutine) for each ctrl+c or q seen.
func newAheadReader(src io.Reader, notify func(quitAheadMsg)) (*aheadReader, error) {
	cr, err := cancelreader.NewReader(src)
	if err != nil {
		return nil, err
	}
	r := &aheadReader{src: cr, notify: notify}
	r.cond = sync.NewCond(&r.mu)
	go r.loop()
	return r, nil
}

func (r *aheadReader) loop() {
	chunk := make([]byte, 4096)
	for {
		n, err := r.src.Read(chunk)
		force, q := r.scan.feed(chunk[:n])
		r.mu.Lock()
		r.buf = append(r.buf, chunk[:n]...)
		if err != nil {
			r.err = err
		}
		r.cond.Broadcast()
		for len(r.buf) > maxAhead && r.err == nil {
			r.cond.Wait()
		}
		r.mu.Unlock()
		if force || q {
			r.notify(quitAheadMsg{force: force})
		}
		if err != nil {
			return
		}
	}
}

// Read hands on what the terminal sent, waiting for it.
func (r *aheadReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.buf) == 0 && r.err == nil {
		r.cond.Wait()
	}
	if len(r.buf) == 0 {
		return 0, r.err
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	r.cond.Broadcast()
	return n, nil
}

// Close stops reading the terminal (so that nothing typed after the UI
// quits is taken from the shell) and ends pending Reads.
func (r *aheadReader) Close() error {
	r.src.Cancel()
	r.mu.Lock()
	if r.err == nil {
		r.err = errors.New("input closed")
	}
	r.cond.Broadcast()
	r.mu.Unlock()
	return nil
}

// quitScanner finds ctrl+c and a plain q in the terminal's byte stream,
// skipping what bubbletea does not read as those keys: escape sequences
// (CSI, SS3, OSC and the other strings, X10 mouse reports), alt+key and
// bracketed pastes.
type quitScanner struct {
	state uint8
	param []byte // a CSI's parameter bytes, for the paste markers
	x10   int    // bytes of an X10 mouse report still to skip
	paste bool
}

const (
	scanGround uint8 = iota
	scanEsc
	scanCSI
	scanSS3
	scanString
	scanStringEsc
)

// feed scans b and reports whether it holds ctrl+c and a plain q.
func (s *quitScanner) feed(b []byte) (ctrlC, q bool) {
	for _, c := range b {
		if s.x10 > 0 {
			s.x10--
			continue
		}
		switch s.state {
		case scanGround:
			switch {
			case c == 0x1b:
				s.state = scanEsc
			case s.paste:
			case c == 0x03:
				ctrlC = true
			case c == 'q':
				q = true
			}
		case scanEsc:
			switch c {
			case '[':
				s.state, s.param = scanCSI, s.param[:0]
			case 'O':
				s.state = scanSS3
			case ']', 'P', '_', '^', 'X':
				s.state = scanString
			case 0x1b:
			default:
				s.state = scanGround // alt+key
			}
		case scanCSI:
			switch {
			case c >= 0x30 && c <= 0x3f:
				if len(s.param) < 8 {
					s.param = append(s.param, c)
				}
			case c >= 0x20 && c <= 0x2f:
			case c >= 0x40 && c <= 0x7e:
				switch {
				case c == '~' && string(s.param) == "200":
					s.paste = true
				case c == '~' && string(s.param) == "201":
					s.paste = false
				case c == 'M' && len(s.param) == 0:
					s.x10 = 3
				}
				s.state = scanGround
			default:
				s.state = scanGround
			}
		case scanSS3:
			s.state = scanGround
		case scanString:
			switch c {
			case 0x07:
				s.state = scanGround
			case 0x1b:
				s.state = scanStringEsc
			}
		case scanStringEsc:
			if c == '\\' {
				s.state = scanGround
			} else {
				s.state = scanString
			}
		}
	}
	return ctrlC, q
}
